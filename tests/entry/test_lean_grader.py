"""The grader's cold start stays lean: no heavy standard-library module on its import path.

Timing belongs in benchmarks/cold_start.py; this guards the cause. Each module named
here costs a measurable share of a node start-up on a 2-core machine.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import regress

from tests.support.paths import ROOT

HEAVY = {"typing", "re", "json", "dataclasses", "enum", "inspect", "functools", "runpy", "site"}
PROBE = """
import sys
before = set(sys.modules)
from hookcourse.grader import main
sys.stdout = open("/dev/null", "w")
from hookcourse.stages.registry import STAGES  # the grader imports it anyway
for stage in STAGES:
    assert main([stage.command, f"fixtures/{stage.slug}/case.json"]) == 0, stage.command
sys.stdout = sys.__stdout__
print(sorted(set(sys.modules) - before))
"""


def test_grader_imports_no_heavy_module() -> None:
    # As your_program.sh runs it: python -S, with the repository and regress on the path.
    site = Path(regress.__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{site}"}
    run = subprocess.run(
        [sys.executable, "-S", "-c", PROBE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = set(ast.literal_eval(run.stdout.strip()))
    assert "hookcourse.grader" in loaded
    assert "regress" in loaded  # the seed fixture has a regex matcher, so the engine loaded
    assert not loaded & HEAVY, sorted(loaded & HEAVY)
