"""Whether a test left a process behind: processes found by their command line, and waits.

Linux's /proc is the one place asked. A zombie (ended, not yet reaped) counts as gone:
it runs nothing and holds no resource but its table entry.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

PROC = Path("/proc")


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting to be reaped counts as gone)."""
    try:
        state = (PROC / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def running_with(marker: str) -> list[int]:
    """The pids of live processes whose NUL-separated command line contains ``marker``."""
    found = []
    wanted = marker.encode()
    for entry in os.listdir(PROC):
        if not entry.isdigit():
            continue
        try:
            command_line = (PROC / entry / "cmdline").read_bytes()
        except OSError:
            continue  # gone meanwhile
        if wanted in command_line and alive(int(entry)):
            found.append(int(entry))
    return found


def _within(still: Callable[[], object], within_s: float) -> bool:
    """True once ``still()`` is falsy, polling until ``within_s`` seconds have passed."""
    deadline = time.monotonic() + within_s
    while still():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def gone(marker: str, within_s: float = 5.0) -> bool:
    """True once no live process carries ``marker`` (a SIGKILL takes a moment to land)."""
    return _within(lambda: running_with(marker), within_s)


def ended(pid: int, within_s: float = 5.0) -> bool:
    """True once ``pid`` has ended (or is a zombie) within ``within_s`` seconds."""
    return _within(lambda: alive(pid), within_s)
