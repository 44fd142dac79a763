"""Cold start of the JupyterLite site: from opening the matcher notebook to a usable one.

Serves build/lite/site (scripts/lite.sh builds it) with ``python -m http.server`` on
127.0.0.1, then ROUNDS times opens the matcher notebook in a fresh headless Chromium
(empty profile, so nothing cached) and records three moments: the notebook is shown,
the Pyodide kernel is idle, the first code cell has run (the notebook is usable).
Prints the medians; the issue's target is at most 40 s to a usable notebook. The
baseline in the same run is the page itself: "shown" is the browser and JupyterLab,
"usable" adds Pyodide, the wheels and the first imports. Not a test.

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

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "build" / "lite" / "site"
DRIVER = ROOT / "tests" / "lite" / "browse_lite.py"
MOMENTS = [
    ("shown_s", "notebook shown"),
    ("kernel_ready_s", "kernel idle"),
    ("first_cell_s", "usable"),
]
TARGET_S = 40.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _once(python: str, plan: dict[str, object], folder: Path) -> dict[str, float]:
    plan_file = folder / "plan.json"
    plan_file.write_text(json.dumps(plan), encoding="utf-8")
    run = subprocess.run(
        [python, str(DRIVER), str(plan_file)], capture_output=True, text=True, check=False
    )
    if run.returncode != 0:
        raise SystemExit(f"lite_cold_start.py: the browser run failed: {run.stderr.strip()}")
    seen: dict[str, float] = json.loads(run.stdout)
    return seen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    rounds = parser.parse_args().rounds
    python = os.environ.get("HOOKCOURSE_UI_PYTHON", "")
    chromium = os.environ.get("HOOKCOURSE_CHROMIUM") or shutil.which("chromium")
    if not python or not chromium:
        print("lite_cold_start.py: set HOOKCOURSE_UI_PYTHON (scripts/ui-prereqs.sh prints it)")
        return 2
    subprocess.run([str(ROOT / "scripts" / "lite.sh")], stdout=subprocess.DEVNULL, check=True)
    (notebook,) = sorted(path.name for path in (SITE / "files").glob("01_*.ipynb"))
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", "-b", "127.0.0.1", "-d", str(SITE), str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    runs: list[dict[str, float]] = []
    try:
        with tempfile.TemporaryDirectory() as scratch:
            plan = {
                "mode": "cold",
                "url": f"http://127.0.0.1:{port}",
                "notebook": notebook,
                "chromium": chromium,
                "trap_port": _free_port(),  # nothing listens: off-host requests just fail
                "shots": scratch,
            }
            runs = [_once(python, plan, Path(scratch)) for _ in range(rounds)]
    finally:
        server.terminate()
        server.wait(timeout=30)
    load = os.getloadavg()[0]
    print(f"{notebook} in headless Chromium, {rounds} cold runs, load average {load:.1f}")
    for key, label in MOMENTS:
        print(f"{label:<15} median {statistics.median(run[key] for run in runs):6.1f} s")
    usable = statistics.median(run["first_cell_s"] for run in runs)
    print(f"usable in {usable:.1f} s (target <= {TARGET_S:.0f} s)")
    return 0 if usable <= TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
