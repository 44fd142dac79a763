"""What the session loop fires around the turns, as print mode does: a subagent an Agent
call starts (its completion one more turn later), a SessionStart user turn before the
prompt, and SessionEnd last."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hookcourse.session.loop import run_session
from hookcourse.session.script import from_data

HERE = Path(__file__).resolve().parent


def _fired(transcript: dict[str, Any]) -> list[str]:
    runs = [*transcript["start"], *(e for r in transcript["rounds"] for e in r["events"])]
    return [run["event"] for run in [*runs, *transcript["closing"]] if run["hooks"]]


def _script(event: str, body: str, turns: list[dict[str, Any]]) -> dict[str, Any]:
    hook = {"hooks": [{"type": "command", "command": "@hook:h"}]}
    return {
        "settings": {"project": {"hooks": {event: [hook], "SessionEnd": [hook]}}},
        "trust": True,
        "hooks": {"h": f"cat > /dev/null\n{body}\n"},
        "prompt": "go",
        "turns": turns,
    }


def test_a_subagent_runs_and_its_completion_is_one_more_turn() -> None:
    agent = {"name": "Agent", "input": {"description": "d", "prompt": "p"}}
    data = _script(
        "SubagentStop",
        "exit 0",
        [{"tools": [{**agent, "result": {"text": "done"}}]}, {"text": "Waiting."}],
    )
    transcript = run_session(from_data(data, "subagent", HERE))
    assert _fired(transcript) == ["SubagentStop", "SessionEnd"]
    # The Agent turn, the model's stop, and the turn the subagent's completion starts.
    assert [r["turn"] for r in transcript["rounds"]] == [0, 1, None]
    assert transcript["end"]["reason"] == "completed"


def test_a_session_start_user_turn_comes_before_the_prompt() -> None:
    said = '{"hookSpecificOutput": {"hookEventName": "SessionStart", "initialUserMessage": "hi"}}'
    data = _script("SessionStart", f"echo '{said}'", [{"text": "scripted"}])
    transcript = run_session(from_data(data, "user-turn", HERE))
    assert [p["prompt"] for p in transcript.get("prompts", [])] == ["go"]
    # A conversation a hook's user turn begins gets the fallback text throughout.
    assert [r["text"] for r in transcript["rounds"]] == ["Done.", "Done."]
    assert _fired(transcript) == ["SessionStart", "SessionEnd"]
