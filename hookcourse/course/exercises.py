"""Self-checks for the notebook exercises: a learner's function against its stage's fixtures.

``check_matcher(match_hook)``, ``check_exit_code(interpret_exit_code)``,
``check_apply(apply_pre_tool_use)``, ``check_merge(merge_pre_tool_use)`` and
``check_stop(run_stop_loop)`` (one per exercise of the stage registry) run
every case of the stage's case files through the learner's function, exactly as the
grader feeds the course's own, and compare with ``expected.json`` as
``hookcourse test`` does (``hookcourse.course.cases``). Nothing the learner's
function does escapes as a traceback or hangs the check (``hookcourse.course.calling``),
and neither the course's own functions nor a wrapper around one ever passes
(``hookcourse.course.authorship``): a check is about the learner's code.
"""

from __future__ import annotations

import copy
import html
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from hookcourse.course import calling, progress
from hookcourse.course import hints as hint_data
from hookcourse.course.authorship import course_function, handed_to
from hookcourse.course.cases import (
    FIXTURES,
    Difference,
    FixtureCase,
    clip,
    exercise_cases,
    first_difference,
    shown,
    visible,
)
from hookcourse.js import json as jsjson
from hookcourse.js.values import JSValue
from hookcourse.stages.registry import STAGES, Exercise, exercise_named, stage_of

PASS_COLOUR: Final = "#1a7f37"
FAIL_COLOUR: Final = "#b42318"
NOT_YET_COLOUR: Final = "#9a6700"
# A raise in these is about the learner's cell (a lost import, a typo, a sys.exit), not
# about the case.
_CELL_ERRORS: Final = frozenset({"NameError", "ImportError", "ModuleNotFoundError", "SystemExit"})


class WrongReturn(ValueError):
    """A learner's return value of the wrong shape; the message says what was expected."""


def _kind(value: object) -> str:
    return "None" if value is None else f"a {type(value).__name__}"


def returned_json(value: object, expected: JSValue) -> JSValue:
    """A learner's return value as the JSON the grader would print, shaped like ``expected``."""
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        value = to_json()
    if isinstance(expected, bool):
        if isinstance(value, bool):
            return value
        if value is None:
            raise WrongReturn("returned None: does every branch return True or False?")
        raise WrongReturn(f"returned {value!r} ({type(value).__name__}); return True or False")
    if isinstance(expected, dict) and not isinstance(value, Mapping):
        keys = ", ".join(expected)
        raise WrongReturn(f"returned {_kind(value)}; return a dict with the keys {keys}")
    if isinstance(expected, list) and not isinstance(value, list | tuple):
        raise WrongReturn(f"returned {_kind(value)}; return a list")
    try:
        # JSON.stringify's view: undefined members vanish, every number is a double.
        plain = dict(value) if isinstance(value, Mapping) else value
        return jsjson.parse(jsjson.stringify(plain))
    except Exception as error:
        raise WrongReturn(f"returned {_kind(value)} JSON cannot hold ({error})") from None


# -- running -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CaseOutcome:
    """One case run through the learner's function."""

    case: FixtureCase
    family: str
    passed: bool
    got: str  # the result as JSON, or what went wrong instead
    difference: Difference | None = None
    raised: str | None = None  # the exception's class name, when the function raised
    not_implemented: bool = False
    hung: calling.Hung | None = None  # set when it did not return within the time limit

    def call(self, name: str) -> str:
        """The call as Python source, e.g. ``match_hook('Edit|Write', 'MultiEdit')``."""
        return visible(f"{name}({', '.join(repr(argument) for argument in self.case.arguments)})")


def run_case(exercise: Exercise, fn: Callable[..., object], case: FixtureCase) -> CaseOutcome:
    """Call ``fn`` on one case (with its own copy of the arguments) and judge the result."""
    family = hint_data.family(exercise.function, case.arguments)
    outcome = calling.call(fn, *copy.deepcopy(case.arguments))
    if isinstance(outcome, calling.Hung):
        late = f"did not return within {outcome.seconds:g} s"
        return CaseOutcome(case, family, False, late, hung=outcome)
    if isinstance(outcome, calling.Raised):
        if isinstance(outcome.error, NotImplementedError):
            return CaseOutcome(case, family, False, outcome.text(), not_implemented=True)
        return CaseOutcome(case, family, False, outcome.text(), raised=outcome.name)
    try:
        got = returned_json(outcome.value, case.expected)
    except WrongReturn as wrong:
        return CaseOutcome(case, family, False, str(wrong))
    difference = first_difference(case.expected, got)
    return CaseOutcome(case, family, difference is None, shown(got), difference)


