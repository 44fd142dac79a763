"""Start-up of the TypeScript starter (``hookcourse init --lang ts``), and of the ways it
could run, against the JavaScript starter on the same Node, interleaved in one run.

One call of ``./your_program.sh hook-match`` on the seed's case file, each way:
``launch.mjs`` (the starter's way: Node's own type stripping where this Node has it,
else tsx's register API in the same process), ``node --import tsx``, the ``tsx`` CLI
(which starts a second node), and where it exists ``node --experimental-strip-types``.
The starters are written and installed (``npm ci``) in a scratch folder first.

    .venv/bin/python benchmarks/ts_starter.py [--runs N]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASE = ROOT / "fixtures" / "matcher-and-dispatch" / "case.json"


def _init(language: str, folder: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "hookcourse", "init", "--lang", language, str(folder)],
        check=True,
        capture_output=True,
    )


def _seconds(argv: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(argv, cwd=cwd, capture_output=True, check=False)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        print("node and npm are needed", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as scratch:
        ts, js = Path(scratch, "ts"), Path(scratch, "js")
        _init("ts", ts)
        _init("js", js)
        subprocess.run([npm, "ci", "--prefer-offline", "--no-audit", "--no-fund"], cwd=ts,
                       check=True, capture_output=True)  # fmt: skip
        command = ["hook-match", str(CASE)]
        ways: dict[str, tuple[list[str], Path]] = {
            "JavaScript starter (baseline)": ([node, "program.mjs", *command], js),
            "TS: launch.mjs (the starter)": ([node, "launch.mjs", *command], ts),
            "TS: node --import tsx": ([node, "--import", "tsx", "program.ts", *command], ts),
            "TS: tsx CLI": ([str(ts / "node_modules/.bin/tsx"), "program.ts", *command], ts),
        }
        probe = [node, "--experimental-strip-types", "-e", ""]
        if subprocess.run(probe, capture_output=True, check=False).returncode == 0:
            strip = [node, "--experimental-strip-types", "program.ts", *command]
            ways["TS: node --experimental-strip-types"] = (strip, ts)
        timings: dict[str, list[float]] = {name: [] for name in ways}
        for _ in range(runs):  # interleaved: load from other work hits every way alike
            for name, (argv, cwd) in ways.items():
                timings[name].append(_seconds(argv, cwd))
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    base = statistics.median(timings["JavaScript starter (baseline)"])
    print(f"node {version}, {runs} runs each, medians:")
    for name, seconds in timings.items():
        median = statistics.median(seconds)
        print(f"  {name:<38} {median * 1000:7.0f} ms  ratio {median / base:4.2f}")
    if len(ways) == 4:
        print("  (this Node has no type stripping: launch.mjs uses tsx's register API)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
