"""A negative Stop count or cap is bad input (exit 1) and the message names where it came from."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

STOP = '{"hook_event_name": "Stop", "session_id": "s", "stop_hook_active": false}'


def fire(
    tmp_path: Path, *options: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "hookcourse", "fire", "Stop", "--payload", "-"]
    argv += ["--setting-sources", "project", "--project-dir", str(tmp_path), *options]
    return subprocess.run(
        argv, input=STOP, capture_output=True, text=True, env={**os.environ, **(env or {})}
    )


def test_negative_stop_blocks_is_named(tmp_path: Path) -> None:
    run = fire(tmp_path, "--stop-blocks", "-1")
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.startswith("hookcourse: --stop-blocks: ")


def test_negative_cap_names_the_option_or_the_variable(tmp_path: Path) -> None:
    by_option = fire(tmp_path, "--stop-block-cap", "-1")
    assert by_option.returncode == 1
    assert by_option.stderr.startswith("hookcourse: --stop-block-cap: the cap cannot be negative")
    by_variable = fire(tmp_path, env={"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP": "-2"})
    assert by_variable.returncode == 1
    assert by_variable.stderr.startswith("hookcourse: CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: ")