# -- reporting ---------------------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class CheckResult:
    """The outcome of ``check``: a table by case family, and the simplest failing case in full."""

    name: str
    outcomes: tuple[CaseOutcome, ...]
    problems: tuple[str, ...] = ()
    refusal: str | None = None  # why the function was not run: the whole summary line

    @property
    def passed(self) -> bool:
        """True when every case passes, the fixtures had no problems and the code is yours."""
        return (
            bool(self.outcomes)
            and not self.problems
            and self.refusal is None
            and all(o.passed for o in self.outcomes)
        )

    @property
    def hung(self) -> CaseOutcome | None:
        """The case on which the function did not return in time (the check stopped there)."""
        return next((o for o in self.outcomes if o.hung is not None), None)

    @property
    def not_yet(self) -> bool:
        """True when the function is still the starter (every case raised NotImplementedError)."""
        return bool(self.outcomes) and all(o.not_implemented for o in self.outcomes)

    @property
    def first_failure(self) -> CaseOutcome | None:
        """The simplest failing case: the seed's cases first, then the shortest call."""
        failures = [o for o in self.outcomes if not o.passed]
        return min(failures, key=lambda o: o.case.simplicity(), default=None)

    def hint(self) -> str | None:
        """What to do about the first failure: about the exception when the function raised."""
        failure = self.first_failure
        if failure is None:
            return None
        family_hint = hint_data.hint(self.name, failure.family)
        if failure.raised is None:
            return None if family_hint is None else f"({failure.family}) {family_hint}"
        raised = hint_data.hints()["raised"]
        about = raised.get(failure.raised, raised["default"]).format(name=self.name)
        if failure.raised in _CELL_ERRORS or family_hint is None:
            return about
        return f"{about} This case is of the family {failure.family}: {family_hint}"

    def summary(self) -> str:
        """One line: passed, not yet, or how many cases pass."""
        if self.refusal is not None:
            return self.refusal
        hung = self.hung
        if hung is not None and hung.hung is not None:
            return (
                f"{self.name}: stopped. Your function did not return within "
                f"{hung.hung.seconds:g} s on {hung.case.where}: {hung.call(self.name)}. "
                f"Look for a loop that never ends. {hung.hung.after()}"
            )
        if self.not_yet:
            return (
                f"{self.name}: not yet. Your function still raises NotImplementedError: "
                "write its body, then run this cell again."
            )
        total = len(self.outcomes)
        if not total:
            return f"{self.name}: cannot run, see the problems below"
        passing = sum(o.passed for o in self.outcomes)
        if self.passed:
            return f"{self.name}: passed, all {total} cases"
        return f"{self.name}: {passing} of {total} cases pass"

    def families(self) -> list[tuple[str, int, int]]:
        """(family, passing, total) in the order families first appear."""
        counts: dict[str, list[int]] = {}
        for outcome in self.outcomes:
            tally = counts.setdefault(outcome.family, [0, 0])
            tally[0] += outcome.passed
            tally[1] += 1
        return [(family, passing, total) for family, (passing, total) in counts.items()]

    def failure_rows(self) -> list[tuple[str, str]]:
        """The first failing case as labelled rows: case, call, expected, got, difference, hint."""
        failure = self.first_failure
        if failure is None or not self._table_visible():
            return []
        rows = [
            ("case", failure.case.where),
            ("call", failure.call(self.name)),
            ("expected", shown(failure.case.expected)),
            ("got", visible(failure.got)),
        ]
        if failure.difference is not None and failure.difference.path:
            rows.append(("difference", failure.difference.text()))
        hint = self.hint()
        if hint:
            rows.append(("hint", hint))
        return rows

    def _table_visible(self) -> bool:
        return not self.not_yet and self.refusal is None and self.hung is None

    def text(self) -> str:
        """The whole report as plain text."""
        lines = [self.summary()]
        lines += [f"  fixture problem: {problem}" for problem in self.problems]
        if not self._table_visible():
            return "\n".join(lines)
        width = max((len(family) for family, _, _ in self.families()), default=0)
        for family, passing, total in self.families():
            mark = "✓" if passing == total else "✗"
            lines.append(f"  {mark} {family:<{width}}  {passing}/{total}")
        rows = self.failure_rows()
        if rows:
            lines.append("Simplest failing case:")
            lines += [f"  {label:<10}  {value}" for label, value in rows]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        colour = PASS_COLOUR if self.passed else NOT_YET_COLOUR if self.not_yet else FAIL_COLOUR
        parts = [f"<p><b style='color:{colour}'>{html.escape(self.summary())}</b></p>"]
        parts += [f"<p>fixture problem: {html.escape(p)}</p>" for p in self.problems]
        if not self._table_visible():
            return "".join(parts)
        cell = "style='text-align:left;vertical-align:top;padding:0 1em 0 0'"
        parts.append(
            f"<table style='margin-left:0'><tr><th {cell}></th><th {cell}>case family</th>"
            f"<th {cell}>pass</th></tr>"
        )
        for family, passing, total in self.families():
            ok = passing == total
            mark = (
                f"<span style='color:{PASS_COLOUR if ok else FAIL_COLOUR}'>"
                f"{'&#10003;' if ok else '&#10007;'}</span>"
            )
            parts.append(
                f"<tr><td {cell}>{mark}</td><td {cell}>{html.escape(family)}</td>"
                f"<td {cell}>{passing}/{total}</td></tr>"
            )
        parts.append("</table>")
        rows = self.failure_rows()
        if rows:
            # Values wrap in the cell; a hint is advice, never cut (a case's values may be).
            wrap = "style='white-space:pre-wrap;overflow-wrap:anywhere'"
            cells = "".join(
                f"<tr><th {cell}>{label}</th><td {cell}><code {wrap}>"
                f"{html.escape(value if label == 'hint' else clip(value, 400))}</code></td></tr>"
                for label, value in rows
            )
            parts.append(
                f"<p>Simplest failing case:</p><table style='margin-left:0'>{cells}</table>"
            )
        return "".join(parts)


