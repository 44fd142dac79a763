"""Interrupts: SIGINT, SIGTERM or SIGHUP at any moment kill every hook process group.

The registry holds every process group started and not yet ended (``processes``
adds and removes them) and the temporary files to delete. A signal kills them all,
prints one line and exits with ``128 + n`` (130, 143, 129). A signal that arrives
while a process is being started waits until its group is registered, so no process
is started after the registry was emptied. Importing this module is cheap (no
asyncio): ``hookcourse events`` installs the handlers too.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from typing import Final

INTERRUPTS: Final = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def _write_stderr(line: str) -> None:
    with contextlib.suppress(OSError):
        os.write(2, line.encode("utf-8", "backslashreplace"))


class _Registry:
    """The process groups alive, and a signal that arrived while one was being started."""

    def __init__(self) -> None:
        self.groups: set[int] = set()
        self.starting = 0
        self.pending: int | None = None
        self.temporary: set[str] = set()

    def kill_all(self) -> int:
        killed = 0
        for group in list(self.groups):
            killed += kill_group(group)
            self.groups.discard(group)
        for path in list(self.temporary):
            with contextlib.suppress(OSError):
                os.unlink(path)
        return killed

    def interrupted(self, signum: int, _frame: object = None) -> None:
        if self.starting:
            self.pending = signum
            return
        self.stop(signum)

    def stop(self, signum: int) -> None:
        killed = self.kill_all()
        name = signal.Signals(signum).name
        _write_stderr(
            f"hookcourse: interrupted by {name}; killed {killed} hook process group(s); "
            f"exit {128 + signum}\n"
        )
        os._exit(128 + signum)

    def after_start(self) -> None:
        self.starting -= 1
        if not self.starting and self.pending is not None:
            self.stop(self.pending)


REGISTRY: Final = _Registry()


def install_interrupt_handlers() -> None:
    """SIGINT, SIGTERM and SIGHUP kill every hook group, print one line, exit 128 + n.

    Only the main thread can install signal handlers; elsewhere (a notebook's worker
    thread) this does nothing and the caller's own handling stays.
    """
    if sys.platform == "win32":  # pragma: no cover - hooks run in sessions on POSIX only
        return
    with contextlib.suppress(ValueError):
        for signum in INTERRUPTS:
            signal.signal(signum, REGISTRY.interrupted)


def remove_on_interrupt(path: str, keep: bool = True) -> None:
    """Delete ``path`` if an interrupt ends the program (``keep=False``: no longer needed)."""
    if keep:
        REGISTRY.temporary.add(path)
    else:
        REGISTRY.temporary.discard(path)


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
