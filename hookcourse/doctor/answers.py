"""How a hook's answer was read, and the shape mistakes that make Claude Code read it
otherwise than its author meant: fields at the wrong level, two JSON documents, text
before the JSON, ``continue: true`` on Stop, stderr on exit 0, exit 1 meant as a block,
JSON on exit 2, and what a start failure's stderr says the cause was. Pure.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from hookcourse.engine.catalogue import EventSpec

from .findings import Finding, Reach

_READ_CAP: Final = 65_536
_UNDER_HOOK_SPECIFIC: Final = (
    "permissionDecision",
    "permissionDecisionReason",
    "additionalContext",
    "updatedInput",
)
_MEANS_TO_BLOCK: Final = re.compile(
    r"(?i)\b(block(?:ed|ing)?|den(?:y|ied)|not allowed|forbidden|refus(?:e|ed|ing)|dangerous)\b"
)
_BAD_INTERPRETER: Final = re.compile(r"bad interpreter|\r|\^M")
_NOT_FOUND: Final = re.compile(
    r"(?:^|: )([^\s:]+): (?:command )?not found|env: '?([^\s:']+)'?: No such file"
)


@dataclass(frozen=True)
class Answer:
    """What one hook did: its command, exit code (None: killed or never started), streams."""

    command: str
    exit_code: int | None
    stdout: str
    stderr: str


@dataclass(frozen=True)
class NamedScript:
    """What the disk says of a path sh called "not found": dash says so both for a missing
    file and for a file whose ``#!`` interpreter is missing (a CRLF line, say)."""

    exists: bool
    crlf_shebang: bool


def not_found_path(stderr: str) -> str | None:
    """The path sh's "not found" names, if it names one."""
    missing = _NOT_FOUND.search(stderr)
    name = missing.group(1) or missing.group(2) if missing else None
    return name if name is not None and "/" in name else None


def shape_problems(
    spec: EventSpec, answer: Answer, place: str, named: NamedScript | None = None
) -> Iterator[Finding]:
    """Every way this answer is read otherwise than it looks meant to be; ``named``: the
    disk's facts about the path a 127's "not found" names."""
    yield from _start_failure(answer, place, named)
    text = answer.stdout.strip()
    documents = _documents(text)
    code = answer.exit_code
    if len(documents) > 1:
        yield Finding(
            "two-json-documents",
            Reach.STOPS_HOOK,
            f"the hook printed {len(documents)} JSON documents",
            place,
            "Claude Code parses stdout as one JSON document: two objects one after the other are "
            "not valid JSON, so the whole answer is a JSON error and nothing in it counts",
            "print one object that holds every field",
        )
    elif not text.startswith("{") and "{" in text and _documents(text[text.index("{") :]):
        yield Finding(
            "text-before-json",
            Reach.STOPS_HOOK,
            "the JSON is not at the start of stdout",
            place,
            "Claude Code reads stdout as JSON only when it starts with {; here other text comes "
            f"first ({text.splitlines()[0][:40]!r}), so the whole answer is plain text and its "
            "decision is never read",
            "print nothing but the JSON on stdout (send logs to stderr or a file)",
        )
    document = documents[0] if len(documents) == 1 else None
    if isinstance(document, dict):
        if code == 2:
            yield Finding(
                "json-on-exit-2",
                Reach.CHANGES,
                "the hook printed JSON and exited 2",
                place,
                f"on exit 2 Claude Code ignores stdout: only stderr counts ({spec.exit2_effect})",
                "exit 0 when the JSON should decide; exit 2 only with the reason on stderr",
            )
        yield from _misplaced(spec, document, place)
        stop_like = spec.name in ("Stop", "SubagentStop")
        if stop_like and document.get("continue") is True and document.get("decision") != "block":
            yield Finding(
                "continue-true-on-stop",
                Reach.CHANGES,
                "continue: true does not keep Claude working",
                place,
                "continue: true is the default (go on as usual), so on Stop Claude still stops; "
                "continue: false stops Claude, and only a block sends it back to work",
                'print {"decision": "block", "reason": "<what to do next>"} to keep Claude '
                "going, or exit 2 with that reason on stderr",
            )
    if code == 0 and answer.stderr.strip():
        yield Finding(
            "stderr-on-exit-0",
            Reach.CHANGES,
            "the hook wrote to stderr and exited 0",
            place,
            "stderr of a hook that exits 0 goes to the debug log only: neither Claude nor the user "
            f"sees it ({answer.stderr.strip()[:60]!r} here)",
            "to tell Claude, exit 2 (where the event feeds stderr back) or print JSON with "
            "additionalContext; to tell the user, print JSON with systemMessage",
        )
    failed = code not in (0, 2, None, 126, 127) and not document
    if failed and not (spec.can_block and _MEANS_TO_BLOCK.search(answer.stderr)):
        yield Finding(
            "non-blocking-exit",
            Reach.STOPS_HOOK,
            f"the hook exited {code}",
            place,
            f"any exit but 0 and 2, without JSON on stdout, is a non-blocking error: the "
            "action goes ahead and Claude is told nothing; the transcript shows a "
            f"'{spec.name} hook error' with the first line of stderr",
            "exit 0 when the hook did its work (print context on stdout), and 2 only to block",
        )
    if failed and spec.can_block and _MEANS_TO_BLOCK.search(answer.stderr):
        yield Finding(
            "exit-1-does-not-block",
            Reach.STOPS_HOOK,
            f"the hook exited {code}, not 2",
            place,
            f"only exit 2 blocks; exit {code} is a non-blocking error on {spec.name}, so the "
            "action goes ahead although the hook's message says it meant to stop it",
            "exit 2 to block, with the reason on stderr",
        )


