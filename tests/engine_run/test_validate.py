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
from tests.support.paths import ROOT as REPO

BAD = REPO / "fixtures" / "validate" / "bad-settings.json"
PLUGIN = REPO / "fixtures" / "validate" / "plugin" / "hooks" / "hooks.json"
GUARD = REPO / "fixtures" / "force-push-guard"
SEED_002 = REPO / "fixtures" / "validate" / "seed-002-settings.json"
HOOKCOURSE = [sys.executable, "-m", "hookcourse"]
Project = Any

# rule id -> (file, JSON path of the finding, the reference line the rule rests on)
EXPECTED = {
    "unknown-event": (BAD, "$.hooks.PreTooluse", "§6: unknown event names no longer invalidate"),
    "settings-shape": (
        BAD,
        "$.hooks.UserPromptSubmit[0].hooks[5].command",
        "§5 table: command (required)",
    ),
    "plugin-wrapper": (PLUGIN, "$.PostToolUse", "§6: the structure has three levels"),
    "async-not-command": (
        BAD,
        "$.hooks.UserPromptSubmit[0].hooks[2].async",
        "§5: Only command hooks can be async",
    ),
    "continue-on-block-agent": (
        BAD,
        "$.hooks.UserPromptSubmit[0].hooks[3].continueOnBlock",
        "§5 table: agent ... No continueOnBlock",
    ),
    "handler-type": (
        BAD,
        "$.hooks.SessionStart[0].hooks[0].type",
        "§5: SessionStart, Setup: command and mcp_tool only",
    ),
    "matcher-ignored": (
        BAD,
        "$.hooks.Stop[0].matcher",
        "§4: A matcher on an event that doesn't support one is silently ignored",
    ),
    "if-not-tool-event": (
        BAD,
        "$.hooks.Stop[0].hooks[0].if",
        "§5: on any other event a handler with if never runs",
    ),
    "permission-rule-matcher": (
        BAD,
        "$.hooks.PostToolUse[0].matcher",
        '§4: "Bash(git commit*)" as a matcher ... never fires',
    ),
    "invalid-regex": (
        BAD,
        "$.hooks.PostToolUse[1].matcher",
        "§4: Any other character: a JavaScript regular expression",
    ),
    "bare-mcp-server": (
        BAD,
        "$.hooks.PostToolUse[2].matcher",
        "§4: A bare mcp__memory is an exact string and matches no tool",
    ),
    "spaces-around-pipe": (
        BAD,
        "$.hooks.PostToolUse[3].matcher",
        "§10.2: the course rule /^[\\w|]+$/ vs spaces since v2.1.191",
    ),
    "timeout-milliseconds": (
        BAD,
        "$.hooks.UserPromptSubmit[0].hooks[0].timeout",
        "§10.7: Several plugins set timeout in milliseconds, but the field is seconds",
    ),
    "unquoted-placeholder": (
        BAD,
        "$.hooks.UserPromptSubmit[0].hooks[1].command",
        '§7a: In shell form, quote them ("${CLAUDE_PROJECT_DIR}")',
    ),
    "placeholder-in-shell": (
        BAD,
        "$.hooks.UserPromptSubmit[0].hooks[1].command",
        "§7a: These are substituted in both exec form and shell form",
    ),
    "duplicate-handler": (
        BAD,
        "$.hooks.UserPromptSubmit[0].hooks[4]",
        "§6: The same handler defined in more than one settings file runs once",
    ),
}


def _run(project: Project, *argv: str) -> Any:
    return project.cli([*HOOKCOURSE, "validate", *argv])


@pytest.fixture(scope="module")
def findings() -> list[dict[str, Any]]:
    return [finding.to_json() for finding in validate_files([BAD, PLUGIN])]


def test_every_rule_but_the_file_level_ones_has_a_case() -> None:
    assert set(RULES) - set(EXPECTED) == {"json-syntax", "unreadable"}


@pytest.mark.parametrize("rule", sorted(EXPECTED))
def test_each_rule_is_flagged_at_its_json_path(rule: str, findings: list[dict[str, Any]]) -> None:
    file, path, _reference = EXPECTED[rule]
    hits = [f for f in findings if f["rule"] == rule]
    places = [(h["file"], h["path"]) for h in hits]
    assert (str(file), path) in places, hits
    hit = hits[places.index((str(file), path))]
    assert hit["severity"] == str(RULES[rule].severity)
    assert hit["message"] and hit["fix"] and hit["reference"].startswith("§")


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
    """The settings block of seed 002, copied verbatim into fixtures/validate."""
    done = _run(project, str(SEED_002))
    assert (done.returncode, done.stdout.count("[")) == (0, 0), done.stdout


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
    (finding,) = validate_files([path])
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
