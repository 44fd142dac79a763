"""validate's rules on the shapes real configurations take: what must raise nothing (the
precision cases of issue 22), what must raise its rule, SchemaStore's hook-related cases
(written anew here), the CLI controls, and hostile input. In-process: no subprocess."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookcourse import cli
from hookcourse.engine.lint import RULES
from hookcourse.engine.lint.registry import choose
from hookcourse.engine.validate import ValidateOptions, default_files, validate_files
from hookcourse.engine.validate_output import rule_table
from hookcourse.errors import json_path

Settings = dict[str, Any]


def _project(tmp_path: Path, document: Settings | str, name: str = "settings.json") -> Path:
    path = tmp_path / "project" / ".claude" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(document if isinstance(document, str) else json.dumps(document))
    return path


def _plugin(tmp_path: Path, document: Settings) -> Path:
    path = tmp_path / "plugin" / "hooks" / "hooks.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document))
    return path


def _script(root: Path, relative: str, mode: int = 0o755) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(mode)


def _rules(path: Path, **options: Any) -> list[tuple[str, str]]:
    report = validate_files([path], ValidateOptions(**options))
    return [(finding.rule, json_path(finding.path)) for finding in report.findings]


def _pre(*groups: Settings) -> Settings:
    return {"hooks": {"PreToolUse": list(groups)}}


def _command(command: str, **more: Any) -> Settings:
    return {"type": "command", "command": command, **more}


# --- precision: shapes that are right and must raise nothing --------------------------------


@pytest.mark.parametrize(
    "command",
    [
        'python3 "${CLAUDE_PROJECT_DIR}/.claude/hooks/guard.py"',
        '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.py',
        'cd "$CLAUDE_PROJECT_DIR" && python3 .claude/hooks/guard.py',
        'bash -c \'r="${CLAUDE_PROJECT_DIR:-}"; exec python3 "$r/.claude/hooks/guard.py"\'',
        'DIR=$CLAUDE_PROJECT_DIR python3 "$DIR/.claude/hooks/guard.py"',
    ],
)
def test_quoted_placeholders_and_cd_first_raise_nothing(tmp_path: Path, command: str) -> None:
    _script(tmp_path / "project", ".claude/hooks/guard.py")
    path = _project(tmp_path, _pre({"matcher": "Bash", "hooks": [_command(command)]}))
    assert _rules(path) == []


def test_one_command_with_four_ifs_is_four_handlers_not_duplicates(tmp_path: Path) -> None:
    """Anthropic's security-guidance shape: Claude Code's dedup key includes ``if``."""
    handlers = [
        _command('python3 "${CLAUDE_PROJECT_DIR}/g.py"', **{"if": f"Bash(git {verb} *)"})
        for verb in ("commit", "push", "merge", "rebase")
    ]
    _script(tmp_path / "project", "g.py")
    path = _project(tmp_path, _pre({"matcher": "Bash", "hooks": handlers}))
    assert _rules(path) == []


def test_shell_and_async_keep_handlers_apart_but_identical_ones_merge(tmp_path: Path) -> None:
    same = _command("true")
    path = _project(
        tmp_path,
        _pre(
            {
                "matcher": "Bash",
                "hooks": [same, same, {**same, "shell": "bash"}, {**same, "async": True}],
            }
        ),
    )
    rules = _rules(path)
    assert ("duplicate-handler", "$.hooks.PreToolUse[0].hooks[1]") in rules
    assert [rule for rule, _ in rules if rule == "duplicate-handler"] == ["duplicate-handler"]


@pytest.mark.parametrize(
    "matcher",
    [
        "mcp__codescout__(edit_code|edit_file)",
        "Edit|Write|mcp__codescout__(edit_code|create_file)",
        "Edit | Write",
        "Bash, PowerShell",
        "^Bash$",
        "Notebook.*",
        "mcp__memory__.*",
        "Task",
    ],
)
def test_matchers_that_select_tools_raise_nothing(tmp_path: Path, matcher: str) -> None:
    path = _project(tmp_path, _pre({"matcher": matcher, "hooks": [_command("true")]}))
    assert _rules(path) == []


def test_an_expression_with_or_is_a_match_all_regex_not_spaces_around_pipe(
    tmp_path: Path,
) -> None:
    matcher = 'tool == "Edit" || tool == "Write"'
    path = _project(tmp_path, _pre({"matcher": matcher, "hooks": [_command("true")]}))
    (finding,) = validate_files([path]).findings
    assert finding.rule == "match-all-alternative"
    assert finding.fix == 'list the names: "Edit|Write"'


def test_bare_mcp_prefix_message_names_no_empty_server(tmp_path: Path) -> None:
    path = _project(tmp_path, _pre({"matcher": "mcp__", "hooks": [_command("true")]}))
    (finding,) = validate_files([path]).findings
    assert finding.rule == "bare-mcp-server"
    assert "mcp____" not in finding.message + finding.fix
    assert finding.fix == 'match every MCP tool with "mcp__.*"'


def test_permission_rule_matcher_fix_is_a_matcher_and_an_if(tmp_path: Path) -> None:
    path = _project(tmp_path, _pre({"matcher": "Bash(git push:*)", "hooks": [_command("true")]}))
    (finding,) = validate_files([path]).findings
    assert finding.rule == "permission-rule-matcher"
    assert finding.fix == 'match "Bash" and give each handler "if": "Bash(git push:*)"'


def test_a_matcher_on_stop_that_matches_everything_is_not_flagged(tmp_path: Path) -> None:
    group = {"matcher": ".*", "hooks": [_command("true")]}
    path = _project(tmp_path, {"hooks": {"Stop": [group]}})
    assert _rules(path) == []


def test_documentation_keys_are_left_alone_but_timeout_ms_is_not(tmp_path: Path) -> None:
    handler = _command("true", description="formats the file", timeout_ms=5000)
    group = {"matcher": "Write", "description": "format on save", "hooks": [handler]}
    path = _project(tmp_path, {"hooks": {"PostToolUse": [group]}})
    assert _rules(path) == [("unknown-key", "$.hooks.PostToolUse[0].hooks[0].timeout_ms")]


@pytest.mark.parametrize(("timeout", "flagged"), [(5000, True), (1740, False), (600, False)])
def test_timeouts_in_milliseconds(tmp_path: Path, timeout: int, flagged: bool) -> None:
    path = _project(tmp_path, _pre({"hooks": [_command("true", timeout=timeout)]}))
    assert bool(_rules(path)) is flagged


# --- the mistakes: each raises its rule ---------------------------------------------------


def test_a_missing_python_script_on_pretooluse_blocks_every_call(tmp_path: Path) -> None:
    command = 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/gone.py"'
    path = _project(tmp_path, _pre({"matcher": "Edit", "hooks": [_command(command)]}))
    (finding,) = validate_files([path]).findings
    assert finding.rule == "script-missing"
    assert "python3 exits 2" in finding.message
    assert "every Edit call is refused" in finding.message


def test_a_missing_script_on_stop_is_a_non_blocking_error(tmp_path: Path) -> None:
    group = {"hooks": [_command('python3 "$CLAUDE_PROJECT_DIR/gone.py"')]}
    path = _project(tmp_path, {"hooks": {"Stop": [group]}})
    (finding,) = validate_files([path]).findings
    assert "non-blocking error" in finding.message


def test_plugin_scripts_are_read_from_the_plugin_root(tmp_path: Path) -> None:
    _script(tmp_path / "plugin", "hooks/present.sh")
    _script(tmp_path / "plugin", "hooks/plain.sh", 0o644)
    hooks = [
        _command('"${CLAUDE_PLUGIN_ROOT}"/hooks/present.sh'),
        _command('"${CLAUDE_PLUGIN_ROOT}"/hooks/plain.sh'),
        _command('"${CLAUDE_PLUGIN_ROOT}"/hooks/absent.sh'),
        _command("bash hooks/present.sh"),
    ]
    path = _plugin(tmp_path, _pre({"matcher": "Bash", "hooks": hooks}))
    assert _rules(path) == [
        ("script-not-executable", "$.hooks.PreToolUse[0].hooks[1].command"),
        ("script-missing", "$.hooks.PreToolUse[0].hooks[2].command"),
        ("relative-script-path", "$.hooks.PreToolUse[0].hooks[3].command"),
    ]


def test_plugin_root_flag_overrides_the_default(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    _script(elsewhere, "hooks/x.sh")
    path = _plugin(tmp_path, _pre({"hooks": [_command('"${CLAUDE_PLUGIN_ROOT}"/hooks/x.sh')]}))
    assert _rules(path) == [("script-missing", "$.hooks.PreToolUse[0].hooks[0].command")]
    assert _rules(path, plugin_root=elsewhere) == []


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ('grep -q "\\.env" <<< "$CLAUDE_FILE_PATHS" && exit 2', "invented-variable"),
        ('echo "$TOOL_INPUT_PATH"', "invented-variable"),
        ("python3 $CLAUDE_PROJECT_DIR/x.py", "unquoted-placeholder"),
        ("C:/Users/bob/hooks/guard.ps1", "machine-specific-path"),
        ("/Volumes/work/hooks/guard.sh", "machine-specific-path"),
    ],
)
def test_command_mistakes(tmp_path: Path, command: str, rule: str) -> None:
    path = _project(tmp_path, _pre({"matcher": "Bash", "hooks": [_command(command)]}))
    assert rule in [found for found, _ in _rules(path)]


def test_machine_paths_are_fine_in_local_settings(tmp_path: Path) -> None:
    document = _pre({"matcher": "Bash", "hooks": [_command("/Users/bob/guard.sh")]})
    path = _project(tmp_path, document, name="settings.local.json")
    assert "machine-specific-path" not in [rule for rule, _ in _rules(path)]


@pytest.mark.parametrize(
    ("event", "matcher", "rule"),
    [
        ("PreToolUse", "write|edit", "unknown-tool"),
        ("PreToolUse", "apply_patch", "unknown-tool"),
        ("PreCompact", "compact", "matcher-value-never-sent"),
        ("SessionEnd", "bypass_permissions_disabled", "matcher-value-never-sent"),
        ("SessionStart", "^(boot|init)$", "matcher-value-never-sent"),
        ("StopFailure", "rate_limit | overloaded", "spaces-around-pipe"),
    ],
)
def test_matcher_mistakes(tmp_path: Path, event: str, matcher: str, rule: str) -> None:
    group = {"matcher": matcher, "hooks": [_command("true")]}
    path = _project(tmp_path, {"hooks": {event: [group]}})
    assert rule in [found for found, _ in _rules(path)]


def test_wrong_case_says_did_you_mean(tmp_path: Path) -> None:
    path = _project(tmp_path, _pre({"matcher": "bash", "hooks": [_command("true")]}))
    (finding,) = validate_files([path]).findings
    assert (finding.rule, finding.fix) == ("unknown-tool", 'write "Bash"')


def test_notification_values_of_2_1_332_are_known(tmp_path: Path) -> None:
    group = {"matcher": "push_notification|idle_prompt", "hooks": [_command("true")]}
    path = _project(tmp_path, {"hooks": {"Notification": [group]}})
    assert _rules(path) == []


# --- SchemaStore's claude-code-settings cases (written anew) -------------------------------


@pytest.mark.parametrize("mode", ["manual", "delegate", "default", "auto", "dontAsk"])
def test_schemastore_default_modes_are_no_error(tmp_path: Path, mode: str) -> None:
    path = _project(tmp_path, {"permissions": {"defaultMode": mode}})
    assert _rules(path) == []


def test_managed_only_keys_need_managed(tmp_path: Path) -> None:
    path = _project(tmp_path, {"allowManagedHooksOnly": True}, name="managed.json")
    assert _rules(path) == [("managed-only-key", "$.allowManagedHooksOnly")]
    assert _rules(path, managed=True) == []


@pytest.mark.parametrize(
    ("handler", "rule"),
    [
        ({"type": "command", "command": "x", "unknownProperty": 1}, "unknown-key"),
        ({"type": "command", "command": "x", "shell": "fish"}, "settings-shape"),
        ({"type": "script", "command": "x"}, "settings-shape"),
        ({"type": "command", "command": "x", "timeout": 0}, "settings-shape"),
        ({"type": "command"}, "settings-shape"),
        ({"type": "mcp_tool", "tool": "lint"}, "settings-shape"),
        ({"type": "command", "command": "x", "async": "true"}, "settings-shape"),
    ],
)
def test_schemastore_hook_negatives_are_caught(
    tmp_path: Path, handler: Settings, rule: str
) -> None:
    path = _project(tmp_path, {"hooks": {"PostToolUse": [{"hooks": [handler]}]}})
    assert rule in [found for found, _ in _rules(path)]


def test_a_broken_pretooluse_entry_voids_the_file(tmp_path: Path) -> None:
    path = _project(tmp_path, _pre({"hooks": [{"type": "command"}]}))
    assert ("guard-entry-voids-file", "$.hooks.PreToolUse[0]") in _rules(path)


# --- the controls ---------------------------------------------------------------------------


def test_select_and_ignore(tmp_path: Path) -> None:
    path = _project(tmp_path, _pre({"matcher": "bash", "hooks": [_command("true", timeout=5000)]}))
    assert {rule for rule, _ in _rules(path)} == {"unknown-tool", "timeout-milliseconds"}
    only = choose(["unknown-tool"])
    assert {rule for rule, _ in _rules(path, rules=only)} == {"unknown-tool"}
    skipped = choose((), ["unknown-tool"])
    assert {rule for rule, _ in _rules(path, rules=skipped)} == {"timeout-milliseconds"}
    with pytest.raises(ValueError, match="no-such-rule"):
        choose(["no-such-rule"])


def test_cli_github_format_summary_and_exit_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _project(
        tmp_path,
        '{\n  "hooks": {\n    "Stop": [\n      {"matcher": "x", "hooks": []}\n    ]\n  }\n}',
    )
    status = cli.main(["validate", str(path), "--format", "github"])
    out = capsys.readouterr().out.splitlines()
    assert status == 0  # a warning alone
    assert out[0].startswith(f"::warning file={path},line=4,title=matcher-ignored::")
    assert out[1] == "     1  matcher-ignored"
    assert cli.main(["validate", str(path), "--fail-on", "warning"]) == 1
    assert (
        cli.main(["validate", str(path), "--ignore", "matcher-ignored", "--fail-on", "warning"])
        == 0
    )
    capsys.readouterr()
    assert cli.main(["validate", str(path), "--select", "nope"]) == 2
    assert "no rule called nope" in capsys.readouterr().err


def test_list_rules_names_every_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["validate", "--list-rules"]) == 0
    listed = [line.split("\t")[0] for line in capsys.readouterr().out.splitlines()]
    assert sorted(listed) == sorted(RULES)


def test_json_format_has_rules_and_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _project(tmp_path, _pre({"matcher": "bash", "hooks": [_command("true")]}))
    assert cli.main(["validate", str(path), "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["rules"] == {"unknown-tool": 1}
    assert document["findings"][0]["line"] == 1


# --- hostile input --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        "python3 \x00/x.py",
        "echo \ud800 $CLAUDE_TOOL_INPUT",
        'node -e "' + "x" * 200_000 + '"',
        "'" * 10_000,
        "$(" * 5_000,
        'bash "$CLAUDE_PROJECT_DIR/' + "a/" * 5_000 + 'x.sh"',
    ],
    ids=["nul", "lone-surrogate", "huge-inline", "quotes", "substitutions", "deep-path"],
)
def test_hostile_commands_give_findings_not_tracebacks(tmp_path: Path, command: str) -> None:
    path = tmp_path / "project" / ".claude" / "settings.json"
    path.parent.mkdir(parents=True)
    document = _pre({"matcher": "Bash", "hooks": [_command(command)]})
    path.write_text(json.dumps(document), encoding="utf-8", errors="surrogatepass")
    validate_files([path])


def test_the_docs_rule_table_is_the_registry() -> None:
    """docs/validate.md's rule table is exactly the registry's: every rule once, in table
    order, with its severity, summary and reference (on failure, paste the expected table)."""
    page = Path(__file__).resolve().parents[2] / "docs" / "validate.md"
    readme = page.read_text().splitlines()
    expected = rule_table()
    start = readme.index(expected[0])
    written = readme[start : start + len(expected) + 1]
    assert written == [*expected, ""], "\n".join(expected)


def test_exec_form_with_a_command_line_as_program_is_not_read_as_a_script(tmp_path: Path) -> None:
    """SchemaStore's hooks-complete.json: "command" holds a whole line, "args" the argv."""
    handler = {"type": "command", "command": "echo hi >> /tmp/x.log", "args": ["bash", "-c", "x"]}
    path = _project(tmp_path, {"hooks": {"SessionStart": [{"hooks": [handler]}]}})
    assert _rules(path) == []


