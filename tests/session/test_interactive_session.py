"""Interactive session scripts: the user's actions (an ``ask`` answered no with feedback,
``/compact``, ``/exit``) through the engine, through the real Claude Code 2.1.332 in a
pseudo-terminal (one run, about 14 s; without the binary or a namespace it skips with
the reason, except under CI=true, where it fails), and the real run's traces read back."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from hookcourse.errors import InputError
from hookcourse.session.command import main as session_main
from hookcourse.session.expect import judge_all
from hookcourse.session.interactive import BUSY, DIALOG, READY, session_steps
from hookcourse.session.loop import run_session
from hookcourse.session.real import _played_through
from hookcourse.session.real_interactive import read_interactive, untraced_hooks
from hookcourse.session.recorded import load_recorded
from hookcourse.session.script import from_data, load
from hookcourse.session.transcript import differences, render
from tests.session.live import run_live

SCRIPT = Path(__file__).resolve().parents[2] / "fixtures" / "sessions" / "interactive-ask.json"
FEEDBACK = "keep build; list it instead"


def test_the_engine_plays_the_dialog_and_the_commands() -> None:
    transcript = run_session(load(SCRIPT))
    first, second = transcript["rounds"]
    (call,) = first["calls"]
    assert call["runs"] is False
    assert call["dialog"] == {"answer": "no", "feedback": FEEDBACK}
    # A hook's ask shows the dialog, so PermissionRequest fires (print mode: it does not).
    assert [run["label"] for run in first["events"]][1:3] == [
        "PreToolUse:Bash",
        "PermissionRequest:Bash",
    ]
    (shown,) = second["shown"]
    assert shown["isError"] is True and shown["text"].endswith(f"the user said:\n{FEEDBACK}")
    compact, leave = transcript["actions"]
    assert (compact["action"], compact["round"]) == ("/compact", 2)
    assert [run["label"] for run in compact["events"]] == [
        "PreCompact:manual",
        "SessionStart:compact",
        "PostCompact:manual",
    ]
    assert [run["label"] for run in leave["events"]] == ["SessionEnd:prompt_input_exit"]
    text = render(transcript)
    assert f"the user answers the dialog: no, then types: '{FEEDBACK}'" in text
    assert "the user types: /compact\n  PreCompact:manual" in text


def test_the_engine_gives_the_recorded_transcript() -> None:
    recorded = load_recorded("interactive-ask")
    assert recorded["transcript"]["engine"].endswith(
        "(interactive, in a pseudo-terminal, scripted model)"
    )
    assert differences(run_session(load(SCRIPT)), recorded["transcript"]) == []


def test_a_difference_in_the_commands_is_found() -> None:
    recorded = load_recorded("interactive-ask")["transcript"]
    changed = json.loads(json.dumps(recorded))
    changed["actions"][0]["events"].pop()
    found = differences(run_session(load(SCRIPT)), changed)
    assert len(found) == 1 and found[0].startswith("the user's actions: only hookcourse's engine")


def test_a_prompt_beside_the_actions_is_refused() -> None:
    data = json.loads(SCRIPT.read_text(encoding="utf-8"))
    data["prompt"] = "Clean the build folder."
    with pytest.raises(InputError, match="prompt is given beside interactive"):
        from_data(data, "both", SCRIPT.parent)
    assert load(SCRIPT).prompt == "Clean the build folder."


def test_no_without_feedback_interrupts_the_turn() -> None:
    data = json.loads(SCRIPT.read_text(encoding="utf-8"))
    data["interactive"][1] = {"answer": "no"}
    transcript = run_session(from_data(data, "no-feedback", SCRIPT.parent))
    assert len(transcript["rounds"]) == 1
    assert transcript["end"] == {"reason": "interrupted"}


def test_yes_runs_the_call() -> None:
    data = json.loads(SCRIPT.read_text(encoding="utf-8"))
    data["interactive"][1] = {"answer": "yes"}
    data["expect"] = []
    transcript = run_session(from_data(data, "yes", SCRIPT.parent))
    assert transcript["rounds"][0]["calls"][0]["runs"] is True


@pytest.mark.parametrize(
    ("action", "said"),
    [
        ({"answer": "maybe"}, 'use "yes" or "no"'),
        ({"command": "/frobnicate"}, "not a command"),
        ({"prompt": "a", "command": "/exit"}, "an action is one of"),
        ({"answer": "no", "feedbak": "x"}, "unknown key 'feedbak'"),
        ({"prompt": "two\nlines"}, "line break"),
        ({"write": "@project/a", "txt": "x"}, "unknown key 'txt'"),
    ],
)
def test_a_bad_action_is_one_line(action: dict[str, Any], said: str) -> None:
    data = json.loads(SCRIPT.read_text(encoding="utf-8"))
    data["interactive"][1] = action
    with pytest.raises(InputError, match=said) as caught:
        from_data(data, "bad", SCRIPT.parent)
    assert "\n" not in str(caught.value).split(": ", 1)[0]


def test_the_terminal_waits_as_a_person_does() -> None:
    steps, firsts = session_steps(
        [
            {"prompt": "go"},
            {"answer": "no", "feedback": "x"},
            {"command": "/compact"},
            {"command": "/exit"},
        ]
    )
    assert steps[0]["wait"] == READY
    assert steps[firsts[0]] == {"type": "go"} and steps[firsts[0] + 1]["wait"] == BUSY
    assert steps[firsts[0] + 1]["optional"] is True
    assert steps[firsts[1]] == {"wait": DIALOG}
    # Idle again before the command: busy gone, the input cleared, the idle footer.
    assert steps[firsts[2] - 3 : firsts[2] + 1] == [
        {"gone": BUSY, "timeout": 60.0},
        {"key": "ctrl-u"},
        {"wait": READY, "timeout": 60.0},
        {"type": "/compact"},
    ]
    assert steps[-1] == {"exit": True}


def test_a_terminal_that_waited_in_vain_is_one_line() -> None:
    script = load(SCRIPT)
    with pytest.raises(InputError) as caught:
        _played_through(script, {"stuck": 3, "waiting": "wait for 'Do you want to proceed?'"})
    said = str(caught.value)
    assert 'interface stopped at interactive[1] {"answer": "no"' in said
    assert "waited in vain (wait for 'Do you want" in said and "--keep" in said
    with pytest.raises(InputError, match="at its start"):
        _played_through(script, {"stuck": 0, "waiting": "wait for '? for shortcuts'"})


def _dump(folder: Path, name: str, at: int, payload: dict[str, Any], out: str = "") -> None:
    base = folder / f"{name}.{at}.1"
    Path(f"{base}.in").write_text(json.dumps(payload), encoding="utf-8")
    Path(f"{base}.out").write_text(out, encoding="utf-8")
    Path(f"{base}.err").write_text("", encoding="utf-8")
    Path(f"{base}.end").write_text("0\n", encoding="utf-8")
    os.utime(f"{base}.end", ns=(at + 1000, at + 1000))


def test_the_traces_are_placed_by_time(tmp_path: Path) -> None:
    data = {
        "turns": [{"text": "hi"}],
        "interactive": [{"prompt": "go"}, {"command": "/compact"}, {"prompt": "more"}],
    }
    script = from_data(data, "traces", tmp_path)
    dumps = tmp_path / "dumps"
    dumps.mkdir()
    start = 10**18
    tools = [{"name": "Bash"}]
    first = {"role": "user", "content": "go"}
    requests = [
        {"method": "POST", "at": start + 300, "body": {"tools": tools, "messages": [first]}},
        {"method": "POST", "at": start + 300, "body": {"tools": tools, "messages": [first]}},
        {
            "method": "POST",
            "at": start + 900,
            "body": {"tools": tools, "messages": [{"role": "user", "content": "summary"}]},
        },
    ]
    (tmp_path / "requests.jsonl").write_text("\n".join(json.dumps(r) for r in requests))
    _dump(dumps, "s", start + 100, {"hook_event_name": "SessionStart", "source": "startup"})
    _dump(dumps, "u", start + 250, {"hook_event_name": "UserPromptSubmit", "prompt": "go"})
    _dump(dumps, "stop", start + 400, {"hook_event_name": "Stop"})
    _dump(dumps, "pre", start + 600, {"hook_event_name": "PreCompact", "trigger": "manual"}, "p")
    _dump(dumps, "u2", start + 850, {"hook_event_name": "UserPromptSubmit", "prompt": "more"})
    steps, firsts = session_steps(data["interactive"])
    began = [start + 200] * len(steps)
    began[firsts[1]] = start + 500
    began[firsts[2]] = start + 800
    transcript = read_interactive(tmp_path, script, {"stepsBegan": began})
    assert [run["label"] for run in transcript["start"]] == [
        "SessionStart:startup",
        "UserPromptSubmit",
    ]
    assert len(transcript["rounds"]) == 2  # the retried request counts once
    assert [run["label"] for run in transcript["rounds"][0]["events"]] == ["Stop"]
    assert transcript["rounds"][1]["turn"] is None  # after /compact: the fallback text
    (compact,) = transcript["actions"]
    assert (compact["action"], compact["round"]) == ("/compact", 1)
    assert compact["events"][0]["hooks"][0]["stdout"] == "p"
    (later,) = transcript["prompts"]
    assert (later["prompt"], later["round"], later["before"]) == (
        "more",
        1,
        {"reason": "completed"},
    )
    assert [run["label"] for run in later["events"]] == ["UserPromptSubmit"]


@pytest.mark.slow  # the one live interactive run: about 14 s of Claude Code in a terminal
def test_the_real_claude_code_gives_the_same_transcript() -> None:
    script = load(SCRIPT)
    real = run_live(script)
    assert differences(run_session(script), real) == []
    assert [c for c in judge_all(script.expectations, real) if not c["held"]] == []


def test_hooks_that_leave_no_trace_are_named() -> None:
    data = json.loads(SCRIPT.read_text(encoding="utf-8"))
    assert untraced_hooks(from_data(data, "all-traced", SCRIPT.parent)) == []
    group = {"hooks": [{"type": "command", "command": "echo hi"}]}
    data["settings"]["project"] = {"hooks": {"Stop": [group]}}
    assert untraced_hooks(from_data(data, "untraced", SCRIPT.parent)) == ["echo hi"]


def test_a_learners_loop_is_not_given_an_interactive_script(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    mine = tmp_path / "my_hooks.py"
    mine.write_text("def run_hooks(*a):\n    pass\n\ndef run_stop_loop(*a):\n    pass\n")
    assert session_main([str(SCRIPT), "--engine", str(mine)]) == 2
    err = capsys.readouterr().err
    assert "your loop plays print mode, not an interactive script" in err and err.count("\n") == 1


def test_the_command_line_says_a_missing_binary_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status = session_main([str(SCRIPT), "--real", "--claude", str(tmp_path / "nope")])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "no Claude Code binary" in err
