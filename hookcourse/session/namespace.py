"""The one way Claude Code is started: loopback only, against the scripted mock Messages API.

``command(RUN.json)`` is the line to run: ``unshare -n python -E -s -m
hookcourse.session.namespace RUN.json`` from the folder that holds the package
(so an installed package and a checkout both work); without root, ``unshare
--map-root-user -n`` where user namespaces are allowed. Inside the new namespace the
runner brings ``lo`` up, refuses to go on if the namespace has any other
interface, starts the mock on 127.0.0.1 and runs the binary once with
ANTHROPIC_BASE_URL pointing at it.

Where no network namespace can be made (macOS, rootless containers), a caller may
ask for ``"isolation": "env"``: the same run without ``unshare``, held to
loopback only by the environment (the base URL, HTTP(S)_PROXY at a closed port on
127.0.0.1 for any other host, non-essential traffic and the updater off, scratch
HOME and TMPDIR). That is a request to the program, not a wall; the project's own
harness never uses it with the real binary.

RUN.json holds ``argv``, ``prompt``, ``env``, ``cwd``, ``turns``, ``player`` (a
``mock_api.PLAYERS`` name), ``messages`` (stream-json lines for ``--input-format
stream-json``: the first at once, each next one after the run's ``result`` for the
one before, as a user who waits for the answer; else stdin is empty),
``isolation``, ``log``, ``stdout``, ``stderr``, ``timeout`` and ``result`` (where the
status is written). Standard library only.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

from hookcourse.engine.interrupts import TRACE_VARIABLE

from .mock_api import MockAPI

NET_DEV = Path("/proc/self/net/dev")
"""Per network namespace (unlike /sys/class/net, which shows the namespace sysfs was mounted in)."""
PACKAGE_PARENT = Path(__file__).resolve().parents[2]
"""The folder holding the ``hookcourse`` package: the runner's working directory."""
NAMESPACE, ENV = "namespace", "env"
ISOLATION = {
    NAMESPACE: "loopback-only network namespace (unshare -n), mock Messages API on 127.0.0.1",
    ENV: "no network namespace: ANTHROPIC_BASE_URL and HTTP(S)_PROXY on 127.0.0.1, "
    "non-essential traffic off, scratch HOME and TMPDIR (the program is asked, not walled in)",
}
"""Each isolation a run can have, in the words the transcript reports."""
CLOSED_PROXY = "http://127.0.0.1:9"
"""The discard port: nothing listens, so a client that honours the proxy reaches nothing."""


UNSHARE = ["unshare", "-n"]
UNSHARE_AS_USER = ["unshare", "--map-root-user", "-n"]
"""Without root: a user namespace of one's own, in which the new network namespace is
made (where the system allows unprivileged user namespaces)."""


def command(spec_path: Path, prefix: list[str] | None = None) -> list[str]:
    """The command line that runs ``spec_path`` after ``prefix`` (default ``UNSHARE``;
    ``[]`` for the env isolation); run it with ``cwd=PACKAGE_PARENT``.

    ``-E -s``: no PYTHON* variables and no user site; ``-m`` finds the package in the
    working directory, so the runner is the same code as its caller.
    """
    python = [sys.executable, "-E", "-s", "-m", "hookcourse.session.namespace", str(spec_path)]
    return [*(UNSHARE if prefix is None else prefix), *python]


def namespace_prefix() -> tuple[list[str] | None, str]:
    """How a network namespace is made here (``UNSHARE``, else ``UNSHARE_AS_USER``), or
    None and why neither works, in one line."""
    if shutil.which("unshare") is None:
        return None, "unshare (util-linux) is not on PATH"
    said = ""
    for prefix in (UNSHARE, UNSHARE_AS_USER):
        try:
            probe = subprocess.run([*prefix, "true"], capture_output=True, timeout=10)
        except (OSError, subprocess.TimeoutExpired) as error:
            return None, f"unshare cannot start: {error}"
        if probe.returncode == 0:
            return prefix, ""
        said = said or probe.stderr.decode("utf-8", "replace").strip()
    return None, f"unshare -n is not permitted here ({said or 'no reason given'})"


def interfaces() -> list[str]:
    """The network interfaces this namespace has."""
    lines = NET_DEV.read_text(encoding="utf-8").splitlines()[2:]
    return sorted(line.split(":", 1)[0].strip() for line in lines if ":" in line)


def loopback_only() -> str | None:
    """None when lo is up and alone; else why the run must not start."""
    try:
        up = subprocess.run(["ip", "link", "set", "lo", "up"], capture_output=True, text=True)
    except OSError as error:
        return f"could not run ip (iproute2): {error.strerror}"
    if up.returncode != 0:
        return f"could not bring lo up: {up.stderr.strip()}"
    found = interfaces()
    if found != ["lo"]:
        return f"the namespace has interfaces other than lo: {', '.join(found)}"
    listed = subprocess.run(["ip", "-o", "link"], capture_output=True, text=True).stdout
    names = [line.split(":")[1].strip().split("@")[0] for line in listed.splitlines() if line]
    if names != ["lo"]:
        return f"ip -o link lists interfaces other than lo: {', '.join(names)}"
    return None


