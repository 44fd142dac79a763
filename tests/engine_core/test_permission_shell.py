"""The print-mode permission step on shell commands with no rule, as 2.1.332 ran them.

Each row is one call observed in Claude Code 2.1.332 (corpus permissions-2.json and the
hidden set): None when it ran, else the text the model got. Paths: project /r/project,
home /r/home.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hookcourse.engine.permission_rule import CallPlace, parse_rule
from hookcourse.engine.permissions import permission_step, refused_before_hooks
from hookcourse.engine.settings import Origin, PermissionEntry, SettingsSource
from hookcourse.engine.transcript_reads import files_read

PLACE = CallPlace("/r/project", "/r/project", "/r/home")
INSIDE = (
    "needs approval. The path is inside the working directories for this session "
    "('/r/project'), and Claude Code asks before a shell command creates, changes or "
    "removes files there."
)
OUTSIDE = (
    "needs approval. The path is outside the working directories for this session "
    "('/r/project'). Allowing runs the command as written."
)


PART = "This Bash command contains multiple operations. The following part requires approval: "
PARTS = "This Bash command contains multiple operations. The following parts require approval: "


def blocked(subject: str, verb: str) -> str:
    return (
        f"{subject} was blocked. For security, Claude Code may only {verb} the allowed "
        "working directories for this session: '/r/project'."
    )


OBSERVED: list[tuple[str, str | None]] = [
    ('echo "$HOME"', None),
    ("echo $((1 + 2))", None),
    ("printf '%s' \"$HOME\"", None),
    ("cd sub && ls", None),
    ("git status", None),
    ("git log --oneline -1", None),
    ("git config --get user.name", None),
    ("python3 --version", None),
    ("sleep 0 && echo x", None),
    ("find . -name '*.txt'", None),
    ("test -f a.txt", None),
    ("[ a = b ]", None),
    ("echo hi 2>&1", None),
    ("cat a.txt > /dev/null", None),
    ("cat < a.txt", None),
    ("grep -e /x a.txt", None),
    ("du -sh /", None),
    ("xargs echo", None),
    ("echo hi > out.txt", f"Output redirection to '/r/project/out.txt' {INSIDE}"),
    ("echo hi > /tmp/o.txt", f"Output redirection to '/tmp/o.txt' {OUTSIDE}"),
    ("cat /etc/hostname", blocked("cat in '/etc/hostname'", "concatenate files from")),
    ("cat $HOME", blocked("cat in '/r/home'", "concatenate files from")),
    ("ls ~", blocked("ls in '/r/home'", "list files in")),
    ("cd ..", blocked("cd in '/r'", "change directories to")),
    ("find / -name x", blocked("find in '/'", "search files in")),
    (
        "cat < /etc/hostname",
        blocked("Input redirection from '/etc/hostname'", "read files in"),
    ),
    ("rm a.txt", f"rm in '/r/project/a.txt' {INSIDE}"),
    ("cp a.txt /tmp/b", f"cp in '/tmp/b' {OUTSIDE}"),
    ("sed -i s/a/b/ a.txt", f"sed in '/r/project/a.txt' {INSIDE}"),
    ('test "$HOME" = x', "Parse error"),
    ('test "$GREETING" = hello', "A variable in this command can't be checked before it runs"),
    ("wc -l $FOO", "A variable in this command can't be checked before it runs"),
    ("echo ${HOME}", "A variable in braces in this command can't be checked before it runs"),
    ("echo $(date)", "A nested command in this command can't be checked before it runs"),
    ('echo "$(date)"', "Quoted text in this command can't be checked before it runs"),
    (
        "find . -delete",
        "find with '-delete' executes commands or modifies files \u2014 cannot be "
        "auto-allowed by a Bash(find:*) prefix rule",
    ),
    ("pwd -P", "This command requires approval"),
    ("git branch foo", "This command requires approval"),
    ("FOO=1 echo hi", "This command requires approval"),
    ("npm test", "This command requires approval"),
    ("echo x && echo $FOO", "A variable in this command can't be checked before it runs"),
    ("echo hi; rm a.txt", f"rm in '/r/project/a.txt' {INSIDE}"),
    (
        "cat /etc/hostname | wc -l",
        "This Bash command contains multiple operations. The following part requires "
        "approval: cat /etc/hostname",
    ),
    (
        "npm test && echo x",
        "This Bash command contains multiple operations. The following part requires "
        "approval: npm test",
    ),
    ('cat "$FOO/x"', "A variable in this command can't be checked before it runs"),
    ("npm test && rm a.txt", f"{PARTS}npm test, rm a.txt"),
    ("npm test | rm a.txt", f"{PARTS}npm test, rm a.txt"),
    ("cat /etc/hostname && npm test", f"{PARTS}cat /etc/hostname, npm test"),
    ("npm test; npm run build; rm a.txt", f"{PARTS}npm test, npm run build, rm a.txt"),
    ("npm test 2>&1 && rm a.txt", f"{PARTS}npm test, rm a.txt"),
    ("npm test >out.txt 2>&1 ; git push", f"{PARTS}npm test, git push"),
    ("npm test &&  npm run  build", f"{PARTS}npm test, npm run  build"),
    ("npm test && cd /tmp", f"{PARTS}npm test, cd /tmp"),
    ("echo $FOO | npm test", "A variable in this command can't be checked before it runs"),
    ("cd sub && cd .. && echo $FOO", "A variable in this command can't be checked before it runs"),
    ("npm test && test a = b", "Parse error"),
    (
        "npm test && find . -delete",
        "find with '-delete' executes commands or modifies files \u2014 cannot be "
        "auto-allowed by a Bash(find:*) prefix rule",
    ),
    ("pushd sub && popd", "Multiple directory changes in one command require approval for clarity"),
]


@pytest.mark.parametrize(("command", "refusal"), OBSERVED)
def test_a_command_with_no_rule_runs_or_gets_claude_codes_text(
    command: str, refusal: str | None
) -> None:
    step = permission_step(None, [], "Bash", {"command": command}, PLACE, "default")
    assert (None if step.decision == "allow" else step.refusal) == refusal


ACCEPT_EDITS: list[tuple[str, str | None]] = [
    ("echo hi > out.txt", None),
    ("rm a.txt", None),
    ("sed -i s/b/c/ b.txt", None),
    ("tee out.txt", "This command requires approval"),
    ("echo hi | tee out.txt", f"{PART}tee out.txt"),
    ("echo hi > /tmp/o.txt", f"Output redirection to '/tmp/o.txt' {OUTSIDE}"),
]


@pytest.mark.parametrize(("command", "refusal"), ACCEPT_EDITS)
def test_accept_edits_lets_only_its_own_commands_write_inside(
    command: str, refusal: str | None
) -> None:
    step = permission_step(None, [], "Bash", {"command": command}, PLACE, "acceptEdits")
    assert (None if step.decision == "allow" else step.refusal) == refusal


def _deny(rule: str) -> PermissionEntry:
    return PermissionEntry("deny", parse_rule(rule), Origin(SettingsSource.USER, "u.json", ()))


def test_a_read_deny_rule_covers_the_files_a_shell_command_reads() -> None:
    call = {"command": "cat secrets/key.txt"}
    step = permission_step(None, [_deny("Read(./secrets/**)")], "Bash", call, PLACE, "default")
    assert (
        step.refusal == "Permission to use Bash with command cat secrets/key.txt has been denied."
    )


def test_path_deny_rules_and_tools_print_mode_lacks_refuse_before_the_hooks() -> None:
    read = {"file_path": "/r/project/secrets/key.txt"}
    refusal = refused_before_hooks([_deny("Read(./secrets/**)")], "Read", read, PLACE)
    assert refusal is not None and "denied by your permission settings" in refusal.result
    assert (
        refused_before_hooks([_deny("Read(./secrets/**)")], "Read", {"file_path": "/r/a"}, PLACE)
        is None
    )
    glob = refused_before_hooks([], "Glob", {"pattern": "*"}, PLACE)
    assert glob is not None and glob.result.startswith(
        "<tool_use_error>Error: No such tool available: Glob. Glob is not available"
    )


def test_notebook_edit_refuses_a_notebook_the_session_has_not_read() -> None:
    call = {"notebook_path": "/r/project/n.ipynb", "cell_id": "c1", "new_source": "2"}
    refusal = refused_before_hooks([], "NotebookEdit", call, PLACE)
    assert refusal is not None and refusal.result == (
        "<tool_use_error>File has not been read yet. Read it first before writing to it."
        "</tool_use_error>"
    )
    read = frozenset({"n.ipynb"})
    assert refused_before_hooks([], "NotebookEdit", call, PLACE, read) is None


def test_the_files_read_come_from_the_transcript(tmp_path: Path) -> None:
    transcript = tmp_path / "t.jsonl"
    read = {"type": "tool_use", "name": "Read", "input": {"file_path": "/r/project/n.ipynb"}}
    lines = [json.dumps({"type": "assistant", "message": {"content": [read]}}), "not json", "[]"]
    transcript.write_text("\n".join(lines), encoding="utf-8")
    assert files_read(str(transcript)) == {"/r/project/n.ipynb"}
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert files_read(str(fifo)) == frozenset()
    assert files_read(str(tmp_path / "missing")) == files_read(None) == frozenset()
