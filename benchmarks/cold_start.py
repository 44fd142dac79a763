"""Cold start of the grader entry against a bare node process and against its floor.

Runs ``./your_program.sh COMMAND <its stage's seed fixture>`` (``hook-match`` unless
``--command`` names another), ``node -e 0`` and the floor
(``.venv/bin/python -S`` importing regress alone, as the grader's Python starts)
alternately, ROUNDS times each, and prints the medians and the ratios. Targets: at
most 0.4 of node, at most 2 times the floor. Not a test: timings belong in a benchmark,
run on a quiet machine.

    .venv/bin/python benchmarks/cold_start.py [--rounds N] [--command hook-merge]
"""

from __future__ import annotations

import argparse
import os
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
SITE = next((ROOT / ".venv" / "lib").glob("python3*/site-packages"), ROOT)
FLOOR = [str(ROOT / ".venv" / "bin" / "python"), "-S", "-c", "import regress"]
# Bytecode caches are written as on a learner's machine, whatever this shell says.
ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
FLOOR_ENV = {**ENV, "PYTHONPATH": str(SITE)}


def _once(argv: list[str], env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, check=True, env=env or ENV)
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
    floor: list[float] = []
    for _ in range(rounds):
        grader.append(_once(grader_argv))
        node.append(_once(NODE))
        floor.append(_once(FLOOR, FLOOR_ENV))
    g, n, f = statistics.median(grader), statistics.median(node), statistics.median(floor)
    print(f"your_program.sh {command:<11} median {g * 1000:7.1f} ms  over {rounds} runs")
    print(f"node -e 0                   median {n * 1000:7.1f} ms  over {rounds} runs")
    print(f"python -S, import regress   median {f * 1000:7.1f} ms  over {rounds} runs")
    print(f"ratio to node {g / n:.2f} (target <= 0.40); to the floor {g / f:.2f} (target <= 2)")
    return 0 if g / n <= 0.4 and g / f <= 2 else 1


if __name__ == "__main__":
    sys.exit(main())
