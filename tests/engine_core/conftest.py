"""Factories shared by the engine-core tests: build a HookRun, read it, merge readings."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest

from hookcourse.engine.catalogue import EventSpec, get_event
from hookcourse.engine.outcome import Outcome, merge_readings
from hookcourse.engine.reading import HookReading, HookRun, read_hook_result
from hookcourse.js.json import stringify


def _spec(name: str) -> EventSpec:
    spec = get_event(name)
    assert spec is not None, name
    return spec


@pytest.fixture
def event() -> Callable[[str], EventSpec]:
    return _spec


@pytest.fixture
def read() -> Callable[..., HookReading]:
    """read("PreToolUse", exit_code=0, stdout=..., stderr=..., **other HookRun fields)."""

    def _read(name: str, **fields: Any) -> HookReading:
        fields.setdefault("handler_type", "command")
        fields.setdefault("exit_code", 0 if fields["handler_type"] == "command" else None)
        fields.setdefault("stdout", "")
        fields.setdefault("stderr", "")
        fields.setdefault("timed_out", False)
        fields.setdefault("start_error", None)
        if isinstance(fields["stdout"], dict):
            fields["stdout"] = stringify(fields["stdout"])
        reading = read_hook_result(_spec(name), HookRun(**fields))
        stringify(reading.to_json())  # every reading must serialise
        return reading

    return _read


@pytest.fixture
def merge() -> Callable[..., Outcome]:
    def _merge(
        name: str,
        readings: list[HookReading],
        payload: Mapping[str, object] | None = None,
        **kw: Any,
    ) -> Outcome:
        outcome = merge_readings(_spec(name), readings, payload or {}, **kw)
        stringify(outcome.to_json())
        return outcome

    return _merge


def hso(event: str, **fields: Any) -> dict[str, Any]:
    """A stdout document with ``hookSpecificOutput`` for ``event``."""
    return {"hookSpecificOutput": {"hookEventName": event, **fields}}


@pytest.fixture
def specific() -> Callable[..., dict[str, Any]]:
    return hso
