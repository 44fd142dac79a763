"""A fresh clone's first ``./your_program.sh`` call builds its environment and still
prints only the graded JSON on stdout."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.paths import ROOT

SEED = "fixtures/matcher-and-dispatch"


@pytest.fixture(scope="module")
def fresh_clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    clone = tmp_path_factory.mktemp("clone") / "hookcourse"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    return clone


def test_first_call_builds_the_environment_and_prints_only_json(fresh_clone: Path) -> None:
    assert not (fresh_clone / ".venv").exists()
    run = subprocess.run(
        ["./your_program.sh", "hook-match", f"{SEED}/case.json"],
        cwd=fresh_clone,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == (ROOT / SEED / "expected.json").read_text()
    assert "installing hookcourse" in run.stderr  # set-up talk goes to stderr only
    assert (fresh_clone / ".venv" / "bin" / "python").exists()


def test_later_calls_are_silent(fresh_clone: Path) -> None:
    for _ in range(2):  # the first of these builds .venv if the test above did not run
        run = subprocess.run(
            ["./your_program.sh", "hook-apply", "fixtures/decide-and-modify/case.json"],
            cwd=fresh_clone,
            capture_output=True,
            text=True,
            timeout=600,
        )
    assert run.returncode == 0
    assert run.stderr == ""
    assert run.stdout == (ROOT / "fixtures/decide-and-modify/expected.json").read_text()


def test_a_half_made_environment_is_made_again(tmp_path: Path) -> None:
    """A first call interrupted while .venv was being made leaves a Python with no packages
    and no pip; the next call notices and makes it again instead of failing for good."""
    clone = tmp_path / "hookcourse"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    subprocess.run(["python3", "-m", "venv", "--without-pip", str(clone / ".venv")], check=True)
    run = subprocess.run(
        ["./your_program.sh", "hook-match", f"{SEED}/case.json"],
        cwd=clone,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    assert "left half-made; making it again" in run.stderr
    assert run.stdout == (ROOT / SEED / "expected.json").read_text()
