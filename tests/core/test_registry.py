"""The stage registry is the one list: the JavaScript oracle's list and the fixtures agree."""

from __future__ import annotations

import json

import pytest

from hookcourse.stages.registry import STAGES, exercise_named, stage_for_command, stage_named
from tests.support.paths import FIXTURES, ORACLE_DIR
from tests.support.paths import ROOT as REPO


def test_the_oracle_lists_the_registry_stages_in_course_order() -> None:
    oracle = json.loads((ORACLE_DIR / "stages.json").read_text(encoding="utf-8"))
    assert list(oracle.items()) == [(stage.slug, stage.command) for stage in STAGES]


def test_every_stage_has_its_seed_fixture_with_every_output_key() -> None:
    for stage in STAGES:
        expected = json.loads((FIXTURES / stage.slug / "expected.json").read_text("utf-8"))
        assert list(expected) == list(stage.output_keys), stage.slug


STAGE_FILES = (
    "stage.md",
    "reference.py",
    "reference.mjs",
    "solution.py",
    "hints.json",
    "fixtures/case.json",
    "fixtures/expected.json",
    "starter/hooks.ts",
    "starter/hooks.mjs",
    "starter/hooks.py",
    "starter/solved.ts",
)


def test_every_stage_is_one_whole_folder() -> None:
    """Each stage's folder holds every file docs/contributing.md names, its hint texts
    cover its families and name nothing but a family or a mistake the diagnosis can name,
    and its JavaScript reference exports its command."""
    from hookcourse.course.checks.diagnosis import hint_keys
    from hookcourse.course.checks.hints import stage_hints
    from hookcourse.dev import stage_folder

    for stage in STAGES:
        folder = stage_folder(REPO, stage)
        missing = [name for name in STAGE_FILES if not (folder / name).is_file()]
        assert not missing, (stage.slug, missing)
        assert "export function program(" in (folder / "reference.mjs").read_text("utf-8")
        texts = stage_hints(stage)
        for exercise in stage.exercises:
            for wording in ("notebook", "program"):
                written = set(texts[wording][exercise.function])
                assert set(exercise.families) <= written <= set(hint_keys(exercise.function)), (
                    stage.slug,
                    wording,
                    exercise.function,
                )


def test_names_are_unique_and_found() -> None:
    exercises = [exercise for stage in STAGES for exercise in stage.exercises]
    assert len({stage.slug for stage in STAGES}) == len(STAGES)
    assert len({stage.command for stage in STAGES}) == len(STAGES)
    assert len({exercise.function for exercise in exercises}) == len(exercises)
    for stage in STAGES:
        assert stage_named(stage.slug) is stage
        assert stage_for_command(stage.command) is stage
        assert [exercise_named(e.function) for e in stage.exercises] == list(stage.exercises)
    assert stage_named("no-such-stage") is None
    assert stage_for_command("hook-nothing") is None


def test_stderr_is_optional_as_the_seed_schema_says() -> None:
    from hookcourse.stages.decoding import CaseError
    from hookcourse.stages.matcher_and_dispatch.reference import exit_arguments
    from hookcourse.stages.matcher_and_dispatch.verdicts import interpret_exit_code

    for case in ({"code": 2}, {"code": 2, "stderr": None}):
        assert interpret_exit_code(*exit_arguments(case).parsed).to_json() == {
            "block": True,
            "warn": False,
            "reason": "hook blocked",
        }
    assert interpret_exit_code(*exit_arguments({"code": 1}).parsed).reason is None
    with pytest.raises(CaseError) as refused:  # JavaScript trims a stderr of 5: it throws
        exit_arguments({"code": 1, "stderr": 5})
    assert refused.value.key == "stderr"


# -- the registry describes each exercise whole ---------------------------------------------


def test_every_named_object_resolves_and_fits() -> None:
    """Every dotted path resolves; classifiers answer only their families; each family has
    its hint text and each hint text its family; a decoder's cases reach the reference."""
    import inspect

    from hookcourse.course.checks import exercises
    from hookcourse.course.checks.cases import exercise_cases
    from hookcourse.course.checks.diagnosis import hint_keys
    from hookcourse.course.checks.hints import hints
    from hookcourse.stages.registry import EXERCISES, resolve

    texts = hints()
    notebooks = {path.stem for path in (REPO / "notebooks").glob("*.ipynb")}
    assert [e.notebook for e in EXERCISES] == sorted(e.notebook for e in EXERCISES)  # course order
    for exercise in EXERCISES:
        assert exercise.notebook in notebooks, exercise.function
        assert callable(exercise.reference_function()), exercise.function
        solution = resolve(exercise.solution)
        assert solution.__name__ == exercise.function
        wanted = inspect.signature(exercise.reference_function()).parameters
        assert list(inspect.signature(solution).parameters) == list(wanted)
        assert callable(getattr(exercises, exercise.check)), exercise.check
        for dotted in (exercise.classify, exercise.generate, exercise.runner):
            assert dotted is None or resolve(dotted) is not None
        if exercise.decode is None:  # the gate and the guard: a check of their own
            assert exercise.runner is not None and stage_named(exercise.stage) is None
            continue
        assert exercise.runner is None and len(exercise.fields) == len(wanted)
        # A hint text names a family, or a mistake the diagnosis can name (its detector keys).
        assert set(texts.get(exercise.function, {})) <= set(hint_keys(exercise.function))
        assert set(exercise.families) <= set(texts[exercise.function]), exercise.function
        cases, problems = exercise_cases(exercise)
        assert cases and not problems
        seen = {exercise.family(case.decoded) for case in cases}
        assert seen <= set(exercise.families), (exercise.function, seen - set(exercise.families))


def test_the_checks_module_offers_exactly_the_registry_checks() -> None:
    from hookcourse.course.checks import exercises
    from hookcourse.stages.registry import EXERCISES, OWN_CHECKS

    names = [e.check for e in EXERCISES]
    graded = sum(len(stage.exercises) for stage in STAGES)
    assert len(set(names)) == len(names) == graded + len(OWN_CHECKS)
    assert set(names) <= set(dir(exercises))
    with pytest.raises(AttributeError):
        exercises.check_nothing  # noqa: B018


def test_nothing_derived_from_the_stage_folders_is_stale() -> None:
    from hookcourse import dev

    assert dev.stale() == [], "run: python -m hookcourse.dev update"
