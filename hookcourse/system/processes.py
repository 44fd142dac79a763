"""The one way hookcourse starts a process: hooks, evaluators, learners' programs, shells.

``run`` is one synchronous call: it starts ``argv`` in a session of its own (so its
process group, the program and every child it starts unless one leaves with
``setsid``, can be killed whole), feeds it stdin, keeps stdout and stderr up to a cap
each (the rest is read and counted), and returns one ``Finished``. At the timeout the
whole group gets SIGKILL; when the process exits, whatever it left running in its
group is killed too. Every group alive is in the interrupt registry, so SIGINT,
SIGTERM or SIGHUP at any moment kills them all (``interrupts``). ``run_process`` is
the same call for asyncio code: it runs ``run`` in a thread of its own, and a
cancelled caller kills the group at once. ``call_in_child`` runs pure work a thread
cannot bound in a forked child, killed at its limit (the engine's regex matcher).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import select
import selectors
import signal
import struct
import subprocess
import termios
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Final, NamedTuple

from .interrupts import REGISTRY, TRACE_VARIABLE, kill_group, kill_traced, new_trace

OUTPUT_CAP_BYTES: Final = 16 * 1_048_576
"""How much of each of stdout and stderr is kept (16 MiB).

Claude Code reads a hook's whole stdout; the cap only bounds a runaway hook. It is
far above anything a JSON answer needs, and a cut answer is reported as cut.
"""
REAP_GRACE_S: Final = 1.0
POLL_S: Final = 0.05
"""How often a run checks, besides its pipes, whether it exited or was abandoned."""
_READ_CHUNK: Final = 65_536


class CannotStart(Exception):
    """The program could not be started; the message says why, ``errno`` the OS's reason."""

    def __init__(self, message: str, errno: int | None = None) -> None:
        super().__init__(message)
        self.errno = errno


@dataclass(frozen=True)
class Finished:
    """What one process did: its exit, its output (each up to the cap), and whether it ran over."""

    exit_code: int | None
    """None when it ran past the timeout; ``-N`` when signal N killed it."""
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
    stdout_total: int = 0
    """Every byte it wrote on stdout, kept or not."""
    seconds: float = 0.0
    output_held: bool = False
    """It exited while a process it left running still held its stdout or stderr open
    (read only with a ``linger_s``)."""

    def text(self) -> TextRun:
        """The run as text (UTF-8, undecodable bytes replaced), for notebooks and shells."""
        return TextRun(
            self.exit_code,
            self.stdout.decode("utf-8", "replace"),
            self.stderr.decode("utf-8", "replace"),
        )


@dataclass(frozen=True)
class TextRun:
    """A ``Finished`` run's exit code and output as text, named as ``subprocess`` names them."""

    returncode: int | None
    stdout: str
    stderr: str


class Answer(NamedTuple):
    """What a conversation writes next on the process's stdin, and whether that is all."""

    data: bytes
    last: bool


Reply = Callable[[bytes], Answer | None]
"""Called with each whole line of stdout as it comes; what to write next, or None."""


class Abandon:
    """Lets another thread give up on a run: ``set()`` kills its group at once."""

    def __init__(self) -> None:
        self.event = threading.Event()
        self.pid: int | None = None

    def set(self) -> None:
        self.event.set()
        if self.pid is not None:
            kill_group(self.pid)


def run(
    argv: Sequence[str],
    *,
    stdin: bytes = b"",
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    timeout_s: float,
    cap: int = OUTPUT_CAP_BYTES,
    linger_s: float | None = None,
    abandon: Abandon | None = None,
    reply: Reply | None = None,
) -> Finished:
    """Run ``argv`` in a session of its own until it exits; raises CannotStart.

    ``env`` None is this program's environment. With ``linger_s`` None the run lasts
    until its output closes; with a number, output is read for ``linger_s`` more
    seconds after the process exits (then what the pipes hold), then its group dies.
    With ``reply`` the run is a conversation: stdin stays open after ``stdin`` is
    written, each stdout line goes to ``reply``, and its answers are written in turn
    until one is the ``last``.
    """
    started = time.monotonic()
    trace = new_trace()
    REGISTRY.begin_start()
    try:
        process = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env={**(os.environ if env is None else env), TRACE_VARIABLE: trace},
            start_new_session=True,
        )
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        errno = getattr(error, "errno", None)
        raise CannotStart(f"cannot start {argv[0]}: {reason}", errno) from None
    else:
        REGISTRY.add(process.pid, trace)
        if abandon is not None:
            abandon.pid = process.pid
    finally:
        REGISTRY.after_start()
    try:
        held: list[bool] = []
        kept, totals, timed_out = _supervise(
            process, stdin, started + timeout_s, cap, linger_s, abandon, reply, held
        )
        exited = process.poll()
        left_running = not timed_out and bool(kill_group(process.pid))
    finally:
        # Also when the caller gave up on it: nothing it started outlives it.
        kill_group(process.pid)
        REGISTRY.discard(process.pid)
        _reap(process)
    return Finished(
        None if timed_out else exited,
        bytes(kept[0]),
        bytes(kept[1]),
        totals[0] > cap,
        totals[1] > cap,
        timed_out,
        exited if timed_out else None,
        left_running,
        trace,
        totals[0],
        time.monotonic() - started,
        bool(held),
    )


