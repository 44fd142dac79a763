"""The network rule: inside.py starts nothing unless its namespace has loopback alone."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from inside import interfaces

HERE = Path(__file__).resolve().parent


def _run_inside(tmp_path: Path, *prefix: str) -> tuple[int, dict[str, object], bool]:
    marker = tmp_path / "started"
    spec = {
        "argv": ["/bin/sh", "-c", f"touch {marker}"],
        "prompt": "x",
        "env": {"PATH": "/usr/bin:/bin"},
        "cwd": str(tmp_path),
        "turns": [],
        "log": str(tmp_path / "requests.jsonl"),
        "stdout": str(tmp_path / "out"),
        "stderr": str(tmp_path / "err"),
        "timeout": 10,
        "result": str(tmp_path / "result.json"),
    }
    (tmp_path / "run.json").write_text(json.dumps(spec), encoding="utf-8")
    done = subprocess.run(
        [*prefix, sys.executable, str(HERE / "inside.py"), str(tmp_path / "run.json")],
        capture_output=True,
        timeout=30,
    )
    result = json.loads((tmp_path / "result.json").read_text(encoding="utf-8"))
    return done.returncode, result, marker.exists()


def test_outside_a_namespace_it_refuses_when_other_interfaces_exist(tmp_path: Path) -> None:
    status, result, started = _run_inside(tmp_path)
    if interfaces() == ["lo"]:
        assert status == 0 and started
    else:
        assert status == 3 and not started
        assert "interfaces other than lo" in str(result["refused"])


def test_in_a_fresh_network_namespace_it_runs(tmp_path: Path) -> None:
    if shutil.which("unshare") is None:
        pytest.fail("unshare (util-linux) is needed for the oracle")
    probe = subprocess.run(["unshare", "-n", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip(f"unshare -n is not permitted here: {probe.stderr.decode().strip()}")
    status, result, started = _run_inside(tmp_path, "unshare", "-n")
    assert status == 0 and started and result == {"exit": 0}
