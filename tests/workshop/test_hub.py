"""A class on a real JupyterHub: three users' servers on 127.0.0.1 (workshop/jupyterhub_config.py
and the course's server extension), a check run in each user's notebook kernel, and the
class report read from the hub's homes.

The hub runs from workshop/jupyterhub_config.py plus what a test needs: loopback ports, a
local spawner with per-user homes under a temporary folder, a teacher service token;
code runs in a user's notebook kernel through the hub's proxy (REST for the session,
the kernel's websocket for the code), as a learner's open notebook would run it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHP_ENV = "HOOKCOURSE_CHP"
TOKEN = uuid.uuid4().hex


def proxy_command() -> str | None:
    """configurable-http-proxy: ``$HOOKCOURSE_CHP``, scripts/test.sh's install, or PATH."""
    named = os.environ.get(CHP_ENV)
    installed = ROOT / ".venv" / "chp" / "node_modules" / ".bin" / "configurable-http-proxy"
    for candidate in (named, str(installed) if installed.exists() else None):
        if candidate:
            return candidate
    return shutil.which("configurable-http-proxy")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


CONFIG = """
c = get_config()
load_subconfig({shared!r})
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = {port}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {hub_port}
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{api_port}"
c.ConfigurableHTTPProxy.command = [{proxy!r}]
c.ConfigurableHTTPProxy.pid_file = {pid_file!r}
c.JupyterHub.db_url = "sqlite:///{folder}/hub.sqlite"
c.JupyterHub.cookie_secret_file = "{folder}/cookie_secret"
c.JupyterHub.log_level = "WARN"
c.JupyterHub.authenticator_class = "dummy"
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = "{folder}/home/{{username}}"
c.Spawner.cmd = [{singleuser!r}]
c.Spawner.args = {args!r}
# A loaded machine starts servers slowly; the hub waits as long as the test does.
c.Spawner.start_timeout = 180
c.Spawner.http_timeout = 180
# What workshop/install.sh enables in the users' Python: the course's server extension.
c.Spawner.environment = {{"JUPYTER_CONFIG_PATH": {config_path!r}}}
c.JupyterHub.services = [{{"name": "teacher", "api_token": {token!r}}}]
c.JupyterHub.load_roles = [
    {{
        "name": "teacher",
        "scopes": ["admin:users", "admin:servers", "access:servers", "list:users"],
        "services": ["teacher"],
    }}
]
"""


@dataclass
class Hub:
    """A running hub: its public address, the folder holding the users' homes."""

    url: str
    folder: Path
    process: subprocess.Popen[bytes]

    @property
    def homes(self) -> Path:
        return self.folder / "home"

    def api(self, method: str, path: str, body: object = None) -> Any:
        """The hub's REST API as the teacher service; the decoded JSON answer (or None)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"{self.url}/hub/api{path}",
            data=data,
            method=method,
            headers={"Authorization": f"token {TOKEN}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            text = answer.read()
        return json.loads(text) if text else None

    def start_servers(self, users: list[str], deadline: float = 180.0) -> None:
        """Create the users, start each one's server, and wait until all are ready."""
        self.api("POST", "/users", {"usernames": users})
        for user in users:
            self.api("POST", f"/users/{user}/server")
        started = time.monotonic()
        waiting = set(users)
        while waiting:
            for user in sorted(waiting):
                model = self.api("GET", f"/users/{user}")
                if (model.get("servers") or {}).get("", {}).get("ready"):
                    waiting.discard(user)
            if time.monotonic() - started > deadline:
                raise TimeoutError(f"servers not ready after {deadline:.0f} s: {sorted(waiting)}")
            time.sleep(0.2)

    def stop_servers(self, users: list[str]) -> None:
        for user in users:
            with contextlib.suppress(urllib.error.URLError):
                self.api("DELETE", f"/users/{user}/server")

    def run_in_notebook(self, user: str, notebook: str, code: str) -> str:
        """Open ``notebook`` (a session, as JupyterLab does), run ``code`` in its kernel,
        and return what it printed; the kernel is shut down after."""
        base = f"{self.url}/user/{user}/api"
        session = _json(
            "POST",
            f"{base}/sessions",
            {"path": notebook, "type": "notebook", "kernel": {"name": "python3"}},
        )
        try:
            kernel = session["kernel"]["id"]
            return asyncio.run(_execute(f"{base}/kernels/{kernel}/channels", code))
        finally:
            _json("DELETE", f"{base}/sessions/{session['id']}")