def _arity_problem(exercise: Exercise, fn: Callable[..., object]) -> str | None:
    """Why ``fn`` cannot take the exercise's arguments, or None (also when Python cannot say)."""
    wanted = list(inspect.signature(exercise.reference).parameters)
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):  # a builtin without a signature: let the cases tell
        return None
    try:
        signature.bind(*wanted)
    except TypeError:
        header = f"def {exercise.function}({', '.join(wanted)}):"
        return (
            f"{exercise.function}: your function takes the wrong number of arguments: "
            f"the check calls it with {len(wanted)} ({', '.join(wanted)}), and yours is "
            f"defined as {signature}. Make its first line {header} then run your cell "
            "and this check again."
        )
    return None


def _refusal(exercise: Exercise, fn: object) -> str | None:
    """Why ``fn`` is not run at all: not a function, the course's own, or the wrong shape."""
    name = exercise.function
    if not callable(fn):
        got = clip(visible(repr(fn)), 80)
        return f"{exercise.check} takes your function, e.g. {exercise.check}({name}); got {got}"
    own = course_function(fn)
    if own is not None:
        return (
            f"{name}: this is the course's own function ({own}), not yours. Run your "
            f"exercise cell (the one that defines {name}), then run this check again."
        )
    handed = handed_to(fn)
    if handed is not None:
        return (
            f"{name}: your function hands the work to the course's own {handed}; "
            "write it yourself, then run your cell and this check again."
        )
    return _arity_problem(exercise, fn)


def check(
    exercise: Exercise | str, fn: Callable[..., object], fixtures: Path = FIXTURES
) -> CheckResult:
    """Run ``fn`` over every fixture case of ``exercise`` and report; never raises.

    The check stops at the first case on which ``fn`` does not return in time.
    """
    chosen = exercise if isinstance(exercise, Exercise) else exercise_named(str(exercise))
    if chosen is None:
        names = [e.function for stage in STAGES for e in stage.exercises]
        refusal = f"no exercise named {exercise!r}; choose one of {', '.join(names)}"
        return CheckResult(str(exercise), (), refusal=refusal)
    refused = _refusal(chosen, fn)
    if refused is not None:
        return CheckResult(chosen.function, (), refusal=refused)
    cases, problems = exercise_cases(chosen, fixtures)
    outcomes: list[CaseOutcome] = []
    for case in cases:
        outcomes.append(run_case(chosen, fn, case))
        if outcomes[-1].hung is not None:
            break
    result = CheckResult(chosen.function, tuple(outcomes), tuple(problems))
    # A starter fails every family without trying any: that says nothing about the traps.
    families = [] if result.not_yet else result.families()
    failing = [family for family, passing, total in families if passing < total]
    passed = sum(o.passed for o in outcomes)
    if outcomes:  # the learner's own function ran on the cases (a hang stops the run)
        slug = stage_of(chosen).slug
        progress.record(slug, chosen.function, passed, len(cases), failing, "check")
    return result


def check_matcher(fn: Callable[..., object], fixtures: Path = FIXTURES) -> CheckResult:
    """Check a learner's ``match_hook(matcher, tool_name)``."""
    return check("match_hook", fn, fixtures)


def check_exit_code(fn: Callable[..., object], fixtures: Path = FIXTURES) -> CheckResult:
    """Check a learner's ``interpret_exit_code(code, stderr)``."""
    return check("interpret_exit_code", fn, fixtures)


def check_apply(fn: Callable[..., object], fixtures: Path = FIXTURES) -> CheckResult:
    """Check a learner's ``apply_pre_tool_use(output, tool_input)``."""
    return check("apply_pre_tool_use", fn, fixtures)


def check_merge(fn: Callable[..., object], fixtures: Path = FIXTURES) -> CheckResult:
    """Check a learner's ``merge_pre_tool_use(results, tool_input)``."""
    return check("merge_pre_tool_use", fn, fixtures)


def check_stop(fn: Callable[..., object], fixtures: Path = FIXTURES) -> CheckResult:
    """Check a learner's ``run_stop_loop(hook, cap)``."""
    return check("run_stop_loop", fn, fixtures)
