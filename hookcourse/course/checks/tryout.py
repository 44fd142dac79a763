"""``try_calls``: run a faded example (a function with blanks) on a few calls, one line each.

A faded example sits between a worked function and a graded exercise: the learner
fills in its ``...`` blanks and re-runs its cell (and the calls' cell, when apart).
Unlike ``check_*`` it knows nothing of the fixtures: the notebook lists the calls and
what each should return. Whatever the learner's function does, even raising, comes back as a line.
While a blank is left, no call counts as right (a blank can return what one call
expects by chance), and the summary asks for the blanks; once none is left, it points
at the wrong lines instead.
It is drawn as a check report (``course/check_report.py``), without the report's JSON:
a faded example is practice, not a check the teacher build or progress counts.
"""

from __future__ import annotations

import ast
import inspect
import sys
import textwrap
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from types import CodeType, FrameType
from typing import Any, cast

from hookcourse.course.checks import kernel_hook
from hookcourse.course.checks.cases import same_json
from hookcourse.course.checks.check_report import (
    FAILING,
    PASSED,
    CheckReport,
    Row,
    render_html,
    render_text,
)
from hookcourse.js.values import JSValue

Call = tuple[tuple[object, ...], object]  # (arguments, expected return value)
Judge = Callable[[object], tuple[str, bool]]  # an answer -> (words after it, right or not)
JudgedCall = tuple[tuple[object, ...], Judge]  # (arguments, the judge of its answer)


@dataclass(frozen=True)
class Tryout:
    """Each call as a row (the call, what came back, right or not) and how many were right."""

    name: str
    rows: tuple[Row, ...]
    blanks: int = 0  # ``...`` blanks still in the function
    together: bool = False  # the function and the calls share one cell
    run_first: str | None = None  # the line naming a cell to run first (a NameError)

    @property
    def right(self) -> int:
        return sum(row.good for row in self.rows)

    @property
    def lines(self) -> tuple[str, ...]:
        """One ``✓``/``✗`` line per call."""
        return tuple(f"{'✓' if row.good else '✗'} {row.label} {row.detail}" for row in self.rows)

    def report(self) -> CheckReport:
        total = len(self.rows)
        again = "run this cell again" if self.together else "run both cells"
        if self.run_first is not None:
            summary = f"{self.right} of {total} right: {self.run_first}"
        elif self.blanks:
            summary = f"{self.right} of {total} right: fill in the ... blanks, then {again}"
        elif self.right == total:
            summary = f"all {total} right"
        else:
            summary = f"{self.right} of {total} right: fix what the ✗ lines show, then {again}"
        state = PASSED if self.right == total and not self.blanks else FAILING
        return CheckReport(self.name, "try_calls", state, summary, self.rows)

    def text(self) -> str:
        """The summary and a line per call, as the notebook shows them."""
        return render_text(self.report())

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(self.text())

    def _repr_html_(self) -> str:
        return render_html(self.report())


def _holds_ellipsis(constants: Iterable[object]) -> bool:
    """Whether code constants hold ``...``: itself, in a folded tuple, or in nested code."""
    return any(
        const is Ellipsis
        or (isinstance(const, tuple | frozenset) and _holds_ellipsis(const))
        or (isinstance(const, CodeType) and _holds_ellipsis(const.co_consts))
        for const in constants
    )


def blanks_left(fn: Callable[..., object]) -> int:
    """How many ``...`` blanks ``fn``'s source still holds (its docstring aside)."""
    code = getattr(fn, "__code__", None)
    if not isinstance(code, CodeType) or not _holds_ellipsis(code.co_consts):
        return 0
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):  # no source to read: the code says one at least
        return 1
    return sum(isinstance(node, ast.Constant) and node.value is Ellipsis for node in ast.walk(tree))


def try_calls(fn: Callable[..., object], calls: Sequence[Call]) -> Tryout:
    """Call ``fn`` with each call's arguments and compare with its expected value; while
    ``fn`` still holds a ``...`` blank, no call counts as right."""
    return try_judged(fn, [(arguments, _expecting(expected)) for arguments, expected in calls])


def _expecting(expected: object) -> Judge:
    """A judge that wants ``expected``, compared as JSON (a record, such as an ExitVerdict,
    by ==), and names it when the answer differs."""

    def judge(got: object) -> tuple[str, bool]:
        ok = same_json(cast(JSValue, expected), cast(JSValue, got))
        return ("" if ok else f", expected {expected!r}"), ok

    return judge


def try_judged(fn: Callable[..., object], calls: Sequence[JudgedCall]) -> Tryout:
    """Call ``fn`` with each call's arguments and let the call's judge read the answer
    (what to add after it, and whether it is right): for a faded step whose answers the
    notebook must not print. While ``fn`` still holds a ``...`` blank, no call counts."""
    rows = []
    blanks = blanks_left(fn)
    name = getattr(fn, "__name__", "fn")
    run_first = None
    for arguments, judge in calls:
        shown = f"{name}({', '.join(map(repr, arguments))})"
        try:
            got = fn(*arguments)
        except Exception as error:  # the learner's blanks may raise anything
            rows.append(Row(shown, f"raised {type(error).__name__}: {error}", False))
            if isinstance(error, NameError) and run_first is None:
                run_first = kernel_hook.cell_to_run(error.name or "")
            continue
        said, ok = judge(got)
        said = ", while a blank is left" if ok and blanks else said
        rows.append(Row(shown, f"-> {got!r}{said}", ok and not blanks))
    return Tryout(name, tuple(rows), blanks, _in_calling_cell(fn), run_first)


def _in_calling_cell(fn: Callable[..., object]) -> bool:
    """Whether ``fn`` was defined in the cell (the file) that called the course: the
    nearest frame outside the ``hookcourse`` package."""
    code = getattr(fn, "__code__", None)
    caller: FrameType | None = sys._getframe(1)
    while caller is not None and str(caller.f_globals.get("__name__", "")).startswith(
        "hookcourse."
    ):
        caller = caller.f_back
    return (
        isinstance(code, CodeType)
        and caller is not None
        and code.co_filename == caller.f_code.co_filename
    )
