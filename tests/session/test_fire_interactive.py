"""``hookcourse fire --interactive``: the permission dialog the interactive interface shows
where print mode refuses the call, what the user reads, and what their answer does (as
the real Claude Code did in the interactive-ask recording)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookcourse.cli import main
from hookcourse.session.recorded import load_recorded

ASK = {
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "ask",
        "permissionDecisionReason": "rm -rf needs a person",
    }
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    hook = {"type": "command", "command": f"echo '{json.dumps(ASK)}'"}
    settings = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook]}]}}
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text(json.dumps(settings))
    payload = {
        "session_id": "s",
        "transcript_path": str(tmp_path / "t.jsonl"),
        "cwd": str(tmp_path),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "rm -rf build"},
        "tool_use_id": "toolu_1",
        "permission_mode": "default",
    }
    (tmp_path / "payload.json").write_text(json.dumps(payload))
    return tmp_path


def _fire(project: Path, *flags: str) -> list[str]:
    return ["fire", "PreToolUse", "--payload", str(project / "payload.json"),
            "--project-dir", str(project), *flags]  # fmt: skip


def test_a_hooks_ask_is_a_dialog_and_no_with_feedback_reaches_the_model(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(_fire(project, "--interactive", "--answer", "no", "--feedback", "list it"))
    out = capsys.readouterr().out
    assert status == 2
    part = out[out.index("in the interactive interface:") :]
    assert "a permission dialog shows (a hook answered ask)" in part
    assert "    Hook PreToolUse:Bash requires confirmation for this command:\n" in part
    assert "    rm -rf needs a person\n    Do you want to proceed?\n    1. Yes\n    2. No\n" in part
    assert "To tell you how to proceed, the user said:\n    list it\n" in part
    assert "the turn goes on" in part and part.endswith("exit status 2\n")
    # Print mode's own answer stays: nobody to ask, the model reads the hook's reason.
    assert "the model gets the tool_result (is_error): rm -rf needs a person" in out


def test_the_rejection_is_the_recorded_one(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    feedback = "keep build; list it instead"
    main(_fire(project, "--interactive", "--answer", "no", "--feedback", feedback, "--json"))
    said = json.loads(capsys.readouterr().out)["interactive"]["toolResult"]
    recorded = load_recorded("interactive-ask")["transcript"]["rounds"][1]["shown"]
    assert [item["text"] for item in recorded] == [said]


def test_yes_runs_the_call_and_no_alone_ends_the_turn(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(_fire(project, "--interactive", "--answer", "yes")) == 0
    assert "the user answers yes\n  the tool runs\n" in capsys.readouterr().out
    assert main(_fire(project, "--interactive", "--answer", "no", "--json")) == 2
    shown = json.loads(capsys.readouterr().out)["interactive"]
    assert shown["toolRuns"] is False and shown["turnEnds"] is True
    assert shown["toolResult"].endswith("wait for the user to tell you how to proceed.")


def test_without_an_answer_it_says_what_each_does(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(_fire(project, "--interactive")) == 0
    assert "the user's answer decides (--answer yes|no" in capsys.readouterr().out


def test_a_call_the_hook_allows_has_no_dialog(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = project / ".claude" / "settings.json"
    settings.write_text(settings.read_text().replace('\\"ask\\"', '\\"allow\\"'))
    main(_fire(project, "--interactive", "--answer", "no", "--json"))
    shown = json.loads(capsys.readouterr().out)["interactive"]
    assert shown == {"dialog": False, "permissionRequestFires": False, "shown": [], "answer": None}


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (
            ["--answer", "yes"],
            "--answer: only the interactive interface asks; fix: add --interactive",
        ),
        (
            ["--interactive", "--answer", "yes", "--feedback", "x"],
            "--feedback: feedback goes with a no",
        ),
        (["--interactive", "--feedback", "x"], "--feedback: feedback goes with a no"),
        (["--interactive", "--answer", "no", "--feedback", "a\nb"], "one line"),
    ],
)
def test_answers_that_say_nothing_are_one_line(
    project: Path, capsys: pytest.CaptureFixture[str], flags: list[str], said: str
) -> None:
    assert main(_fire(project, *flags)) == 1
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1


def test_the_permission_steps_own_ask_is_a_dialog_too(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # No hook: Bash in the default mode, no allow rule; print mode refuses, the interface asks.
    (project / ".claude" / "settings.json").write_text("{}")
    assert main(_fire(project, "--interactive", "--answer", "yes")) == 0
    out = capsys.readouterr().out
    assert "a permission dialog shows (the permission step asks)" in out
    assert "the user is shown:\n    Do you want to proceed?\n  the user answers yes\n" in out
