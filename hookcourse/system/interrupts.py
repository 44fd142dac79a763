"""Interrupts: SIGINT, SIGTERM or SIGHUP at any moment kill every process group started.

The registry holds every process group started and not yet ended (``processes``
adds and removes them) and the temporary files and folders to delete. A signal kills
them all, prints one line and exits with ``128 + n`` (130, 143, 129), whatever the
parent did with the signal (a SIGINT inherited as ignored is handled too). A signal
that arrives while a process is being started, in any thread, waits until its group
is registered, so no process is started after the registry was emptied. Importing
this module is cheap (no asyncio): ``hookcourse events`` installs the handlers too.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Collection
from typing import Final

INTERRUPTS: Final = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
TRACE_VARIABLE: Final = "HOOKCOURSE_TRACE"
"""Set in every process started, so one that left its group (``setsid``) is still found."""
_RUN: Final = "/".join(
    filter(None, (os.environ.get(TRACE_VARIABLE), f"{os.getpid()}-{os.urandom(6).hex()}"))
)
"""This program's run; under a trace it inherited, so the program that started it can
find (and kill) what this one starts in sessions of their own, as Claude Code in the
session runner's namespace."""
_COUNT: Final = itertools.count(1)


def _write_stderr(line: str) -> None:
    with contextlib.suppress(OSError):
        os.write(2, line.encode("utf-8", "backslashreplace"))


class _Registry:
    """The process groups alive, and a signal that arrived while one was being started."""

    def __init__(self) -> None:
        self.groups: dict[int, str] = {}
        """Each group alive, with the trace its processes carry ("" for a helper, not a hook)."""
        self.starting = 0
        self.pending: int | None = None
        self.temporary: set[str] = set()
        self.announce = ("hookcourse", "hook process group", "hook process groups")
        """Who speaks in the line an interrupt prints, and what it calls one group."""
        self.closing = False
        """Set once an interrupt is being handled: from then on no process starts."""
        # Reentrant: the handler runs in the main thread, which may be inside begin_start.
        self._lock = threading.RLock()

    def add(self, group: int, trace: str = "") -> None:
        self.groups[group] = trace

    def discard(self, group: int) -> None:
        self.groups.pop(group, None)

    def kill_all(self) -> set[str]:
        """Kill every group and delete the temporary files; the traces of the hooks killed."""
        killed = set()
        for group, trace in list(self.groups.items()):
            if kill_group(group) and trace:
                killed.add(trace)
            self.discard(group)
        for path in list(self.temporary):
            _remove(path)
        return killed

    def interrupted(self, signum: int, _frame: object = None) -> None:
        """Handle ``signum``: from the main thread's handler or from ``_relay``, whichever
        comes first (the second finds the program closing and returns)."""
        with self._lock:
            if self.closing:
                return
            self.pending = signum
            if self.starting:  # after_start stops, once that group is registered
                return
            self.closing = True
        self.stop(signum)

    def stop(self, signum: int) -> None:
        # One hook run is one group, however many processes it holds; its trace names it,
        # also for a process that left the group.
        killed = len(self.kill_all() | set(kill_traced()))
        speaker, one, many = self.announce
        name = signal.Signals(signum).name
        _write_stderr(
            f"{speaker}: interrupted by {name}; killed {killed} {one if killed == 1 else many}; "
            f"exit {128 + signum}\n"
        )
        os._exit(128 + signum)

    def begin_start(self) -> None:
        """A process is about to start (any thread): an interrupt waits for ``after_start``.

        Once an interrupt is being handled nothing starts: the thread waits for the exit.
        """
        with self._lock:
            closing = self.closing
            if not closing:
                self.starting += 1
        if closing:
            threading.Event().wait()  # the program is exiting; this start never happens

    def after_start(self) -> None:
        with self._lock:
            self.starting -= 1
            stop = not self.starting and self.pending is not None and not self.closing
            if stop:
                self.closing = True
        if stop and self.pending is not None:
            self.stop(self.pending)


REGISTRY: Final = _Registry()


def install_interrupt_handlers(announce: tuple[str, str, str] | None = None) -> None:
    """SIGINT, SIGTERM and SIGHUP kill every group, print one line, exit 128 + n.

    They are installed whatever this program inherited (a SIGINT ignored by the shell
    that started it included). ``announce`` is (speaker, one group, several groups) for
    that line. Only the main thread can install signal handlers; elsewhere (a
    notebook's worker thread) this does nothing and the caller's own handling stays.
    """
    if announce is not None:
        REGISTRY.announce = announce
    if sys.platform == "win32":  # pragma: no cover - hooks run in sessions on POSIX only
        return
    with contextlib.suppress(ValueError):
        for signum in INTERRUPTS:
            signal.signal(signum, REGISTRY.interrupted)
        _relay_from_every_thread()


_RELAYING: list[bool] = []


