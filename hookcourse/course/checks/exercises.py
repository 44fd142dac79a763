"""Self-checks for the notebook exercises: a learner's function against its stage's cases.

Every self-check the registry names is an attribute here (``check_matcher(match_hook)``,
``check_exit_code``, ``check_apply``, ``check_merge``, ``check_stop``, and the gate's and
guard's own ``check_gate``, ``check_guard``). A stage exercise's check runs every case
of the stage's case files, then fresh cases drawn with a seed it prints
(``hookcourse.course.checks.generators``; ``check_matcher(fn, seed=N)`` draws them again),
through the learner's function, exactly as the grader feeds the course's own, and
compares with the reference as ``hookcourse test`` does (``hookcourse.course.checks.cases``).
Nothing the learner's function does escapes as a traceback or hangs the check
(``hookcourse.course.checks.calling``), and neither the course's own functions nor a wrapper
around one ever passes (``hookcourse.course.checks.authorship``): a check is about the
learner's code.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path

from hookcourse.course.checks import learner_module
from hookcourse.course.checks.authorship import course_function, handed_to, watch_for
from hookcourse.course.checks.case_runs import CaseOutcome, run_case
from hookcourse.course.checks.cases import (
    FIXTURES,
    FixtureCase,
    clip,
    exercise_cases,
    visible,
)
from hookcourse.course.checks.check_report import (
    NOT_YET,
    CheckReport,
    Reported,
)
from hookcourse.course.checks.check_result import CheckResult
from hookcourse.course.checks.generators import choose_seed, draw
from hookcourse.course.teaching import progress
from hookcourse.stages.decoding import CaseError
from hookcourse.stages.registry import (
    EXERCISES,
    Exercise,
    exercise_checked_by,
    exercise_named,
    resolve,
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
