"""``hookcourse session --real`` from the wheel, installed in a fresh venv outside the checkout:
the namespace runner and the mock come from the package, and the session is the one the
engine predicts. One Claude Code process (loopback-only namespace). The venv is the
``wheel_venv`` fixture of tests/conftest.py, one build shared with tests/entry/test_wheel.py."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from hookcourse.errors import InputError
from hookcourse.session.loop import run_session
from hookcourse.session.namespace import ISOLATION, namespace_prefix
from hookcourse.session.real import find_claude
from hookcourse.session.script import load
from hookcourse.session.transcript import differences
from tests.session.live import unavailable
from tests.session.test_real_session import SCRIPTS

SCRIPT = SCRIPTS / "several-hooks.json"


def test_the_installed_package_runs_claude_code_in_its_namespace(
    wheel_venv: Path, tmp_path: Path
) -> None:
    try:
        binary = find_claude(None)
    except InputError as error:
        unavailable(str(error))
        return
    prefix, refusal = namespace_prefix()
    if prefix is None:
        unavailable(refusal)
    command = [wheel_venv / "bin" / "hookcourse", "session", SCRIPT, "--real", "--json"]
    done = subprocess.run(
        [*map(str, command), "--claude", binary],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=200,
        env={**os.environ, "PYTHONPATH": "", "HOOKCOURSE_CLAUDE": ""},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stderr == f"hookcourse session: Claude Code ran with {ISOLATION['namespace']}\n"
    (session,) = json.loads(done.stdout)["sessions"]
    (real,) = session["transcripts"]
    assert real["isolation"] == "namespace" and real["engine"].startswith("Claude Code 2.1.332")
    assert differences(run_session(load(SCRIPT)), real) == []
    # The venv's own package ran: nothing of the checkout is on its path.
    where = subprocess.run(
        [
            wheel_venv / "bin" / "python",
            "-c",
            "import hookcourse.session.namespace as n; print(n.PACKAGE_PARENT)",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": ""},
    )
    assert where.stdout.strip().startswith(str(wheel_venv)), where.stdout + where.stderr
