"""Claude Code's debug log (``claude --debug`` or ``--debug-file``), read for what its hooks
really did: which command ran for which event, its exit status, its stdout and stderr, and
what Claude Code said about reading the answer. Line shapes as Claude Code 2.1.332 writes
them (``tests/doctor/debug_logs`` holds real ones). Pure.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Final

_PREFIX: Final = re.compile(r"^\S+ \[(?P<level>[A-Z]+)\] (?P<text>.*)$")
_FINISHED: Final = re.compile(
    r"^Hooks: (?P<event>[A-Za-z]+)(?::(?P<query>[^ \[]*))? \[(?P<command>.*)\] finished with "
    r"status (?P<status>-?\d{1,4000})\b"  # int() refuses longer
)
_RESULT: Final = re.compile(
    r"^Hook (?P<event>[A-Za-z]+)(?::[^ ]*)? \([A-Za-z]+\) (?P<kind>success|error):"
)
_STATUS: Final = re.compile(r"^ status code (-?\d+)")
_NOTES: Final = (
    "Hook JSON output had unrecognized keys",
    "Hook output looks like a JSON object but is not valid JSON",
    "Hook output does not start with {",
)


@dataclass
class LoggedRun:
    """One hook process the log shows: its event, command, status, output and notes."""

    line: int
    event: str
    query: str
    command: str
    status: int
    stdout: str = ""
    stderr: str = ""
    notes: list[str] = field(default_factory=list)


def read_debug_log(text: str) -> list[LoggedRun]:
    """Every hook run the log records, in the order they finished."""
    runs: list[LoggedRun] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        match = _PREFIX.match(raw)
        body = match.group("text") if match else raw
        finished = _FINISHED.match(body)
        if finished:
            runs.append(
                LoggedRun(
                    number,
                    finished.group("event"),
                    finished.group("query") or "",
                    finished.group("command"),
                    int(finished.group("status")),
                )
            )
            continue
        if not runs:
            continue
        last = runs[-1]
        if body.startswith('"Hook '):
            _read_result(body, last)
        elif body.startswith(_NOTES):
            last.notes.append(body)
    return runs


def _read_result(body: str, run: LoggedRun) -> None:
    """A quoted ``Hook EVENT:Q (EVENT) success|error: ...`` line: the run's streams."""
    try:
        text = json.loads(body)
    except ValueError:
        return
    if not isinstance(text, str):
        return
    head, _, rest = text.partition("\n")
    result = _RESULT.match(head)
    if result is None or result.group("event") != run.event:
        return
    rest = "\n" + rest
    stdout, _, stderr = rest.partition("\nstderr:\n")
    stdout = stdout.removeprefix("\nstdout:\n").removeprefix("\n")
    run.stdout, run.stderr = stdout, stderr