@pytest.mark.parametrize(
    ("content", "rule"),
    [
        (b'{"hooks": {"Stop": [' + b'{"hooks": []},' * 400_000 + b"{}]}}", "unreadable"),
        (
            b"---\nhooks:\n" + b"".join(b"  " * i + b"a:\n" for i in range(1, 300)) + b"---\n",
            "frontmatter-syntax",
        ),
        (b"---\nhooks:\n\tStop: []\n---\n", "frontmatter-syntax"),
        (b"---\nhooks:\n  Stop: []\n", "frontmatter-syntax"),
        (b"---\nhooks: &shared\n  Stop: []\n---\n", "frontmatter-not-checked"),
        (
            b'---\nhooks:\n  Stop:\n    - hooks:\n        - command: "a\x00\\e"\n---\n',
            "frontmatter-not-checked",
        ),
        (b"---\nname: caf\xe9\nhooks: {}\n---\n", "unreadable"),
    ],
    ids=[
        "over-4-mib",
        "frontmatter-deep",
        "frontmatter-tab",
        "frontmatter-unclosed",
        "frontmatter-anchor",
        "frontmatter-escapes",
        "frontmatter-latin-1",
    ],
)
def test_hostile_files_give_one_finding_quickly(tmp_path: Path, content: bytes, rule: str) -> None:
    name = "SKILL.md" if content.startswith(b"---") else "settings.json"
    path = tmp_path / "skills" / "x" / name
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    assert [finding.rule for finding in validate_files([path]).findings] == [rule]


def test_a_skill_without_hooks_is_not_judged_even_when_its_yaml_is_odd(tmp_path: Path) -> None:
    path = tmp_path / "skills" / "x" / "SKILL.md"
    path.parent.mkdir(parents=True)
    path.write_text("---\nname: x\nmetadata: &m {a: [1, {b: 2}]}\n---\nbody\n")
    assert validate_files([path]).findings == ()


def test_the_default_files_include_skills_and_agents_that_declare_hooks(tmp_path: Path) -> None:
    skill = tmp_path / ".claude" / "skills" / "deploy" / "SKILL.md"
    agent = tmp_path / ".claude" / "agents" / "reviewer.md"
    quiet = tmp_path / ".claude" / "skills" / "notes" / "SKILL.md"
    for path, text in ((skill, "hooks:\n  Stop: []\n"), (agent, "hooks: {}\n"), (quiet, "a: b\n")):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"---\nname: n\n{text}---\n")
    assert default_files(tmp_path) == [skill, agent]