def _supervise(
    process: subprocess.Popen[bytes],
    data: bytes,
    deadline: float,
    cap: int,
    linger_s: float | None,
    abandon: Abandon | None,
    reply: Reply | None,
    held: list[bool],
) -> tuple[tuple[bytearray, bytearray], list[int], bool]:
    """Feed stdin and read both outputs until they close (or the linger ends); timed out?
    ``held`` gains an entry when the linger ended with an output still open."""
    assert process.stdin and process.stdout and process.stderr
    kept = (bytearray(), bytearray())
    totals = [0, 0]
    feed = _Feed(process.stdin, data, closing=reply is None)
    line = bytearray()  # the stdout line ``reply`` has not had yet
    lingering_until: float | None = None
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ, 0)
        selector.register(process.stderr, selectors.EVENT_READ, 1)
        feed.watch(selector)
        readers = 2
        while readers:
            now = time.monotonic()
            if abandon is not None and abandon.event.is_set():
                return kept, totals, False
            if linger_s is not None and lingering_until is None and process.poll() is not None:
                # A child it left running may hold the pipes open: take what is there.
                lingering_until = now + linger_s
            if now >= deadline:
                return kept, totals, True
            # Past the linger only what the pipes already hold is read.
            drained = lingering_until is not None and now >= lingering_until
            wake = now if drained else min(deadline, lingering_until or deadline, now + POLL_S)
            ready = selector.select(wake - now)
            if drained and not any(key.data != -1 for key, _ in ready):
                held.append(True)
                break
            for key, _ in ready:
                if key.data == -1:
                    feed.write(selector)
                    continue
                chunk = os.read(key.fd, _READ_CHUNK)
                if not chunk:
                    selector.unregister(key.fileobj)
                    readers -= 1
                    continue
                stream = kept[key.data]
                totals[key.data] += len(chunk)
                stream += chunk[: max(cap - len(stream), 0)]
                if reply is not None and key.data == 0:
                    # Only the new chunk is split: a long line is not searched again
                    # per chunk, and what is held of it stays within the cap.
                    *whole, rest = chunk.split(b"\n")
                    if whole:
                        whole[0] = bytes(line) + whole[0]
                        line.clear()
                    line += rest[: max(cap - len(line), 0)]
                    for answer in filter(None, map(reply, whole)):
                        feed.add(answer, selector)
    _close_quietly(process.stdin)
    try:
        process.wait(max(deadline - time.monotonic(), 0))
    except subprocess.TimeoutExpired:  # it closed its output but went on running
        return kept, totals, True
    return kept, totals, False


class _Feed:
    """What is still to be written on a process's stdin, closed once the last is out."""

    def __init__(self, stdin: IO[bytes], data: bytes, *, closing: bool) -> None:
        self.stdin = stdin
        self.pending = memoryview(data)  # sliced without copying as the pipe takes it
        self.closing = closing
        self.watched = False
        os.set_blocking(stdin.fileno(), False)

    def watch(self, selector: selectors.BaseSelector) -> None:
        """Wait for stdin to take more, or close it when nothing more will come."""
        if self.pending and not self.watched:
            selector.register(self.stdin, selectors.EVENT_WRITE, -1)
            self.watched = True
        elif not self.pending and self.closing:
            _close_quietly(self.stdin)

    def add(self, answer: Answer, selector: selectors.BaseSelector) -> None:
        if self.stdin.closed:
            return
        self.pending = memoryview(bytes(self.pending) + answer.data)
        self.closing = answer.last
        self.watch(selector)

    def write(self, selector: selectors.BaseSelector) -> None:
        try:
            self.pending = self.pending[os.write(self.stdin.fileno(), self.pending) :]
        except BlockingIOError:
            return
        except OSError:  # it closed stdin or exited without reading: fine
            self.pending = memoryview(b"")
            self.closing = True
        if not self.pending:
            selector.unregister(self.stdin)
            self.watched = False
            self.watch(selector)


def _close_quietly(stream: object) -> None:
    with contextlib.suppress(OSError):
        stream.close()  # type: ignore[attr-defined]


