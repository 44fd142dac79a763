"""The one way Claude Code is started: loopback only, against the scripted mock Messages API.

``command(RUN.json)`` is the line to run: ``unshare -n python -E -s -m
hookcourse.session.namespace RUN.json`` from the folder that holds the package
(so an installed package and a checkout both work). Inside the new namespace the
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
``mock_api.PLAYERS`` name), ``stdin`` (text fed to the binary, else none),
``isolation``, ``log``, ``stdout``, ``stderr``, ``timeout`` and ``result`` (where
the status is written). Standard library only.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

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


def command(spec_path: Path, isolation: str = NAMESPACE) -> list[str]:
    """The command line that runs ``spec_path``; run it with ``cwd=PACKAGE_PARENT``.

    ``-E -s``: no PYTHON* variables and no user site; ``-m`` finds the package in the
    working directory, so the runner is the same code as its caller.
    """
    python = [sys.executable, "-E", "-s", "-m", "hookcourse.session.namespace", str(spec_path)]
    return ["unshare", "-n", *python] if isolation == NAMESPACE else python


def namespace_refusal() -> str | None:
    """None when ``unshare -n`` works here; else why not, in one line."""
    if shutil.which("unshare") is None:
        return "unshare (util-linux) is not on PATH"
    try:
        probe = subprocess.run(["unshare", "-n", "true"], capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"unshare -n cannot start: {error}"
    if probe.returncode != 0:
        said = probe.stderr.decode("utf-8", "replace").strip() or f"exit {probe.returncode}"
        return f"unshare -n is not permitted here ({said})"
    return None


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
    base_url = f"http://127.0.0.1:{api.port}"
    env = {**spec["env"], "ANTHROPIC_BASE_URL": base_url}
    if isolation == ENV:
        env.update(env_isolation(base_url))
    status: dict[str, Any] = {"isolation": isolation}
    stdin = spec.get("stdin")
    with open(spec["stdout"], "wb") as out, open(spec["stderr"], "wb") as err:
        process = subprocess.Popen(
            spec["argv"],
            cwd=spec["cwd"],
            env=env,
            stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,
            stdout=out,
            stderr=err,
            start_new_session=True,
        )
        try:
            if stdin is not None:
                # All at once, then EOF: Claude Code reads the stream-json messages in order.
                with contextlib.suppress(BrokenPipeError):
                    process.communicate(str(stdin).encode("utf-8"), timeout=spec["timeout"])
            status["exit"] = process.wait(timeout=spec["timeout"])
        except subprocess.TimeoutExpired:
            status["timedOut"] = True
        finally:
            # The whole group: hooks the binary started must not outlive the run.
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    api.stop()
    return status


def main(spec_path: str) -> int:
    """Run RUN.json and write its status; 3 when the run was refused."""
    spec = json.loads(Path(spec_path).read_text(encoding="utf-8"))
    status = run(spec)
    Path(spec["result"]).write_text(json.dumps(status), encoding="utf-8")
    if "refused" in status:
        print(f"hookcourse: refusing to run Claude Code: {status['refused']}", file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