def _relay_from_every_thread() -> None:
    """Have the main thread handle an interrupt at once, whichever thread caught it.

    The kernel may hand a signal sent to the process to any of its threads, and Python
    runs the handler only when the main thread next runs Python code: a main thread
    waiting for a worker's result (``hookcourse test``) or in an event loop's ``select``
    (``fire``) would not see it until that wait ended, minutes later. Python's C handler
    writes the signal's number to the wakeup fd in whatever thread caught it; a thread
    of ours reads it and sends the signal to the main thread, whose wait it interrupts.
    The handler stays in the main thread, so nothing there runs on past the interrupt.
    Main thread only (as ``signal.set_wakeup_fd``), once per process.
    """
    if _RELAYING:
        return
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)  # as set_wakeup_fd requires; a full pipe drops bytes
    signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    _RELAYING.append(True)
    main = threading.main_thread().ident
    assert main is not None
    threading.Thread(
        target=_relay, args=(read_end, main), name="hookcourse-interrupts", daemon=True
    ).start()


def _relay(read_end: int, main: int) -> None:
    # Each signal sent on to the main thread comes back as one byte when it is caught
    # there: that byte is not sent on again (at most one extra signal per interrupt).
    sent_on: Counter[int] = Counter()
    while True:
        try:
            caught = os.read(read_end, 64)
        except OSError:
            return
        if not caught:
            return
        for signum in caught:
            if signum not in INTERRUPTS:
                continue
            if sent_on[signum]:
                sent_on[signum] -= 1
                continue
            sent_on[signum] += 1
            with contextlib.suppress(OSError):
                signal.pthread_kill(main, signum)


def remove_on_interrupt(path: str, keep: bool = True) -> None:
    """Delete the file or folder ``path`` if an interrupt ends the program (``keep=False``:
    no longer needed)."""
    if keep:
        REGISTRY.temporary.add(path)
    else:
        REGISTRY.temporary.discard(path)


def _remove(path: str) -> None:
    if os.path.isdir(path) and not os.path.islink(path):
        import shutil  # only on the way out

        shutil.rmtree(path, ignore_errors=True)
        return
    with contextlib.suppress(OSError):
        os.unlink(path)


def kill_group(group: int) -> int:
    """SIGKILL the process group ``group``; 1 when there was one to kill, else 0."""
    try:
        os.killpg(group, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        return 0
    return 1


def live_groups() -> frozenset[int]:
    """The process groups started and not yet ended (for tests and the attack sweep)."""
    return frozenset(REGISTRY.groups)


def new_trace() -> str:
    """A fresh value for ``TRACE_VARIABLE``: this program's run, then a serial number."""
    return f"{_RUN}.{next(_COUNT)}"


def kill_traced(traces: Collection[str] | None = None) -> Counter[str]:
    """SIGKILL every process still carrying one of this run's traces; how many, per trace.

    A process that started a session of its own escaped its group's kill, but it
    inherited its parent's environment. Linux only (``/proc``); elsewhere nothing is found.
    ``traces`` limits the sweep to those traces: a batch that ends must not kill the
    processes of another batch still running in the same program (a thread of its own).
    The sweep repeats until one finds nothing: a process can fork between the listing and
    its kill, and a killed one holds its environment until the kernel has taken it down.
    """
    killed: Counter[str] = Counter()
    seen: set[int] = set()
    for _ in range(SWEEPS):
        found = _traced(traces)
        if not found:
            break
        for pid, trace in found.items():
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
                if pid not in seen:
                    seen.add(pid)
                    killed[trace] += 1
        time.sleep(SWEEP_PAUSE_S)
    return killed


SWEEPS = 200
SWEEP_PAUSE_S = 0.005
"""At most 200 sweeps 5 ms apart: a second at worst, one listing when nothing is left."""


def _traced(traces: Collection[str] | None) -> dict[int, str]:
    """Each live process (not a zombie) carrying one of this run's traces, with its trace."""
    wanted = f"{TRACE_VARIABLE}={_RUN}.".encode()
    try:
        entries = os.listdir("/proc")
    except OSError:
        return {}
    found = {}
    for entry in entries:
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as handle:
                environ = handle.read()
        except OSError:
            continue
        for variable in environ.split(b"\0"):
            if variable.startswith(wanted):
                trace = variable[len(TRACE_VARIABLE) + 1 :].decode()
                if (traces is None or _within(trace, traces)) and not _zombie(entry):
                    found[int(entry)] = trace
                break
    return found


def _zombie(pid: str) -> bool:
    """Whether the process has ended and waits only to be reaped (or is gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rpartition(b")")[2].split()[:1] in ([b"Z"], [b"X"])
    except OSError:
        return True


def _within(trace: str, traces: Collection[str]) -> bool:
    """Whether ``trace`` is one of ``traces`` or was started under one of them."""
    return any(trace == given or trace.startswith(f"{given}/") for given in traces)
