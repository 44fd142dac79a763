"""`hookcourse validate`: each rule on a fixture of bad settings, with its reference line."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from hookcourse import cli
from hookcourse.engine.validate import RULES, Severity, validate_files
from hookcourse.errors import json_path
from tests.support.paths import ROOT as REPO

BAD = REPO / "fixtures" / "validate" / "bad-settings.json"
PLUGIN = REPO / "fixtures" / "validate" / "plugin" / "hooks" / "hooks.json"
MISTAKES = REPO / "fixtures" / "validate" / "mistakes" / ".claude" / "settings.json"
SCRIPTS = REPO / "fixtures" / "validate" / "scripts" / ".claude" / "settings.json"
GUARD = REPO / "fixtures" / "force-push-guard"
SEED_002 = REPO / "fixtures" / "validate" / "seed-002-settings.json"
HOOKCOURSE = [sys.executable, "-m", "hookcourse"]
Project = Any
PRE = "$.hooks.PreToolUse"

# rule id -> (file, JSON path of the finding, words of the reference line it rests on)
EXPECTED = {
    "script-crlf": (SCRIPTS, "$.hooks.PreToolUse[0].hooks[0].command", "§3a"),
    "script-no-shebang": (SCRIPTS, "$.hooks.PreToolUse[1].hooks[0].command", "POSIX sh"),
    "guard-exits-1": (SCRIPTS, "$.hooks.PreToolUse[2].hooks[0].command", "§3a"),
    "exit-2-cannot-block": (SCRIPTS, "$.hooks.SessionStart[0].hooks[0].command", "§3a"),
    "stdin-read-twice": (SCRIPTS, "$.hooks.PreToolUse[3].hooks[0].command", "§2"),
    "unknown-event": (BAD, "$.hooks.PreTooluse", "§6"),
    "settings-shape": (BAD, "$.hooks.UserPromptSubmit[0].hooks[5].command", "§6"),
    "guard-entry-voids-file": (MISTAKES, "$.hooks.PermissionRequest[0]", "2.1.332 §10.1"),
    "managed-only-key": (MISTAKES, "$.allowManagedHooksOnly", "§6"),
    "event-outside-hooks": (PLUGIN, "$.PostToolUse", "§6"),
    "unknown-key": (MISTAKES, f"{PRE}[4].hooks[0].timeout_ms", "§5"),
    "async-not-command": (BAD, "$.hooks.UserPromptSubmit[0].hooks[2].async", "§5"),
    "continue-on-block-agent": (
        BAD,
        "$.hooks.UserPromptSubmit[0].hooks[3].continueOnBlock",
        "§5",
    ),
    "handler-type": (BAD, "$.hooks.SessionStart[0].hooks[0].type", "§5"),
    "matcher-ignored": (BAD, "$.hooks.Stop[0].matcher", "§4"),
    "if-not-tool-event": (BAD, "$.hooks.Stop[0].hooks[0].if", "§5"),
    "permission-rule-matcher": (BAD, "$.hooks.PostToolUse[0].matcher", "§4"),
    "invalid-regex": (BAD, "$.hooks.PostToolUse[1].matcher", "§4"),
    "bare-mcp-server": (BAD, "$.hooks.PostToolUse[2].matcher", "§4"),
    "match-all-alternative": (MISTAKES, f"{PRE}[7].matcher", "§4"),
    "regex-matches-no-tool": (MISTAKES, f"{PRE}[8].matcher", "§4"),
    "spaces-around-pipe": (MISTAKES, "$.hooks.FileChanged[0].matcher", "§4"),
    "unknown-tool": (MISTAKES, f"{PRE}[6].matcher", "§4"),
    "matcher-value-never-sent": (MISTAKES, "$.hooks.PreCompact[0].matcher", "§1a"),
    "if-on-group": (MISTAKES, f"{PRE}[0].if", "§5"),
    "timeout-milliseconds": (BAD, "$.hooks.UserPromptSubmit[0].hooks[0].timeout", "§5"),
    "async-guard": (MISTAKES, f"{PRE}[9].hooks[0].async", "§5"),
    "unquoted-placeholder": (MISTAKES, f"{PRE}[4].hooks[0].command", "§7a"),
    "placeholder-in-shell": (MISTAKES, f"{PRE}[10].hooks[0].command", "§7a"),
    "invented-variable": (MISTAKES, f"{PRE}[5].hooks[0].command", "§7a"),
    "relative-script-path": (MISTAKES, f"{PRE}[3].hooks[0].command", "§2"),
    "script-missing": (MISTAKES, f"{PRE}[2].hooks[0].command", "§3a"),
    "script-not-executable": (MISTAKES, f"{PRE}[1].hooks[0].command", "§3a"),
    "script-outside-reach": (MISTAKES, f"{PRE}[9].hooks[0].command", "validate"),
    "machine-specific-path": (MISTAKES, f"{PRE}[9].hooks[0].command", "§6"),
    "duplicate-handler": (BAD, "$.hooks.UserPromptSubmit[0].hooks[4]", "§6"),
    "quoted-tilde": (MISTAKES, f"{PRE}[12].hooks[0].command", "§7a"),
    "variable-in-args": (MISTAKES, f"{PRE}[13].hooks[0].args[0]", "2.1.332 §2.2"),
    "variable-unset-here": (MISTAKES, f"{PRE}[14].hooks[0].command", "2.1.332 §9"),
}


def _run(project: Project, *argv: str) -> Any:
    return project.cli([*HOOKCOURSE, "validate", *argv])


@pytest.fixture(scope="module")
def findings() -> list[dict[str, Any]]:
    report = validate_files([BAD, PLUGIN, MISTAKES, SCRIPTS])
    return [finding.to_json() for finding in report.findings]


def test_every_rule_but_the_file_level_ones_has_a_case() -> None:
    file_level = {"json-syntax", "unreadable", "frontmatter-syntax", "frontmatter-not-checked"}
    # Raised only with --claude-version X: tests/claude_code/test_versions.py has their cases.
    release_level = {"event-not-in-release", "matcher-list-in-release", "file-unread-in-release"}
    assert set(RULES) - set(EXPECTED) == file_level | release_level


def test_the_mistakes_fixture_has_no_finding_but_the_expected_ones() -> None:
    """Precision: the regex alternation of MCP tools and the double-quoted placeholders in
    the fixture raise nothing, and each mistake raises its rule once per place."""
    report = validate_files([MISTAKES])
    places = sorted((f.rule, json_path(f.path), f.message) for f in report.findings)
    assert len(places) == len(set(places)), places
    assert not [p for p in places if p[1].startswith(f"{PRE}[11]")], places


@pytest.mark.parametrize("rule", sorted(EXPECTED))
def test_each_rule_is_flagged_at_its_json_path(rule: str, findings: list[dict[str, Any]]) -> None:
    file, path, _reference = EXPECTED[rule]
    hits = [f for f in findings if f["rule"] == rule]
    places = [(h["file"], h["path"]) for h in hits]
    assert (str(file), path) in places, hits
    hit = hits[places.index((str(file), path))]
    assert hit["severity"] == str(RULES[rule].severity)
    assert hit["message"] and hit["fix"] and _reference in hit["reference"]


def test_the_bad_fixture_exits_one_and_names_file_path_severity_rule_and_fix(
    project: Project,
) -> None:
    done = _run(project, str(BAD))
    assert done.returncode == 1, done.stderr
    line = next(line for line in done.stdout.splitlines() if "[invalid-regex]" in line)
    assert line.startswith(f"{BAD}: $.hooks.PostToolUse[1].matcher: error [invalid-regex] ")
    assert "; fix: " in line


def test_json_output(project: Project) -> None:
    done = _run(project, str(BAD), "--json")
    document = json.loads(done.stdout)
    assert document["errors"] == sum(
        1 for f in document["findings"] if f["severity"] == Severity.ERROR
    )
    assert set(document["findings"][0]) == {
        "file",
        "path",
        "severity",
        "rule",
        "message",
        "fix",
        "reference",
    }


def test_silent_on_the_force_push_guard(project: Project) -> None:
    done = _run(project, "--project-dir", str(GUARD), str(GUARD / "settings.json"))
    assert (done.returncode, done.stdout.count("[")) == (0, 0), done.stdout


def test_silent_on_seed_002s_example_settings(project: Project) -> None:
    """The settings block of seed 002, copied verbatim into fixtures/validate: no error or
    warning; its script is out of reach (no project), which is a note, not a finding."""
    done = _run(project, str(SEED_002))
    assert done.returncode == 0, done.stdout
    assert "error [" not in done.stdout and "warning [" not in done.stdout, done.stdout
    assert "info [script-outside-reach]" in done.stdout


def test_warnings_alone_exit_zero(project: Project) -> None:
    path = project.settings({"hooks": {"Stop": [{"matcher": "x", "hooks": []}]}}, "w.json")
    done = _run(project, str(path))
    assert done.returncode == 0
    assert "warning [matcher-ignored]" in done.stdout


@pytest.mark.parametrize(
    ("text", "rule"),
    [("{not json", "json-syntax"), ("[]", "settings-shape"), ("\udcff", "unreadable")],
)
def test_a_file_that_cannot_be_used_is_a_finding(project: Project, text: str, rule: str) -> None:
    path = project.scratch / "broken.json"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    done = _run(project, str(path))
    assert done.returncode == 1
    assert f"error [{rule}]" in done.stdout
    assert "Traceback" not in done.stderr


def _only_finding(path: Path) -> tuple[str, str, str]:
    (finding,) = validate_files([path]).findings
    return finding.rule, finding.message, finding.fix


def test_a_byte_order_mark_says_to_save_without_it(project: Project) -> None:
    path = project.scratch / "bom.json"
    path.write_bytes(b'\xef\xbb\xbf{"hooks": {}}')
    rule, _message, fix = _only_finding(path)
    assert (rule, fix) == ("json-syntax", "save the file as UTF-8 without a byte-order mark")


@pytest.mark.parametrize(
    ("make", "kind"),
    [
        (os.mkfifo, "a FIFO (named pipe)"),
        (lambda path: path.symlink_to("/dev/zero"), "a character device"),
    ],
    ids=["fifo", "dev-zero"],
)
def test_a_special_file_is_named_as_one_at_once(project: Project, make: Any, kind: str) -> None:
    """A FIFO with no writer would read as empty ("not valid JSON"); /dev/zero as 64 MiB."""
    path = project.scratch / "special.json"
    make(path)
    rule, message, fix = _only_finding(path)
    assert rule == "unreadable"
    assert message == f"the settings file is {kind}, not a regular file"
    assert fix == "save the JSON in a regular file and name that"


def test_a_symbolic_link_that_loops_or_dangles_says_so(project: Project) -> None:
    loop, dangling = project.scratch / "loop.json", project.scratch / "dangling.json"
    loop.symlink_to(loop)
    dangling.symlink_to(project.scratch / "gone.json")
    assert _only_finding(loop)[1:] == (
        "the settings file is a symbolic link that loops",
        "point the link at a real file",
    )
    assert _only_finding(dangling)[1:] == (
        f"the settings file is a symbolic link to {project.scratch / 'gone.json'}, "
        "which does not exist",
        "point the link at an existing file",
    )


def test_an_unreadable_file_says_to_check_its_permissions(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As root every file is readable, so ``open`` fails the way EACCES makes it fail."""
    path = project.settings({"hooks": {}}, "locked.json")
    real_open = os.open

    def refuse(name: Any, *args: Any, **kwargs: Any) -> int:
        if str(name) == str(path):
            raise PermissionError(13, "Permission denied", str(name))
        return real_open(name, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)
    assert _only_finding(path) == (
        "unreadable",
        "the settings file cannot be read (Permission denied)",
        "check its permissions",
    )


