"""Cold start of the JupyterLite site, and the next notebook: what a new learner waits for.

Serves build/lite/site (scripts/lite.sh builds it) with ``python -m http.server`` on
127.0.0.1, then ROUNDS times opens the site's root in a fresh headless Chromium (empty
profile, nothing cached): notebook 00 opens; "usable" is its kernel idle. Then it
follows notebook 00's Next link to 01 (same page, its own new kernel) and times that,
and reports the browser's memory (the proportional set size of Chromium's processes,
shared pages split among them) with both notebooks open. Prints medians and the load
average (the machine is shared: a figure means little without it); the targets are
<= 30 s cold and <= 10 s to the next notebook. Not a test.

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
COLD_TARGET_S = 30.0
NEXT_TARGET_S = 10.0


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _once(python: str, plan: dict[str, object], folder: Path) -> dict[str, object]:
    plan_file = folder / "plan.json"
    plan_file.write_text(json.dumps(plan), encoding="utf-8")
    run = subprocess.run(
        [python, str(DRIVER), str(plan_file)], capture_output=True, text=True, check=False
    )
    if run.returncode != 0:
        raise SystemExit(f"lite_cold_start.py: the browser run failed: {run.stderr.strip()}")
    seen: dict[str, object] = json.loads(run.stdout)
    return seen


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    rounds = parser.parse_args().rounds
    python = os.environ.get("HOOKCOURSE_UI_PYTHON", "")
    chromium = os.environ.get("HOOKCOURSE_CHROMIUM") or shutil.which("chromium")
    if not python or not chromium:
        print("lite_cold_start.py: set HOOKCOURSE_UI_PYTHON (scripts/ui-prereqs.sh prints it)")
        return 2
    subprocess.run([str(ROOT / "scripts" / "lite.sh")], stdout=subprocess.DEVNULL, check=True)
    notebooks = sorted(path.name for path in (SITE / "files").glob("*.ipynb"))[:2]
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
                "mode": "timing",
                "url": f"http://127.0.0.1:{port}",
                "notebooks": notebooks,
                "chromium": chromium,
                "trap_port": _free_port(),  # nothing listens: off-host requests just fail
                "shots": scratch,
            }
            for _ in range(rounds):
                seen = _once(python, plan, Path(scratch))
                runs.append({k: float(v) for k, v in seen.items() if isinstance(v, int | float)})
                runs[-1]["load"] = os.getloadavg()[0]
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"{notebooks[0]} from the site root, then its Next link, {rounds} fresh profiles")
    for run in runs:
        print(
            f"  cold {run['first_s']:5.1f} s   next {run['next_s']:5.1f} s   "
            f"memory {run['memory_mb']:5.0f} MB   load average {run['load']:.1f}"
        )
    cold = statistics.median(run["first_s"] for run in runs)
    following = statistics.median(run["next_s"] for run in runs)
    print(
        f"median: usable cold in {cold:.1f} s (target <= {COLD_TARGET_S:.0f} s), "
        f"next notebook in {following:.1f} s (target <= {NEXT_TARGET_S:.0f} s)"
    )
    return 0 if cold <= COLD_TARGET_S and following <= NEXT_TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
