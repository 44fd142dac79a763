"""What a test that needs the real Claude Code does when it cannot have it."""

from __future__ import annotations

import os

import pytest

from hookcourse.errors import InputError
from hookcourse.session.namespace import ISOLATION
from hookcourse.session.real import find_claude, run_real
from hookcourse.session.script import SessionScript
from hookcourse.session.transcript import Transcript


def unavailable(reason: str) -> None:
    """Skip with ``reason``; under CI=true, where nothing may skip, fail instead."""
    if os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}:
        pytest.fail(f"{reason} (under CI nothing may skip; fix: .ci/run installs Claude Code)")
    pytest.skip(reason)


def run_live(script: SessionScript) -> Transcript:
    """``script`` through the real Claude Code in the loopback-only namespace; skipped
    (failed under CI) when the binary or the namespace is missing."""
    try:
        real = run_real(script, find_claude(None))
    except InputError as error:
        unavailable(str(error))
        raise
    assert real["network"] == ISOLATION["namespace"]
    return real
