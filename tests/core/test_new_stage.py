"""A new graded stage is its folder plus its notebook: proven in a copy of the repository.

The copy gets tests/core/new_stage/shout/ as hookcourse/stages/shout/ (reference, decoder,
descriptor, classifier, generator, solution, hints, contract page, JavaScript reference,
fixtures, starter stubs) and a notebook, notebooks/99_shout.ipynb. Nothing is
monkeypatched: `dev check` first names what is stale, `dev update` derives the rest,
and then the copy's own commands take the stage up: `hookcourse init` writes its stub,
`hookcourse test --stage shout` passes the starter filled with its solution, the grader
and the JavaScript oracle print its fixtures' answers, and the copy's registry tests
(tests/core/test_registry.py) pass.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import ROOT
from tests.support.runtimes import node_binary

STAGE = Path(__file__).resolve().parent / "new_stage" / "shout"
SKIP = shutil.ignore_patterns("__pycache__", "node_modules", ".hookcourse", "*.egg-info")
NOTEBOOK = {
    "cells": [
        {"cell_type": "markdown", "id": "a", "metadata": {}, "source": ["# Shout\n"]},
    ],
    "metadata": {},
    "nbformat": 4,
    "nbformat_minor": 5,
}


def run(
    command: list[str], copy: Path, cwd: Path | None = None, *, code: int = 0
) -> subprocess.CompletedProcess[str]:
    """``command`` run with the copy's hookcourse first on the path; it must exit ``code``."""
    env = {**os.environ, "PYTHONPATH": str(copy), "NO_COLOR": "1", "HOOKCOURSE_SEED": "7"}
    done = subprocess.run(
        command, cwd=cwd or copy, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == code, (command, done.stdout[-3000:], done.stderr[-3000:])
    assert "Traceback" not in done.stderr, done.stderr
    return done


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the checkout's parts the stage touches, with the shout stage added."""
    copy = tmp_path_factory.mktemp("repo")
    shutil.copytree(ROOT / "hookcourse", copy / "hookcourse", symlinks=True, ignore=SKIP)
    shutil.copytree(ROOT / "fixtures", copy / "fixtures", symlinks=True)
    for part in ("tests/oracle", "tests/tester/solutions", "tests/support"):
        shutil.copytree(ROOT / part, copy / part, ignore=SKIP)
    (copy / "tests" / "core").mkdir()
    shutil.copy2(ROOT / "tests" / "core" / "test_registry.py", copy / "tests" / "core")
    for name in ("your_program.sh", "pyproject.toml"):
        shutil.copy2(ROOT / name, copy / name)
    (copy / ".venv").symlink_to(ROOT / ".venv")  # the grader's interpreter and regress
    (copy / "notebooks").mkdir()
    for notebook in (ROOT / "notebooks").glob("*.ipynb"):
        (copy / "notebooks" / notebook.name).symlink_to(notebook)
    shutil.copytree(STAGE, copy / "hookcourse" / "stages" / "shout", ignore=SKIP)
    (copy / "notebooks" / "99_shout.ipynb").write_text(json.dumps(NOTEBOOK), encoding="utf-8")
    return copy


@pytest.fixture(scope="module")
def updated(copy: Path) -> Path:
    """The copy after `dev check` (which must name the stale files) and `dev update`."""
    python = sys.executable
    stale = run([python, "-m", "hookcourse.dev", "check"], copy, code=1).stderr.splitlines()
    assert stale == [
        f"{path} (fix: python -m hookcourse.dev update)"
        for path in (
            "hookcourse/data/starters/ts/src/hooks.ts: stale",
            "hookcourse/data/starters/ts/program.ts: stale",
            "hookcourse/data/starters/js/src/hooks.mjs: stale",
            "hookcourse/data/starters/js/program.mjs: stale",
            "hookcourse/data/starters/py/hooks.py: stale",
            "hookcourse/data/starters/py/program.py: stale",
            "tests/tester/solutions/ts/hooks.ts: stale",
            "tests/oracle/stages.mjs: stale",
            "tests/oracle/stages.json: stale",
            "fixtures/shout: not a link to ../hookcourse/stages/shout/fixtures",
        )
    ]
    written = run([python, "-m", "hookcourse.dev", "update"], copy).stdout.splitlines()
    assert len(written) == len(stale)
    run([python, "-m", "hookcourse.dev", "check"], copy)
    return copy


def test_the_registry_finds_the_folder_in_course_order(updated: Path) -> None:
    probe = (
        "import hookcourse; from hookcourse.stages.registry import STAGES, EXERCISES;"
        "print(hookcourse.__file__); print([s.slug for s in STAGES]);"
        "print([e.function for e in EXERCISES][-1])"
    )
    where, slugs, last = run([sys.executable, "-c", probe], updated).stdout.splitlines()
    assert where.startswith(str(updated))  # the copy's package, not the checkout's
    assert slugs.endswith("'shout']") and last == "shout"


def test_hookcourse_test_passes_the_python_starter_filled_with_its_solution(
    updated: Path,
) -> None:
    learner = updated / "learner"
    run([sys.executable, "-m", "hookcourse", "init", "--lang", "py", str(learner)], updated)
    hooks = learner / "hooks.py"
    assert 'raise NotImplementedError("not implemented: shout")' in hooks.read_text("utf-8")
    solution = (updated / "hookcourse" / "stages" / "shout" / "solution.py").read_text("utf-8")
    hooks.write_text(hooks.read_text("utf-8") + "\n\n" + solution, encoding="utf-8")
    graded = run([sys.executable, "-m", "hookcourse", "test", "--stage", "shout"], updated, learner)
    assert "shout" in graded.stdout and "passed" in graded.stdout, graded.stdout
    starter = updated / "starter"
    run([sys.executable, "-m", "hookcourse", "init", "--lang", "py", str(starter)], updated)
    run([sys.executable, "-m", "hookcourse", "test", "--stage", "shout"], updated, starter, code=1)


def test_the_grader_and_the_javascript_oracle_answer_its_fixtures(updated: Path) -> None:
    fixtures = updated / "fixtures" / "shout"
    for case in [fixtures / "case.json", *sorted(fixtures.glob("extra/*/case.json"))]:
        expected = json.loads((case.parent / "expected.json").read_text("utf-8"))
        graded = run([str(updated / "your_program.sh"), "hook-shout", str(case)], updated)
        assert json.loads(graded.stdout) == expected, case
        oracle = updated / "tests" / "oracle" / "program.mjs"
        answered = run([node_binary(), str(oracle), "hook-shout", str(case)], updated)
        assert json.loads(answered.stdout) == expected, case


def test_the_copy_registry_tests_pass_with_the_new_stage(updated: Path) -> None:
    every_test = (
        "from tests.core import test_registry as t\n"
        "for name, test in vars(t).items():\n"
        "    if name.startswith('test_'): test(); print(name)\n"
    )
    passed = run([sys.executable, "-c", every_test], updated).stdout.split()
    assert "test_every_named_object_resolves_and_fits" in passed
    assert "test_nothing_derived_from_the_stage_folders_is_stale" in passed
