"""Where the pinned Claude Code binary is, and which version the corpus is recorded against."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LOCK = REPO / "locks" / "claude-code.txt"
PLATFORM_PACKAGE = "@anthropic-ai/claude-code-linux-x64"
BINARY_ENV = "HOOKCOURSE_CLAUDE"
"""A binary to use instead of the pinned install (scripts/oracle-diff.sh sets it)."""


def pinned_version() -> str:
    """The version in locks/claude-code.txt (``@anthropic-ai/claude-code==X``)."""
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            return line.rpartition("==")[2]
    raise ValueError(f"{LOCK}: no version line")


def install_dir() -> Path:
    """Where scripts/test.sh installs the pinned version."""
    return REPO / ".venv" / "claude-code"


def find_binary() -> str:
    """$HOOKCOURSE_CLAUDE, else the pinned install; FileNotFoundError with the fix otherwise."""
    chosen = os.environ.get(BINARY_ENV)
    path = Path(chosen) if chosen else install_dir() / "node_modules" / PLATFORM_PACKAGE / "claude"
    if not path.is_file() or not os.access(path, os.X_OK):
        raise FileNotFoundError(
            f"no Claude Code binary at {path}; fix: scripts/claude-code.sh installs the version "
            f"pinned in locks/claude-code.txt (or set ${BINARY_ENV})"
        )
    return str(path)
