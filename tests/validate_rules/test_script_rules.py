"""The rules on a hook's script file, on real files: CRLF bytes, modes, shebangs, exits."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from hookcourse.engine.validate import ValidateOptions, validate_files


def _findings(
    tmp_path: Path, event: str, command: str, script: bytes, mode: int = 0o755
) -> dict[str, str]:
    """Rule id -> message for one hook whose command runs ``.claude/hooks/<name>``."""
    project = tmp_path / "project"
    name = command.split("/")[-1].split()[0]
    path = project / ".claude" / "hooks" / name
    path.parent.mkdir(parents=True)
    path.write_bytes(script)
    path.chmod(mode)
    settings = project / ".claude" / "settings.json"
    group: dict[str, object] = {"hooks": [{"type": "command", "command": command}]}
    if event in ("PreToolUse", "PostToolUse"):
        group["matcher"] = "Bash"
    settings.write_text(json.dumps({"hooks": {event: [group]}}))
    report = validate_files([settings], ValidateOptions())
    return {finding.rule: finding.message for finding in report.findings}


DIRECT = '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh'


def test_a_crlf_shebang_is_named_with_its_exit_and_effect(tmp_path: Path) -> None:
    found = _findings(tmp_path, "PreToolUse", DIRECT, b"#!/bin/bash\r\necho hi >&2\r\nexit 2\r\n")
    assert "bash\\r" in found["script-crlf"]
    assert "exits 127" in found["script-crlf"]


def test_the_crlf_finding_is_what_sh_really_does(tmp_path: Path) -> None:
    """The 127 the message names is what sh (dash here) answers for such a file."""
    script = tmp_path / "x.sh"
    script.write_bytes(b"#!/bin/bash\r\nexit 0\r\n")
    script.chmod(0o755)
    assert subprocess.run(["sh", "-c", str(script)], capture_output=True).returncode == 127


def test_crlf_through_bash_is_named_and_through_python_is_not(tmp_path: Path) -> None:
    through_bash = _findings(
        tmp_path / "a", "PreToolUse", 'bash "$CLAUDE_PROJECT_DIR"/.claude/hooks/g.sh', b"echo x\r\n"
    )
    assert "command not found" in through_bash["script-crlf"]
    through_python = _findings(
        tmp_path / "b",
        "PreToolUse",
        'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/g.py',
        b"print(1)\r\n",
    )
    assert "script-crlf" not in through_python


def test_lf_scripts_are_quiet(tmp_path: Path) -> None:
    found = _findings(tmp_path, "PreToolUse", DIRECT, b"#!/bin/bash\necho no >&2\nexit 2\n")
    assert not {"script-crlf", "script-no-shebang", "guard-exits-1"} & found.keys()


def test_a_python_script_without_shebang_run_directly(tmp_path: Path) -> None:
    command = '"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.py'
    found = _findings(tmp_path, "PreToolUse", command, b"import sys\nsys.exit(0)\n")
    assert "no #! line" in found["script-no-shebang"]
    assert "exit 2 blocks" in found["script-no-shebang"]
    with_shebang = _findings(
        tmp_path / "b", "PreToolUse", command, b"#!/usr/bin/env python3\nimport sys\n"
    )
    assert "script-no-shebang" not in with_shebang


@pytest.mark.parametrize(
    ("script", "fires"),
    [
        (b"#!/bin/bash\necho 'Blocked: no force-push' >&2\nexit 1\n", True),
        (b"#!/bin/bash\necho 'denied' >&2\nexit 1\n", True),
        (b"#!/bin/bash\necho 'Blocked' >&2\nexit 2\n", False),
        (b"#!/bin/bash\nif bad; then echo blocked >&2; exit 2; fi\nexit 1\n", False),
        (b'#!/bin/bash\necho \'{"decision": "block", "reason": "no"}\'\nexit 1\n', False),
        (b"#!/bin/bash\necho 'lint failed' >&2\nexit 1\n", False),
        (
            b"#!/usr/bin/env python3\nimport sys\nprint('blocked', file=sys.stderr)\nsys.exit(1)\n",
            True,
        ),
    ],
)
def test_a_guard_that_means_to_block_but_exits_1(
    tmp_path: Path, script: bytes, fires: bool
) -> None:
    found = _findings(tmp_path, "PreToolUse", DIRECT, script)
    assert ("guard-exits-1" in found) is fires


def test_exit_1_on_an_event_that_cannot_block_is_not_a_guard(tmp_path: Path) -> None:
    found = _findings(tmp_path, "SessionStart", DIRECT, b"#!/bin/bash\necho blocked >&2\nexit 1\n")
    assert "guard-exits-1" not in found


def test_exit_2_where_nothing_can_be_blocked(tmp_path: Path) -> None:
    found = _findings(tmp_path, "SessionStart", DIRECT, b"#!/bin/bash\necho stop >&2\nexit 2\n")
    assert "cannot be blocked" in found["exit-2-cannot-block"]
    lint_feedback = _findings(tmp_path / "b", "PostToolUse", DIRECT, b"#!/bin/bash\nexit 2\n")
    assert "exit-2-cannot-block" not in lint_feedback


def test_a_misspelled_claude_variable_names_the_one_meant(tmp_path: Path) -> None:
    found = _findings(tmp_path, "Stop", "bash $CLAUDE_PROJCT_DIR/.claude/hooks/x.sh", b"exit 0\n")
    assert "misspelling of $CLAUDE_PROJECT_DIR" in found["invented-variable"]


@pytest.mark.parametrize(
    ("script", "fires"),
    [
        (b"#!/bin/bash\ntool=$(jq -r .tool_name)\ncmd=$(jq -r .tool_input.command)\n", True),
        (b'#!/bin/bash\ninput=$(cat)\nname=$(jq -r .tool_name)\necho "$input"\n', True),
        (
            b'#!/bin/bash\ninput=$(cat)\ntool=$(echo "$input" | jq -r .tool_name)\n'
            b'cmd=$(jq -r .tool_input.command <<< "$input")\n',
            False,
        ),
        (b'#!/bin/bash\nif [ -n "$1" ]; then\n  jq .a\nelse\n  jq .b\nfi\n', False),
        (b"#!/bin/bash\njq -n '{a: 1}'\njq -r .tool_name\n", False),
        (b'#!/bin/bash\njq -r .x "$f"\njq -r .tool_name\n', False),
        (b"#!/bin/bash\n# input=$(cat)\njq -r .tool_name\n", False),
        (
            b"#!/usr/bin/env python3\nimport json, sys\nevent = json.load(sys.stdin)\n"
            b"raw = sys.stdin.read()\n",
            True,
        ),
        (
            b"#!/usr/bin/env python3\nimport json, sys\ndef read():\n"
            b"    return json.load(sys.stdin)\nevent = json.load(sys.stdin)\n",
            False,
        ),
    ],
)
def test_stdin_read_twice_on_the_main_path(tmp_path: Path, script: bytes, fires: bool) -> None:
    command = DIRECT if script.startswith(b"#!/bin/bash") else DIRECT.replace(".sh", ".py")
    found = _findings(tmp_path, "PreToolUse", command, script)
    assert ("stdin-read-twice" in found) is fires, found


def test_stdin_read_twice_names_the_lines(tmp_path: Path) -> None:
    two_lines = b"#!/bin/bash\na=$(cat)\nb=$(jq -r .tool_name)\n"
    found = _findings(tmp_path / "a", "PreToolUse", DIRECT, two_lines)
    assert "(line 2, then line 3)" in found["stdin-read-twice"]
    one_line = b"#!/bin/bash\na=$(jq .a); b=$(jq .b)\n"
    found = _findings(tmp_path / "b", "PreToolUse", DIRECT, one_line)
    assert "(line 2, twice)" in found["stdin-read-twice"]


def test_a_second_read_of_stdin_really_gets_nothing(tmp_path: Path) -> None:
    """What the finding says, as bash does it (cat stands in for jq, not installed in CI)."""
    script = tmp_path / "twice.sh"
    script.write_text('#!/bin/bash\na=$(cat)\nb=$(cat)\necho "[$a][$b]"\n')
    script.chmod(0o755)
    ran = subprocess.run(
        [str(script)], input='{"tool_name": "Bash"}', capture_output=True, text=True, check=False
    )
    assert ran.stdout.strip() == '[{"tool_name": "Bash"}][]'
