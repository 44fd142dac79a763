"""The interactive harness without Claude Code: the screen model, the steps on a real
pseudo-terminal (a small shell program), the end that leaves no process, the mock's
summary and error answers, and the steps the harness derives from a user's actions."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from interactive_observe import conversation_requests
from interactive_scenario import terminal_steps

from hookcourse.engine.api import CallPlace, file_written, watched_names
from hookcourse.session import terminal
from hookcourse.session.mock_api import SUMMARY, MockAPI, is_summary_request
from hookcourse.session.terminal import Screen, plain


def test_screen_draws_text_moves_and_erasures() -> None:
    screen = Screen(rows=5, columns=20)
    screen.feed(b"first line\r\nsecond\x1b[1A\x1b[2K\rredrawn\x1b[1Bend")
    assert screen.text().splitlines() == ["redrawn", "second end"]
    screen.feed(b"\x1b[H\x1b[2J\x1b[38;5;12mcolour\x1b[0m \xe2\x9d\xaf mark")
    assert screen.text() == "colour \u276f mark"


def test_screen_keeps_an_escape_or_a_character_cut_between_chunks() -> None:
    screen = Screen(rows=2, columns=10)
    screen.feed(b"a\x1b[")
    screen.feed(b"2Cb\xe2\x9d")
    screen.feed(b"\xaf")
    assert screen.text() == "a  b\u276f"


def test_plain_removes_escapes() -> None:
    assert plain(b"\x1b]0;title\x07\x1b[1mDo\x1b[0m you?\x1b[?25h") == "Do you?"


PROGRAM = """
printf 'ready> '
read answer
printf 'you said %s\\n' "$answer"
sleep 300 &
printf 'Choose\\n\\342\\235\\257 1. No\\n  2. Yes\\n'
read choice
printf '\\033[2J\\033[Hpicked [%s]\\n' "$choice"
sleep 300
"""


def _run(tmp_path: Path, steps: list[dict[str, Any]], timeout: float = 20) -> dict[str, Any]:
    (tmp_path / "dumps").mkdir(exist_ok=True)
    spec = {
        "argv": ["sh", "-c", PROGRAM],
        "cwd": str(tmp_path),
        "timeout": timeout,
        "interactive": steps,
        "stdout": str(tmp_path / "out.txt"),
        "screen": str(tmp_path / "screen.txt"),
        "dumps": str(tmp_path / "dumps"),
    }
    return terminal.run_steps(spec, {"PATH": os.environ["PATH"], "HOME": str(tmp_path)})


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] not in ("Z", "X")


def test_steps_type_wait_and_the_end_leaves_nothing_running(tmp_path: Path) -> None:
    started = time.monotonic()
    status = _run(
        tmp_path,
        [
            {"wait": "ready>"},
            {"type": "hello"},
            {"wait": "you said hello"},
            {"type": "2"},
            {"wait": "picked [2]"},
        ],
    )
    assert "stuck" not in status, status
    assert time.monotonic() - started < 15
    screen = (tmp_path / "screen.txt").read_text()
    assert screen == "picked [2]\n"  # the screen as last drawn (it was cleared)
    assert "you said hello" in (tmp_path / "out.txt").read_text()
    # The program and the sleeps it left (one in the background) are gone.
    leftovers = [
        int(entry)
        for entry in os.listdir("/proc")
        if entry.isdigit()
        and _alive(int(entry))
        and b"sleep\x00300" in Path(f"/proc/{entry}/cmdline").read_bytes()
        and str(tmp_path).encode() in _environ(int(entry))
    ]
    assert leftovers == []


def _environ(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return b""


def test_a_wait_that_runs_out_is_stuck_and_says_on_what(tmp_path: Path) -> None:
    status = _run(tmp_path, [{"wait": "ready>"}, {"wait": "never shown", "timeout": 0.5}])
    assert status["stuck"] == 1
    assert "never shown" in status["waiting"]
    assert status["exit"] is None  # killed, not exited


def test_a_step_it_cannot_play_ends_the_run_with_the_reason(tmp_path: Path) -> None:
    status = _run(tmp_path, [{"key": "hyper"}])
    assert status["stuck"] == 0 and "hyper" in status["waiting"]
    assert "cannot play" in _run(tmp_path, [{"jump": 1}])["waiting"]


def test_a_pick_moves_the_cursor_to_its_option(tmp_path: Path) -> None:
    # The program reads a line: the pick's Enter ends it; "down" is an escape sequence.
    status = _run(
        tmp_path,
        [
            {"type": "x"},
            {"pick": {"Choose": "1. No"}, "timeout": 5},
            {"wait": "picked []"},
        ],
    )
    assert "stuck" not in status, status


def test_a_hook_step_waits_for_the_dump_of_its_event(tmp_path: Path) -> None:
    dumps = tmp_path / "dumps"
    dumps.mkdir()
    (dumps / "h.1.1.in").write_text(json.dumps({"hook_event_name": "Stop"}))
    assert terminal.hook_count(dumps, "Stop") == 1
    status = _run(tmp_path, [{"hook": "Stop"}, {"hook": "Stop", "count": 2, "timeout": 0.3}])
    assert status["stuck"] == 1


def test_the_harness_derives_waits_from_the_users_actions() -> None:
    steps = terminal_steps(
        [
            {"prompt": "go"},
            {"answer": "no", "feedback": "not that"},
            {"command": "/model haiku"},
            {"command": "/add-dir /x"},
            {"command": "/exit"},
        ]
    )
    kinds = [next(iter(step)) for step in steps]
    assert kinds[:3] == ["wait", "type", "wait"]
    assert {"type": "not that", "enter": False} in steps
    assert any("pick" in step and "Yes, switch to" in step["pick"] for step in steps)
    assert steps[-1] == {"exit": True}


def test_exit_from_a_worktree_session_answers_its_question() -> None:
    steps = terminal_steps([{"prompt": "go"}, {"command": "/exit", "worktree": "remove"}])
    assert steps[-2:] == [{"pick": {"Exiting worktree session": "Remove worktree"}}, {"exit": True}]
    plain = terminal_steps([{"command": "/exit"}])
    assert not any("pick" in step for step in plain)


def test_a_model_switch_before_any_prompt_has_no_dialog() -> None:
    steps = terminal_steps([{"command": "/model sonnet"}])
    assert not any("pick" in step for step in steps)


@pytest.fixture
def mock(tmp_path: Path) -> Any:
    error = {"status": 400, "type": "invalid_request_error", "message": "no"}
    api = MockAPI([{"error": error}, {"text": "fine"}], tmp_path / "log.jsonl", "hello")
    yield api


def _main(messages: list[dict[str, Any]]) -> dict[str, Any]:
    return {"tools": [{"name": "Bash"}], "messages": messages}


def test_the_mock_repeats_an_error_for_the_same_conversation(mock: Any) -> None:
    first = [{"role": "user", "content": "hello"}]
    assert mock.answer(_main(first))["_status"] == 400
    assert mock.answer(_main(first))["error"]["message"] == "no"
    longer = [*first, {"role": "assistant", "content": "x"}, {"role": "user", "content": "y"}]
    assert mock.answer(_main(longer))["content"][0]["text"] == "fine"


def test_the_mock_answers_a_summary_request_with_a_summary(mock: Any) -> None:
    ask = "REMINDER: Respond with plain text only, with the summary inside <summary> tags"
    body = _main([{"role": "user", "content": "hello"}, {"role": "user", "content": ask}])
    assert is_summary_request(body)
    assert mock.answer(body)["content"][0]["text"] == SUMMARY
    assert mock.player.played == 0  # not a turn of the conversation


def test_a_retried_request_and_a_summary_request_are_not_turns() -> None:
    one = {"method": "POST", "body": _main([{"role": "user", "content": "a"}])}
    summary = {
        "method": "POST",
        "body": _main([{"role": "user", "content": "Respond with plain text only <summary>"}]),
    }
    assert conversation_requests([one, one, summary, {"method": "GET"}]) == [one]


PLACE = CallPlace("/p", "/p", "/h")


def test_a_settings_file_written_mid_session_fires_config_change() -> None:
    steps = file_written("/p/.claude/settings.local.json", PLACE, frozenset())
    assert [(s.event, dict(s.fields)) for s in steps] == [
        (
            "ConfigChange",
            {"source": "local_settings", "file_path": "/p/.claude/settings.local.json"},
        )
    ]
    assert file_written("/h/.claude/settings.json", PLACE, ())[0].fields["source"] == (
        "user_settings"
    )
    assert file_written("/p/.claude/settings.json", PLACE, ())[0].fields["source"] == (
        "project_settings"
    )


def test_only_a_watched_file_fires_file_changed() -> None:
    watched = watched_names(["a.txt|b.txt", None, "*.md", "c.txt"])
    assert watched == {"a.txt", "b.txt", "c.txt"}
    (step,) = file_written("/p/sub/b.txt", PLACE, watched)
    assert (step.event, dict(step.fields)) == (
        "FileChanged",
        {"file_path": "/p/sub/b.txt", "event": "change"},
    )
    assert file_written("/p/d.txt", PLACE, watched) == ()


def test_an_optional_wait_that_runs_out_is_passed_over(tmp_path: Path) -> None:
    status = _run(
        tmp_path, [{"wait": "never", "timeout": 0.3, "optional": True}, {"wait": "ready>"}]
    )
    assert "stuck" not in status, status
