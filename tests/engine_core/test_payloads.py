"""fixtures/payloads/<Event>.json: one realistic payload per catalogued event."""

from __future__ import annotations

import json

import pytest

from hookcourse.engine.catalogue import (
    EventSpec,
    common_input_fields,
    load_catalogue,
    optional_common_fields,
)
from tests.support.paths import FIXTURES

PAYLOADS = FIXTURES / "payloads"
EVENTS = list(load_catalogue().values())


def test_there_is_one_payload_per_event_and_no_other() -> None:
    assert sorted(p.stem for p in PAYLOADS.glob("*.json")) == sorted(load_catalogue())


@pytest.mark.parametrize("spec", EVENTS, ids=lambda spec: spec.name)
def test_payload_fields_match_the_catalogue(spec: EventSpec) -> None:
    payload = json.loads((PAYLOADS / f"{spec.name}.json").read_text("utf-8"))
    assert payload["hook_event_name"] == spec.name
    required = spec.required_payload_fields(common_input_fields())
    missing = [name for name in required if name not in payload]
    assert not missing, f"{spec.name} payload lacks {missing}"
    allowed = {*required, *spec.optional_input_fields, *optional_common_fields(spec)}
    unexpected = sorted(set(payload) - allowed)
    assert not unexpected, f"{spec.name} payload has fields the catalogue does not list"
    if spec.matcher_field is not None:
        value = payload[spec.matcher_field]
        assert isinstance(value, str)
        if spec.matcher_values:
            assert value in spec.matcher_values
    if spec.is_tool_event:
        assert isinstance(payload["tool_input"], dict)
