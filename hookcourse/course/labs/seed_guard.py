"""Seed 002's guard, ``no-force-push.sh``, as the test it performs, for a kernel with no
processes (the browser).

The script reads the command with ``python3 -c '...print(...["tool_input"].get("command",
""))'``, keeps it through ``$(...)`` and tests it with one ``case``: each pattern is
``*"text"*``, a plain substring test. ``seed_patterns`` reads those texts from the script
itself, so this is the same test as the script, not a second copy of it; ``seed_guard_run``
answers a payload with the exit code and stderr the script gives. It is not the script:
bash and python3 do not run, so their own failures (a payload that is not JSON, say) are
told in a line of their own rather than in their words.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Final

from hookcourse.course.checks.cases import FIXTURES
from hookcourse.engine.api import HookRun

SEED_GUARD: Final = FIXTURES / "force-push-guard" / ".claude" / "hooks" / "no-force-push.sh"
# One ``case`` arm: the patterns, then the command that blocks.
_ARM: Final = re.compile(
    r'^\s*(\*"[^"]*"\*(?:\s*\|\s*\*"[^"]*"\*)*)\s*\)\s*echo "([^"]*)" >&2; exit 2'
)
_PATTERN: Final = re.compile(r'\*"([^"]*)"\*')


def seed_patterns(script: Path = SEED_GUARD) -> tuple[tuple[str, ...], str]:
    """The texts the script's ``case`` looks for, and the reason it prints when one is found."""
    for line in script.read_text(encoding="utf-8").splitlines():
        arm = _ARM.match(line)
        if arm:
            return tuple(_PATTERN.findall(arm.group(1))), arm.group(2)
    raise ValueError(f'{script.name} has no case arm of the form *"text"*) ... exit 2')


def _printed(payload_json: str) -> str:
    """What the script's python3 prints (less print's newline); raises where it fails."""
    text = str(json.loads(payload_json)["tool_input"].get("command", ""))
    text.encode("utf-8")  # print fails on a lone surrogate
    return text


def command_text(payload_json: str) -> str | None:
    """What ``cmd=$(python3 -c ...)`` holds, or None when that python3 fails (cmd is empty).

    ``print`` writes ``str()`` of whatever the field holds and a newline; ``$(...)`` drops
    every trailing newline, and bash drops NUL characters from the captured text.
    """
    try:
        text = _printed(payload_json)
    except (ValueError, TypeError, KeyError, AttributeError, UnicodeEncodeError):
        return None
    return text.replace("\0", "").rstrip("\n")


def _nul_warning(script: Path) -> str:
    """bash's warning when ``$(...)`` drops NUL characters, naming the script's line."""
    lines = script.read_text(encoding="utf-8").splitlines()
    line = next((n for n, text in enumerate(lines, 1) if "$(" in text), 0)
    warning = "warning: command substitution: ignored null byte in input"
    return f"{script.resolve()}: line {line}: {warning}\n"


def seed_guard_run(payload_json: str, script: Path = SEED_GUARD) -> HookRun:
    """What the engine's runner would observe running the script on ``payload_json``."""
    patterns, reason = seed_patterns(script)
    text = command_text(payload_json)
    if text is None:
        stderr = "python3 could not read the command, so cmd is empty\n"
    else:
        stderr = _nul_warning(script) if "\0" in _printed(payload_json) else ""
    blocked = text is not None and any(pattern in text for pattern in patterns)
    return HookRun(
        handler_type="command",
        exit_code=2 if blocked else 0,
        stdout="",
        stderr=stderr + (f"{reason}\n" if blocked else ""),
        timed_out=False,
        start_error=None,
        label=f"the test of {script.name}, run in this kernel",
    )


def same_test_note(script: Path = SEED_GUARD) -> str:
    """One line for the learner: what ran in place of the script."""
    patterns, _ = seed_patterns(script)
    tested = " or ".join(json.dumps(pattern) for pattern in patterns)
    return (
        f"(In the browser: not the bash script {script.name} itself, which needs processes, "
        f"but the same test it performs, read from it: does the command contain {tested}?)"
    )
