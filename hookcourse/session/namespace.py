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
status is written). With ``interactive`` (a list of steps, ``terminal``'s) the binary runs
on a pseudo-terminal instead, driven by those steps, the screen written to ``screen``.
The standard library and the package's process runner only.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

from hookcourse.system import processes
from hookcourse.system.processes import Answer, CannotStart, Reply

from . import terminal
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
LINGER_S = 1.0
"""How long the runner still reads the binary's output after it exits."""
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
            probe = processes.run([*prefix, "true"], timeout_s=10)
        except CannotStart as error:
            return None, f"unshare cannot start: {error}"
        if probe.exit_code == 0:
            return prefix, ""
        said = said or probe.text().stderr.strip()
    return None, f"unshare -n is not permitted here ({said or 'no reason given'})"


def interfaces() -> list[str]:
    """The network interfaces this namespace has."""
    lines = NET_DEV.read_text(encoding="utf-8").splitlines()[2:]
    return sorted(line.split(":", 1)[0].strip() for line in lines if ":" in line)


def loopback_only() -> str | None:
    """None when lo is up and alone; else why the run must not start."""
    try:
        up = processes.run(["ip", "link", "set", "lo", "up"], timeout_s=10).text()
        listed = processes.run(["ip", "-o", "link"], timeout_s=10).text().stdout
    except CannotStart as error:
        return f"could not run ip (iproute2): {error}"
    if up.returncode != 0:
        return f"could not bring lo up: {up.stderr.strip()}"
    found = interfaces()
    if found != ["lo"]:
        return f"the namespace has interfaces other than lo: {', '.join(found)}"
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
    if isolation == ENV:
        env.update(env_isolation(base_url))
    if spec.get("interactive") is not None:
        try:
            return {"isolation": isolation, **terminal.run_steps(spec, env)}
        except (OSError, CannotStart) as error:
            return {"isolation": isolation, "failed": f"cannot start it on a terminal: {error}"}
    messages = [f"{message}\n".encode() for message in spec.get("messages") or []]
    # processes.run gives the binary a trace under the one this runner inherited, so an
    # interrupt of the caller finds and kills Claude Code and its hooks too.
    try:
        done = processes.run(
            spec["argv"],
            stdin=messages[0] if messages else b"",
            env=env,
            cwd=spec["cwd"],
            timeout_s=float(spec["timeout"]),
            # Hooks it left running may hold its output open: read on a moment, then kill.
            linger_s=LINGER_S,
            reply=_one_message_per_result(messages[1:]) if len(messages) > 1 else None,
        )
    except CannotStart as error:
        return {"isolation": isolation, "failed": str(error)}
    Path(spec["stdout"]).write_bytes(done.stdout)
    Path(spec["stderr"]).write_bytes(done.stderr)
    if done.timed_out:
        return {"isolation": isolation, "timedOut": True}
    return {"isolation": isolation, "exit": done.exit_code}


def _one_message_per_result(messages: list[bytes]) -> Reply:
    """The next user message each time a turn ends (a stream ``result`` line), as a
    user who waits for the answer; stdin closes after the last."""
    waiting = list(reversed(messages))

    def reply(line: bytes) -> Answer | None:
        if not _is_result(line):
            return None
        return Answer(waiting.pop() if waiting else b"", last=not waiting)

    return reply


def _is_result(line: bytes) -> bool:
    """Whether a stream-json line is the ``result`` that ends a turn."""
    try:
        item = json.loads(line)
    except ValueError:
        return False
    return isinstance(item, dict) and item.get("type") == "result"


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