def _json(method: str, url: str, body: object = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        url, data=data, method=method, headers={"Authorization": f"token {TOKEN}"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        text = answer.read()
    return json.loads(text) if text else None


async def _execute(url: str, code: str, deadline: float = 60.0) -> str:
    """One execute_request on a kernel's websocket; its stdout, or its error as text."""
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    socket_url = url.replace("http://", "ws://", 1)
    request = HTTPRequest(socket_url, headers={"Authorization": f"token {TOKEN}"})
    connection = await websocket_connect(request)
    msg_id = uuid.uuid4().hex
    message = {
        "header": {
            "msg_id": msg_id,
            "msg_type": "execute_request",
            "session": uuid.uuid4().hex,
            "username": "teacher",
            "version": "5.3",
        },
        "parent_header": {},
        "metadata": {},
        "channel": "shell",
        "buffers": [],
        "content": {
            "code": code,
            "silent": False,
            "store_history": False,
            "user_expressions": {},
            "allow_stdin": False,
            "stop_on_error": True,
        },
    }
    await connection.write_message(json.dumps(message))
    printed: list[str] = []
    try:
        async with asyncio.timeout(deadline):
            while True:
                raw = await connection.read_message()
                if raw is None:
                    raise ConnectionError("the kernel's websocket closed")
                reply = json.loads(raw)
                if reply.get("parent_header", {}).get("msg_id") != msg_id:
                    continue
                kind, content = reply["msg_type"], reply["content"]
                if kind == "stream":
                    printed.append(content["text"])
                elif kind == "error":
                    printed.append(f"{content['ename']}: {content['evalue']}\n")
                elif kind == "status" and content["execution_state"] == "idle":
                    return "".join(printed)
    finally:
        connection.close()


def _wait_until_serving(url: str, process: subprocess.Popen[bytes], deadline: float) -> None:
    started = time.monotonic()
    while time.monotonic() - started < deadline:
        if process.poll() is not None:
            said = (Path(process.args[-1]).parent / "hub.log").read_text(errors="replace")
            raise RuntimeError(f"the hub exited with {process.returncode}: {said[-2000:]}")
        try:
            with urllib.request.urlopen(f"{url}/hub/api", timeout=2):
                return
        except (urllib.error.URLError, OSError):
            time.sleep(0.2)
    raise TimeoutError(f"the hub did not answer within {deadline:.0f} s")


@contextlib.contextmanager
def running_hub(folder: Path, proxy: str) -> Iterator[Hub]:
    """Start the hub in ``folder``; on leaving, stop every server, the hub and its proxy."""
    port = free_port()
    root_user = os.geteuid() == 0
    config = CONFIG.format(
        shared=str(ROOT / "workshop" / "jupyterhub_config.py"),
        port=port,
        hub_port=free_port(),
        api_port=free_port(),
        proxy=proxy,
        pid_file=str(folder / "proxy.pid"),
        folder=folder,
        singleuser=str(Path(sys.executable).with_name("jupyterhub-singleuser")),
        # Language servers and terminals are not the course's: not loaded, for a faster start.
        args=[
            *(["--allow-root"] if root_user else []),
            "--ServerApp.jpserver_extensions=jupyter_lsp=False",
            "--ServerApp.jpserver_extensions=jupyter_server_terminals=False",
        ],
        config_path=str(ROOT / "scripts" / "jupyter"),
        token=TOKEN,
    )
    (folder / "jupyterhub_config.py").write_text(config, encoding="utf-8")
    log = (folder / "hub.log").open("wb")
    process = subprocess.Popen(
        [
            str(Path(sys.executable).with_name("jupyterhub")),
            "-f",
            str(folder / "jupyterhub_config.py"),
        ],
        cwd=folder,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    hub = Hub(f"http://127.0.0.1:{port}", folder, process)
    try:
        _wait_until_serving(hub.url, process, 60)
        yield hub
    finally:
        # SIGTERM: the hub stops its users' servers and its proxy (cleanup_servers).
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        _stop_leftover_proxy(folder / "proxy.pid")
        log.close()


def _stop_leftover_proxy(pid_file: Path) -> None:
    try:
        pid = int(pid_file.read_text(encoding="utf-8").strip())
    except (OSError, ValueError):
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGTERM)


USERS = ["alice", "bob", "cy"]
NOTEBOOK = "my-notebooks/01_matcher.ipynb"
CHECKS = {
    "alice": "check_matcher(solutions.match_hook)",
    "bob": "check_matcher(lambda matcher, tool_name: matcher == tool_name)",
    "cy": "check_exit_code(solutions.interpret_exit_code)",
}
PRELUDE = (
    "from hookcourse import solutions\n"
    "from hookcourse.course.checks.exercises import check_exit_code, check_matcher\n"
)


def test_three_users_check_on_a_real_hub_and_the_report_reads_their_homes(
    tmp_path: Path,
) -> None:
    proxy = proxy_command()
    if proxy is None:
        pytest.skip("configurable-http-proxy is not installed (scripts/test.sh installs it)")
    with running_hub(tmp_path, proxy) as hub:
        hub.start_servers(USERS)
        try:
            printed = {
                user: hub.run_in_notebook(user, NOTEBOOK, PRELUDE + f"print({CHECKS[user]})")
                for user in USERS
            }
        finally:
            hub.stop_servers(USERS)
    assert printed["alice"].startswith("match_hook: passed"), printed["alice"]
    assert printed["bob"].startswith("match_hook: "), printed["bob"]
    assert "passed" not in printed["bob"].splitlines()[0]
    assert printed["cy"].startswith("interpret_exit_code: passed"), printed["cy"]

    # Each server made its user's working copy, where the check recorded its run.
    for user in USERS:
        work = hub.homes / user / "my-notebooks"
        assert (work / "00_hook_contract.ipynb").is_file()
        [line] = (work / "progress.jsonl").read_text(encoding="utf-8").splitlines()
        assert json.loads(line)["learner"] == user  # $JUPYTERHUB_USER

    made = subprocess.run(
        [sys.executable, "-m", "hookcourse", "workshop", "report", f"{hub.homes}/*/my-notebooks"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert made.returncode == 0, made.stderr
    rows = [line.split() for line in made.stdout.splitlines()[1:5]]
    assert [row[0] for row in rows] == ["bob", "alice", "cy", "done"]  # stuck first
    assert rows[3][1:3] == ["1/3", "1/3"]  # match_hook and interpret_exit_code
    assert "  bob at 01 match_hook: " in made.stdout
