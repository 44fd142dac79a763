"""The course's exercises and graded stages, in course order: the one description of each.

An ``Exercise`` is one function the learner writes, described whole: its notebook and
self-check, its reference (the course's own answer), how a case is read (``decode``,
once), its case families and their classifier, its case generator and the teacher's
solution. A ``Stage`` is one ``your_program.sh`` command over one case file
(``fixtures/<slug>/case.json`` plus each ``extra/<name>/case.json``); its exercises
are those whose ``stage`` is its slug, each mapped over one list of that file
(``case_key``) into one key of the printed document (``output_key``), exactly as the
seed's ``program.ts`` does. Exercises of no graded stage (the decision gate, the
guard) have a check of their own (``runner``).

What lives above this layer (course/, solutions/) is named by dotted path
(``"module:attribute"``), resolved only when asked (``resolve``);
``tests/core/test_registry.py`` resolves every one. Adding a stage: see "Adding a
stage" in docs/ARCHITECTURE.md.

Kept to ``record`` and the stage modules: the grader's cold path imports this.
"""

from __future__ import annotations

from hookcourse.record import Record
from hookcourse.stages.decoding import Decoded, apply_arguments, exit_arguments, match_arguments
from hookcourse.stages.effects import apply_pre_tool_use
from hookcourse.stages.matcher import match_hook
from hookcourse.stages.merge import merge_arguments, merge_pre_tool_use
from hookcourse.stages.run_hooks.reference import run_arguments, run_hooks
from hookcourse.stages.stop_loop import run_stop_loop, stop_arguments
from hookcourse.stages.verdicts import interpret_exit_code

TYPE_CHECKING = False  # typing would cost the grader's cold start
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Final

    from hookcourse.js.values import JSValue

    Dotted = str  # "package.module:attribute", resolved by ``resolve``


def resolve(dotted: Dotted) -> Any:
    """The object a ``"module:attribute"`` path names (imported on first use)."""
    module_name, _, attribute = dotted.partition(":")
    module = __import__(module_name, fromlist=["_"])  # the builtin: no importlib at cold start
    return getattr(module, attribute)


class Exercise(Record):
    """One function the learner writes, and everything the course knows about it.

    ``function`` is its Python name (and its key in ``data/exercise_hints.json``);
    ``stage`` the slug its progress is recorded under (a graded stage's, or its own);
    ``notebook`` (without ``.ipynb``) holds its exercise cell; ``check`` is the name of
    its self-check in ``hookcourse.course.exercises``. ``reference`` is the course's
    answer, called on ``decode(case).parsed``; the learner's function gets
    ``decode(case).given``. ``case_key`` and ``output_key`` ("" outside a graded stage)
    are its lists in the case file and the printed document, ``fields`` the keys of one
    case in argument order. ``families`` are its hint families; ``classify`` (dotted)
    tells a decoded case's family; ``generate`` (dotted) draws fresh cases from a
    ``random.Random``; ``solution`` (dotted) is the teacher's function; ``runner``
    (dotted), when set, is a check of its own instead of the case loop.
    """

    _fields = (
        "function",
        "stage",
        "notebook",
        "check",
        "reference",
        "decode",
        "case_key",
        "output_key",
        "fields",
        "families",
        "classify",
        "generate",
        "solution",
        "runner",
    )
    __slots__ = _fields
    function: str
    stage: str
    notebook: str
    check: str
    reference: Callable[..., Any] | Dotted
    decode: Callable[[JSValue], Decoded] | None
    case_key: str
    output_key: str
    fields: tuple[str, ...]
    families: tuple[str, ...]
    classify: Dotted | None
    generate: Dotted | None
    solution: Dotted
    runner: Dotted | None

    def __init__(
        self,
        function: str,
        *,
        stage: str,
        notebook: str,
        check: str,
        reference: Callable[..., Any] | Dotted,
        solution: Dotted,
        families: tuple[str, ...],
        decode: Callable[[JSValue], Decoded] | None = None,
        case_key: str = "",
        output_key: str = "",
        fields: tuple[str, ...] = (),
        classify: Dotted | None = None,
        generate: Dotted | None = None,
        runner: Dotted | None = None,
    ) -> None:
        self._fill(
            function,
            stage,
            notebook,
            check,
            reference,
            decode,
            case_key,
            output_key,
            fields,
            families,
            classify,
            generate,
            solution,
            runner,
        )

    def reference_function(self) -> Callable[..., Any]:
        """The course's own implementation (resolved when named by path)."""
        reference = self.reference
        return resolve(reference) if isinstance(reference, str) else reference

    def read(self, case: JSValue) -> Decoded:
        """One case read once (``CaseError`` where the JavaScript reference throws)."""
        if self.decode is None:
            raise TypeError(f"{self.function} has no case files to decode")
        return self.decode(case)

    def answer(self, case: JSValue) -> JSValue:
        """The reference's answer to one case, as the JSON value the program prints."""
        return self.answer_decoded(self.read(case))

    def answer_decoded(self, decoded: Decoded) -> JSValue:
        """The reference's answer to a case already read."""
        return as_json(self.reference_function()(*decoded.parsed))

    def family(self, decoded: Decoded) -> str:
        """The hint family of one decoded case (``cases`` when it has no classifier)."""
        if self.classify is None:
            return DEFAULT_FAMILY
        family: str = resolve(self.classify)(decoded)
        return family


