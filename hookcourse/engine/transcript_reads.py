"""Which files a session has Read, from its transcript (``transcript_path``, JSON lines).

2.1.332's NotebookEdit refuses, in its own input check before PreToolUse, a notebook the
session never Read. ``fire`` learns what was Read from the payload's transcript; with no
transcript (a payload written by hand) nothing was Read. I/O at the edge: an unreadable
transcript or a line that is not JSON counts as no Read.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path

MAX_BYTES = 64 * 1024 * 1024
"""A transcript larger than this is read only this far."""


def files_read(transcript_path: object) -> frozenset[str]:
    """The ``file_path`` of every Read tool call in the transcript."""
    if not isinstance(transcript_path, str) or not transcript_path:
        return frozenset()
    path = Path(transcript_path)
    try:
        # Only a regular file: a FIFO or a device would block or never end.
        if not stat.S_ISREG(path.stat().st_mode):
            return frozenset()
        with path.open("rb") as stream:
            data = stream.read(MAX_BYTES)
    except OSError:
        return frozenset()
    found: set[str] = set()
    for line in data.decode("utf-8", errors="replace").splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        message = entry.get("message") if isinstance(entry, dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        for block in content if isinstance(content, list) else ():
            if isinstance(block, dict) and block.get("type") == "tool_use":
                tool_input = block.get("input")
                named = tool_input.get("file_path") if isinstance(tool_input, dict) else None
                if block.get("name") == "Read" and isinstance(named, str):
                    found.add(named)
    return frozenset(found)
