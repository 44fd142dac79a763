"""What the oracle's scenarios cost with ``fire`` predicting while Claude Code runs,
against one after the other (the baseline), in the same run.

Takes every STEP-th scenario of the corpus, then runs the sample ROUNDS times in each
mode, alternating (baseline, overlapped, baseline, ...), two scenarios at a time as in
CI, and prints the seconds of each round, the medians and their ratio. Each mode also
reports how many scenarios agreed, so a faster mode that changed an answer shows.
Not a test: timings belong in a benchmark, and the machine's load moves them.

    .venv/bin/python benchmarks/oracle_overlap.py [--step 10] [--rounds 2] [--jobs 2]
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "claude_code"))

# The harness lives beside its tests (tests/claude_code), outside the typed package.
_binary = importlib.import_module("oracle_binary")
_predict = importlib.import_module("oracle_predict")
_run = importlib.import_module("oracle_run")
_scenario = importlib.import_module("oracle_scenario")


def _round(binary: str, ids: list[str], jobs: int, overlap: bool) -> tuple[float, int]:
    """Seconds for the sample in one mode, and how many of its scenarios did not disagree."""
    corpus = _scenario.load_corpus()
    local = threading.local()
    servers: list[Any] = []
    lock = threading.Lock()

    def one(sid: str) -> bool:
        if not hasattr(local, "server"):
            local.server = _predict.FireServer()
            with lock:
                servers.append(local.server)
        checked = _run.check_scenario(binary, local.server, corpus[sid], overlap=overlap)
        return bool(checked["comparison"]["verdict"] != "disagree")

    started = time.monotonic()
    try:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            agreed = sum(pool.map(one, ids))
    finally:
        for server in servers:
            server.close()
    return time.monotonic() - started, agreed


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--step", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    ids = sorted(_scenario.load_corpus())[:: max(1, args.step)]
    binary = str(_binary.find_binary())
    seconds: dict[str, list[float]] = {"one after the other": [], "overlapped": []}
    for number in range(args.rounds):
        for mode, overlap in (("one after the other", False), ("overlapped", True)):
            spent, agreed = _round(binary, ids, args.jobs, overlap)
            seconds[mode].append(spent)
            print(f"round {number + 1}, {mode}: {spent:.1f} s ({agreed}/{len(ids)} agree)")
    base, fast = (statistics.median(v) for v in seconds.values())
    print(
        f"{len(ids)} scenarios, {args.jobs} at a time: one after the other {base:.1f} s, "
        f"overlapped {fast:.1f} s (ratio {fast / base:.2f})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
