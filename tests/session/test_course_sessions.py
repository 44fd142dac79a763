"""The course's session scripts through the engine: expectations hold, and the engine's
transcript is the one the real Claude Code gave (the recording shipped as data)."""

from __future__ import annotations

from importlib import resources

import pytest

from hookcourse.session.expect import judge_all
from hookcourse.session.loop import run_session
from hookcourse.session.recorded import index, load_recorded, recorded_names, show_transcript
from hookcourse.session.script import load
from hookcourse.session.transcript import differences


@pytest.mark.parametrize("name", recorded_names())
def test_the_engine_predicts_the_recorded_transcript(name: str) -> None:
    recorded = load_recorded(name)
    with resources.as_file(resources.files("hookcourse") / recorded["script"]) as path:
        script = load(path)
    predicted = run_session(script)
    assert differences(predicted, recorded["transcript"]) == []
    broken = [c for c in judge_all(script.expectations, predicted) if not c["held"]]
    assert broken == []
    assert all(c["held"] for c in recorded["transcript"]["expectations"])


def test_each_notebook_03_to_07_has_one_session() -> None:
    notebooks = [entry["notebook"][:2] for entry in index()]
    assert notebooks == ["03", "04", "05", "06", "07"]


def test_show_transcript_renders_a_recording_without_claude_code() -> None:
    view = show_transcript("guard-retry")
    text = str(view)
    assert text.startswith("recorded 2026-12-01: what the real Claude Code showed the model\n")
    assert "session guard-retry: Claude Code 2.1.332 (claude -p, scripted model)" in text
    assert (
        "PreToolUse:Bash hook error: [${CLAUDE_PROJECT_DIR}/.claude/hooks/no-force-push.sh]" in text
    )
    assert view._repr_html_().startswith("<div><strong>recorded 2026-12-01")
    with pytest.raises(ValueError, match="the course has: decide-modify-inject"):
        show_transcript("nope")