def test_a_directory_is_a_usage_error_with_the_fix(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = project.settings({"hooks": {}}, "ok.json")
    status = cli.main(["validate", str(settings), str(project.dir)])
    out, err = capsys.readouterr()
    assert (status, out) == (2, "")
    assert err == (
        f"hookcourse validate: {project.dir} is a directory; fix: pass settings files, "
        f"or use --project-dir {project.dir}\n"
    )


def test_usage_errors_exit_two(project: Project) -> None:
    assert _run(project, "--no-such-flag").returncode == 2
    assert _run(project, "--project-dir", str(project.scratch)).returncode == 2
    assert _run(project, "--project-dir", str(project.scratch / "missing")).returncode == 2


def test_default_files_come_from_the_project(project: Project) -> None:
    project.hooks("Stop", {"type": "command", "command": "true", "timeout": 3000})
    done = _run(project, "--project-dir", str(project.dir))
    assert done.returncode == 0
    assert "[timeout-milliseconds]" in done.stdout


def test_fire_shows_the_same_findings_as_warnings(project: Project) -> None:
    project.hooks("Stop", {"type": "command", "command": "true", "timeout": 3000}, matcher="x")
    fired = project.fire("Stop", project.payload("Stop", stop_hook_active=False), json_out=False)
    assert "hookcourse: warning: " in fired.stderr
    assert "[timeout-milliseconds]" in fired.stderr
    assert "[matcher-ignored]" in fired.stderr


def test_pre_commit_hook_runs_validate() -> None:
    text = (REPO / ".pre-commit-hooks.yaml").read_text()
    assert "id: hookcourse-validate" in text
    assert "entry: hookcourse validate" in text


def test_fire_runs_the_if_distinct_handlers_validate_keeps(project: Project) -> None:
    """One command under two ``if`` rules that both match: Claude Code runs both (its dedup
    key has ``if``), validate says nothing, and fire runs both too."""
    script = project.script("gate.sh", "exit 0")
    handlers = [
        {"type": "command", "command": f'"{script}"', "if": condition}
        for condition in ("Bash(git *)", "Bash(git commit *)")
    ]
    project.hooks("PreToolUse", *handlers, matcher="Bash")
    settings = project.dir / ".claude" / "settings.json"
    assert _run(project, str(settings)).stdout.count("[duplicate-handler]") == 0
    fired = project.fire("PreToolUse", project.bash_call("git commit -m x"))
    ran = [hook["if"] for hook in fired.hooks if hook["exitCode"] == 0]
    assert ran == ["Bash(git *)", "Bash(git commit *)"], fired.stdout
    assert "runs once" not in fired.stderr


def test_fire_warns_of_a_missing_script_it_then_fails_to_run(project: Project) -> None:
    """fire looks for scripts in its --project-dir, as validate does, and says so."""
    project.hooks(
        "PreToolUse",
        {"type": "command", "command": '"$CLAUDE_PROJECT_DIR"/.claude/hooks/gone.sh'},
        matcher="Bash",
    )
    fired = project.fire("PreToolUse", project.bash_call("ls"), json_out=False)
    assert "[script-missing] .claude/hooks/gone.sh does not exist" in fired.stderr
    assert "[script-outside-reach]" not in fired.stderr
