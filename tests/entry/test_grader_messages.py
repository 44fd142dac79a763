"""The grader's one-line errors say how to fix the problem, not only what it is."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.support.paths import ROOT


def grade(tmp_path: Path, raw: bytes) -> subprocess.CompletedProcess[str]:
    case = tmp_path / "case.json"
    case.write_bytes(raw)
    return subprocess.run(
        [str(ROOT / "your_program.sh"), "hook-match", str(case)], capture_output=True, text=True
    )


def test_a_byte_order_mark_is_named_with_its_fix(tmp_path: Path) -> None:
    run = grade(tmp_path, b'\xef\xbb\xbf{"cases": [], "exitCases": []}')
    assert run.returncode == 2 and run.stdout == ""
    assert "byte-order mark" in run.stderr
    assert "fix: save the file as UTF-8 without a byte-order mark" in run.stderr


def test_a_syntax_error_points_at_line_and_column(tmp_path: Path) -> None:
    run = grade(tmp_path, b'{"cases": [],\n "exitCases": [1,]}')
    assert run.returncode == 2 and run.stdout == ""
    assert "line 2, column" in run.stderr
    assert run.stderr.count("\n") == 1


def test_a_control_character_is_named_once_with_its_position(tmp_path: Path) -> None:
    run = grade(tmp_path, b'{"cases": ["a\x00b"], "exitCases": []}')
    assert run.returncode == 2 and run.stdout == ""
    assert "(Invalid control character at line 1, column 14)" in run.stderr
    assert " at at " not in run.stderr
