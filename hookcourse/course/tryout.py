"""``try_calls``: run a faded example (a function with blanks) on a few calls, one line each.

A faded example sits between a worked function and a graded exercise: the learner
fills in its ``...`` blanks and re-runs the cell below it. Unlike ``check_*`` it
knows nothing of the fixtures: the notebook lists the calls and what each should
return. Whatever the learner's function does, even raising, comes back as a line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from hookcourse.course.cases import same_json
from hookcourse.js.values import JSValue

Call = tuple[tuple[object, ...], object]  # (arguments, expected return value)


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
        # JSON equality as the checks see it; a record (an ExitVerdict) compares by ==.
        ok = same_json(cast(JSValue, expected), cast(JSValue, got))
        right += ok
        wanted = "" if ok else f", expected {expected!r}"
        lines.append(f"{'✓' if ok else '✗'} {shown} -> {got!r}{wanted}")
    return Tryout(tuple(lines), right)
