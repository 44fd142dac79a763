"""The stage registry is the one list: the JavaScript oracle's list and the fixtures agree."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookcourse.stages.registry import STAGES, exercise_named, stage_for_command, stage_named

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "fixtures"
ORACLE_DIR = REPO / "tests" / "oracle"


def test_the_oracle_lists_the_registry_stages_in_course_order() -> None:
    oracle = json.loads((ORACLE_DIR / "stages.json").read_text(encoding="utf-8"))
    assert list(oracle.items()) == [(stage.slug, stage.command) for stage in STAGES]


def test_every_stage_has_its_seed_fixture_with_every_output_key() -> None:
    for stage in STAGES:
        expected = json.loads((FIXTURES / stage.slug / "expected.json").read_text("utf-8"))
        assert list(expected) == list(stage.output_keys), stage.slug


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
    from hookcourse.stages.decoding import CaseError, exit_arguments
    from hookcourse.stages.verdicts import interpret_exit_code

    for case in ({"code": 2}, {"code": 2, "stderr": None}):
        assert interpret_exit_code(*exit_arguments(case)).to_json() == {
            "block": True,
            "warn": False,
            "reason": "hook blocked",
        }
    assert interpret_exit_code(*exit_arguments({"code": 1})).reason is None
    with pytest.raises(CaseError) as refused:  # JavaScript trims a stderr of 5: it throws
        exit_arguments({"code": 1, "stderr": 5})
    assert refused.value.key == "stderr"
