"""Reading a RegExp pattern's text as the parser walks it, for the checks that need only
its structure (its groups), not a compiled pattern."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator


def outside_classes(pattern: str) -> Iterator[int]:
    """The index of each character of ``pattern``, left to right, that is neither part of
    an escape nor inside a character class (nor the class's brackets)."""
    in_class = False
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        else:
            yield i
        i += 1
