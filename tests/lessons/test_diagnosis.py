"""The diagnosis behind every hint: its models of the learner's function are right without a
mistake, each mistake changes some answer, and the cases a learner met are named right."""

from __future__ import annotations

import json
from typing import Any

import pytest

from hookcourse.course.checks import diagnosis
from hookcourse.course.checks.case_runs import returned_json
from hookcourse.course.checks.cases import CaseFile, exercise_cases
from hookcourse.course.checks.exercises import check
from hookcourse.course.checks.generators import draw
from hookcourse.course.checks.hints import hints
from hookcourse.course.grading import judging, program_hints
from hookcourse.stages.decoding import CaseError, Decoded
from hookcourse.stages.registry import Exercise, exercise_named, stage_named
from tests.lessons.single_bug_variants import VARIANTS

# (run_hooks has a model before its stage is merged: only the exercises there are tested.)
FUNCTIONS = sorted(f for f in diagnosis.LEARNERS if exercise_named(f) is not None)


def exercise(function: str) -> Exercise:
    found = exercise_named(function)
    assert found is not None
    return found


def graded_cases(function: str) -> list[tuple[Decoded, Any]]:
    """Every case file's case and the cases drawn with three seeds, with their answers."""
    chosen = exercise(function)
    cases, problems = exercise_cases(chosen)
    assert problems == []
    found = [(case.decoded, case.expected) for case in cases]
    for seed in range(3):
        for case in draw(chosen, seed):
            try:
                decoded = chosen.read(case)
            except CaseError:
                continue
            found.append((decoded, chosen.answer_decoded(decoded)))
    return found


@pytest.mark.parametrize("function", FUNCTIONS)
def test_the_model_without_a_mistake_is_the_reference(function: str) -> None:
    learner = diagnosis.LEARNERS[function]
    wrong = [
        decoded.given
        for decoded, expected in graded_cases(function)
        if learner.answer(decoded.given) != expected
    ]
    assert wrong == []


@pytest.mark.parametrize("function", FUNCTIONS)
def test_every_mistake_changes_an_answer_and_has_its_hint(function: str) -> None:
    learner = diagnosis.LEARNERS[function]
    cases = graded_cases(function)
    for mistake in learner.mistakes:
        assert any(
            learner.answer(decoded.given, [mistake.switch]) != expected
            for decoded, expected in cases
        ), f"{mistake.switch} never changes an answer"
        assert mistake.key in diagnosis.hint_keys(function)
        assert mistake.key in hints()[function]
        assert program_hints.family_hint(function, mistake.key) is not None


def answered(function: str, case: dict[str, Any], variant: str) -> diagnosis.Answered:
    """One case, the reference's answer, and the answer of the single-bug variant named."""
    chosen = exercise(function)
    decoded = chosen.read(case)
    expected = chosen.answer_decoded(decoded)
    wrong = next(v for v in VARIANTS if v.function == function and v.name == variant).build()
    return diagnosis.Answered(decoded, expected, returned_json(wrong(*decoded.given), expected))


def hook(stdout: str, code: int = 0) -> dict[str, Any]:
    return {"code": code, "stdout": stdout}


PRE_TOOL_USE = {"hookEventName": "PreToolUse", "permissionDecision": "allow"}
LEARNERS_MET = [
    # 05: top-level updatedInput differed at $.input, and was hinted "precedence"
    (
        "merge_pre_tool_use",
        {
            "results": [
                hook(json.dumps({"hookSpecificOutput": PRE_TOOL_USE, "updatedInput": {"a": 1}})),
                hook(
                    json.dumps(
                        {"hookSpecificOutput": {**PRE_TOOL_USE, "permissionDecision": "ask"}}
                    )
                ),
            ],
            "toolInput": {"a": 0},
        },
        "top-level updatedInput",
        "hook-specific-output",
    ),
    # 05: JSON after a no-break space, parsed untrimmed, was hinted "one-decision"
    (
        "merge_pre_tool_use",
        {"results": [hook('\u00a0{"decision": "block", "reason": "r"}')], "toolInput": {}},
        "stdout not trimmed before JSON",
        "js-trim-start",
    ),
    # 06: Python's strip() on a reason of U+FEFF U+2003 was hinted "the-cap"
    (
        "run_stop_loop",
        {
            "hook": {
                "whenInactive": hook('{"decision": "block", "reason": "\ufeff\u2003"}'),
                "whenActive": hook('{"decision": "block", "reason": "\ufeff\u2003"}'),
            },
            "cap": 2,
        },
        "str.strip() for trim() on a block's reason",
        "js-trim",
    ),
]


@pytest.mark.parametrize(("function", "case", "variant", "key"), LEARNERS_MET)
def test_the_hint_a_learner_met_names_what_differs(
    function: str, case: dict[str, Any], variant: str, key: str
) -> None:
    found = diagnosis.diagnose(
        function,
        exercise(function).family(exercise(function).read(case)),
        answered(function, case, variant),
    )
    assert found.key == key
    assert found.mistake is not None


def test_a_difference_no_mistake_explains_keeps_the_family() -> None:
    chosen = exercise("interpret_exit_code")
    decoded = chosen.read({"code": 2, "stderr": "no"})
    expected = chosen.answer_decoded(decoded)
    nonsense = {"block": True, "warn": False, "reason": "something else"}
    found = diagnosis.diagnose(
        "interpret_exit_code", "block", diagnosis.Answered(decoded, expected, nonsense)
    )
    assert (found.key, found.mistake, found.path) == ("block", None, ("reason",))


def test_the_case_shown_is_one_the_notebook_teaches() -> None:
    matcher = exercise("match_hook")
    assert not diagnosis.taught("match_hook", matcher.read({"matcher": "[^]", "tool": "x"}))
    for taught in ("Edit|Write", "mcp__.*", "^Bash$", "(?i)bash", "(?<n>Bash)", "\\d"):
        assert diagnosis.taught("match_hook", matcher.read({"matcher": taught, "tool": "Bash"}))
    python_re = next(v for v in VARIANTS if v.name == "Python re.search for RegExp")
    for seed in range(5):
        result = check("match_hook", python_re.build(), seed=seed)
        shown = result.first_failure
        assert shown is not None
        assert diagnosis.taught("match_hook", shown.case.decoded), shown.call("match_hook")


def test_hookcourse_test_names_the_mistake_too() -> None:
    stage = stage_named("merge-decisions")
    assert stage is not None
    function, case, variant, _ = LEARNERS_MET[0]
    wrong = answered(function, case, variant)
    file = CaseFile("case.json", "", {"cases": [case]}, {"merged": [wrong.expected]})
    lines = judging._hint_lines(stage, file, ("merged", 0, "input", "a"), {"merged": [wrong.got]})
    assert any(line.startswith("hint (mergePreToolUse, hook-specific-output): ") for line in lines)
