"""What a session has done so far, from its transcript (``transcript_path``, JSON lines).

2.1.332's NotebookEdit refuses, in its own input check before PreToolUse, a notebook the
session never Read; and an instruction file (a CLAUDE.md, a rules file) loads once a
session, so a call below a folder whose files an earlier call loaded loads nothing more.
``fire`` learns both from the payload's transcript: the tool calls (``tool_use`` blocks of
the assistant's messages) and their results (``tool_result`` blocks). With no transcript
(a payload written by hand) nothing was done. I/O at the edge: an unreadable transcript
or a line that is not JSON counts as nothing.
"""

from __future__ import annotations

import json
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MAX_BYTES = 64 * 1024 * 1024
"""A transcript larger than this is read only this far."""


@dataclass(frozen=True)
class DoneCall:
    """One tool call of the transcript: its tool, input and id, and whether it ran
    (a result that is not an error; None: no result yet)."""

    name: str
    tool_input: dict[str, Any]
    tool_use_id: str
    ran: bool | None


def _blocks(transcript_path: object) -> Iterator[dict[str, Any]]:
    """Every content block of every message, in order."""
    if not isinstance(transcript_path, str) or not transcript_path:
        return
    path = Path(transcript_path)
    try:
        # Only a regular file: a FIFO or a device would block or never end.
        if not stat.S_ISREG(path.stat().st_mode):
            return
        with path.open("rb") as stream:
            data = stream.read(MAX_BYTES)
    except OSError:
        return
    for line in data.decode("utf-8", errors="replace").splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        message = entry.get("message") if isinstance(entry, dict) else None
        content = message.get("content") if isinstance(message, dict) else None
        for block in content if isinstance(content, list) else ():
            if isinstance(block, dict):
                yield block


def tool_calls(transcript_path: object) -> tuple[DoneCall, ...]:
    """The transcript's tool calls in order, each with whether it ran."""
    calls: dict[str, DoneCall] = {}
    for block in _blocks(transcript_path):
        if block.get("type") == "tool_use":
            # A call without an id still counts; it just cannot be given a result.
            tool_id = block.get("id")
            tool_id = tool_id if isinstance(tool_id, str) else f"#{len(calls)}"
            given = block.get("input")
            calls[tool_id] = DoneCall(
                str(block.get("name")), given if isinstance(given, dict) else {}, tool_id, None
            )
        if block.get("type") == "tool_result" and block.get("tool_use_id") in calls:
            call = calls[block["tool_use_id"]]
            calls[call.tool_use_id] = DoneCall(
                call.name, call.tool_input, call.tool_use_id, block.get("is_error") is not True
            )
    return tuple(calls.values())


def files_read(transcript_path: object) -> frozenset[str]:
    """The ``file_path`` of every Read tool call in the transcript."""
    return frozenset(
        named
        for call in tool_calls(transcript_path)
        if call.name == "Read" and isinstance(named := call.tool_input.get("file_path"), str)
    )
