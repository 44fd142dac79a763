"""Real signals to a real `hookcourse fire`: every hook group dies, one line, exit 128 + n."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.support.paths import ROOT as REPO
from tests.support.processes import running_with

HOOKCOURSE = [sys.executable, "-m", "hookcourse"]
Project = Any


def _wait_for(predicate: Any, limit_s: float = 60) -> None:
    deadline = time.monotonic() + limit_s
    while not predicate():
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.02)


def _start(project: Project, *extra: str, stdin: Any = subprocess.DEVNULL) -> subprocess.Popen[str]:
    argv = [*HOOKCOURSE, "fire", "Stop", "--project-dir", str(project.dir), *extra]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "HOOKCOURSE_"))}
    env["HOME"] = str(project.home)
    return subprocess.Popen(
        argv,
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=REPO,
    )


def _leaves_nothing(
    process: subprocess.Popen[str], signum: int, marker: str, killed: str, *, at: int | None = None
) -> None:
    """The signal ends ``process`` with one line naming how many groups it ``killed``;
    ``at``: the id of the thread the kernel is to hand it to (a worker's)."""
    if at is None:
        process.send_signal(signum)
    else:
        os.kill(at, signum)  # process-wide still, but delivered to that thread
    _out, err = process.communicate(timeout=30)
    assert process.returncode == 128 + signum, err
    name = signal.Signals(signum).name
    assert err == f"hookcourse: interrupted by {name}; killed {killed}; exit {128 + signum}\n"
    # SIGKILL is delivered at once, but a dying process may linger a moment as a zombie.
    _wait_for(lambda: not running_with(marker), limit_s=5)


SIGNALS = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]


