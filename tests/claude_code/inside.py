"""The entry run under ``unshare -n``: loopback only, then the mock and Claude Code.

``python inside.py RUN.json`` brings ``lo`` up, refuses to go on if the namespace
has any other interface, starts the mock Messages API on 127.0.0.1 and runs the
binary once with ANTHROPIC_BASE_URL pointing at it. RUN.json holds ``argv``, ``prompt``,
``env``, ``cwd``, ``turns``, ``log``, ``stdout``, ``stderr``, ``timeout`` and
``result`` (where the exit status is written). Standard library only, so it runs
under any python3 without the project on the path.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mock_api import MockAPI

NET_DEV = Path("/proc/self/net/dev")
"""Per network namespace (unlike /sys/class/net, which shows the namespace sysfs was mounted in)."""


def interfaces() -> list[str]:
    """The network interfaces this namespace has."""
    lines = NET_DEV.read_text(encoding="utf-8").splitlines()[2:]
    return sorted(line.split(":", 1)[0].strip() for line in lines if ":" in line)


def loopback_only() -> str | None:
    """None when lo is up and alone; else why the run must not start."""
    up = subprocess.run(["ip", "link", "set", "lo", "up"], capture_output=True, text=True)
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


def main(spec_path: str) -> int:
    spec = json.loads(Path(spec_path).read_text(encoding="utf-8"))
    result = Path(spec["result"])
    refusal = loopback_only()
    if refusal is not None:
        result.write_text(json.dumps({"refused": refusal}), encoding="utf-8")
        print(f"inside.py: refusing to run Claude Code: {refusal}", file=sys.stderr)
        return 3
    api = MockAPI(spec["turns"], Path(spec["log"]), spec["prompt"])
    api.start()
    env = {**spec["env"], "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{api.port}"}
    status: dict[str, object] = {}
    with open(spec["stdout"], "wb") as out, open(spec["stderr"], "wb") as err:
        process = subprocess.Popen(
            spec["argv"],
            cwd=spec["cwd"],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            start_new_session=True,
        )
        try:
            status["exit"] = process.wait(timeout=spec["timeout"])
        except subprocess.TimeoutExpired:
            status["timedOut"] = True
        finally:
            # The whole group: hooks the binary started must not outlive the run.
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    api.stop()
    result.write_text(json.dumps(status), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
