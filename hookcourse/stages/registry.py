"""The course's exercises and graded stages, in course order: the one list of each.

A graded stage is a folder of this package (``matcher_and_dispatch/``...) whose
``reference.py`` ends with its ``STAGE`` (``descriptor.Stage``): the registry finds every
such folder (``discover``) and orders the stages by their notebooks. A ``Stage`` is one
``your_program.sh`` command over one case file (``fixtures/case.json`` in its folder plus
each ``fixtures/extra/<name>/case.json``); its exercises are mapped over one list of that
file (``case_key``) into one key of the printed document (``output_key``), exactly as the
seed's ``program.ts`` does. Exercises of no graded stage (the decision gate, the guard)
have a check of their own (``runner``) and are listed here. Adding a stage: see
docs/contributing.md.

Kept to ``record`` and the stage references: the grader's cold path imports this.
"""

from __future__ import annotations

import os

from hookcourse.stages.descriptor import DEFAULT_FAMILY, Exercise, Stage, as_json, resolve

TYPE_CHECKING = False  # typing would cost the grader's cold start
if TYPE_CHECKING:
    from typing import Final

__all__ = [
    "DEFAULT_FAMILY",
    "EXERCISES",
    "STAGES",
    "Exercise",
    "Stage",
    "as_json",
    "discover",
    "exercise_checked_by",
    "exercise_named",
    "resolve",
    "stage_for_command",
    "stage_named",
    "stage_of",
]

HERE: Final = os.path.dirname(os.path.abspath(__file__))


def discover(
    folder: str = HERE, package: str = __package__ or "hookcourse.stages"
) -> tuple[Stage, ...]:
    """Every stage folder's ``STAGE`` (a folder with a ``reference.py``), in course order."""
    found = []
    for name in sorted(os.listdir(folder)):
        if os.path.isfile(os.path.join(folder, name, "reference.py")):
            found.append(resolve(f"{package}.{name}.reference:STAGE"))
    return tuple(sorted(found, key=lambda stage: stage.notebook))


STAGES: Final = discover()

OWN_CHECKS: Final = (
    Exercise(
        "pick_hook",
        stage="choose-a-hook",
        notebook="04_events",
        check="check_gate",
        reference="hookcourse.course.labs.events:gate_answer",
        families=("deterministic", "evaluative"),
        solution="hookcourse.solutions.choose_a_hook:pick_hook",
        runner="hookcourse.course.labs.events:check_gate",
    ),
    Exercise(
        "is_force_push",
        stage="force-push-guard",
        notebook="07_a_guard_that_holds",
        check="check_guard",
        reference="hookcourse.solutions.force_push_guard:is_force_push",
        families=("block", "allow"),
        generate="hookcourse.course.checks.generators:guard_commands",
        solution="hookcourse.solutions.force_push_guard:is_force_push",
        runner="hookcourse.course.labs.guard:check_guard",
    ),
)

EXERCISES: Final = tuple(
    sorted(
        (*(exercise for stage in STAGES for exercise in stage.exercises), *OWN_CHECKS),
        key=lambda exercise: exercise.notebook,
    )
)


def stage_named(slug: str) -> Stage | None:
    """The graded stage with this slug, or None."""
    return next((stage for stage in STAGES if stage.slug == slug), None)


def stage_for_command(command: str) -> Stage | None:
    """The stage your_program.sh runs for ``command`` (``hook-match``, ...), or None."""
    return next((stage for stage in STAGES if stage.command == command), None)


def exercise_named(function: str) -> Exercise | None:
    """The exercise whose function is called ``function``, or None."""
    return next((exercise for exercise in EXERCISES if exercise.function == function), None)


def exercise_checked_by(check: str) -> Exercise | None:
    """The exercise whose self-check is called ``check`` (``check_matcher``...), or None."""
    return next((exercise for exercise in EXERCISES if exercise.check == check), None)


def stage_of(exercise: Exercise) -> Stage | None:
    """The graded stage an exercise belongs to, or None (the gate, the guard)."""
    return stage_named(exercise.stage)
