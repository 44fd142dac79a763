"""Self-checks for the notebook exercises: a learner's function against its stage's cases.

Every self-check the registry names is an attribute here (``check_matcher(match_hook)``,
``check_exit_code``, ``check_apply``, ``check_merge``, ``check_stop``, and the gate's and
guard's own ``check_gate``, ``check_guard``). A stage exercise's check runs every case
of the stage's case files, then fresh cases drawn with a seed it prints
(``hookcourse.course.generators``; ``check_matcher(fn, seed=N)`` draws them again),
through the learner's function, exactly as the grader feeds the course's own, and
compares with the reference as ``hookcourse test`` does (``hookcourse.course.cases``).
Nothing the learner's function does escapes as a traceback or hangs the check
(``hookcourse.course.calling``), and neither the course's own functions nor a wrapper
around one ever passes (``hookcourse.course.authorship``): a check is about the
learner's code.
"""

from __future__ import annotations

import copy
import functools
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final

from hookcourse.course import calling, diagnosis, learner_module, progress
from hookcourse.course import hints as hint_data
from hookcourse.course.authorship import Watch, course_function, handed_to, watch_for
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
from hookcourse.course.check_report import (
    FAILING,
    NOT_YET,
    PASSED,
    CheckReport,
    Reported,
    Row,
)
from hookcourse.course.generators import choose_seed, draw
from hookcourse.js import json as jsjson
from hookcourse.js.values import JSValue
from hookcourse.stages.decoding import CaseError
from hookcourse.stages.registry import (
    EXERCISES,
    Exercise,
    exercise_checked_by,
    exercise_named,
    resolve,
)

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
    answer: JSValue | None = None  # the result as JSON, when it had the right shape

    def answered(self) -> diagnosis.Answered | None:
        """The case with both answers, when the function returned one of the right shape."""
        if self.difference is None and not self.passed:
            return None
        return diagnosis.Answered(self.case.decoded, self.case.expected, self.answer)

    def call(self, name: str) -> str:
        """The call as Python source, e.g. ``match_hook('Edit|Write', 'MultiEdit')``."""
        return visible(f"{name}({', '.join(repr(argument) for argument in self.case.arguments)})")


def run_case(
    exercise: Exercise, fn: Callable[..., object], case: FixtureCase, watch: Watch | None = None
) -> CaseOutcome | None:
    """Call ``fn`` on one case (with its own copy of the arguments) and judge the result;
    None for a drawn case the JavaScript reference refuses.

    A drawn case's answer is worked out only once ``fn`` has returned, so nothing the
    call can reach (its callers' frames, the heap) holds it.
    """
    family = exercise.family(case.decoded)
    profile = None if watch is None else watch.profile
    outcome = calling.call(fn, *copy.deepcopy(case.arguments), profile=profile)
    if case.drawn:
        try:
            case = replace(case, expected=exercise.answer_decoded(case.decoded))
        except CaseError:
            return None
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
    return CaseOutcome(case, family, difference is None, shown(got), difference, answer=got)


