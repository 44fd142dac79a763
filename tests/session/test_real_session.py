"""The same session through the real Claude Code 2.1.332 (loopback-only namespace, the
scripted mock model) and through the engine: identical transcripts; a broken
expectation fails the real run too. One Claude Code process. Without the binary or
a namespace this skips with the reason, except under CI=true, where it fails."""

from __future__ import annotations

from pathlib import Path

from hookcourse.session.expect import judge_all
from hookcourse.session.loop import run_session
from hookcourse.session.script import load
from hookcourse.session.transcript import differences
from tests.session.live import run_live

SCRIPTS = Path(__file__).resolve().parents[2] / "fixtures" / "sessions"
SCRIPT = SCRIPTS / "guard-retry.json"


def test_guard_retry_is_the_same_session_in_both_engines() -> None:
    script = load(SCRIPT)
    real = run_live(script)
    predicted = run_session(script)
    assert differences(predicted, real) == []
    assert [c for c in judge_all(script.expectations, real) if not c["held"]] == []
    broken = judge_all([{"runs": "git push -f origin HEAD:main"}], real)
    assert broken[0]["held"] is False and broken[0]["why"] == "it was denied every time"


def test_several_prompts_are_the_same_session_in_both_engines() -> None:
    # Each prompt is written to Claude Code's stdin once the one before has its result.
    script = load(SCRIPTS / "several-prompts.json")
    real = run_live(script)
    assert [entry["round"] for entry in real["prompts"]] == [4, 4]
    assert differences(run_session(script), real) == []
    assert [c for c in judge_all(script.expectations, real) if not c["held"]] == []
