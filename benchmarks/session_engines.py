"""Engine against the real Claude Code, per course session (issue 24). Prints figures; not a test.

    .venv/bin/python benchmarks/session_engines.py [--runs N] [--claude PATH] [NAME ...]

For each course session in hookcourse/data/sessions/index.json (or each NAME, any
recorded session): the wall time of one
whole session through hookcourse's engine (``run_session``) and through the real
Claude Code (``run_real``: a loopback-only namespace, the scripted mock model, one
process at a time), measured side by side in the same run, alternating, medians of
``--runs``; and whether the two transcripts were the same. The load average is printed
before and after: the machine's other work slows both sides.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from functools import partial
from importlib import resources

from hookcourse.session.loop import run_session
from hookcourse.session.real import find_claude, run_real
from hookcourse.session.recorded import names, script_path
from hookcourse.session.script import SessionScript, load
from hookcourse.session.transcript import Transcript, differences


def _timed(run: Callable[[], Transcript]) -> tuple[float, Transcript]:
    started = time.perf_counter()
    transcript = run()
    return time.perf_counter() - started, transcript


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--claude")
    parser.add_argument("names", nargs="*")
    args = parser.parse_args()
    binary = find_claude(args.claude)
    print(f"load average {os.getloadavg()[0]:.1f}; medians of {args.runs} runs")
    print("| session | requests | engine | real Claude Code | ratio | same transcript |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name in args.names or names():
        with resources.as_file(script_path(name)) as path:
            script: SessionScript = load(path)
        engine_s, real_s, same = [], [], True
        requests = 0
        for _ in range(args.runs):
            took, predicted = _timed(partial(run_session, script))
            engine_s.append(took)
            took, real = _timed(partial(run_real, script, binary))
            real_s.append(took)
            same = same and not differences(predicted, real)
            requests = len(real["rounds"])
        engine, claude = statistics.median(engine_s), statistics.median(real_s)
        print(
            f"| {name} | {requests} | {engine:.2f} s | {claude:.2f} s | "
            f"{claude / engine:.0f}x | {'yes' if same else 'no'} |"
        )
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
