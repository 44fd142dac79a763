"""The session's tools: Claude Code's Bash timeouts, and the confinement check's path rules."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hookcourse.session.tools import Grant, bash_timeout_ms, confinement, decoded, inside


@pytest.mark.parametrize(
    ("asked", "env", "applied"),
    [
        (None, {}, 120_000),
        (300, {}, 300),
        (0, {}, 120_000),
        (-5, {}, 120_000),
        (10**9, {}, 600_000),
        (float("inf"), {}, 120_000),
        (None, {"BASH_DEFAULT_TIMEOUT_MS": "5000"}, 5_000),
        (10**9, {"BASH_MAX_TIMEOUT_MS": "900000"}, 900_000),
        # The maximum is never below the default.
        (10**9, {"BASH_MAX_TIMEOUT_MS": "1000"}, 120_000),
        (None, {"BASH_DEFAULT_TIMEOUT_MS": "soon"}, 120_000),
    ],
)
def test_bash_timeout_as_claude_code_applies_it(
    asked: float | None, env: dict[str, str], applied: float
) -> None:
    assert bash_timeout_ms(asked, env) == applied


def test_a_path_is_inside_only_as_written_and_resolved(tmp_path: Path) -> None:
    project, outside = tmp_path / "project", tmp_path / "outside"
    project.mkdir()
    outside.mkdir()
    os.symlink(outside, project / "out")
    os.symlink(project, tmp_path / "alias")
    assert inside(project / "a" / "b.txt", project)
    assert not inside(project / "out" / "x", project)
    assert not inside(project / ".." / "outside" / "x", project)
    assert not inside(Path(str(project) + "-sibling") / "x", project)
    # Both spellings must be inside: through a link from outside, it is not.
    assert not inside(tmp_path / "alias" / "x", project)


@pytest.mark.parametrize(
    ("tool", "mode", "granted", "says"),
    [
        ("Read", "default", None, "Claude requested permissions to read from"),
        ("Write", "acceptEdits", None, "Claude requested permissions to write to"),
        ("Edit", "plan", None, "while in plan mode"),
        ("Write", "dontAsk", None, "don't ask mode"),
        ("Read", "bypassPermissions", "bypassPermissions mode runs it", "--allow-outside"),
    ],
)
def test_outside_the_project_each_mode_refuses_in_its_words(
    tmp_path: Path, tool: str, mode: str, granted: str | None, says: str
) -> None:
    call = {"file_path": "/etc/hostname", "content": "", "old_string": "a", "new_string": "b"}
    refusal = confinement(tool, call, tmp_path, tmp_path, Grant(mode, granted))
    assert refusal is not None and says in refusal
    allowed = Grant(mode, granted, allow_outside=True)
    assert (confinement(tool, call, tmp_path, tmp_path, allowed) is None) == (granted is not None)


def test_text_that_is_not_utf8_reads_as_node_decodes_it() -> None:
    assert decoded(b"caf\xe9") == "caf\ufffd"
    assert decoded(b"\xff\xfeh\x00i\x00") == "hi"
