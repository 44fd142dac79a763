"""Cold start of the grader entry against a bare node process.

Runs ``./your_program.sh hook-match <seed fixture>`` and ``node -e 0`` alternately,
ROUNDS times each, and prints both medians and their ratio. The issue's target is a
ratio of at most 0.4. Not a test: timings belong in a benchmark, run on a quiet machine.

    .venv/bin/python benchmarks/cold_start.py [--rounds N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GRADER = [str(ROOT / "your_program.sh"), "hook-match", "fixtures/matcher-and-dispatch/case.json"]
NODE = ["node", "-e", "0"]


def _once(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    rounds = parser.parse_args().rounds
    _once(GRADER)  # the first call may build .venv and write bytecode caches
    grader: list[float] = []
    node: list[float] = []
    for _ in range(rounds):
        grader.append(_once(GRADER))
        node.append(_once(NODE))
    g, n = statistics.median(grader), statistics.median(node)
    print(f"your_program.sh hook-match  median {g * 1000:7.1f} ms  over {rounds} runs")
    print(f"node -e 0                   median {n * 1000:7.1f} ms  over {rounds} runs")
    print(f"ratio {g / n:.2f} (target <= 0.40)")
    return 0 if g / n <= 0.4 else 1


if __name__ == "__main__":
    sys.exit(main())
