"""`hookcourse fire` under hostile input: one line or a warning, never a traceback, hang or loss.

Each test names the class of issue 11 it covers; each failed on the code before it.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from hookcourse import cli

HOOKCOURSE = [sys.executable, "-m", "hookcourse"]
Project = Any


def command(text: str, **fields: Any) -> dict[str, Any]:
    return {"type": "command", "command": text, **fields}


def no_traceback(fired: Any) -> None:
    assert "Traceback" not in fired.stderr, fired.stderr
    assert "Exception ignored" not in fired.stderr, fired.stderr


# --- NUL and lone surrogates ----------------------------------------------------------------


def test_nul_and_lone_surrogates_in_exported_payload_values(project: Project) -> None:
    """§7a: session_id and effort are exported; a NUL cannot be, a surrogate becomes U+FFFD."""
    project.hooks("PreToolUse", command('echo "[$CLAUDE_EFFORT]" >&2'), matcher="Bash")
    payload = project.scratch / "p.json"
    payload.write_text(
        '{"session_id":"a\\u0000b","effort":{"level":"x\\ud800y"},"tool_name":"Bash",'
        '"tool_input":{"command":"ls"},"cwd":"\\u0000"}'
    )
    for json_out in (True, False):
        fired = project.fire("PreToolUse", payload, json_out=json_out)
        no_traceback(fired)
        assert fired.returncode == 0
    fired = project.fire("PreToolUse", payload)
    (hook,) = fired.hooks
    assert hook["stderr"] == "[x\ufffdy]\n"
    assert (
        "CLAUDE_CODE_SESSION_ID is not exported: its value holds a NUL character" in (hook["notes"])
    )


@pytest.mark.parametrize(
    "handler",
    [
        command("echo a\u0000b"),
        command("echo a\ud800b"),
        command("/bin/echo", args=["a\u0000b"]),
        command("/bin/echo", args=["a\udc80b"]),
    ],
)
def test_nul_and_lone_surrogates_in_settings_command_and_args(
    project: Project, handler: dict[str, Any]
) -> None:
    path = project.dir / ".claude" / "settings.json"
    # json.dumps writes lone surrogates as \\u escapes, as a settings file may hold them.
    path.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [handler]}]}}))
    payload = project.payload("Stop", stop_hook_active=False)
    for json_out in (True, False):
        fired = project.fire("Stop", payload, json_out=json_out)
        no_traceback(fired)
        assert fired.returncode == 0
    (hook,) = project.fire("Stop", payload).hooks
    if "\x00" in repr(handler) or "\\x00" in repr(handler):
        assert "NUL" in hook["startError"]
    else:
        assert hook["exitCode"] == 0


def test_nul_and_lone_surrogates_in_hook_json_reasons_and_contexts(project: Project) -> None:
    """Text and --json reports of a hook whose reason and context hold NUL and \\ud800."""
    answer = (
        '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny",'
        '"permissionDecisionReason":"no\\u0000\\ud800pe","additionalContext":"c\\ud800\\u001b[2J"},'
        '"systemMessage":"s\\udfff"}'
    )
    hook = project.script("answer.sh", f"cat >/dev/null; printf '%s' '{answer}'")
    project.hooks("PreToolUse", command(str(hook)), matcher="Bash")
    text = project.fire("PreToolUse", project.bash_call("ls"), json_out=False)
    no_traceback(text)
    assert text.returncode == 2
    assert "reason: no\\x00\\ud800pe" in text.stdout
    assert "\x1b" not in text.stdout
    fired = project.fire("PreToolUse", project.bash_call("ls"))
    assert fired.outcome["reason"] == "no\u0000\ud800pe"


# --- unreadable and special files -----------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("/dev/zero", "the payload is a character device, not a regular file"),
        ("/proc/self/mem", "cannot be read"),
        (".", "is a directory"),
    ],
)
def test_special_payload_files_are_one_line(project: Project, name: str, problem: str) -> None:
    fired = project.fire("Stop", name, json_out=False)
    no_traceback(fired)
    assert fired.returncode == 1
    assert problem in fired.stderr
    assert len(fired.stderr.strip().splitlines()) == 1


def test_a_fifo_with_no_writer_does_not_hang(project: Project) -> None:
    fifo = project.scratch / "fifo"
    os.mkfifo(fifo)
    fired = project.fire("Stop", fifo, json_out=False)
    no_traceback(fired)
    assert fired.returncode == 1
    assert "the payload is a FIFO (named pipe), not a regular file" in fired.stderr
    assert "fix: save the JSON in a regular file and name that" in fired.stderr


def test_a_byte_order_mark_in_a_payload_or_settings_file_says_to_save_without_it(
    project: Project,
) -> None:
    bom = project.scratch / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf{}")
    fix = "fix: save the file as UTF-8 without a byte-order mark"
    assert fix in project.fire("Stop", bom, json_out=False).stderr
    payload = project.payload("Stop", stop_hook_active=False)
    assert fix in project.fire("Stop", payload, "--settings", str(bom), json_out=False).stderr


@pytest.mark.parametrize(("stdin", "problem"), [("closed", "stdin is closed"), ("endless", "64")])
def test_payload_from_stdin_closed_or_endless(project: Project, stdin: str, problem: str) -> None:
    argv = [*HOOKCOURSE, "fire", "Stop", "--payload", "-", "--project-dir", str(project.dir)]
    if stdin == "closed":
        done = subprocess.run(
            ["sh", "-c", 'exec "$@" <&-', "sh", *argv], capture_output=True, text=True, timeout=60
        )
    else:
        with open("/dev/zero", "rb") as zero:
            done = subprocess.run(argv, stdin=zero, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert problem in done.stderr


@pytest.mark.parametrize("which", ["project", "user"])
def test_an_unsearchable_settings_folder_is_one_line(
    project: Project,
    which: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """As root nothing is unreadable, so the folder's stat fails the way EACCES makes it fail."""
    folder = project.dir / ".claude" if which == "project" else project.home / ".claude"
    folder.mkdir(exist_ok=True)
    real_stat = os.stat

    def stat(path: Any, *args: Any, **kwargs: Any) -> Any:
        if str(path).startswith(str(folder) + "/"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_stat(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", stat)
    monkeypatch.setenv("HOME", str(project.home))
    payload = project.payload("Stop", stop_hook_active=False)
    argv = ["fire", "Stop", "--payload", str(payload), "--project-dir", str(project.dir)]
    status = cli.main(argv)
    err = capsys.readouterr().err
    assert status == 1
    assert f"the {which} settings file cannot be read (Permission denied)" in err


def test_a_settings_file_that_is_dev_zero(project: Project) -> None:
    payload = project.payload("Stop", stop_hook_active=False)
    fired = project.fire("Stop", payload, "--settings", "/dev/zero", json_out=False)
    no_traceback(fired)
    assert fired.returncode == 1
    assert "the flag settings file is a character device, not a regular file" in fired.stderr


# --- http hooks and the event loop -----------------------------------------------------------


@pytest.fixture
def endless_server() -> Iterator[str]:
    """An HTTP server that answers 200 and then sends body bytes for ever."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            with connection:
                connection.recv(65536)
                connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{")
                try:
                    while not stop.is_set():
                        connection.sendall(b'"x":1,' * 10000)
                except OSError:
                    continue

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}/hook"
    stop.set()
    listener.close()


def test_an_http_body_that_never_ends_is_capped(project: Project, endless_server: str) -> None:
    project.hooks("Stop", {"type": "http", "url": endless_server, "timeout": 60})
    fired = project.fire("Stop", project.payload("Stop", stop_hook_active=False))
    no_traceback(fired)
    (hook,) = fired.hooks
    assert hook["timedOut"] is False
    assert hook["truncated"] == ["body"]
    assert hook["classification"] == "output cut"


def test_no_event_loop_noise_after_a_hook_leaves_its_pipes_held(project: Project) -> None:
    """The hook exits at once; a process it started in a new session keeps stdout open:
    Claude Code does not wait for it (x-background-silent-child), nor does fire."""
    pid_file = project.scratch / "escaped.pid"
    body = f'setsid sleep 30 & echo $! > "{pid_file}"; exit 0'
    project.hooks("Stop", command(body, timeout=1))
    fired = project.fire("Stop", project.payload("Stop", stop_hook_active=False), json_out=False)
    with contextlib.suppress(ProcessLookupError):  # fire's sweep may have ended it already
        os.kill(int(pid_file.read_text()), 9)
    no_traceback(fired)
    assert "still held its output when it exited" in fired.stdout


# --- nothing hangs -----------------------------------------------------------------------------


def test_an_if_rule_with_many_stars_answers_at_once(project: Project) -> None:
    """§5 `if`: a Bash specifier with 40 stars against a 100,000-character command."""
    rule = "Bash(" + "*a" * 40 + "b)"
    project.hooks("PreToolUse", command("true", **{"if": rule}), matcher="Bash")
    fired = project.fire("PreToolUse", project.bash_call("a" * 100_000))
    (group,) = fired.report["groups"]
    assert group["handlers"][0]["runs"] is False


def test_a_catastrophic_matcher_regex_is_bounded(project: Project) -> None:
    """§4: the regex branch; (a+)+$ on a long run of a's backtracks exponentially."""
    project.hooks("PreToolUse", command("true"), matcher="^(a+)+$")
    payload = project.payload("PreToolUse", tool_name="a" * 40 + "!", tool_input={})
    fired = project.fire("PreToolUse", payload)
    (group,) = fired.report["groups"]
    assert group["matched"] is False
    assert "Claude Code itself would hang on it" in group["why"]
