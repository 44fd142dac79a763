"""Signals to a real `hookcourse test`, whatever its parent did with them: SIGINT (also
when inherited as ignored, as in a background job or many CI runners), SIGTERM and SIGHUP
end every process of the learner's program and remove every scratch file, print one
line and exit 128 + n."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

SIGNALS = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]

# Makes a file in its TMPDIR, then hangs with a child of its own and one that left its group.
HANGS = """#!/bin/sh
mktemp "${{TMPDIR:-/tmp}}/learner-XXXXXX" >/dev/null
setsid sleep {marker}.1 &
sleep {marker}.2 &
wait
"""


def _with_marker(marker: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and marker.encode() in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def _until(predicate: object, limit_s: float) -> bool:
    deadline = time.monotonic() + limit_s
    while not predicate():  # type: ignore[operator]
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _grading(
    tmp_path: Path, env: dict[str, str] | None = None, before: Callable[[], None] | None = None
) -> tuple[str, subprocess.Popen[str]]:
    """``hookcourse test`` started on a program that hangs (``HANGS``); its marker."""
    marker = f"30{uuid.uuid4().int % 10_000_000}"
    program = tmp_path / "your_program.sh"
    program.write_text(HANGS.format(marker=marker))
    program.chmod(0o755)
    grading = subprocess.Popen(
        [sys.executable, "-m", "hookcourse", "test", "--timeout", "120"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {}), "NO_COLOR": "1"},
        preexec_fn=before,
    )
    return marker, grading


@pytest.mark.parametrize("signum", SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_a_signal_ends_every_run_and_leaves_tmpdir_as_it_was(tmp_path: Path, signum: int) -> None:
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    # Its parent ignores SIGINT: it must not.
    marker, grading = _grading(tmp_path, {"TMPDIR": str(tmpdir)}, _ignore_sigint)
    try:
        assert _until(lambda: len(_with_marker(marker)) >= 2, 60), "the runs never started"
        grading.send_signal(signum)
        _, stderr = grading.communicate(timeout=30)
    finally:
        grading.kill()
        grading.wait()
    name = signal.Signals(signum).name
    assert grading.returncode == 128 + signum, stderr
    assert stderr.startswith(f"hookcourse test: interrupted by {name}; killed ")
    assert stderr.endswith(f"; exit {128 + signum}\n") and stderr.count("\n") == 1
    assert _until(lambda: not _with_marker(marker), 5), "a process of the learner's outlived it"
    assert list(tmpdir.iterdir()) == []  # its scratch folder and the program's file are gone


# Imports the command line as the `hookcourse` script does, and says which SIGINT and
# SIGTERM handlers are in place at the moment hookcourse.cli starts to import.
_AT_IMPORT = """
import builtins, signal, sys
sys.argv = ["hookcourse", "test", "--timeout", "0"]
seen = []
real_import = builtins.__import__
def spying(name, *arguments, **keywords):
    if name == "hookcourse.cli" and not seen:
        seen.append([signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)])
    return real_import(name, *arguments, **keywords)
builtins.__import__ = spying
from importlib.metadata import entry_points
(script,) = [e for e in entry_points(group="console_scripts") if e.name == "hookcourse"]
script.load()()
print(all(callable(h) and getattr(h, "__name__", "") == "interrupted" for h in seen[0]))
"""


def test_the_handlers_are_in_before_the_command_line_is_imported() -> None:
    """A signal while Python still imports the command line is handled like one during
    the run (one line, 128 + n; a SIGINT the parent ignores is not lost)."""
    done = subprocess.run(
        [sys.executable, "-c", _AT_IMPORT],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        preexec_fn=_ignore_sigint,
    )
    assert done.stdout.strip() == "True", done.stdout + done.stderr


def _threads(pid: int) -> list[int]:
    """The ids of the process's threads, the main thread first."""
    return sorted(int(task.name) for task in Path(f"/proc/{pid}/task").iterdir())


@pytest.mark.parametrize("signum", SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_a_signal_a_worker_thread_catches_ends_the_run_at_once(tmp_path: Path, signum: int) -> None:
    """The kernel may hand a signal to any thread; Python runs handlers in the main one,
    which waits here on the workers' results. ``kill`` aimed at a worker thread's id
    makes the kernel choose that thread (a process-wide signal, delivered there)."""
    marker, grading = _grading(tmp_path)
    try:
        assert _until(lambda: len(_with_marker(marker)) >= 2, 60), "the runs never started"
        # The newest thread: a worker waiting on its run (started after the others).
        os.kill(_threads(grading.pid)[-1], signum)
        _, stderr = grading.communicate(timeout=30)
    finally:
        grading.kill()
        grading.wait()
    assert grading.returncode == 128 + signum, stderr
    assert stderr.startswith(f"hookcourse test: interrupted by {signal.Signals(signum).name}; ")
    assert _until(lambda: not _with_marker(marker), 5), "a process of the learner's outlived it"
