"""Cold start of the grader entry against a bare node process.

Runs ``./your_program.sh COMMAND <the stage's seed fixture>`` (``hook-match`` unless
``--command`` names another) and ``node -e 0`` alternately,
ROUNDS times each, and prints both medians and their ratio. The issue's target is a
ratio of at most 0.4. Not a test: timings belong in a benchmark, run on a quiet machine.

    .venv/bin/python benchmarks/cold_start.py [--rounds N] [--command hook-merge]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = {
    "hook-match": "fixtures/matcher-and-dispatch/case.json",
    "hook-apply": "fixtures/decide-and-modify/case.json",
    "hook-merge": "fixtures/merge-decisions/case.json",
    "hook-stop": "fixtures/stop-loop/case.json",
}
NODE = ["node", "-e", "0"]


def _once(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--command", choices=sorted(FIXTURES), default="hook-match")
    options = parser.parse_args()
    rounds, command = options.rounds, options.command
    grader_argv = [str(ROOT / "your_program.sh"), command, FIXTURES[command]]
    _once(grader_argv)  # the first call may build .venv and write bytecode caches
    grader: list[float] = []
    node: list[float] = []
    for _ in range(rounds):
        grader.append(_once(grader_argv))
        node.append(_once(NODE))
    g, n = statistics.median(grader), statistics.median(node)
    print(f"your_program.sh {command:<11} median {g * 1000:7.1f} ms  over {rounds} runs")
    print(f"node -e 0                   median {n * 1000:7.1f} ms  over {rounds} runs")
    print(f"ratio {g / n:.2f} (target <= 0.40)")
    return 0 if g / n <= 0.4 else 1


if __name__ == "__main__":
    sys.exit(main())
