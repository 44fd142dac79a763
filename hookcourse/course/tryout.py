"""``try_calls``: run a faded example (a function with blanks) on a few calls, one line each.

A faded example sits between a worked function and a graded exercise: the learner
fills in its ``...`` blanks and re-runs the cell below it. Unlike ``check_*`` it
knows nothing of the fixtures: the notebook lists the calls and what each should
return. Whatever the learner's function does, even raising, comes back as a line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

Call = tuple[tuple[object, ...], object]  # (arguments, expected return value)


def same_value(expected: object, got: object) -> bool:
    """Equal as JavaScript would see the values: ``True`` is not ``1``, ``2`` is ``2.0``."""
    if isinstance(expected, bool) or isinstance(got, bool):
        return expected is got
    if isinstance(expected, int | float) and isinstance(got, int | float):
        return expected == got
    if isinstance(expected, dict) and isinstance(got, dict):
        return expected.keys() == got.keys() and all(
            same_value(expected[key], got[key]) for key in expected
        )
    if isinstance(expected, list) and isinstance(got, list):
        return len(expected) == len(got) and all(map(same_value, expected, got))
    return type(expected) is type(got) and expected == got


@dataclass(frozen=True)
class Tryout:
    """Each call's line (``✓``/``✗``, the call, what came back) and how many were right."""

    lines: tuple[str, ...]
    right: int

    def text(self) -> str:
        """The lines and a summary, as the notebook shows them."""
        total = len(self.lines)
        if self.right == total:
            summary = f"all {total} right"
        else:
            summary = f"{self.right} of {total} right: fill in the ... blanks, then run both cells"
        return "\n".join([*self.lines, summary])

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(self.text())


def try_calls(fn: Callable[..., object], calls: Sequence[Call]) -> Tryout:
    """Call ``fn`` with each call's arguments and compare with its expected value."""
    lines = []
    right = 0
    name = getattr(fn, "__name__", "fn")
    for arguments, expected in calls:
        shown = f"{name}({', '.join(map(repr, arguments))})"
        try:
            got = fn(*arguments)
        except Exception as error:  # the learner's blanks may raise anything
            lines.append(f"✗ {shown} raised {type(error).__name__}: {error}")
            continue
        ok = same_value(expected, got)
        right += ok
        wanted = "" if ok else f", expected {expected!r}"
        lines.append(f"{'✓' if ok else '✗'} {shown} -> {got!r}{wanted}")
    return Tryout(tuple(lines), right)
