"""The course's graded stages, in course order: the one list the grader, checks, labs, tests
and docs read.

A stage is one ``your_program.sh`` command over one case file
(``fixtures/<slug>/case.json`` plus each ``extra/<name>/case.json``). Each of its
exercises is one function the learner writes, mapped over one list of that file
(``case_key``) into one key of the printed document (``output_key``), exactly as the
seed's ``program.ts`` does. Adding a stage: see "Adding a stage" in docs/ARCHITECTURE.md.

Kept to ``record`` and the stage modules: the grader's cold path imports this.
"""

from __future__ import annotations

from hookcourse.record import Record
from hookcourse.stages.decoding import apply_arguments, exit_arguments, match_arguments
from hookcourse.stages.effects import apply_pre_tool_use
from hookcourse.stages.matcher import match_hook
from hookcourse.stages.merge import merge_arguments, merge_case
from hookcourse.stages.stop_loop import stop_arguments, stop_case
from hookcourse.stages.verdicts import interpret_exit_code

TYPE_CHECKING = False  # typing would cost the grader's cold start
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Final

    from hookcourse.js.values import JSValue, Undefined

    Arguments = tuple[JSValue | Undefined, ...]


class Exercise(Record):
    """One function the learner writes, graded over one list of its stage's case file.

    ``function`` is its Python name (and its key in ``data/exercise_hints.json``),
    ``decode`` turns one case into its arguments (or raises ``CaseError``),
    ``reference`` is the course's own implementation, ``check`` the name of its
    notebook self-check in ``hookcourse.course.exercises``, ``notebook`` the notebook
    (without ``.ipynb``) whose exercise cell defines it.
    """

    _fields = ("function", "case_key", "output_key", "decode", "reference", "check", "notebook")
    __slots__ = _fields
    function: str
    case_key: str
    output_key: str
    decode: Callable[[JSValue], Arguments]
    reference: Callable[..., Any]
    check: str
    notebook: str

    def __init__(
        self,
        function: str,
        case_key: str,
        output_key: str,
        decode: Callable[[JSValue], Arguments],
        reference: Callable[..., Any],
        check: str,
        notebook: str,
    ) -> None:
        self._fill(function, case_key, output_key, decode, reference, check, notebook)

    def answer(self, case: JSValue) -> JSValue:
        """The reference's answer to one case, as the JSON value the program prints."""
        return _as_json(self.reference(*self.decode(case)))


def _as_json(result: Any) -> JSValue:
    """A reference's result as JSON: records by their ``to_json``, lists item by item."""
    if isinstance(result, list):
        return [_as_json(item) for item in result]
    to_json = getattr(result, "to_json", None)
    answered: JSValue = to_json() if to_json is not None else result
    return answered


class Stage(Record):
    """One graded stage: ``slug`` (also its fixture folder), title, grader command, exercises."""

    _fields = ("slug", "title", "command", "exercises")
    __slots__ = _fields
    slug: str
    title: str
    command: str
    exercises: tuple[Exercise, ...]

    def __init__(
        self, slug: str, title: str, command: str, exercises: tuple[Exercise, ...]
    ) -> None:
        self._fill(slug, title, command, exercises)

    @property
    def output_keys(self) -> tuple[str, ...]:
        """The printed document's keys, in the order the program writes them."""
        return tuple(exercise.output_key for exercise in self.exercises)


STAGES: Final = (
    Stage(
        "matcher-and-dispatch",
        "Matcher and dispatch",
        "hook-match",
        (
            Exercise(
                "match_hook",
                "cases",
                "matches",
                match_arguments,
                match_hook,
                "check_matcher",
                "01_matcher",
            ),
            Exercise(
                "interpret_exit_code",
                "exitCases",
                "exits",
                exit_arguments,
                interpret_exit_code,
                "check_exit_code",
                "02_exit_codes",
            ),
        ),
    ),
    Stage(
        "decide-and-modify",
        "Decide and modify",
        "hook-apply",
        (
            Exercise(
                "apply_pre_tool_use",
                "cases",
                "effects",
                apply_arguments,
                apply_pre_tool_use,
                "check_apply",
                "03_decide_modify_inject",
            ),
        ),
    ),
    Stage(
        "merge-decisions",
        "Several hooks, one decision",
        "hook-merge",
        (
            Exercise(
                "merge_pre_tool_use",
                "cases",
                "merged",
                merge_arguments,
                merge_case,
                "check_merge",
                "05_several_hooks",
            ),
        ),
    ),
    Stage(
        "stop-loop",
        "Keep going, but not forever",
        "hook-stop",
        (
            Exercise(
                "run_stop_loop",
                "cases",
                "loops",
                stop_arguments,
                stop_case,
                "check_stop",
                "06_stop_loop",
            ),
        ),
    ),
)


def stage_named(slug: str) -> Stage | None:
    """The stage with this slug, or None."""
    return next((stage for stage in STAGES if stage.slug == slug), None)


def stage_for_command(command: str) -> Stage | None:
    """The stage your_program.sh runs for ``command`` (``hook-match``, ...), or None."""
    return next((stage for stage in STAGES if stage.command == command), None)


def exercise_named(function: str) -> Exercise | None:
    """The exercise whose function is called ``function``, or None."""
    every = (exercise for stage in STAGES for exercise in stage.exercises)
    return next((exercise for exercise in every if exercise.function == function), None)


def stage_of(exercise: Exercise) -> Stage:
    """The stage an exercise belongs to."""
    return next(stage for stage in STAGES if exercise in stage.exercises)
