"""The network rule: the package's runner (hookcourse.session.namespace) starts nothing
unless its namespace has loopback alone."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from hookcourse.session import namespace


def _run_inside(tmp_path: Path, prefix: list[str]) -> tuple[int, dict[str, object], bool]:
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
        namespace.command(tmp_path / "run.json", prefix),
        cwd=namespace.PACKAGE_PARENT,
        capture_output=True,
        timeout=30,
    )
    result = json.loads((tmp_path / "result.json").read_text(encoding="utf-8"))
    return done.returncode, result, marker.exists()


def test_outside_a_namespace_it_refuses_when_other_interfaces_exist(tmp_path: Path) -> None:
    status, result, started = _run_inside(tmp_path, [])
    if namespace.interfaces() == ["lo"]:
        assert status == 0 and started
    else:
        assert status == 3 and not started
        assert "interfaces other than lo" in str(result["refused"])


def test_in_a_fresh_network_namespace_it_runs(tmp_path: Path) -> None:
    # UNSHARE_AS_USER is how a user without root gets one (a user namespace of its own);
    # each way that works here runs the runner, and namespace_prefix picks the first.
    if shutil.which("unshare") is None:
        pytest.fail("unshare (util-linux) is needed for the oracle")
    working = []
    for number, prefix in enumerate([namespace.UNSHARE, namespace.UNSHARE_AS_USER]):
        if subprocess.run([*prefix, "true"], capture_output=True).returncode != 0:
            continue
        working.append(prefix)
        folder = tmp_path / str(number)
        folder.mkdir()
        status, result, started = _run_inside(folder, prefix)
        assert status == 0 and started and result == {"isolation": "namespace", "exit": 0}
    if not working:
        pytest.skip(namespace.namespace_prefix()[1])
    assert namespace.namespace_prefix() == (working[0], "")
