"""A wheel built from the repository works outside the checkout: fixtures, checks, grader.

The wheel is built from a copy of the package's sources (no build isolation, so no
download), installed in a fresh virtual environment in a temporary folder, and used
from there as a learner who ran `pip install hookcourse` would.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hookcourse.course.cases import exercise_cases
from hookcourse.stages.registry import STAGES
from tests.support.paths import ROOT

PROGRAM = ROOT / "tests" / "tester" / "programs" / "python"
CHECKS = """
import hookcourse.course.cases as cases
from hookcourse.course import exercises
from hookcourse.stages.registry import EXERCISES, STAGES, resolve

assert "site-packages" in str(cases.FIXTURES), cases.FIXTURES
for stage in STAGES:
    assert (cases.FIXTURES / stage.slug / "case.json").is_file(), stage.slug
for exercise in EXERCISES:
    result = getattr(exercises, exercise.check)(resolve(exercise.solution), seed=1)
    assert result.passed, result.text()
    print(result.summary())
"""


def _run(*command: str | Path, cwd: Path) -> str:
    done = subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "NO_COLOR": "1", "PYTHONPATH": ""},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv, outside the checkout, with the wheel built from this repository."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    # symlinks=True keeps hookcourse/fixtures a link to fixtures/, as in the repository.
    skip = shutil.ignore_patterns("__pycache__", "*.egg-info")
    shutil.copytree(ROOT / "hookcourse", source / "hookcourse", symlinks=True, ignore=skip)
    shutil.copytree(ROOT / "fixtures", source / "fixtures", ignore=skip)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    _run(*pip, "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", work, source, cwd=work)
    (wheel,) = work.glob("hookcourse-*.whl")
    venv = work / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=work)
    _run(*pip, "--python", venv / "bin" / "python", "install", "-q", wheel, cwd=work)
    return venv


def test_the_wheel_checks_pass_the_teacher_solutions(installed: Path, tmp_path: Path) -> None:
    out = _run(installed / "bin" / "python", "-c", CHECKS, cwd=tmp_path)
    # As many cases as the checkout's own fixtures hold: the wheel carries every one.
    graded = [exercise for stage in STAGES for exercise in stage.exercises]
    counts = [len(exercise_cases(exercise)[0]) for exercise in graded]
    lines = out.splitlines()
    assert len(lines) == 7
    for exercise, count in zip(graded, counts, strict=True):
        line = next(line for line in lines if line.startswith(f"{exercise.function}: "))
        assert line.startswith(f"{exercise.function}: passed, all "), line
        assert f"({count} from the case files, " in line and "drawn with seed 1)" in line
    assert "pick_hook: passed, all 10 goals" in lines
    assert any(line.startswith("check_guard: is_force_push holds") for line in lines), lines


def test_the_wheel_grades_a_program(installed: Path, tmp_path: Path) -> None:
    for name in ("your_program.sh", "your_program.py"):
        shutil.copy(PROGRAM / name, tmp_path / name)
    out = _run(
        installed / "bin" / "hookcourse",
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


def test_the_wheel_shows_the_recorded_sessions(installed: Path, tmp_path: Path) -> None:
    # What notebooks 03-07 (and JupyterLite) show: package data only, no Claude Code.
    show = (
        "from hookcourse.session.recorded import names, show_transcript\n"
        "for name in names():\n"
        "    print(str(show_transcript(name)).splitlines()[1])\n"
    )
    out = _run(installed / "bin" / "python", "-c", show, cwd=tmp_path)
    assert out.count("Claude Code 2.1.332 (claude -p, scripted model)") == 5, out