@pytest.mark.parametrize("signum", SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_a_signal_while_hooks_run_kills_every_group_grandchildren_included(
    project: Project, signum: int
) -> None:
    marker = f"30{uuid.uuid4().int % 10_000_000}"
    hooks = [
        {"type": "command", "command": f"sleep {marker}.1 & sleep {marker}.2; echo late"},
        {"type": "command", "command": f"bash -c 'sleep {marker}.3 & wait' & wait"},
        {"type": "command", "command": f"sleep {marker}.4", "async": True},
    ]
    project.hooks("Stop", *hooks)
    process = _start(project, "--payload", str(project.payload("Stop", stop_hook_active=False)))
    # Each of the three hooks has started (four processes could be two hooks' alone).
    _wait_for(lambda: all(running_with(f"{marker}.{n}") for n in (1, 3, 4)))
    _leaves_nothing(process, signum, marker, "3 hook process groups")


@pytest.mark.parametrize("signum", SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_a_signal_a_hook_thread_catches_is_handled_at_once(project: Project, signum: int) -> None:
    """Python runs handlers in the main thread only, here waiting in the event loop's
    ``select`` for the hooks' threads; the kernel may hand the signal to one of those."""
    marker = f"30{uuid.uuid4().int % 10_000_000}"
    project.hooks("Stop", {"type": "command", "command": f"sleep {marker}", "timeout": 600})
    process = _start(project, "--payload", str(project.payload("Stop", stop_hook_active=False)))
    _wait_for(lambda: running_with(marker))
    newest = max(int(task.name) for task in Path(f"/proc/{process.pid}/task").iterdir())
    assert newest != process.pid, "the hook runs on a thread of its own"
    _leaves_nothing(process, signum, marker, "1 hook process group", at=newest)


@pytest.mark.parametrize("signum", SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_a_signal_while_the_payload_is_read(project: Project, signum: int) -> None:
    read, write = os.pipe()
    try:
        process = _start(project, "--payload", "-", stdin=read)
        # A fixed sleep lost the race under load (the signal came during imports): wait
        # until the kernel says the process sleeps waiting on its stdin (select or read).
        wchan = Path(f"/proc/{process.pid}/wchan")
        waiting = ("select", "poll", "pipe")
        _wait_for(lambda: any(word in wchan.read_text(encoding="ascii") for word in waiting))
        _leaves_nothing(process, signum, "never started", "0 hook process groups")
    finally:
        os.close(read)
        os.close(write)


@pytest.mark.parametrize("signum", SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_a_signal_while_an_evaluator_runs_kills_it_like_a_hook(
    project: Project, signum: int
) -> None:
    marker = f"31{uuid.uuid4().int % 10_000_000}"
    project.hooks("Stop", {"type": "prompt", "prompt": "Done?"})
    payload = project.payload("Stop", stop_hook_active=False)
    evaluator = f"sleep {marker} & sleep {marker}.5; echo '{{\"ok\": true}}'"
    process = _start(project, "--payload", str(payload), "--evaluator", evaluator)
    _wait_for(lambda: len(running_with(marker)) >= 2)
    _leaves_nothing(process, signum, marker, "1 hook process group")


def test_one_hook_of_several_processes_is_one_group_killed(project: Project) -> None:
    """The count is of process groups (hook runs), not of the processes in them."""
    marker = f"34{uuid.uuid4().int % 10_000_000}"
    project.hooks("Stop", {"type": "command", "command": f"sleep {marker}.1 & sleep {marker}.2"})
    process = _start(project, "--payload", str(project.payload("Stop", stop_hook_active=False)))
    _wait_for(lambda: len(running_with(marker)) >= 2)
    _leaves_nothing(process, signal.SIGINT, marker, "1 hook process group")


def test_an_evaluator_past_its_timeout_is_killed_with_its_group(project: Project) -> None:
    marker = f"32{uuid.uuid4().int % 10_000_000}"
    project.hooks("Stop", {"type": "prompt", "prompt": "Done?", "timeout": 1})
    payload = project.payload("Stop", stop_hook_active=False)
    evaluator = f"sleep {marker} & sleep {marker}.5"
    fired = project.fire("Stop", payload, "--evaluator", evaluator)
    (hook,) = fired.hooks
    assert hook["timedOut"] is True
    _wait_for(lambda: not running_with(marker), limit_s=5)


def test_a_hook_that_exits_leaves_nothing_running(project: Project) -> None:
    marker = f"33{uuid.uuid4().int % 10_000_000}"
    project.hooks("Stop", {"type": "command", "command": f"sleep {marker} >/dev/null 2>&1 &"})
    fired = project.fire("Stop", project.payload("Stop", stop_hook_active=False))
    (hook,) = fired.hooks
    assert any("they were killed" in note for note in hook["notes"])
    _wait_for(lambda: not running_with(marker), limit_s=5)


# -- the one process runner (hookcourse.system.processes.run) ---------------------------------


def test_a_conversation_answers_each_whole_line_and_the_last_answer_closes_stdin() -> None:
    from hookcourse.system.processes import Answer, run

    # The program writes a long line in pieces, then waits for each answer in turn.
    program = (
        "import sys\n"
        "for n in range(3):\n"
        "    sys.stdout.write('x' * 200000); sys.stdout.flush(); print(' ask', n, flush=True)\n"
        "    print('got', sys.stdin.readline().strip(), flush=True)\n"
        "print('eof' if sys.stdin.read() == '' else 'more', flush=True)\n"
    )
    answers = iter([b"one\n", b"two\n", b"three\n"])
    heard: list[int] = []

    def reply(line: bytes) -> Answer | None:
        if not line.endswith(b" ask " + str(len(heard)).encode()):
            return None
        heard.append(len(line))
        data = next(answers)
        return Answer(data, last=data == b"three\n")

    done = run([sys.executable, "-c", program], stdin=b"", timeout_s=30, reply=reply)
    lines = done.stdout.decode().splitlines()
    assert [line for line in lines if line.startswith(("got", "eof"))] == [
        "got one",
        "got two",
        "got three",
        "eof",
    ]
    assert heard == [200006, 200006, 200006]


def test_run_feeds_stdin_caps_output_and_counts_it() -> None:
    from hookcourse.system.processes import run

    done = run(
        [sys.executable, "-c", "import sys; d = sys.stdin.read(); print(d * 3, end='')"],
        stdin=b"abc",
        timeout_s=30,
        cap=5,
    )
    assert (done.exit_code, done.stdout, done.stdout_cut, done.stdout_total) == (
        0,
        b"abcab",
        True,
        9,
    )
    assert not done.timed_out and done.seconds > 0


def test_run_kills_the_whole_group_at_the_timeout(tmp_path: Path) -> None:
    from hookcourse.system.interrupts import live_groups
    from hookcourse.system.processes import run

    marker = f"35{uuid.uuid4().int % 10_000_000}"
    done = run(["sh", "-c", f"sleep {marker} & wait"], timeout_s=0.5, cwd=tmp_path)
    assert done.timed_out and done.exit_code is None
    _wait_for(lambda: not running_with(marker), limit_s=5)
    assert live_groups() == frozenset()


def test_run_with_linger_judges_a_program_that_left_a_child_holding_its_output() -> None:
    from hookcourse.system.processes import run

    marker = f"36{uuid.uuid4().int % 10_000_000}"
    done = run(["sh", "-c", f"sleep {marker} & echo done"], timeout_s=30, linger_s=0.2)
    assert (done.exit_code, done.stdout, done.timed_out) == (0, b"done\n", False)
    assert done.seconds < 10
    _wait_for(lambda: not running_with(marker), limit_s=5)


def test_run_names_a_program_that_cannot_start() -> None:
    from hookcourse.system.processes import CannotStart, run

    with pytest.raises(CannotStart, match="cannot start /no/such/program") as raised:
        run(["/no/such/program"], timeout_s=5)
    assert raised.value.errno == 2