def _reap(process: subprocess.Popen[bytes]) -> None:
    """Wait a moment for the killed process, then close its pipes."""
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(REAP_GRACE_S)
    for stream in (process.stdin, process.stdout, process.stderr):
        _close_quietly(stream)


async def run_process(
    argv: Sequence[str],
    *,
    stdin: bytes,
    env: Mapping[str, str],
    cwd: str | None,
    timeout_s: float,
    cap: int = OUTPUT_CAP_BYTES,
    linger_s: float | None = None,
) -> Finished:
    """``run`` for asyncio: in a thread of its own; a cancelled caller kills the group."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[Finished] = loop.create_future()
    abandon = Abandon()

    def settle(result: Finished | None, error: BaseException | None) -> None:
        if answer.done():
            return
        if error is not None:
            answer.set_exception(error)
        else:
            answer.set_result(result)  # type: ignore[arg-type]

    def work() -> None:
        try:
            result = run(
                argv,
                stdin=stdin,
                env=env,
                cwd=cwd,
                timeout_s=timeout_s,
                cap=cap,
                linger_s=linger_s,
                abandon=abandon,
            )
        except BaseException as error:  # handed to the caller, raised there
            outcome: tuple[Finished | None, BaseException | None] = (None, error)
        else:
            outcome = (result, None)
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(settle, *outcome)

    threading.Thread(target=work, name="hookcourse-process", daemon=True).start()
    try:
        return await answer
    except asyncio.CancelledError:
        abandon.set()
        raise


def start_on_terminal(
    argv: Sequence[str], env: Mapping[str, str], cwd: str, rows: int, columns: int
) -> tuple[subprocess.Popen[bytes], int, str]:
    """Start ``argv`` in a session of its own on a new pseudo-terminal of ``rows`` x
    ``columns``: the process, the terminal's primary end (the caller reads and writes it,
    then closes it) and the trace it carries; raises CannotStart. End it with
    ``end_on_terminal``."""
    trace = new_trace()
    primary, secondary = os.openpty()
    try:
        fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        REGISTRY.begin_start()
        try:
            process = subprocess.Popen(
                list(argv),
                stdin=secondary,
                stdout=secondary,
                stderr=secondary,
                cwd=cwd,
                env={**env, TRACE_VARIABLE: trace},
                start_new_session=True,
            )
            REGISTRY.add(process.pid, trace)
        finally:
            REGISTRY.after_start()
    except (OSError, ValueError) as error:
        os.close(primary)
        reason = getattr(error, "strerror", None) or str(error)
        errno = getattr(error, "errno", None)
        raise CannotStart(f"cannot start {argv[0]}: {reason}", errno) from None
    finally:
        os.close(secondary)
    return process, primary, trace


def end_on_terminal(process: subprocess.Popen[bytes], trace: str) -> int | None:
    """Kill what ``start_on_terminal`` started: its group and every process still carrying
    its trace (a hook that left the group); its exit status if it had exited."""
    exited = process.poll()
    kill_group(process.pid)
    kill_traced([trace])
    REGISTRY.discard(process.pid)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(REAP_GRACE_S)  # no pipes to close: its ends are the terminal's
    return exited


def call_in_child(work: Callable[[], bytes], limit_s: float) -> bytes | None:
    """``work()`` run in a forked child of its own process group, killed after ``limit_s``
    seconds: its bytes, ``b""`` when it failed before answering, None past the limit.

    For pure work a thread cannot bound (a C extension that holds the interpreter lock).
    The child is in the interrupt registry while it lives, so a signal kills it too.
    Raises OSError where there is no fork, or no process to spare.
    """
    if not hasattr(os, "fork"):
        raise OSError("no fork on this platform")
    reader, writer = os.pipe()
    REGISTRY.begin_start()  # an interrupt now waits until the child is registered
    try:
        child = os.fork()
    except OSError:
        REGISTRY.after_start()
        os.close(reader)
        os.close(writer)
        raise
    if child == 0:  # pragma: no cover - runs in the child, which leaves through os._exit
        os.setpgid(0, 0)
        os.close(reader)
        try:
            os.write(writer, work())
        finally:
            os._exit(0)
    with contextlib.suppress(OSError):  # the child may have done it, or exited already
        os.setpgid(child, child)
    REGISTRY.add(child)
    REGISTRY.after_start()
    os.close(writer)
    try:
        return _read_until(reader, time.monotonic() + limit_s)
    finally:
        os.close(reader)
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(child, 0)
        REGISTRY.discard(child)


def _read_until(descriptor: int, deadline: float) -> bytes | None:
    """Everything the child writes before it closes the pipe, or None past the deadline."""
    chunks: list[bytes] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        ready, _, _ = select.select([descriptor], [], [], left)
        if not ready:
            return None
        chunk = os.read(descriptor, 65_536)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
