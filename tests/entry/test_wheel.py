"""A wheel built from the repository works outside the checkout: fixtures, checks, grader.

The wheel is built from a copy of the package's sources (no build isolation, so no
download), installed in a fresh virtual environment in a temporary folder (once per
run: tests/support/wheel.py, the ``wheel_venv`` fixture of tests/conftest.py), and used
from there as a learner who ran `pip install hookcourse` would.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from hookcourse.course.checks.cases import exercise_cases
from hookcourse.stages.registry import STAGES
from tests.support.paths import ROOT
from tests.support.wheel import run_quietly as _run

PROGRAM = ROOT / "tests" / "tester" / "programs" / "python"
CHECKS = """
import hookcourse.course.checks.cases as cases
from hookcourse.course.checks import exercises
from hookcourse.stages.registry import EXERCISES, STAGES, resolve

assert "site-packages" in str(cases.FIXTURES), cases.FIXTURES
for stage in STAGES:
    assert (cases.FIXTURES / stage.slug / "case.json").is_file(), stage.slug
for exercise in EXERCISES:
    result = getattr(exercises, exercise.check)(resolve(exercise.solution), seed=1)
    assert result.passed, result.text()
    print(result.summary())
"""


def test_the_wheel_checks_pass_the_teacher_solutions(wheel_venv: Path, tmp_path: Path) -> None:
    out = _run(wheel_venv / "bin" / "python", "-c", CHECKS, cwd=tmp_path)
    # As many cases as the checkout's own fixtures hold: the wheel carries every one.
    graded = [exercise for stage in STAGES for exercise in stage.exercises]
    counts = [len(exercise_cases(exercise)[0]) for exercise in graded]
    lines = out.splitlines()  # no notebook kernel: check_guard's opening line stays unsaid
    assert len(lines) == 8
    for exercise, count in zip(graded, counts, strict=True):
        line = next(line for line in lines if line.startswith(f"{exercise.function}: "))
        assert line.startswith(f"{exercise.function}: passed, all "), line
        assert f"({count} from the case files, " in line and "drawn with seed 1)" in line
    assert "pick_hook: passed, all 10 goals" in lines
    assert any(line.startswith("check_guard: is_force_push holds") for line in lines), lines


def test_the_wheel_grades_a_program(wheel_venv: Path, tmp_path: Path) -> None:
    for name in ("your_program.sh", "your_program.py"):
        shutil.copy(PROGRAM / name, tmp_path / name)
    out = _run(
        wheel_venv / "bin" / "hookcourse",
        "test",
        "--stage",
        "decide-and-modify",
        "--seed",
        "1",
        cwd=tmp_path,
    )
    # The 9 case files, then the case drawn with seed 1.
    assert "  ✓ generated/seed-1\n" in out
    assert out.endswith("10/10 cases passed\n1/1 stages passed\n")


def test_the_wheel_shows_the_recorded_sessions(wheel_venv: Path, tmp_path: Path) -> None:
    # What notebooks 03-07 (and JupyterLite) show: package data only, no Claude Code.
    show = (
        "from hookcourse.session.recorded import names, show_transcript\n"
        "for name in names():\n"
        "    print(str(show_transcript(name)).splitlines()[1])\n"
    )
    out = _run(wheel_venv / "bin" / "python", "-c", show, cwd=tmp_path)
    assert out.count("Claude Code 2.1.332 (claude -p, scripted model)") == 5, out
