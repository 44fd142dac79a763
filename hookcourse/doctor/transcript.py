"""A session transcript (``~/.claude/projects/<folder>/<session>.jsonl``) read for what its
hooks did. Claude Code 2.1.332 writes each hook's outcome as an ``attachment`` entry
(``tests/doctor/transcripts`` holds real ones): ``hook_success`` and
``hook_non_blocking_error`` with the command, exit code, stdout and stderr;
``hook_blocking_error`` with the reason and command; ``hook_cancelled``;
``hook_additional_context`` with the text the model was given. A hook that exits 0 and
prints nothing leaves no entry at all, so a transcript cannot show that a hook never ran.
Pure.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

from .debug_log import LoggedRun

_RAN: Final = ("hook_success", "hook_non_blocking_error", "hook_error_during_execution")
NON_BLOCKING_PREFIX: Final = "Failed with non-blocking status code: "
"""What Claude Code puts before a non-blocking error's stderr in the transcript."""


@dataclass(frozen=True)
class Transcript:
    """The hook runs a transcript records, and what else it says of hooks, one line each."""

    runs: tuple[LoggedRun, ...]
    said: tuple[str, ...]


def read_transcript(text: str) -> Transcript:
    """Every hook outcome the transcript records, in the order written; lines that are not
    JSON objects (a torn last line, another file) are passed over."""
    runs: list[LoggedRun] = []
    said: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        entry = _entry(raw)
        attachment = entry.get("attachment") if entry else None
        if not isinstance(attachment, dict):
            continue
        kind = attachment.get("type")
        event = _text(attachment.get("hookEvent"))
        name = _text(attachment.get("hookName")) or event
        if not isinstance(kind, str) or not kind.startswith("hook_") or not event:
            continue
        if kind in _RAN:
            status = attachment.get("exitCode")
            stderr = _text(attachment.get("stderr"))
            runs.append(
                LoggedRun(
                    number,
                    event,
                    name.partition(":")[2],
                    _text(attachment.get("command")),
                    status if isinstance(status, int) and not isinstance(status, bool) else -1,
                    _text(attachment.get("stdout")),
                    stderr.removeprefix(NON_BLOCKING_PREFIX),
                )
            )
        elif kind == "hook_blocking_error":
            blocking = attachment.get("blockingError")
            reason = _text(blocking.get("blockingError")) if isinstance(blocking, dict) else ""
            said.append(f"transcript line {number}: {name} blocked: {reason[:200]!r}")
        elif kind == "hook_cancelled":
            said.append(f"transcript line {number}: {name} was cancelled (timed out or stopped)")
        elif kind == "hook_additional_context":
            said.append(f"transcript line {number}: {name} gave the model additional context")
    return Transcript(tuple(runs), tuple(said))


def _entry(raw: str) -> dict[str, Any] | None:
    if '"attachment"' not in raw:
        return None
    try:
        entry = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    return entry if isinstance(entry, dict) else None


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""
