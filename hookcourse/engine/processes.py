"""Start and stop the processes hooks and evaluators run in: the one way the runner does it.

Every process starts in its own session, so its process group (the hook and every
child it starts, unless one leaves with ``setsid``) can be killed whole. Every
group alive is kept in one registry, so that an interrupt (SIGINT, SIGTERM,
SIGHUP) at any moment kills them all before ``hookcourse`` exits with ``128 + n``.
A signal that arrives while a process is being started waits until its group is
registered, so no process is started after the registry was emptied.

stdout and stderr are kept up to a cap each, the rest is read and thrown away; at
the timeout the whole group gets SIGKILL. When a process exits, whatever it left
running in its group is killed too: ``fire`` leaves nothing behind.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final

from .interrupts import REGISTRY, TRACE_VARIABLE, kill_group, new_trace

OUTPUT_CAP_BYTES: Final = 16 * 1_048_576
"""How much of each of stdout and stderr is kept (16 MiB).

Claude Code reads a hook's whole stdout; the cap only bounds a runaway hook. It is
far above anything a JSON answer needs, and a cut answer is reported as cut.
"""
REAP_GRACE_S: Final = 1.0
_READ_CHUNK: Final = 65_536


class CannotStart(Exception):
    """The program could not be started; the message says why."""


@dataclass(frozen=True)
class Finished:
    """What one process did: its exit, its output (each up to the cap), and whether it ran over."""

    exit_code: int | None
    """None when it was killed by a signal, or ran past the timeout."""
    stdout: bytes
    stderr: bytes
    stdout_cut: bool
    stderr_cut: bool
    timed_out: bool
    exited_before_timeout: int | None = None
    """The exit status of a process that ended while its leftovers kept its output open."""
    left_running: bool = False
    """It exited, but processes it started were still running in its group (now killed)."""
    trace: str = ""
    """The value of ``TRACE_VARIABLE`` it and everything it started carry."""


async def run_process(
    argv: Sequence[str],
    *,
    stdin: bytes,
    env: Mapping[str, str],
    cwd: str | None,
    timeout_s: float,
    cap: int = OUTPUT_CAP_BYTES,
) -> Finished:
    """Run ``argv`` in a session of its own; raises CannotStart when it cannot be started."""
    trace = new_trace()
    REGISTRY.starting += 1
    try:
        process = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=cwd,
            env={**env, TRACE_VARIABLE: trace},
            start_new_session=True,
        )
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise CannotStart(f"cannot start {argv[0]}: {reason}") from None
    else:
        REGISTRY.add(process.pid, trace)
    finally:
        REGISTRY.after_start()
    try:
        return replace(await _supervise(process, stdin, timeout_s, cap), trace=trace)
    finally:
        # Also when the caller gave up on it (cancelled): nothing it started outlives it.
        kill_group(process.pid)
        REGISTRY.discard(process.pid)
        _close(process)


async def _supervise(
    process: asyncio.subprocess.Process, data: bytes, timeout_s: float, cap: int
) -> Finished:
    assert process.stdin and process.stdout and process.stderr
    feeder = asyncio.create_task(_feed(process.stdin, data))
    readers = (
        asyncio.create_task(_drain(process.stdout, cap)),
        asyncio.create_task(_drain(process.stderr, cap)),
    )
    try:
        await asyncio.wait_for(asyncio.gather(process.wait(), *readers), timeout_s)
    except TimeoutError:
        exited = process.returncode
        kill_group(process.pid)
        for task in (feeder, *readers):
            task.cancel()
        await _reap(process)
        return Finished(None, b"", b"", False, False, True, exited)
    feeder.cancel()
    left_running = bool(kill_group(process.pid))
    (out, out_cut), (err, err_cut) = (reader.result() for reader in readers)
    return Finished(
        process.returncode, out, err, out_cut, err_cut, False, left_running=left_running
    )


async def _reap(process: asyncio.subprocess.Process) -> None:
    """Wait a moment for the killed process; a process that left the group may hold its pipes."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.shield(process.wait()), REAP_GRACE_S)


def _close(process: asyncio.subprocess.Process) -> None:
    """Close the transport now, inside the loop, so nothing is left to clean up after it."""
    transport = getattr(process, "_transport", None)
    if isinstance(transport, asyncio.SubprocessTransport):
        transport.close()


async def _feed(stdin: asyncio.StreamWriter, data: bytes) -> None:
    """Write the payload; a process that exits or closes stdin without reading is fine."""
    try:
        stdin.write(data)
        await stdin.drain()
        stdin.close()
        await stdin.wait_closed()
    except (BrokenPipeError, ConnectionResetError):
        pass


async def _drain(stream: asyncio.StreamReader, cap: int) -> tuple[bytes, bool]:
    """Read a stream to its end, keeping the first ``cap`` bytes."""
    kept = bytearray()
    cut = False
    while chunk := await stream.read(_READ_CHUNK):
        room = cap - len(kept)
        if room > 0:
            kept += chunk[:room]
        cut = cut or len(chunk) > room
    return bytes(kept), cut
