"""``hookcourse session``: exit status by the expectations, --json, --format github."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from hookcourse.session.command import main

SCRIPT = {
    "name": "tiny",
    "settings": {
        "project": {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "@hook:nag"}]}]}}
    },
    "hooks": {"nag": {"err": "write the changelog", "exit": 2, "times": 1}},
    "turns": [{"text": "done"}, {"text": "changelog written"}],
}


@dataclass
class Done:
    returncode: int
    stdout: str
    stderr: str


def _run(tmp_path: Path, expect: list[object], *flags: str) -> Done:
    """The subcommand in this process (the command line itself: the last test)."""
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps({**SCRIPT, "expect": expect}), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main([str(path), *flags])
    return Done(status, out.getvalue(), err.getvalue())


def test_held_expectations_exit_0_with_the_stop_feedback_shown(tmp_path: Path) -> None:
    done = _run(tmp_path, [{"sees": "write the changelog"}, {"fires": "Stop", "times": 2}])
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Stop hook feedback:\n    [sh $ROOT/hooks/nag]: write the changelog" in done.stdout
    assert "(stop_hook_active true)" in done.stdout
    assert "✓ the model sees `write the changelog`" in done.stdout


def test_a_broken_expectation_exits_1_and_annotates_for_github(tmp_path: Path) -> None:
    done = _run(tmp_path, [{"sees": "lint passed"}], "--format", "github")
    assert done.returncode == 1
    assert "✗ the model sees `lint passed`: no text shown to the model contains it" in done.stdout
    assert f"::error file={tmp_path / 'tiny.json'},title=hookcourse session::" in done.stdout


def test_json_is_one_document(tmp_path: Path) -> None:
    done = _run(tmp_path, [{"requests": 3}], "--json")
    document = json.loads(done.stdout)
    assert done.returncode == 1
    assert document["held"] is False
    check = document["sessions"][0]["transcripts"][0]["expectations"][0]
    assert check == {
        "says": "the model is asked 3 times",
        "held": False,
        "why": "the model was asked 2 times",
    }


def test_a_script_that_cannot_run_exits_2_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"turns": 3}', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "hookcourse", "session", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "turns is not a list" in done.stderr
