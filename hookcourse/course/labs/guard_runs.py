"""A guard run for real: each command sent to the hook script as a PreToolUse payload through
the engine's runner (or, in the browser, inside the kernel), and the engine's reading of
whether Claude Code would block it; ``try_guard`` for a few commands of the learner's own.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from hookcourse import browser
from hookcourse.browser import require_desktop
from hookcourse.course.labs.guard_corpus import GUARD_TIMEOUT_S, PAYLOAD, one_line
from hookcourse.course.labs.guard_report import Verdict
from hookcourse.course.labs.kernel_script import run_in_kernel
from hookcourse.course.labs.real_hooks import fire_commands
from hookcourse.course.labs.seed_guard import SEED_GUARD, same_test_note, seed_guard_run
from hookcourse.engine.api import (
    Classification,
    HookReading,
    HookRun,
    event_spec,
    merge_readings,
    read_hook_result,
)
from hookcourse.js import json as jsjson
from hookcourse.js.values import JSValue


def guard_command(path: Path) -> list[str] | str:
    """The argv that runs the guard at ``path``, or why it cannot run."""
    if not path.exists():
        return "no such file; write the guard first (run the cell that writes it)"
    if path.is_dir():
        return "it is a folder; pass the guard script's file"
    if path.suffix == ".py":
        return [sys.executable, str(path.resolve())]
    if not os.access(path, os.X_OK):
        return f"it is not executable; run chmod +x {path}, or name a Python guard *.py"
    return [str(path.resolve())]


def _payload(command: str) -> dict[str, JSValue]:
    payload: dict[str, JSValue] = json.loads(PAYLOAD.read_text(encoding="utf-8"))
    return {**payload, "tool_name": "Bash", "tool_input": {"command": command}}


def _judged(command: str, run: HookRun, reading: HookReading, blocked: bool) -> Verdict:
    failed = reading.classification is not Classification.SUCCESS and run.exit_code != 2
    return Verdict(command, blocked, run.exit_code, failed, run.stderr, run.timed_out)


def run_verdict(argv: Sequence[str], command: str, cwd: str) -> Verdict:
    fired = fire_commands("PreToolUse", [argv], _payload(command), cwd, timeout_s=GUARD_TIMEOUT_S)
    return _judged(command, fired.executions[0].run, fired.readings[0], fired.outcome.blocked)


KernelGuard = Callable[[str], HookRun]  # a payload's JSON -> what a runner would observe


def verdict_in_kernel(guard: KernelGuard, command: str) -> Verdict:
    """``command`` through a guard run in the kernel, read and merged by the engine."""
    spec = event_spec("PreToolUse")
    payload = {**_payload(command), "hook_event_name": spec.name}
    run = guard(jsjson.stringify(payload))
    reading = read_hook_result(spec, run)
    return _judged(command, run, reading, merge_readings(spec, [reading], payload).blocked)


def _is_seed_guard(path: Path) -> bool:
    try:
        return path.is_file() and path.read_bytes() == SEED_GUARD.read_bytes()
    except OSError:
        return False


def kernel_guard(path: Path) -> tuple[KernelGuard, str] | str:
    """How the kernel runs the guard at ``path`` with no processes, and a line saying so;
    or why it cannot. Only a guard that is neither Python nor the seed's script needs the
    desktop."""
    if _is_seed_guard(path):
        return (lambda payload: seed_guard_run(payload, path)), same_test_note(path)
    argv = guard_command(path)
    if isinstance(argv, str):
        return argv
    if path.suffix != ".py":
        require_desktop(f"the guard {path.name}", "which commands it blocks and lets through")
    note = (
        f"(In the browser: {path.name} runs inside this kernel, not as a process of its "
        "own: the same payload on its stdin, read for its exit code and stderr.)"
    )
    return (lambda payload: run_in_kernel(path, payload)), note


def run_verdicts(path: Path, commands: Sequence[str]) -> tuple[list[Verdict], str] | str:
    """Every command through the guard at ``path``, on the desktop or in the browser."""
    if browser.IN_BROWSER:
        how = kernel_guard(path)
        if isinstance(how, str):
            return how
        guard, note = how
        return [verdict_in_kernel(guard, command) for command in commands], note
    argv = guard_command(path)
    if isinstance(argv, str):
        return argv
    with tempfile.TemporaryDirectory() as cwd, ThreadPoolExecutor(4) as pool:
        return list(pool.map(lambda c: run_verdict(argv, c, cwd), commands)), ""


def try_guard(path: str | os.PathLike[str], commands: Sequence[str]) -> str:
    """Each command through the guard and the engine: blocked or let through, and why."""
    ran = run_verdicts(Path(path), commands)
    if isinstance(ran, str):
        return f"cannot run {Path(path).name}: {ran}"
    verdicts, note = ran
    lines = [note] if note else []
    for verdict in verdicts:
        if verdict.blocked:
            lines.append(
                f"blocked      {one_line(verdict.command)}\n    reason: {verdict.stderr.strip()}"
            )
        else:
            failed = f" (the guard failed: exit {verdict.exit_code})" if verdict.failed else ""
            lines.append(f"let through  {one_line(verdict.command)}{failed}")
    return "\n".join(lines)
