"""The wheel of this checkout, built and installed in a fresh venv once per test run.

Every test that needs it (tests/entry/test_wheel.py, tests/session/test_wheel_real.py)
shares one build, also across pytest-xdist workers: the first to ask builds it under
an exclusive file lock in the run's shared temporary folder; the others wait on the
lock, then find it ready. A build that failed is tried again by the next to ask.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.support.paths import ROOT

READY = "ready"


def run_quietly(*command: str | Path, cwd: Path) -> str:
    """Run ``command`` with no checkout on the path; its stdout, or fail with its output."""
    done = subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "NO_COLOR": "1", "PYTHONPATH": ""},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def installed_wheel(shared: Path) -> Path:
    """The venv (in ``shared``/wheel) with the wheel installed, built on first use."""
    place = shared / "wheel"
    place.mkdir(parents=True, exist_ok=True)
    venv = place / "venv"
    with open(place / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (place / READY).is_file():
            _build(place / "build", venv)
            (place / READY).write_text(f"{sys.executable}\n", encoding="utf-8")
    return venv


def _build(work: Path, venv: Path) -> None:
    """Build the wheel from a copy of the package's sources (no build isolation, so no
    download) and install it in a fresh venv outside the checkout."""
    for stale in (work, venv):
        shutil.rmtree(stale, ignore_errors=True)
    source = work / "source"
    source.mkdir(parents=True)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    # symlinks=True keeps hookcourse/fixtures a link to fixtures/, as in the repository.
    skip = shutil.ignore_patterns("__pycache__", "*.egg-info")
    shutil.copytree(ROOT / "hookcourse", source / "hookcourse", symlinks=True, ignore=skip)
    shutil.copytree(ROOT / "fixtures", source / "fixtures", ignore=skip)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    run_quietly(
        *pip, "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", work, source, cwd=work
    )
    (wheel,) = work.glob("hookcourse-*.whl")
    run_quietly(sys.executable, "-m", "venv", "--without-pip", venv, cwd=work)
    run_quietly(*pip, "--python", venv / "bin" / "python", "install", "-q", wheel, cwd=work)