# -- reporting ---------------------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class CheckResult(Reported):
    """The outcome of ``check``: a table by case family, and the simplest failing case in full."""

    name: str
    outcomes: tuple[CaseOutcome, ...]
    problems: tuple[str, ...] = ()
    refusal: str | None = None  # why the function was not run: the whole summary line
    check: str = ""  # the self-check's name, for the replay line
    seed: int | None = None  # the seed of the drawn cases, None when none were drawn

    @property
    def hung(self) -> CaseOutcome | None:
        """The case on which the function did not return in time (the check stopped there)."""
        return next((o for o in self.outcomes if o.hung is not None), None)

    @property
    def not_yet(self) -> bool:
        """True when the function is still the starter (every case raised NotImplementedError)."""
        return bool(self.outcomes) and all(o.not_implemented for o in self.outcomes)

    @property
    def all_pass(self) -> bool:
        """True when every case passes, the fixtures had no problems and the code is yours."""
        return (
            bool(self.outcomes)
            and not self.problems
            and self.refusal is None
            and all(o.passed for o in self.outcomes)
        )

    @functools.cached_property
    def first_failure(self) -> CaseOutcome | None:
        """The simplest failing case: one of a form the notebook teaches, the seed's before
        the other case files', those before drawn ones, then the shortest call."""
        failures = [o for o in self.outcomes if not o.passed]
        return min(
            failures,
            key=lambda o: diagnosis.showing_order(self.name, o.case),
            default=None,
        )

    @functools.cached_property  # a report asks several times; the result is frozen
    def diagnosed(self) -> diagnosis.Diagnosis | None:
        """Which hint the first failure gets: the mistake that explains what differs, or the
        case's family when none does (or the function raised); None when all pass."""
        failure = self.first_failure
        if failure is None:
            return None
        answered = failure.answered()
        if answered is None:
            return diagnosis.Diagnosis(failure.family)
        others = [a for o in self.outcomes if o is not failure and (a := o.answered()) is not None]
        return diagnosis.diagnose(self.name, failure.family, answered, others)

    def hint(self) -> str | None:
        """What to do about the first failure: about the exception when the function raised."""
        failure = self.first_failure
        found = self.diagnosed
        if failure is None or found is None:
            return None
        family_hint = hint_data.hint(self.name, found.key)
        if failure.raised is None:
            return None if family_hint is None else f"({found.key}) {family_hint}"
        raised = hint_data.hints()["raised"]
        about = raised.get(failure.raised, raised["default"]).format(name=self.name)
        if failure.raised in _CELL_ERRORS or family_hint is None:
            return about
        return f"{about} This case is of the family {failure.family}: {family_hint}"

    def _counts(self) -> str:
        drawn = sum(o.case.drawn for o in self.outcomes)
        if not drawn:
            return ""
        written = len(self.outcomes) - drawn
        return f" ({written} from the case files, {drawn} drawn with seed {self.seed})"

    def _summary(self) -> str:
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
        if self.all_pass:
            return f"{self.name}: passed, all {total} cases{self._counts()}"
        passing = sum(o.passed for o in self.outcomes)
        replay = ""
        if self.seed is not None and any(o.case.drawn for o in self.outcomes):
            replay = f"; {self.check}({self.name}, seed={self.seed}) draws the same cases again"
        return f"{self.name}: {passing} of {total} cases pass{self._counts()}{replay}"

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

    def report(self) -> CheckReport:
        """The result as the one check report's data."""
        state = PASSED if self.all_pass else NOT_YET if self.not_yet else FAILING
        families = self.families() if self._table_visible() else []
        rows = tuple(
            Row(family, f"{passing}/{total}", passing == total)
            for family, passing, total in families
        )
        return CheckReport(
            exercise=self.name,
            check=self.check,
            state=state,
            summary=self._summary(),
            rows=rows,
            details_title="Simplest failing case",
            details=tuple(self.failure_rows()),
            notes=tuple(f"fixture problem: {problem}" for problem in self.problems),
            passed_cases=sum(o.passed for o in self.outcomes),
            total_cases=len(self.outcomes),
            failing=tuple(row.label for row in rows if not row.good),
            seed=self.seed,
        )


def _arity_problem(exercise: Exercise, fn: Callable[..., object]) -> str | None:
    """Why ``fn`` cannot take the exercise's arguments, or None (also when Python cannot say)."""
    wanted = list(inspect.signature(exercise.reference_function()).parameters)
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
        return _handed(exercise, handed)
    return _arity_problem(exercise, fn)


def _handed(exercise: Exercise, course: str) -> str:
    return (
        f"{exercise.function}: your function hands the work to the course's own {course}; "
        "write it yourself, then run your cell and this check again."
    )


