"""A stage added from one fixture folder and one registry entry is a whole stage: the
grader runs its command, its check grades fixtures and drawn cases, node agrees, and
the course's lists (exercise names, checks) pick it up. The folder, tests/core/throwaway/,
holds the files docs/ARCHITECTURE.md's "Adding a stage" asks for: the stage module
(function, decoder, classifier, generator, solution), its case files and its oracle."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookcourse import grader
from hookcourse.course import exercises, workshop
from hookcourse.course.generators import drawn_case_file
from hookcourse.js import json as jsjson
from hookcourse.stages import registry
from tests.support.runtimes import node_binary

FOLDER = Path(__file__).resolve().parent / "throwaway"


@pytest.fixture
def shout_stage(monkeypatch: pytest.MonkeyPatch) -> Iterator[registry.Stage]:
    monkeypatch.syspath_prepend(str(FOLDER))
    import shout  # the throwaway stage module, importable by its dotted paths

    entry = registry.Exercise(
        "shout",
        stage="shout",
        notebook="99_shout",
        check="check_shout",
        reference=shout.shout,
        decode=shout.shout_arguments,
        case_key="cases",
        output_key="shouts",
        fields=("message",),
        families=("words", "blank"),
        classify="shout:shout_family",
        generate="shout:shout_cases",
        solution="shout:shout_solution",
    )
    monkeypatch.setattr(registry, "EXERCISES", (*registry.EXERCISES, entry))
    stage = registry.Stage("shout", "Shout", "hook-shout")
    monkeypatch.setattr(registry, "STAGES", (*registry.STAGES, stage))
    yield stage


def test_the_grader_runs_the_new_command(shout_stage: registry.Stage) -> None:
    case = FOLDER / "fixtures" / "shout" / "case.json"
    assert registry.stage_for_command("hook-shout") is shout_stage
    assert grader.run_stage(shout_stage, str(case)) == {"shouts": ["HI!", "STOP!"]}


def test_its_check_grades_the_case_files_and_drawn_cases(shout_stage: registry.Stage) -> None:
    import shout

    fixtures = FOLDER / "fixtures"
    good = exercises.check_shout(shout.shout_solution, fixtures, seed=11)
    assert good.passed, good.text()
    assert "(4 from the case files, 9 drawn with seed 11)" in good.summary()
    assert {family for family, _, _ in good.families()} == {"words", "blank"}

    def no_trim(message: str) -> str:
        return message.upper() + "!" if message else ""

    bad = exercises.check_shout(no_trim, fixtures, seed=11)
    assert not bad.passed and "words" in bad.report().failing
    assert "check_shout(shout, seed=11) draws the same cases again" in bad.summary()
    assert "shout" in workshop.exercise_names()


def test_node_agrees_with_its_drawn_cases(shout_stage: registry.Stage, tmp_path: Path) -> None:
    for seed in range(1, 6):
        case_file, expected = drawn_case_file(shout_stage, seed)
        path = tmp_path / f"shout-{seed}.json"
        path.write_text(jsjson.stringify(case_file), encoding="utf-8")
        done = subprocess.run(
            [node_binary(), str(FOLDER / "shout_oracle.mjs"), str(path)],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        assert json.loads(done.stdout) == expected, seed


def test_nothing_of_it_reaches_the_real_registry() -> None:
    assert "shout" not in [e.function for e in registry.EXERCISES]
    assert "shout" not in sys.modules or registry.exercise_named("shout") is None
