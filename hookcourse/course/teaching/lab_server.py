"""``scripts/lab.sh``'s helpers: the working copy prepared, a JupyterLab already serving it
found, and the address of a notebook on the server it starts
(``python -m hookcourse.course.teaching.lab_server prepare|running|url``).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from hookcourse.course.teaching.progress import MARKER
from hookcourse.course.teaching.working_copy import prepare_work
from hookcourse.errors import EXIT_INTERRUPTED, InputError

# -- scripts/lab.sh's helpers --------------------------------------------------------------------


def server_url(info: dict[str, Any], notebook: str) -> str:
    """The direct address of ``notebook`` on a running server, token included."""
    url = str(info.get("url") or "http://localhost:8888/").rstrip("/")
    token = info.get("token") or ""
    return f"{url}/lab/tree/{notebook}" + (f"?token={token}" if token else "")


def _answers(info: dict[str, Any]) -> bool:
    """True once the server answers HTTP at all (any status): it is serving."""
    import urllib.error
    import urllib.request

    status = str(info.get("url") or "").rstrip("/") + "/api/status"
    try:
        with urllib.request.urlopen(status, timeout=2):
            return True
    except urllib.error.HTTPError:
        return True
    except (OSError, ValueError):
        return False


def wait_for_server(pid: int, runtime_dir: Path, deadline: float = 120.0) -> dict[str, Any] | None:
    """What JupyterLab ``pid`` wrote in its runtime file, once it serves; None if it exits
    or the deadline passes first."""
    import time

    started = time.monotonic()
    info_file = runtime_dir / f"jpserver-{pid}.json"
    while time.monotonic() - started < deadline:
        try:
            loaded = json.loads(info_file.read_text(encoding="utf-8"))
            if isinstance(loaded, dict) and _answers(loaded):
                return loaded
        except (OSError, json.JSONDecodeError):  # not written yet, or half written
            pass
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return None
        except PermissionError:  # alive, owned by someone else
            pass
        time.sleep(0.1)
    return None


def running_server(work: Path, runtime_dir: Path) -> dict[str, Any] | None:
    """A live JupyterLab already serving ``work`` (from its runtime file), or None."""
    for info_file in sorted(runtime_dir.glob("jpserver-*.json")):
        try:
            info = json.loads(info_file.read_text(encoding="utf-8"))
            served = Path(str(info["root_dir"])).resolve()
            os.kill(int(info["pid"]), 0)
        except (OSError, ValueError, KeyError, TypeError):  # unreadable, or its server is gone
            continue
        if served == work.resolve() and _answers(info):
            return dict(info)
    return None


def _lab_main(argv: list[str]) -> int:
    """``prepare COURSE WORK``, ``running WORK NOTEBOOK`` and ``url PID NOTEBOOK``, for
    scripts/lab.sh only."""
    if argv[:1] == ["prepare"] and len(argv) == 3:
        course, work = Path(argv[1]), Path(argv[2])
        fresh = not (work / MARKER).exists()
        added = prepare_work(course, work)
        if fresh:
            print(f"hookcourse: made your working copy of the course in {work}", file=sys.stderr)
        elif added:
            print(f"hookcourse: new from the course: {', '.join(added)}", file=sys.stderr)
        return 0
    if argv[:1] == ["running"] and len(argv) == 3:
        from jupyter_core.paths import jupyter_runtime_dir

        info = running_server(Path(argv[1]), Path(jupyter_runtime_dir()))
        if info is None:
            return 1
        print(
            f"hookcourse: JupyterLab already serves your notebooks (stop it with: kill "
            f"{info['pid']}); they are at {server_url(info, argv[2])}",
            flush=True,
        )
        return 0
    if argv[:1] == ["url"] and len(argv) == 3:
        from jupyter_core.paths import jupyter_runtime_dir

        info = wait_for_server(int(argv[1]), Path(jupyter_runtime_dir()))
        if info is None:
            return 1
        print(f"hookcourse: your notebooks are at {server_url(info, argv[2])}", flush=True)
        return 0
    commands = "prepare COURSE WORK | running WORK NOTEBOOK | url PID NOTEBOOK"
    print(f"usage: python -m hookcourse.course.teaching.workshop {commands}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    try:
        sys.exit(_lab_main(sys.argv[1:]))
    except InputError as error:
        print(f"hookcourse: {error}", file=sys.stderr)
        sys.exit(1)
    except OSError as error:
        print(f"hookcourse: {error.filename}: {error.strerror or error}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(EXIT_INTERRUPTED)
