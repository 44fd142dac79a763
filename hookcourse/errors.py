"""Input errors as one line: what is wrong, where (file and JSON path), and how to fix it."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Final

_IDENTIFIER_SAFE: Final = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$"
)


def json_path(steps: Sequence[str | int]) -> str:
    """``["cases", 3, "matcher"]`` -> ``$.cases[3].matcher``."""
    from hookcourse.js.json import quote

    parts = ["$"]
    for step in steps:
        if isinstance(step, int):
            parts.append(f"[{step}]")
        elif step and set(step) <= _IDENTIFIER_SAFE and not step[0].isdigit():
            parts.append(f".{step}")
        else:
            parts.append(f"[{quote(step)}]")
    return "".join(parts)


def json_syntax_fix(text: str) -> str:
    """The fix for a document ``JSON.parse`` rejected; a byte-order mark first has its own.

    Editors on Windows save one; JSON.parse rejects it, so the fix is in the save, not the JSON.
    """
    if text.startswith("\ufeff"):
        return "save the file as UTF-8 without a byte-order mark"
    return "fix the JSON syntax at that line and column"


def visible(text: str, keep: str = "") -> str:
    """``text`` with every unprintable character (NUL, escapes, lone surrogates) written as
    its Python escape, except those in ``keep``: safe to print to any terminal."""
    return "".join(ch if ch.isprintable() or ch in keep else repr(ch)[1:-1] for ch in text)


class InputError(Exception):
    """Input the program cannot process; ``str()`` is the one line a user sees."""

    def __init__(self, where: str, problem: str, fix: str, path: Sequence[str | int] = ()) -> None:
        super().__init__(problem)
        self.where = where
        self.problem = problem
        self.fix = fix
        self.path = tuple(path)

    def __str__(self) -> str:
        location = f"{self.where}: {json_path(self.path)}" if self.path else self.where
        line = f"{location}: {self.problem}; fix: {self.fix}"
        # One line whatever the parts contain: control characters are shown escaped.
        return visible(line)