def env_isolation(base_url: str) -> dict[str, str]:
    """The variables that point every client at loopback when no namespace walls it in."""
    loopback = {"NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost"}
    proxies = {name: CLOSED_PROXY for name in ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY")}
    return {
        **proxies,
        "http_proxy": CLOSED_PROXY,
        **loopback,
        "ANTHROPIC_BASE_URL": base_url,
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_AUTOUPDATER": "1",
    }


def run(spec: dict[str, Any]) -> dict[str, Any]:
    """Run one spec; its status (``exit`` or ``timedOut``, or ``refused``)."""
    isolation = spec.get("isolation", NAMESPACE)
    if isolation == NAMESPACE:
        refusal = loopback_only()
        if refusal is not None:
            return {"refused": refusal}
    elif isolation != ENV:
        return {"refused": f"unknown isolation {isolation!r}"}
    api = MockAPI(spec["turns"], Path(spec["log"]), spec["prompt"], spec.get("player", "in-order"))
    api.start()
    try:
        return _run_binary(spec, isolation, f"http://127.0.0.1:{api.port}")
    finally:
        api.stop()


def _run_binary(spec: dict[str, Any], isolation: str, base_url: str) -> dict[str, Any]:
    """Run the binary once against the mock at ``base_url``; its status."""
    env = {**spec["env"], "ANTHROPIC_BASE_URL": base_url}
    if TRACE_VARIABLE in os.environ:
        # Claude Code runs in a session of its own; the trace lets an interrupt of the
        # caller find and kill it and its hooks (interrupts.kill_traced).
        env[TRACE_VARIABLE] = os.environ[TRACE_VARIABLE]
    if isolation == ENV:
        env.update(env_isolation(base_url))
    status: dict[str, Any] = {"isolation": isolation}
    messages = spec.get("messages")
    deadline = time.monotonic() + float(spec["timeout"])
    with open(spec["stdout"], "wb") as out, open(spec["stderr"], "wb") as err:
        process = subprocess.Popen(
            spec["argv"],
            cwd=spec["cwd"],
            env=env,
            stdin=subprocess.DEVNULL if messages is None else subprocess.PIPE,
            stdout=out if messages is None else subprocess.PIPE,
            stderr=err,
            start_new_session=True,
        )
        copier = _Copier()
        try:
            if messages is not None:
                _converse(process, [str(m) for m in messages], out, deadline, copier)
            status["exit"] = process.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            status["timedOut"] = True
        finally:
            # The whole group: hooks the binary started must not outlive the run.
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            copier.join()
    return status


def _is_result(line: bytes) -> bool:
    """Whether a stream-json line is the ``result`` that ends a turn."""
    try:
        item = json.loads(line)
    except ValueError:
        return False
    return isinstance(item, dict) and item.get("type") == "result"


class _Copier:
    """The thread that copies the stream; joined before its file closes."""

    thread: threading.Thread | None = None

    def start(self, target: Any) -> None:
        self.thread = threading.Thread(target=target, daemon=True)
        self.thread.start()

    def join(self) -> None:
        if self.thread is not None:
            self.thread.join(timeout=10)


def _converse(
    process: subprocess.Popen[bytes],
    messages: list[str],
    out: IO[bytes],
    deadline: float,
    copier: _Copier,
) -> None:
    """Feed ``messages`` one per finished turn (a stream ``result`` line), copying the
    stream to ``out`` in ``copier``; stdin closes after the last. TimeoutExpired past
    ``deadline``."""
    results: queue.Queue[bool] = queue.Queue()

    def copy() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            out.write(line)
            out.flush()
            if _is_result(line):
                results.put(True)
        results.put(False)  # the stream ended

    copier.start(copy)
    assert process.stdin is not None
    for number, message in enumerate(messages):
        if number:
            try:
                finished = results.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise subprocess.TimeoutExpired(process.args, 0) from None
            if not finished:
                break
        with contextlib.suppress(BrokenPipeError):
            process.stdin.write(message.encode("utf-8") + b"\n")
            process.stdin.flush()
    with contextlib.suppress(BrokenPipeError):
        process.stdin.close()


def main(spec_path: str) -> int:
    """Run RUN.json and write its status; 3 when the run was refused."""
    spec = json.loads(Path(spec_path).read_text(encoding="utf-8"))
    try:
        status = run(spec)
    except (OSError, ValueError) as error:
        # The caller reads the status file: one line, not a traceback it cannot show.
        status = {"failed": f"{type(error).__name__}: {error}"}
    Path(spec["result"]).write_text(json.dumps(status), encoding="utf-8")
    if "refused" in status:
        print(f"hookcourse: refusing to run Claude Code: {status['refused']}", file=sys.stderr)
        return 3
    return 1 if "failed" in status else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
