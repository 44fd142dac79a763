"""scripts/lab.sh reaches a running JupyterLab on notebook 00, with the widgets extension.

The checkout is copied to a temporary folder whose ``.venv`` lends the project's
installed Python and JupyterLab; its ``python -m pip`` only records the call, so
the test installs nothing. The real install on a machine with only Python was
run by hand (see the report in the README); the install step itself belongs to
``scripts/bootstrap.sh``.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

PIP_RECORDER = """#!/bin/sh
if [ "$1" = "-m" ] && [ "$2" = "pip" ]; then
  echo "$@" >> "$(dirname "$0")/../pip-calls"
  exit 0
fi
exec {python} "$@"
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, ""


@pytest.fixture
def checkout(tmp_path: Path, repo_root: Path) -> Path:
    root = tmp_path / "hookcourse"
    for name in ("scripts", "notebooks"):
        shutil.copytree(repo_root / name, root / name)
    shutil.copy(repo_root / "pyproject.toml", root / "pyproject.toml")
    real = Path(sys.executable).parent
    bin_dir = root / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").write_text(PIP_RECORDER.format(python=sys.executable))
    (bin_dir / "python").chmod(0o755)
    (bin_dir / "jupyter").symlink_to(real / "jupyter")
    return root


@pytest.fixture
def lab_server(checkout: Path, tmp_path: Path) -> Iterator[str]:
    port = free_port()
    env = dict(os.environ)
    for variable, folder in [
        ("JUPYTER_CONFIG_DIR", "config"),
        ("JUPYTER_RUNTIME_DIR", "runtime"),
        ("JUPYTERLAB_SETTINGS_DIR", "settings"),
        ("JUPYTERLAB_WORKSPACES_DIR", "workspaces"),
    ]:
        env[variable] = str(tmp_path / folder)
    argv = [
        str(checkout / "scripts" / "lab.sh"),
        "--no-browser",
        f"--port={port}",
        "--ip=127.0.0.1",
        "--ServerApp.port_retries=0",
        "--IdentityProvider.token=",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        argv.append("--allow-root")
    log = (tmp_path / "lab.log").open("w")
    server = subprocess.Popen(
        argv, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90  # a readiness wait, not a speed assertion
        while time.monotonic() < deadline and server.poll() is None:
            try:
                if fetch(f"{base}/api/status")[0] == 200:
                    break
            except OSError:
                pass
            time.sleep(0.5)
        assert server.poll() is None, (tmp_path / "lab.log").read_text()
        yield base
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        log.close()


def test_lab_sh_installs_the_lab_extra_and_serves_notebook_00(
    checkout: Path, lab_server: str
) -> None:
    calls = (checkout / ".venv" / "pip-calls").read_text()
    assert "install" in calls and f"-e {checkout}[lab]" in calls
    status, page = fetch(f"{lab_server}/lab")
    assert status == 200
    assert "@jupyter-widgets/jupyterlab-manager" in page
    assert fetch(f"{lab_server}/lab/tree/00_hook_contract.ipynb")[0] == 200
    status, listing = fetch(f"{lab_server}/api/contents/00_hook_contract.ipynb?content=0")
    assert status == 200 and '"type": "notebook"' in listing.replace('":"', '": "')
