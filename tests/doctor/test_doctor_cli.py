"""``hookcourse doctor`` from the command line: exit status, text and JSON, bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def _doctor(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hookcourse", "doctor", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
    )


def test_a_broken_hook_exits_1_with_the_cause_and_fix(tmp_path: Path) -> None:
    (tmp_path / "home").mkdir()
    hooks = tmp_path / ".claude" / "hooks"
    hooks.mkdir(parents=True)
    (hooks / "guard.sh").write_bytes(b"#!/bin/bash\r\nexit 2\r\n")
    (hooks / "guard.sh").chmod(0o755)
    command = '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh'
    settings = {
        "hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]
        }
    }
    (tmp_path / ".claude" / "settings.json").write_text(json.dumps(settings))
    text = _doctor("--home", str(tmp_path / "home"), cwd=tmp_path)
    assert text.returncode == 1, text.stderr
    assert "1. [script-crlf]" in text.stdout and "fix: convert it to LF" in text.stdout
    as_json = _doctor(
        "--home",
        str(tmp_path / "home"),
        "--json",
        "--tool",
        "Bash",
        "--input",
        '{"command": "ls"}',
        cwd=tmp_path,
    )
    document = json.loads(as_json.stdout)
    assert document["findings"][0]["cause"] == "script-crlf"
    assert document["findings"][0]["reach"] == "stops_hook"
    assert any("exit 127" in run for run in document["runs"])


def test_nothing_wrong_exits_0(tmp_path: Path) -> None:
    (tmp_path / "home").mkdir()
    done = _doctor("--home", str(tmp_path / "home"), cwd=tmp_path)
    assert done.returncode == 0 and "no cause found" in done.stdout


def test_bad_input_is_one_line(tmp_path: Path) -> None:
    for args in (
        ["--debug-log", "/dev/zero"],
        ["--tool", "Bash", "--input", "{"],
        ["Nope", "--tool", "Bash"],
        ["--project-dir", str(tmp_path / "none")],
    ):
        done = _doctor(*args, cwd=tmp_path)
        assert done.returncode == 1 and done.stdout == "", args
        assert len(done.stderr.strip().splitlines()) == 1 and "fix:" in done.stderr, args


def test_the_documented_walk_through_says_what_the_page_shows() -> None:
    """docs/doctor.md's example, run on its fixture: the same lines (the checkout's path
    written as <repo>), and never 'not at that path' for a script that is there."""
    root = Path(__file__).resolve().parents[2]
    case = root / "fixtures" / "doctor" / "crlf-guard"
    page = (root / "docs" / "doctor.md").read_text(encoding="utf-8")
    block = page.split("```console\n", 1)[1].split("```", 1)[0].splitlines()
    command = (
        block[0].removeprefix("$ ").replace("hookcourse", f"{sys.executable} -m hookcourse", 1)
    )
    done = subprocess.run(command, shell=True, cwd=case, capture_output=True, text=True)
    shown = [line.replace(str(root), "<repo>") for line in done.stdout.splitlines()]
    assert shown == block[1:]
    assert done.returncode == 1
    assert "script-missing" not in done.stdout


def test_a_transcript_and_a_mode_from_the_command_line(tmp_path: Path) -> None:
    """A real 2.1.332 transcript read through --transcript, with --mode and --json."""
    (tmp_path / "home").mkdir()
    recorded = Path(__file__).resolve().parent / "transcripts" / "exit2-json.jsonl"
    transcript = tmp_path / "session.jsonl"
    transcript.write_text(recorded.read_text(encoding="utf-8").replace("@ROOT@", str(tmp_path)))
    done = _doctor(
        "--home",
        str(tmp_path / "home"),
        "--json",
        "--mode",
        "print",
        "--transcript",
        str(transcript),
        "PreToolUse",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert any(run.startswith("transcript line ") for run in document["runs"])
    assert "json-on-exit-2" in [finding["cause"] for finding in document["findings"]]
    missing = _doctor("--transcript", str(tmp_path / "none.jsonl"), cwd=tmp_path)
    assert missing.returncode == 1 and missing.stdout == ""
    assert len(missing.stderr.strip().splitlines()) == 1