def check(
    exercise: Exercise | str,
    fn: Callable[..., object],
    fixtures: Path = FIXTURES,
    *,
    seed: int | None = None,
) -> CheckResult:
    """Run ``fn`` over every fixture case of ``exercise`` and over fresh cases drawn with
    ``seed`` (a new one when None, ``$HOOKCOURSE_SEED`` if set), and report; never raises.
    With ``fixtures`` other than the course's, cases are drawn only for a given seed.

    The check stops at the first case on which ``fn`` does not return in time.
    """
    chosen = exercise if isinstance(exercise, Exercise) else exercise_named(str(exercise))
    if chosen is None or chosen.decode is None:
        names = [e.function for e in EXERCISES if e.decode is not None]
        refusal = f"no exercise named {exercise!r}; choose one of {', '.join(names)}"
        return CheckResult(str(exercise), (), refusal=refusal)
    refused = _refusal(chosen, fn)
    if refused is not None:
        return CheckResult(chosen.function, (), refusal=refused, check=chosen.check)
    learner_module.keep(chosen.function, fn)  # my_hooks.py: newest version wins
    cases, problems = exercise_cases(chosen, fixtures)
    # The course's case files come with drawn cases; a folder of one's own is graded as it
    # is unless a seed is given. Nothing is drawn when the case files cannot be read.
    drawing = cases and (seed is not None or fixtures == FIXTURES)
    seed = choose_seed(seed) if drawing else None
    if seed is not None:
        cases += drawn_fixture_cases(chosen, seed)
    outcomes: list[CaseOutcome] = []
    watch = watch_for(fn, frozenset(e.solution for e in EXERCISES))
    for case in cases:
        outcome = run_case(chosen, fn, case, watch)
        if watch is not None and watch.reached is not None:
            refusal = _handed(chosen, watch.reached)
            return CheckResult(chosen.function, (), refusal=refusal, check=chosen.check)
        if outcome is None:
            continue
        outcomes.append(outcome)
        if outcome.hung is not None:
            break
    result = CheckResult(
        chosen.function, tuple(outcomes), tuple(problems), None, chosen.check, seed
    )
    if outcomes:  # the learner's own function ran on the cases (a hang stops the run)
        record_check(chosen.function, result.report())
    return result


def drawn_fixture_cases(exercise: Exercise, seed: int) -> list[FixtureCase]:
    """The exercise's drawn cases for ``seed``, as cases of the check, their answers not
    yet worked out (``run_case`` does that after the learner's call)."""
    found: list[FixtureCase] = []
    for case in draw(exercise, seed):
        try:
            decoded = exercise.read(case)
        except CaseError:  # a draw the JavaScript reference refuses is not a graded case
            continue
        where = f"drawn case {len(found)} (seed {seed})"
        found.append(FixtureCase(where, decoded, None, drawn=True))
    return found


def record_check(function: str, report: CheckReport) -> None:
    """One progress line for a check that ran the learner's code, from its report's data.

    A starter fails every family without trying any: that says nothing about the traps.
    """
    exercise = exercise_named(function)
    assert exercise is not None, function
    failing = [] if report.state == NOT_YET else list(report.failing)
    progress.record(
        exercise.stage, exercise.function, report.passed_cases, report.total_cases, failing, "check"
    )


# A notebook self-check: the learner's function in (and ``seed=``), a report out.
Check = Callable[..., Reported]


def checker(exercise: Exercise) -> Check:
    """The self-check of one exercise: its own runner (gate, guard), or the case loop."""
    if exercise.runner is not None:
        runner: Check = resolve(exercise.runner)
        return runner

    def check_exercise(
        fn: Callable[..., object], fixtures: Path = FIXTURES, *, seed: int | None = None
    ) -> CheckResult:
        return check(exercise, fn, fixtures, seed=seed)

    check_exercise.__name__ = check_exercise.__qualname__ = exercise.check
    check_exercise.__doc__ = (
        f"Check a learner's ``{exercise.function}``: every case of its stage's case files "
        "and fresh cases drawn with ``seed`` (printed in the report)."
    )
    return check_exercise


def __getattr__(name: str) -> Check:
    """``check_matcher`` and every other self-check the registry names."""
    exercise = exercise_checked_by(name)
    if exercise is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return checker(exercise)


def __dir__() -> list[str]:
    return sorted({*globals(), *(exercise.check for exercise in EXERCISES)})
