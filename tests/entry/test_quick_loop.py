"""`scripts/test.sh --quick` leaves the slow tests out for the inner loop, and nothing under CI."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from tests.support.paths import ROOT

SLOW_FILE = "tests/entry/test_wheel.py"  # under conftest.py's SLOW
FAST_FILE = "tests/core/test_record.py"


def collected(*, ci: bool) -> tuple[int, int]:
    """(collected, deselected) for ``-m "not slow"`` over one slow and one fast file."""
    env = {key: value for key, value in os.environ.items() if key != "CI"}
    if ci:
        env["CI"] = "true"
    options = ["--collect-only", "-q", "-p", "no:nbval", "-o", "addopts=--import-mode=importlib"]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *options, "-m", "not slow", SLOW_FILE, FAST_FILE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    found = re.search(r"(\d+)(?:/(\d+))? tests? collected(?: \((\d+) deselected\))?", done.stdout)
    assert found, done.stdout[-2000:]
    return int(found[1]), int(found[3] or 0)


def test_not_slow_leaves_the_slow_files_out_but_not_under_ci() -> None:
    kept, left_out = collected(ci=False)
    assert kept > 0 and left_out > 0
    everything, none = collected(ci=True)
    assert none == 0 and everything == kept + left_out


def quick_flag(*arguments: str, ci: str | None) -> str:
    """What test.sh's own argument handling makes of ``arguments`` (its lines, run alone)."""
    script = (ROOT / "scripts" / "test.sh").read_text(encoding="utf-8")
    block = script[script.index('quick=""\n') : script.index("scripts/bootstrap.sh test")]
    env = {key: value for key, value in os.environ.items() if key != "CI"}
    if ci is not None:
        env["CI"] = ci
    done = subprocess.run(
        ["bash", "-c", block + 'echo "quick=[$quick] rest=[$*]"', "test.sh", *arguments],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return done.stdout.strip()


def test_test_sh_ignores_quick_under_ci() -> None:
    assert quick_flag("--quick", "-k", "x", ci=None) == "quick=[1] rest=[-k x]"
    assert quick_flag("--quick", ci="false") == "quick=[1] rest=[]"
    assert quick_flag("--quick", "-k", "x", ci="true") == "quick=[] rest=[-k x]"
    assert quick_flag("--quick", ci="TRUE") == "quick=[] rest=[]"
    assert quick_flag("-k", "x", ci=None) == "quick=[] rest=[-k x]"
