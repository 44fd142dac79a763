"""The course as a learner starts it: a checkout, `scripts/lab.sh`, and the page it opens.

The checkout is copied to a temporary folder whose ``.venv`` lends the project's
installed Python and JupyterLab; its ``python -m pip`` only records the call, so
nothing is installed (the install step belongs to ``scripts/bootstrap.sh``).
``BROWSER`` is a recorder, so a test sees the page JupyterLab asks the learner's
browser to open, and can open that same page in a real one.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.paths import ROOT
from tests.support.ports import free_port

PIP_RECORDER = """#!/bin/sh
if [ "$1" = "-m" ] && [ "$2" = "pip" ]; then
  echo "$@" >> "$(dirname "$0")/../pip-calls"
  exit 0
fi
exec {python} "$@"
"""

BROWSER_RECORDER = """#!/bin/sh
echo "$1" >> {opened}
"""


@dataclass(frozen=True)
class Course:
    """A running `scripts/lab.sh`: where it lives and what it asked the browser to open."""

    checkout: Path
    base_url: str  # http://127.0.0.1:<port>
    opened: str  # the first page handed to the browser (a file:// page that redirects)
    log: Path

    def get(self, path: str) -> tuple[int, str]:
        """The status and body of ``path`` on the server."""
        return fetch(self.base_url + path)

    def git(self, *arguments: str) -> str:
        """git's stdout for a command run in the checkout."""
        return git(self.checkout, *arguments)


def fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, ""


def write_executable(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    path.chmod(0o755)


# Module scope: one server serves every test in a file (each start costs seconds).
@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("course")


def git(checkout: Path, *arguments: str) -> str:
    """Run git in the checkout; its stdout."""
    identity = ["-c", "user.name=learner", "-c", "user.email=learner@example.invalid"]
    done = subprocess.run(
        ["git", *identity, *arguments],
        cwd=checkout,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return done.stdout


@pytest.fixture(scope="module")
def checkout(workdir: Path) -> Path:
    """The course files a learner clones (a git repository, so a test can ask git what
    changed), with a ``.venv`` borrowed from this one."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = workdir / "hookcourse"
    for name in ("scripts", "notebooks", "locks"):
        shutil.copytree(ROOT / name, root / name)
    for name in ("pyproject.toml", ".gitignore"):
        shutil.copy(ROOT / name, root / name)
    git(root, "init", "--quiet")
    git(root, "add", "--all")
    git(root, "commit", "--quiet", "-m", "the course")
    bin_dir = root / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    write_executable(bin_dir / "python", PIP_RECORDER.format(python=sys.executable))
    for tool in ("jupyter", "jupyter-lab"):
        (bin_dir / tool).symlink_to(Path(sys.executable).parent / tool)
    (root / ".venv" / ".hookcourse-venv").touch()  # whole, as bootstrap.sh marks it
    return root


@pytest.fixture(scope="module")
def course(checkout: Path, workdir: Path) -> Iterator[Course]:
    """``scripts/lab.sh`` running on a free port with no token, until the test ends."""
    port = free_port()
    opened = workdir / "browser-calls"
    recorder = workdir / "browser"
    write_executable(recorder, BROWSER_RECORDER.format(opened=shlex.quote(str(opened))))
    # The recording python stands in for pip; HOOKCOURSE_INSTALLER=pip makes
    # bootstrap.sh call it rather than uv.
    env = dict(os.environ, BROWSER=f"{shlex.quote(str(recorder))} %s", HOOKCOURSE_INSTALLER="pip")
    for variable, folder in [
        ("JUPYTER_CONFIG_DIR", "config"),
        ("JUPYTER_RUNTIME_DIR", "runtime"),
        ("JUPYTERLAB_SETTINGS_DIR", "settings"),
        ("JUPYTERLAB_WORKSPACES_DIR", "workspaces"),
    ]:
        env[variable] = str(workdir / folder)
    argv = [
        str(checkout / "scripts" / "lab.sh"),
        f"--port={port}",
        "--ip=127.0.0.1",
        "--ServerApp.port_retries=0",
        "--IdentityProvider.token=",
        "--ServerApp.disable_check_xsrf=True",
    ]
    log = workdir / "lab.log"
    with log.open("w") as sink:
        server = subprocess.Popen(
            argv, env=env, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True
        )
    base_url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90  # a readiness wait, not a speed assertion
        ready = False
        while not ready and time.monotonic() < deadline and server.poll() is None:
            with contextlib.suppress(OSError):  # not listening yet
                ready = fetch(f"{base_url}/api/status")[0] == 200 and opened.exists()
            time.sleep(0.3)
        assert ready, log.read_text()
        first = opened.read_text(encoding="utf-8").splitlines()[0]
        yield Course(checkout, base_url, first, log)
    finally:
        if server.poll() is None:  # it may have exited on its own (see the log)
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)


# -- the real browser: Chromium driven by Playwright under a Python that has it ------------

INSTALL = (
    "apt-get install -y chromium; python3 -m venv /tmp/uivenv && "
    "/tmp/uivenv/bin/pip install playwright; then run with "
    "HOOKCOURSE_UI_PYTHON=/tmp/uivenv/bin/python"
)


def playwright_python() -> str:
    """This Python if it has Playwright, else $HOOKCOURSE_UI_PYTHON if that one has it."""
    if importlib.util.find_spec("playwright") is not None:
        return sys.executable
    other = os.environ.get("HOOKCOURSE_UI_PYTHON", "")
    if not other:
        pytest.skip(f"Playwright is not importable and HOOKCOURSE_UI_PYTHON is unset; {INSTALL}")
    probe = subprocess.run([other, "-c", "import playwright"], capture_output=True, timeout=60)
    if probe.returncode != 0:
        pytest.skip(f"HOOKCOURSE_UI_PYTHON={other} cannot import playwright; {INSTALL}")
    return other


def chromium() -> str:
    """$HOOKCOURSE_CHROMIUM, else `chromium` on PATH (Debian's package)."""
    found = os.environ.get("HOOKCOURSE_CHROMIUM") or shutil.which("chromium")
    if not found:
        pytest.skip(f"no chromium on PATH and HOOKCOURSE_CHROMIUM is unset; {INSTALL}")
    return found


@pytest.fixture(scope="module")
def browser_tools() -> tuple[str, str]:
    """(a Python with Playwright, Chromium); module scope, so a skip comes before the server."""
    return playwright_python(), chromium()
