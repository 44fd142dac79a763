"""Cold start of the JupyterLite site, and each next notebook: what a learner waits for.

Serves build/lite/site (scripts/lite.sh builds it) with ``python -m http.server`` on
127.0.0.1, then ROUNDS times opens the site's root in a fresh headless Chromium (empty
profile, nothing cached): notebook 00 opens; "usable" is its kernel answering. Its
first cell (the course's imports) is run and timed. Then it follows each notebook's
Next link in turn to the last one (same page, a new kernel each) and times each. Every
kernel start is split into phases by the requests that mark them: the page until the
kernel's worker asks for Pyodide, Pyodide's own start (WebAssembly, standard library)
until it asks for its first wheel, fetching the wheels, and unpacking them plus
IPython's imports until the kernel answers. Last, the browser's memory with all the
notebooks open (the proportional set size of Chromium's processes, shared pages split
among them), at once and 15 and 30 s later: each kernel's start leaves garbage that its
worker frees within seconds, and the target is judged on what stays (30 s). Prints each
round with the load average (the machine is shared: a figure means little without it),
then medians; the targets are <= 30 s cold, <= 10 s to the next notebook, and < 1.5 GB.
Not a test.

    HOOKCOURSE_UI_PYTHON=.venv-ui/bin/python .venv/bin/python benchmarks/lite_cold_start.py
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "build" / "lite" / "site"
DRIVER = ROOT / "tests" / "lite" / "browse_lite.py"
COLD_TARGET_S = 30.0
NEXT_TARGET_S = 10.0
MEMORY_TARGET_MB = 1536.0
PHASES = ("page_s", "pyodide_s", "wheels_s", "kernel_s")
# What the browser keeps with every notebook open: the memory 30 s after the last one is
# usable, once the kernels' workers have freed their start's garbage.
SETTLED = "memory_30s_mb"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _once(python: str, plan: dict[str, object], folder: Path) -> dict[str, Any]:
    plan_file = folder / "plan.json"
    plan_file.write_text(json.dumps(plan), encoding="utf-8")
    try:
        run = subprocess.run(
            [python, str(DRIVER), str(plan_file)],
            capture_output=True,
            text=True,
            check=False,
            timeout=1200,  # a hang guard, far above a normal round
        )
    except subprocess.TimeoutExpired:
        raise SystemExit("lite_cold_start.py: the browser run hung for 20 minutes") from None
    if run.returncode != 0:
        raise SystemExit(f"lite_cold_start.py: the browser run failed: {run.stderr.strip()}")
    seen: dict[str, Any] = json.loads(run.stdout)
    return seen


def _phases(phases: dict[str, float]) -> str:
    return "  ".join(f"{name[:-2]} {phases[name]:4.1f}" for name in PHASES if name in phases)


def _report(round_: dict[str, Any]) -> None:
    print(
        f"  cold {round_['first_s']:5.1f} s ({_phases(round_['first_phases'])}), "
        f"first cell {round_['first_cell_s']:4.1f} s, load average {round_['load_before']:.1f}"
    )
    for opened in round_["next"]:
        print(f"    next {opened['name']:<32} {opened['s']:5.1f} s ({_phases(opened)})")
    print(
        f"  {round_['kernels']} kernels, memory {round_['memory_mb']:5.0f} MB at once, "
        f"{round_['memory_15s_mb']:5.0f} MB 15 s later, {round_[SETTLED]:5.0f} MB 30 s later, "
        f"load average {round_['load_after']:.1f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--site", type=Path, help="a built site to time as it is (default: scripts/lite.sh's)"
    )
    arguments = parser.parse_args()
    rounds, site = arguments.rounds, arguments.site or SITE
    python = os.environ.get("HOOKCOURSE_UI_PYTHON", "")
    chromium = os.environ.get("HOOKCOURSE_CHROMIUM") or shutil.which("chromium")
    if not python or not chromium:
        print("lite_cold_start.py: set HOOKCOURSE_UI_PYTHON (scripts/ui-prereqs.sh prints it)")
        return 2
    if arguments.site is None:
        subprocess.run([str(ROOT / "scripts" / "lite.sh")], stdout=subprocess.DEVNULL, check=True)
    notebooks = sorted(path.name for path in (site / "files").glob("*.ipynb"))
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", "-b", "127.0.0.1", "-d", str(site), str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    runs: list[dict[str, Any]] = []
    print(f"{notebooks[0]} from the site root, then every Next link, {rounds} fresh profiles")
    try:
        with tempfile.TemporaryDirectory() as scratch:
            plan = {
                "mode": "timing",
                "url": f"http://127.0.0.1:{port}",
                "notebooks": notebooks,
                "chromium": chromium,
                "trap_port": _free_port(),  # nothing listens: off-host requests just fail
                "shots": scratch,
            }
            for _ in range(rounds):
                load_before = os.getloadavg()[0]
                seen = _once(python, plan, Path(scratch))
                seen.update(load_before=load_before, load_after=os.getloadavg()[0])
                runs.append(seen)
                _report(seen)
    finally:
        server.terminate()
        server.wait(timeout=30)
    cold = statistics.median(run["first_s"] for run in runs)
    following = statistics.median(opened["s"] for run in runs for opened in run["next"])
    slowest = max(opened["s"] for run in runs for opened in run["next"])
    memory = max(run[SETTLED] for run in runs)
    at_once = max(run["memory_mb"] for run in runs)
    print(
        f"median: usable cold in {cold:.1f} s (target <= {COLD_TARGET_S:.0f} s), "
        f"next notebook in {following:.1f} s (slowest {slowest:.1f} s; target <= "
        f"{NEXT_TARGET_S:.0f} s); most memory with all {len(notebooks)} open "
        f"{memory:.0f} MB 30 s after the last (target < {MEMORY_TARGET_MB:.0f} MB), "
        f"{at_once:.0f} MB at once"
    )
    met = cold <= COLD_TARGET_S and following <= NEXT_TARGET_S and memory < MEMORY_TARGET_MB
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