DEFAULT_FAMILY: Final = "cases"


def as_json(result: Any) -> JSValue:
    """A reference's result as JSON: records by their ``to_json``, lists item by item."""
    if isinstance(result, list):
        return [as_json(item) for item in result]
    to_json = getattr(result, "to_json", None)
    answered: JSValue = to_json() if to_json is not None else result
    return answered


EXERCISES: Final = (
    Exercise(
        "match_hook",
        stage="matcher-and-dispatch",
        notebook="01_matcher",
        check="check_matcher",
        reference=match_hook,
        decode=match_arguments,
        case_key="cases",
        output_key="matches",
        fields=("matcher", "tool"),
        families=(
            "match-all",
            "name-list",
            "exact",
            "ascii-word",
            "invalid-regex",
            "js-not-python",
            "unanchored",
            "tool-not-a-string",
            "regex",
        ),
        classify="hookcourse.course.hints:match_family",
        generate="hookcourse.course.generators:match_cases",
        solution="hookcourse.solutions.matcher_and_dispatch:match_hook",
    ),
    Exercise(
        "interpret_exit_code",
        stage="matcher-and-dispatch",
        notebook="02_exit_codes",
        check="check_exit_code",
        reference=interpret_exit_code,
        decode=exit_arguments,
        case_key="exitCases",
        output_key="exits",
        fields=("code", "stderr"),
        families=(
            "success",
            "block",
            "block-default-reason",
            "warn",
            "warn-no-reason",
            "strict-equality",
            "js-trim",
        ),
        classify="hookcourse.course.hints:exit_family",
        generate="hookcourse.course.generators:exit_cases",
        solution="hookcourse.solutions.matcher_and_dispatch:interpret_exit_code",
    ),
    Exercise(
        "apply_pre_tool_use",
        stage="decide-and-modify",
        notebook="03_decide_modify_inject",
        check="check_apply",
        reference=apply_pre_tool_use,
        decode=apply_arguments,
        case_key="cases",
        output_key="effects",
        fields=("output", "input"),
        families=(
            "block",
            "block-default-reason",
            "block-keeps-input",
            "block-no-context",
            "only-block-blocks",
            "rewrite",
            "inject",
            "pass-through",
            "null-falls-back",
            "nullish-not-falsy",
        ),
        classify="hookcourse.course.hints:apply_family",
        generate="hookcourse.course.generators:apply_cases",
        solution="hookcourse.solutions.decide_and_modify:apply_pre_tool_use",
    ),
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
        "merge_pre_tool_use",
        stage="merge-decisions",
        notebook="05_several_hooks",
        check="check_merge",
        reference=merge_pre_tool_use,
        decode=merge_arguments,
        case_key="cases",
        output_key="merged",
        fields=("results", "toolInput"),
        families=(
            "exit-2-beats-json",
            "block-default-reason",
            "deny-drops-rewrite",
            "strict-equality",
            "json-on-any-exit",
            "stdout-not-json",
            "deprecated-decision",
            "wrong-event",
            "unknown-decision",
            "first-reason",
            "last-rewrite",
            "precedence",
            "contexts",
            "no-decision",
            "one-decision",
        ),
        classify="hookcourse.course.hints:merge_family",
        generate="hookcourse.course.generators:merge_cases",
        solution="hookcourse.solutions.merge_decisions:merge_pre_tool_use",
    ),
    Exercise(
        "run_stop_loop",
        stage="stop-loop",
        notebook="06_stop_loop",
        check="check_stop",
        reference=run_stop_loop,
        decode=stop_arguments,
        case_key="cases",
        output_key="loops",
        fields=("hook", "cap"),
        families=(
            "halt-beats-block",
            "the-cap",
            "flag-after-block",
            "strict-equality",
            "halt",
            "block-needs-reason",
            "reason-as-written",
            "stdout-not-json",
            "json-on-any-exit",
            "stop",
        ),
        classify="hookcourse.course.hints:stop_family",
        generate="hookcourse.course.generators:stop_cases",
        solution="hookcourse.solutions.stop_loop:run_stop_loop",
    ),
    Exercise(
        "is_force_push",
        stage="force-push-guard",
        notebook="07_a_guard_that_holds",
        check="check_guard",
        reference="hookcourse.solutions.force_push_guard:is_force_push",
        families=("block", "allow"),
        generate="hookcourse.course.generators:guard_commands",
        solution="hookcourse.solutions.force_push_guard:is_force_push",
        runner="hookcourse.course.labs.guard:check_guard",
    ),
    Exercise(
        "run_hooks",
        stage="run-hooks",
        notebook="08_your_hooks_your_loop",
        check="check_run_hooks",
        reference=run_hooks,
        decode=run_arguments,
        case_key="cases",
        output_key="runs",
        fields=("hooks", "tool", "results"),
        families=(
            "run-once",
            "settings-order",
            "ask-or-defer",
            "deny",
            "only-matching-run",
            "name-list",
            "post-exit-2",
            "post-block-reason",
            "post-context-event",
            "post-feedback",
            "rewrite",
            "no-post-hooks",
            "runs",
        ),
        classify="hookcourse.stages.run_hooks.draws:run_family",
        generate="hookcourse.stages.run_hooks.draws:run_cases",
        solution="hookcourse.stages.run_hooks.solution:run_hooks",
    ),
)


class Stage(Record):
    """One graded stage: ``slug`` (also its fixture folder), title, grader command, and its
    exercises (those of ``EXERCISES`` whose stage is this slug, in course order)."""

    _fields = ("slug", "title", "command", "exercises")
    __slots__ = _fields
    slug: str
    title: str
    command: str
    exercises: tuple[Exercise, ...]

    def __init__(self, slug: str, title: str, command: str) -> None:
        self._fill(slug, title, command, tuple(e for e in EXERCISES if e.stage == slug))

    @property
    def output_keys(self) -> tuple[str, ...]:
        """The printed document's keys, in the order the program writes them."""
        return tuple(exercise.output_key for exercise in self.exercises)


STAGES: Final = (
    Stage("matcher-and-dispatch", "Matcher and dispatch", "hook-match"),
    Stage("decide-and-modify", "Decide and modify", "hook-apply"),
    Stage("merge-decisions", "Several hooks, one decision", "hook-merge"),
    Stage("stop-loop", "Keep going, but not forever", "hook-stop"),
    Stage("run-hooks", "One tool call, every hook around it", "hook-run"),
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