def _documents(text: str) -> list[object]:
    """The JSON values ``text`` holds one after another, read from its first 64 KiB (empty
    when anything else is there too). Shape detection only: the engine reads the answer."""
    decoder = json.JSONDecoder()
    values: list[object] = []
    rest, at = text[:_READ_CAP].strip(), 0
    while at < len(rest):
        try:
            value, at = decoder.raw_decode(rest, at)
        except (ValueError, RecursionError):
            return []
        values.append(value)
        while at < len(rest) and rest[at].isspace():
            at += 1
    return values


def _misplaced(spec: EventSpec, document: dict[str, object], place: str) -> Iterator[Finding]:
    """Fields that count only under ``hookSpecificOutput`` but were written at the top."""
    misplaced = [name for name in _UNDER_HOOK_SPECIFIC if name in document]
    specific = document.get("hookSpecificOutput")
    if misplaced:
        fields = ", ".join(misplaced)
        yield Finding(
            "field-at-top-level",
            Reach.STOPS_HOOK if "permissionDecision" in misplaced else Reach.CHANGES,
            f"{fields} at the top level of the JSON",
            place,
            f"Claude Code reads {fields} only inside hookSpecificOutput (with hookEventName "
            f'"{spec.name}"); at the top level they are unrecognised keys, ignored, so the hook '
            "answers nothing",
            f'nest them: {{"hookSpecificOutput": {{"hookEventName": "{spec.name}", ...}}}}',
        )
    if isinstance(specific, dict) and specific.get("hookEventName") != spec.name:
        named = specific.get("hookEventName")
        yield Finding(
            "hook-event-name",
            Reach.STOPS_HOOK,
            "hookSpecificOutput names another event"
            if named is not None
            else "hookSpecificOutput has no hookEventName",
            place,
            f"hookSpecificOutput counts only with hookEventName {spec.name!r}"
            + (f"; this one says {named!r}" if named is not None else ""),
            f'add "hookEventName": "{spec.name}" inside hookSpecificOutput',
        )


def _start_failure(answer: Answer, place: str, named: NamedScript | None) -> Iterator[Finding]:
    """What a process that could not start (126, 127) says about why."""
    if answer.exit_code not in (126, 127):
        return
    stderr = answer.stderr
    if (named is not None and named.crlf_shebang) or _BAD_INTERPRETER.search(stderr):
        yield Finding(
            "script-crlf",
            Reach.STOPS_HOOK,
            "the script's first line ends in a carriage return",
            place,
            f"sh could not start it ({stderr.strip()[:120]}): a CRLF line ending makes the #! line "
            "name an interpreter such as bash\\r, which does not exist",
            "convert the script to LF line endings (sed -i 's/\\r$//' FILE)",
        )
    elif named is not None and named.exists:
        yield Finding(
            "shebang-interpreter-missing",
            Reach.STOPS_HOOK,
            "the script is there, but its #! interpreter is not",
            place,
            f"sh says the script is not found ({stderr.strip()[:120]}), which is what dash says "
            "when the interpreter its #! line names does not exist",
            "fix the #! line (#!/usr/bin/env bash finds bash on PATH)",
        )
    elif (missing := _NOT_FOUND.search(stderr)) is not None:
        name = missing.group(1) or missing.group(2)
        is_path = "/" in name
        yield Finding(
            "script-missing" if is_path else "program-missing",
            Reach.STOPS_HOOK,
            f"{name} was not found when the hook started",
            place,
            f"sh exits 127 ({stderr.strip()[:120]}): "
            + (
                "the script is not at that path on this machine"
                if is_path
                else f"no {name} is on the PATH Claude Code gives its hooks"
            ),
            "fix the path (hookcourse validate checks it)"
            if is_path
            else f"name {name} by its full path, or install it where that PATH looks",
        )
    elif "Permission denied" in stderr:
        yield Finding(
            "script-not-executable",
            Reach.STOPS_HOOK,
            "the script has no executable bit",
            place,
            f"sh exits 126 ({stderr.strip()[:120]})",
            "chmod +x the script (git add --chmod=+x), or run it through its interpreter",
        )
