"""The handler `if` field: permission-rule syntax over the tool call."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookcourse.engine.permission_rule import (
    CallPlace,
    PermissionRule,
    RuleSyntaxError,
    check_rule,
    command_matches,
    parse_rule,
    split_command,
)

PLACE = CallPlace(project_dir="/proj", cwd="/proj/sub", home="/home/ada")


def applies(rule: str, tool: str, tool_input: dict[str, object]) -> bool:
    return check_rule(parse_rule(rule), tool, tool_input, PLACE).applies  # type: ignore[arg-type]


def bash(rule: str, command: str) -> bool:
    return applies(rule, "Bash", {"command": command})


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("Bash", PermissionRule("Bash", None)),
        ("Bash(*)", PermissionRule("Bash", None)),
        ("Bash(git *)", PermissionRule("Bash", "git *")),
        (" Edit(src/**/*.ts) ", PermissionRule("Edit", "src/**/*.ts")),
        ("mcp__memory__.*", PermissionRule("mcp__memory__.*", None)),
    ],
)
def test_parse_rule(text: str, rule: PermissionRule) -> None:
    assert parse_rule(text) == rule


@pytest.mark.parametrize("text", ["", "Bash(", "Bash()", "Bash(git) extra", "Two words"])
def test_parse_rule_rejects_what_is_not_a_rule(text: str) -> None:
    with pytest.raises(RuleSyntaxError):
        parse_rule(text)


def test_tool_name_must_match() -> None:
    assert applies("Bash", "Bash", {"command": "ls"})
    assert not applies("Bash(git *)", "Read", {"file_path": "/proj/a"})
    assert not applies("Write", "Edit", {"file_path": "/proj/a"})


@pytest.mark.parametrize(
    ("rule", "command", "expected"),
    [
        ("git *", "git push origin main", True),
        ("git *", "git", True),
        ("git *", "gitk --all", False),
        ("git push *", "git pull", False),
        ("ls*", "lsof", True),
        ("npm run build", "npm run build", True),
        ("npm run build", "npm run build --watch", False),
        ("npm run test:*", "npm run test", True),
        ("npm run test:*", "npm run test -- --watch", True),
        ("npm run test:*", "npm run testing", False),
        ("git * main", "git push origin main", True),
        ("git * main", "git push origin dev", False),
        ("rm -rf *", "echo hi", False),
    ],
)
def test_bash_wildcards(rule: str, command: str, expected: bool) -> None:
    assert bash(f"Bash({rule})", command) is expected


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("cd repo && git push --force", True),
        ("ls; git status", True),
        ("npm test || git stash", True),
        ("cat log | grep git", False),
        ("GIT_TRACE=1 git push", True),
        ('A="x y" B=2 git push', True),
        ('echo "a && git push"', False),
        ("echo 'git push; ok'", False),
        ("make 2>&1 && git push", True),
    ],
)
def test_bash_rule_applies_when_any_subcommand_matches(command: str, expected: bool) -> None:
    assert bash("Bash(git *)", command) is expected


@pytest.mark.parametrize(
    "command",
    [
        "echo $(git push)",
        "echo `git push`",
        "(cd x && git push)",
        "cat <<EOF\nx\nEOF",
        "echo 'open",
    ],
)
def test_a_command_that_cannot_be_split_runs_the_hook(command: str) -> None:
    check = check_rule(parse_rule("Bash(rm *)"), "Bash", {"command": command}, PLACE)
    assert check.applies
    assert "cannot be split" in check.why


def test_split_keeps_quoted_operators_and_drops_assignments() -> None:
    assert split_command('X=1 git commit -m "a; b" && ls -l | wc -l &') == [
        'git commit -m "a; b"',
        "ls -l",
        "wc -l",
    ]


@given(st.text(alphabet="abcxyz019-_. /", min_size=1).filter(lambda s: s.strip()))
def test_split_leaves_a_plain_simple_command_whole(command: str) -> None:
    assert split_command(command) == [command.strip()]


@pytest.mark.parametrize(
    ("rule", "tool", "path", "expected"),
    [
        ("Edit(*.ts)", "Edit", "/proj/sub/src/deep/a.ts", True),
        ("Edit(*.ts)", "Edit", "/proj/sub/a.tsx", False),
        ("Edit(*.ts)", "Write", "/elsewhere/b.ts", True),
        ("Edit(*.ts)", "MultiEdit", "/proj/a.ts", True),
        ("Edit(src/**)", "Edit", "/proj/sub/src/a/b.py", True),
        ("Edit(src/**)", "Edit", "/proj/src/a.py", False),
        ("Edit(./src/*.py)", "Edit", "/proj/sub/src/a.py", True),
        ("Edit(./src/*.py)", "Edit", "/proj/sub/src/x/a.py", False),
        ("Edit(/src/**)", "Edit", "/proj/src/a.py", True),
        ("Edit(/src/**)", "Edit", "/proj/sub/src/a.py", False),
        ("Read(//etc/**)", "Read", "/etc/passwd", True),
        ("Read(//etc/**)", "Read", "/proj/etc/passwd", False),
        ("Read(~/.ssh/*)", "Read", "/home/ada/.ssh/id_ed25519", True),
        ("Read(.env)", "Read", "/proj/sub/.env", True),
        ("Read(node_modules)", "Read", "/proj/sub/node_modules/x/y.js", True),
        ("Read(**/*.py)", "Read", "/proj/sub/a/b/c.py", True),
        ("Read(src/a?.py)", "Read", "/proj/sub/src/ab.py", True),
        ("Read(src/[ab].py)", "Read", "/proj/sub/src/c.py", False),
        ("Read(*.py)", "Edit", "/proj/a.py", False),
    ],
)
def test_file_rules_are_gitignore_globs(rule: str, tool: str, path: str, expected: bool) -> None:
    field = "notebook_path" if tool == "NotebookEdit" else "file_path"
    assert applies(rule, tool, {field: path}) is expected


def test_relative_file_path_is_resolved_against_cwd() -> None:
    assert applies("Edit(/sub/src/*.py)", "Edit", {"file_path": "src/a.py"})


def test_call_without_the_field_runs_the_hook() -> None:
    assert applies("Edit(*.ts)", "Edit", {})
    assert applies("Bash(git *)", "Bash", {"description": "no command"})


def test_mcp_server_rule_covers_its_tools_only() -> None:
    assert applies("mcp__memory", "mcp__memory__create_entities", {})
    assert applies("mcp__memory__*", "mcp__memory__search", {})
    assert not applies("mcp__memory", "mcp__memoryx__search", {})
    assert not applies("mcp__memory", "mcp__github__create", {})


def test_webfetch_domain_and_agent_type() -> None:
    url = {"url": "https://docs.example.com/page"}
    assert applies("WebFetch(domain:docs.example.com)", "WebFetch", url)
    assert applies("WebFetch(domain:*.example.com)", "WebFetch", url)
    assert not applies("WebFetch(domain:example.org)", "WebFetch", url)
    assert applies("Agent(Explore)", "Agent", {"subagent_type": "Explore"})
    assert not applies("Agent(Explore)", "Agent", {"subagent_type": "Plan"})


def _regex_reference(specifier: str, simple: str) -> bool:
    """The regex reading of a Bash specifier (the earlier implementation), for comparison."""
    if specifier.endswith(":*") and "*" not in specifier[:-2]:
        return re.fullmatch(re.escape(specifier[:-2]) + r"(?: .*)?", simple, re.DOTALL) is not None
    optional_tail = specifier.endswith(" *") and not specifier.endswith("\\ *")
    body = specifier[:-2] if optional_tail else specifier
    pieces: list[str] = []
    i = 0
    while i < len(body):
        if body.startswith("\\*", i):
            pieces.append(re.escape("*"))
            i += 2
        elif body[i] == "*":
            pieces.append(".*")
            i += 1
        else:
            pieces.append(re.escape(body[i]))
            i += 1
    tail = r"(?: .*)?" if optional_tail else ""
    return re.fullmatch("".join(pieces) + tail, simple, re.DOTALL) is not None


@given(
    st.text(alphabet="ab *:\\", max_size=8),
    st.text(alphabet="ab *:\\\n", max_size=12),
)
def test_linear_command_matching_agrees_with_the_regex_reading(specifier: str, simple: str) -> None:
    assert command_matches(specifier, simple) == _regex_reference(specifier, simple)
