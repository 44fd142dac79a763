"""Every graded exercise's solution with one classic mistake: the check fails, and its first
hint names that mistake (by its hint key, never by prose)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from hookcourse.course.checks.exercises import check
from hookcourse.course.checks.hints import hints
from hookcourse.course.labs.events import check_gate
from hookcourse.course.labs.guard import check_guard_in_process
from hookcourse.stages.registry import EXERCISES
from tests.lessons.single_bug_variants import GATE_AND_GUARD, RAISING, VARIANTS, Variant

SEEDS = (1, 7)  # the drawn cases differ by seed; the hint must not


def test_every_graded_exercise_has_four_variants_or_more() -> None:
    counts = Counter(variant.function for variant in (*VARIANTS, *GATE_AND_GUARD))
    assert {exercise.function: counts[exercise.function] >= 4 for exercise in EXERCISES} == {
        exercise.function: True for exercise in EXERCISES
    }, counts


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: f"{v.function}: {v.name}")
def test_the_first_hint_names_the_mistake(variant: Variant, seed: int) -> None:
    result = check(variant.function, variant.build(), seed=seed)
    assert not result.passed, f"{variant.name} passes its check"
    found = result.diagnosed
    assert found is not None and found.key == variant.key, (found, result.text())
    assert found.mistake is not None  # a detector named it, not the case's family
    rows = dict(result.failure_rows())
    assert rows["hint"] == f"({variant.key}) {hints()[variant.function][variant.key]}"


@pytest.mark.parametrize(("variant", "hint"), RAISING, ids=lambda v: getattr(v, "name", ""))
def test_a_raising_mistake_is_named_by_what_the_case_holds(variant: Variant, hint: str) -> None:
    result = check(variant.function, variant.build(), seed=SEEDS[0])
    rows = dict(result.failure_rows())
    assert rows["got"].startswith("raised ") and rows["hint"].startswith(hint), rows
    assert "This case is of the family" not in rows["hint"]


@pytest.mark.parametrize("variant", GATE_AND_GUARD, ids=lambda v: f"{v.function}: {v.name}")
def test_the_gate_and_the_guard_fail_the_mistakes_family_first(variant: Variant) -> None:
    fn = variant.build()
    if variant.function == "pick_hook":
        report = check_gate(fn, seed=SEEDS[0]).report()
    else:
        report = check_guard_in_process(fn, seed=SEEDS[0]).report()
    assert not report.passed
    assert report.failing[0] == variant.key, report.failing


def test_each_variant_is_one_edit_of_the_solution() -> None:
    for variant in (*VARIANTS, *GATE_AND_GUARD, *(raising for raising, _ in RAISING)):
        assert len(variant.edits) <= 2, variant.name  # one mistake (and its import)
        assert variant.source() != Variant(variant.function, "", "", ()).source()


def test_the_none_streams_are_named_as_the_case_holds_them() -> None:
    from types import SimpleNamespace

    from hookcourse.course.checks.diagnosis import none_streams

    def given(*arguments: object) -> Any:
        return SimpleNamespace(given=arguments)

    assert none_streams(given([{"code": 0, "stdout": None}], {})) == "stdout is None"
    assert none_streams(given({"whenActive": {"stderr": None, "stdout": ""}})) == "stderr is None"
    assert none_streams(given([{"code": 2, "stdout": "", "stderr": ""}], {})) is None
