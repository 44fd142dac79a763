"""`hookcourse test` on both core stages against the project's own your_program.sh.

Times, alternately and ROUNDS times each: the whole grading command (start-up, scratch
case files, parallel runs, judging) and, as the baseline measured in the same run, the
program's own runs on the same case files one after another. Prints both medians and
their ratio; the issue's target is a grading time of at most 3 s on 2 cores. Not a test:
run it on a quiet machine.

    .venv/bin/python benchmarks/grade_stages.py [--rounds N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from hookcourse.course.checks.cases import stage_files
from hookcourse.stages.registry import STAGES

ROOT = Path(__file__).resolve().parent.parent
PROGRAM = ROOT / "your_program.sh"
GRADE = [str(ROOT / ".venv" / "bin" / "hookcourse"), "test", "--program", str(PROGRAM)]
TARGET_SECONDS = 3.0
# Bytecode caches are written as on a learner's machine, whatever this shell says.
ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def _runs() -> list[list[str]]:
    """The program's own runs: each case file of each stage, where the fixtures keep it."""
    runs = []
    for stage in STAGES:
        files, _ = stage_files(stage)
        for file in files:
            folder = "" if file.is_seed else file.name
            path = ROOT / "fixtures" / stage.slug / folder / "case.json"
            runs.append([str(PROGRAM), stage.command, str(path)])
    return runs


def _timed(commands: list[list[str]]) -> float:
    start = time.perf_counter()
    for command in commands:
        subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, check=True, env=ENV)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    runs = _runs()
    _timed([GRADE])  # warm: bytecode caches, the first bootstrap check
    grading: list[float] = []
    sequential: list[float] = []
    for _ in range(rounds):
        grading.append(_timed([GRADE]))
        sequential.append(_timed(runs))
    g, s = statistics.median(grading), statistics.median(sequential)
    cores = os.cpu_count()
    print(f"hookcourse test, {len(runs)} case files   median {g:6.2f} s  ({cores} cores)")
    print(f"the same runs one after another  median {s:6.2f} s")
    print(f"ratio {g / s:.2f}; target: grading <= {TARGET_SECONDS:g} s")
    return 0 if g <= TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
