"""Issue 4's outside scenarios, checked only through the `hookcourse fire --json` contract.

Each scenario is a real settings file, real bash or Python hook scripts in a temporary
project and a payload, run as `python -m hookcourse fire EVENT ... --json`. The expected
results come from the Claude Code hooks reference (2026-08), written without reading the
engine's own tests; scenarios those tests already cover were then left out. HOME points
at a temporary directory so the user's real settings never join in.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

PACKAGE_ROOT = Path(__file__).resolve().parents[2]

PRE_BASH = {
    "session_id": "s-1",
    "transcript_path": "/tmp/t.jsonl",
    "cwd": "/tmp",
    "permission_mode": "default",
    "hook_event_name": "PreToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "git status", "description": "status"},
    "tool_use_id": "toolu_1",
}


@dataclass
class Fired:
    """What one `hookcourse fire --json` run produced."""

    status: int
    report: dict[str, Any]
    stderr: str

    @property
    def outcome(self) -> dict[str, Any]:
        return self.report["outcome"]

    @property
    def hooks(self) -> list[dict[str, Any]]:
        return self.report["hooks"]

    def hook(self, marker: str) -> dict[str, Any]:
        """The one hook entry whose handler text contains `marker`."""
        found = [h for h in self.hooks if marker in h["handler"]]
        assert len(found) == 1, (marker, [h["handler"] for h in self.hooks])
        return found[0]


@dataclass
class Failed:
    """A run that must fail with bad input: status and stderr only."""

    status: int
    stdout: str
    stderr: str


class Project:
    """A temporary project directory, a temporary HOME and the hook scripts in them."""

    def __init__(self, root: Path) -> None:
        self.dir = root / "project"
        self.home = root / "home"
        self.scripts = root / "scripts"
        for folder in (self.dir / ".claude", self.home / ".claude", self.scripts):
            folder.mkdir(parents=True, exist_ok=True)
        self.root = root

    def script(self, name: str, text: str) -> Path:
        """Write an executable hook script (its own #! line decides bash or Python)."""
        path = self.scripts / name
        path.write_text(text)
        path.chmod(0o755)
        return path

    def answer(
        self,
        name: str,
        stdout: Any = None,
        *,
        code: int = 0,
        stderr: str = "",
        sleep: float = 0,
    ) -> dict[str, Any]:
        """A bash hook that reads its payload, maybe sleeps, prints stdout/stderr, exits `code`.

        `stdout` is JSON-encoded unless it is already a string. Returns the handler entry.
        """
        text = stdout if isinstance(stdout, str) or stdout is None else json.dumps(stdout)
        lines = ["#!/usr/bin/env bash", "cat >/dev/null"]
        if sleep:
            lines.append(f"sleep {sleep}")
        if text is not None:
            lines.append(f"printf '%s' {shlex.quote(text)}")
        if stderr:
            lines.append(f"printf '%s\\n' {shlex.quote(stderr)} >&2")
        lines.append(f"exit {code}")
        path = self.script(name, "\n".join(lines) + "\n")
        return {"type": "command", "command": str(path)}

    def write_settings(self, name: str, settings: Any) -> Path:
        path = self.root / name
        path.write_text(settings if isinstance(settings, str) else json.dumps(settings))
        return path

    def run(
        self, event: str, payload: Any, *args: str, stdin: str | None = None
    ) -> subprocess.CompletedProcess[str]:
        payload_arg = "-"
        if stdin is None:
            payload_path = self.root / "payload.json"
            payload_path.write_text(payload if isinstance(payload, str) else json.dumps(payload))
            payload_arg = str(payload_path)
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("CLAUDE", "HOOKCOURSE_")) and key != "PYTHONDONTWRITEBYTECODE"
        }
        # HOME is the temporary one, so the user's own settings never join in; the bytecode
        # cache is allowed because a CLI start without it costs a third more.
        env["HOME"] = str(self.home)
        return subprocess.run(
            [
                *(sys.executable, "-m", "hookcourse", "fire", event, "--payload", payload_arg),
                *("--project-dir", str(self.dir), "--json", *args),
            ],
            input=stdin,
            capture_output=True,
            text=True,
            cwd=PACKAGE_ROOT,
            env=env,
            timeout=60,
        )

    def fire(
        self,
        event: str,
        payload: Any,
        *groups: dict[str, Any],
        args: tuple[str, ...] = (),
        stdin: str | None = None,
    ) -> Fired:
        """Fire `event` with `groups` as the matcher groups of one --settings file."""
        extra: list[str] = list(args)
        if groups:
            settings = self.write_settings("settings.json", {"hooks": {event: list(groups)}})
            extra = ["--settings", str(settings), *extra]
        done = self.run(event, payload, *extra, stdin=stdin)
        assert "Traceback" not in done.stderr, done.stderr
        assert done.returncode in (0, 2), (done.returncode, done.stderr)
        report = json.loads(done.stdout)
        assert report["outcome"]["blocked"] is (done.returncode == 2), report["outcome"]
        return Fired(done.returncode, report, done.stderr)

    def fail(self, event: str, payload: Any, *args: str, stdin: str | None = None) -> Failed:
        """A run that must be refused as bad input: exit 1, one stderr line, no traceback."""
        done = self.run(event, payload, *args, stdin=stdin)
        assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        return Failed(done.returncode, done.stdout, done.stderr)


def group(*handlers: dict[str, Any], matcher: str | None = None) -> dict[str, Any]:
    entry: dict[str, Any] = {"hooks": list(handlers)}
    if matcher is not None:
        entry["matcher"] = matcher
    return entry


def pre_decision(decision: str, reason: str | None = None) -> dict[str, Any]:
    specific: dict[str, Any] = {"hookEventName": "PreToolUse", "permissionDecision": decision}
    if reason is not None:
        specific["permissionDecisionReason"] = reason
    return {"hookSpecificOutput": specific}


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project(tmp_path)


# --- precedence: deny > defer > ask > allow -------------------------------------------


@pytest.mark.parametrize(
    ("decisions", "winner", "status"),
    [
        (("deny", "allow"), "deny", 2),
        (("defer", "deny"), "deny", 2),
        (("ask", "defer"), "defer", 0),
    ],
)
def test_pretooluse_decisions_merge_most_restrictive_first(
    project: Project, decisions: tuple[str, ...], winner: str, status: int
) -> None:
    handlers = [
        project.answer(f"h{i}.sh", pre_decision(d, f"{d} says so")) for i, d in enumerate(decisions)
    ]
    fired = project.fire("PreToolUse", PRE_BASH, group(*handlers, matcher="Bash"))
    assert fired.outcome["decision"] == winner
    assert fired.status == status
    assert len(fired.hooks) == len(decisions)
    if winner == "deny":
        assert fired.outcome["reason"] == "deny says so"


def test_exit_2_outranks_the_same_hooks_allow_json(project: Project) -> None:
    handler = project.answer("both.sh", pre_decision("allow", "fine"), code=2, stderr="no way")
    fired = project.fire("PreToolUse", PRE_BASH, group(handler))
    assert (fired.status, fired.outcome["decision"]) == (2, "deny")
    # The allow reason is not a blocking reason, so stderr is the message.
    assert fired.outcome["reason"] == "no way"


def test_exit_2_in_one_hook_beats_allow_in_another(project: Project) -> None:
    blocker = project.answer("blocker.sh", code=2, stderr="blocked by policy")
    allower = project.answer("allower.sh", pre_decision("allow"))
    fired = project.fire("PreToolUse", PRE_BASH, group(allower, blocker))
    assert (fired.status, fired.outcome["decision"]) == (2, "deny")
    assert fired.outcome["reason"] == "blocked by policy"
    assert fired.hook("allower.sh")["exitCode"] == 0  # a deny does not stop its siblings


# --- exit codes and how stdout is read ----------------------------------------------------


def test_exit_0_plain_text_on_pretooluse_decides_nothing(project: Project) -> None:
    fired = project.fire("PreToolUse", PRE_BASH, group(project.answer("t.sh", "all good\n")))
    assert (fired.status, fired.outcome["decision"]) == (0, None)
    assert fired.outcome["additionalContext"] == []
    hook = fired.hook("t.sh")
    assert (hook["exitCode"], hook["stdout"], hook["timedOut"]) == (0, "all good\n", False)
    assert isinstance(hook["durationMs"], (int, float)) and hook["durationMs"] >= 0


@pytest.mark.parametrize("event", ["UserPromptSubmit", "SessionStart"])
def test_exit_0_plain_text_becomes_context_where_the_event_says_so(
    project: Project, event: str
) -> None:
    payload = {"hook_event_name": event, "session_id": "s", "prompt": "hi", "source": "startup"}
    fired = project.fire(event, payload, group(project.answer("ctx.sh", "branch main\n")))
    assert fired.status == 0
    assert [c.strip() for c in fired.outcome["additionalContext"]] == ["branch main"]


def test_exit_1_with_valid_json_lets_the_json_decide(project: Project) -> None:
    handler = project.answer("one.sh", pre_decision("deny", "json says no"), code=1)
    fired = project.fire("PreToolUse", PRE_BASH, group(handler))
    assert (fired.status, fired.outcome["decision"]) == (2, "deny")
    assert fired.outcome["reason"] == "json says no"


def test_exit_2_blocks_pretooluse_even_with_nothing_on_stderr(project: Project) -> None:
    fired = project.fire("PreToolUse", PRE_BASH, group(project.answer("b.sh", code=2)))
    assert (fired.status, fired.outcome["blocked"], fired.outcome["decision"]) == (2, True, "deny")


@pytest.mark.parametrize(
    ("event", "payload"),
    [
        (
            "PostToolUse",
            {"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_response": {}},
        ),
        ("SessionStart", {"source": "startup"}),
    ],
)
def test_exit_2_on_an_event_that_cannot_block_lets_it_go_ahead(
    project: Project, event: str, payload: dict[str, Any]
) -> None:
    payload = {"hook_event_name": event, "session_id": "s", **payload}
    fired = project.fire(event, payload, group(project.answer("b.sh", code=2, stderr="stop!")))
    assert (fired.status, fired.outcome["blocked"]) == (0, False)
    assert fired.hook("b.sh")["exitCode"] == 2


def test_a_missing_script_in_shell_form_exits_127_and_does_not_block(project: Project) -> None:
    # A mistyped path leaves the policy gate open: exit 127 is a non-blocking error.
    shell = {"type": "command", "command": str(project.dir / "no-such-hook.sh")}
    fired = project.fire("PreToolUse", PRE_BASH, group(shell))
    assert (fired.status, fired.outcome["decision"]) == (0, None)
    assert fired.hook("no-such-hook.sh")["exitCode"] == 127


@pytest.mark.parametrize(
    "stdout",
    [
        {"hookSpecificOutput": {"permissionDecision": "deny"}},  # no hookEventName
        {"continue": "no"},
        {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "never"}},
    ],
)
def test_json_failing_the_schema_is_a_non_blocking_error(project: Project, stdout: Any) -> None:
    fired = project.fire("PreToolUse", PRE_BASH, group(project.answer("s.sh", stdout)))
    assert (fired.status, fired.outcome["decision"], fired.outcome["continue"]) == (0, None, True)


def test_json_after_leading_whitespace_is_read(project: Project) -> None:
    text = " \n\t" + json.dumps(pre_decision("deny", "spaced out"))
    fired = project.fire("PreToolUse", PRE_BASH, group(project.answer("w.sh", text)))
    assert (fired.status, fired.outcome["reason"]) == (2, "spaced out")


@pytest.mark.parametrize(
    "text",
    [json.dumps([pre_decision("deny")]), json.dumps("deny"), "{not json"],
)
def test_stdout_that_is_not_a_json_object_is_plain_text(project: Project, text: str) -> None:
    fired = project.fire("PreToolUse", PRE_BASH, group(project.answer("p.sh", text)))
    assert (fired.status, fired.outcome["decision"]) == (0, None)
    assert fired.hook("p.sh")["stdout"] == text


@pytest.mark.parametrize(
    ("word", "decision", "status"), [("approve", "allow", 0), ("block", "deny", 2)]
)
def test_deprecated_top_level_decision_on_pretooluse(
    project: Project, word: str, decision: str, status: int
) -> None:
    handler = project.answer("old.sh", {"decision": word, "reason": "legacy"})
    fired = project.fire("PreToolUse", PRE_BASH, group(handler))
    assert (fired.status, fired.outcome["decision"]) == (status, decision)


def test_top_level_permission_decision_does_not_deny(project: Project) -> None:
    # Issue #4669: the decision belongs inside hookSpecificOutput.
    handler = project.answer("top.sh", {"permissionDecision": "deny", "reason": "nope"})
    fired = project.fire("PreToolUse", PRE_BASH, group(handler))
    assert (fired.status, fired.outcome["blocked"], fired.outcome["decision"]) == (0, False, None)


# --- matcher rules --------------------------------------------------------------------------

MATCHERS = [
    "Edit|Write",
    "Edit, Write",
    "Edit ,Write",
    "Edit.*",
    "^Edit$",
    "Bash(",
    "(?i)bash",
    "mcp__memory",
    "mcp__memory__.*",
    "*",
    "",
    "Notebook-Edit",
]

MATCHER_CASES = {
    "Write": {"Edit|Write", "Edit, Write", "Edit ,Write", "*", ""},
    "Edit": {"Edit|Write", "Edit, Write", "Edit ,Write", "Edit.*", "^Edit$", "*", ""},
    "NotebookEdit": {"Edit.*", "*", ""},
    "MultiEdit": {"Edit.*", "*", ""},
    "mcp__memory__create_entities": {"mcp__memory__.*", "*", ""},
    "mcp__memory": {"mcp__memory", "*", ""},
    "Notebook-Edit": {"Notebook-Edit", "Edit.*", "*", ""},
}


def fired_matchers(
    project: Project, event: str, payload: dict[str, Any], matchers: list[str]
) -> set[str]:
    """Fire one group per matcher; the matchers whose hook ran (checked against the groups)."""
    groups = [
        group({"type": "command", "command": f"true #{i}"}, matcher=m)
        for i, m in enumerate(matchers)
    ]
    fired = project.fire(event, {"hook_event_name": event, **payload}, *groups)
    ran = {matchers[int(h["handler"].split("#")[1].rstrip('"'))] for h in fired.hooks}
    assert ran == {matchers[i] for i, g in enumerate(fired.report["groups"]) if g["matched"]}
    return ran


@pytest.mark.parametrize("tool", sorted(MATCHER_CASES))
def test_tool_matchers(project: Project, tool: str) -> None:
    payload = {**PRE_BASH, "tool_name": tool}
    assert fired_matchers(project, "PreToolUse", payload, MATCHERS) == MATCHER_CASES[tool]


@pytest.mark.parametrize(
    ("event", "payload", "matchers", "ran"),
    [
        # a hyphen is an exact-name character: no substring match, anchor to get a regex
        (
            "SubagentStart",
            {"agent_id": "a", "agent_type": "senior-code-reviewer"},
            ["code-reviewer", "^senior-code-reviewer$"],
            {"^senior-code-reviewer$"},
        ),
        # events without matcher support ignore the matcher
        ("Stop", {"stop_hook_active": False}, ["NoSuchThing"], {"NoSuchThing"}),
        ("UserPromptSubmit", {"prompt": "p"}, ["zzz", "^$"], {"zzz", "^$"}),
        # Notification compares notification_type
        (
            "Notification",
            {"message": "m", "notification_type": "idle_prompt"},
            ["permission_prompt", "idle_prompt"],
            {"idle_prompt"},
        ),
        # FileChanged and StopFailure keep the narrow set: "-" makes a regex, "|" lists
        ("FileChanged", {"file_path": "/p/xa-by", "event": "change"}, ["a-b", "xa|yb"], {"a-b"}),
        # FileChanged compares the basename
        (
            "FileChanged",
            {"file_path": "/p/envrc", "event": "change"},
            ["other|envrc", "/p/envrc"],
            {"other|envrc"},
        ),
        (
            "StopFailure",
            {"error": "rate_limit"},
            ["rate-limit", "server_error|rate_limit", "server_error, rate_limit"],
            {"server_error|rate_limit"},
        ),
    ],
)
def test_event_matchers(
    project: Project, event: str, payload: dict[str, Any], matchers: list[str], ran: set[str]
) -> None:
    assert fired_matchers(project, event, payload, matchers) == ran


# --- exec form and shell form -------------------------------------------------------------


def test_exec_form_passes_each_arg_whole_and_exports_the_project_dir(tmp_path: Path) -> None:
    project = Project(tmp_path / "with space")
    printer = project.script(
        "print args.py",
        "#!/usr/bin/env python3\n"
        "import json, os, sys\n"
        "sys.stdin.read()\n"
        "print(json.dumps({'argv': sys.argv[1:], 'dir': os.environ.get('CLAUDE_PROJECT_DIR')}))\n",
    )
    (project.dir / "hooks").mkdir()
    target = project.dir / "hooks" / "print args.py"
    target.write_text(printer.read_text())
    target.chmod(0o755)
    handler = {
        "type": "command",
        "command": "${CLAUDE_PROJECT_DIR}/hooks/print args.py",
        "args": ["${CLAUDE_PROJECT_DIR}/a file.txt", "two words", "$HOME"],
    }
    fired = project.fire("PreToolUse", PRE_BASH, group(handler))
    hook = fired.hook("print args.py")
    assert hook["exitCode"] == 0, hook["stderr"]
    printed = json.loads(hook["stdout"])
    assert printed == {
        "argv": [f"{project.dir}/a file.txt", "two words", "$HOME"],  # no shell: $HOME stays
        "dir": str(project.dir),
    }


def test_shell_form_runs_through_sh_and_substitutes_placeholders(tmp_path: Path) -> None:
    project = Project(tmp_path / "with space")
    handler = {
        "type": "command",
        "command": 'printf "%s|%s|%s" "${CLAUDE_PROJECT_DIR}" "$CLAUDE_PROJECT_DIR" "$0"',
    }
    fired = project.fire("PreToolUse", PRE_BASH, group(handler))
    (hook,) = fired.hooks
    assert hook["stdout"] == f"{project.dir}|{project.dir}|/bin/sh"


# --- Stop ---------------------------------------------------------------------------------

STOP = {
    "session_id": "s",
    "hook_event_name": "Stop",
    "stop_hook_active": True,
    "last_assistant_message": "done",
}


def test_continue_false_stops_claude_with_the_stop_reason(project: Project) -> None:
    handler = project.answer("halt.sh", {"continue": False, "stopReason": "budget spent"})
    fired = project.fire("Stop", STOP, group(handler))
    assert fired.outcome["continue"] is False
    assert fired.outcome["stopReason"] == "budget spent"
    assert fired.outcome["blocked"] is False  # the turn ends: Stop's own action goes ahead
    assert fired.status == 0


# --- UserPromptSubmit and PermissionRequest -----------------------------------------------


def test_user_prompt_submit_block_and_context_from_another_hook(project: Project) -> None:
    payload = {"session_id": "s", "hook_event_name": "UserPromptSubmit", "prompt": "deploy"}
    blocker = project.answer("b.sh", {"decision": "block", "reason": "not on Fridays"})
    context = project.answer(
        "c.sh",
        {
            "hookSpecificOutput": {
                "hookEventName": "UserPromptSubmit",
                "additionalContext": "it is Friday",
            }
        },
    )
    fired = project.fire("UserPromptSubmit", payload, group(blocker, context))
    assert (fired.status, fired.outcome["decision"], fired.outcome["reason"]) == (
        2,
        "block",
        "not on Fridays",
    )
    assert fired.outcome["additionalContext"] == ["it is Friday"]


@pytest.mark.parametrize(("behavior", "status"), [("deny", 2), ("allow", 0)])
def test_permission_request_decision_behavior(project: Project, behavior: str, status: int) -> None:
    payload = {
        "session_id": "s",
        "hook_event_name": "PermissionRequest",
        "tool_name": "Bash",
        "tool_input": {"command": "rm -rf build"},
    }
    decision: dict[str, Any] = {"behavior": behavior}
    if behavior == "deny":
        decision["message"] = "ask a human"
    handler = project.answer(
        "pr.sh",
        {"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": decision}},
    )
    fired = project.fire("PermissionRequest", payload, group(handler, matcher="Bash"))
    assert (fired.status, fired.outcome["decision"]) == (status, behavior)


# --- settings: merge, dedupe, disableAllHooks, managed ------------------------------------


def _layers(project: Project, extra: dict[str, Any] | None = None) -> None:
    shared = {"type": "command", "command": "echo shared"}
    for where, name in (
        (project.home / ".claude/settings.json", "user"),
        (project.dir / ".claude/settings.json", "project"),
        (project.dir / ".claude/settings.local.json", "local"),
    ):
        own = {"type": "command", "command": f"echo {name}"}
        settings: dict[str, Any] = {"hooks": {"PreToolUse": [group(own, shared)]}}
        settings.update((extra or {}).get(name, {}))
        where.write_text(json.dumps(settings))


def test_layers_merge_and_identical_handlers_run_once(project: Project) -> None:
    _layers(project)
    fired = project.fire("PreToolUse", PRE_BASH)
    assert sorted(h["stdout"] for h in fired.hooks) == [
        "local\n",
        "project\n",
        "shared\n",
        "user\n",
    ]


@pytest.mark.parametrize(
    ("flags", "runs"),
    [
        ({"user": True, "project": False}, True),  # project outranks user
        ({"project": False, "local": True}, False),  # local outranks project
        ({"user": True}, False),
    ],
)
def test_disable_all_hooks_follows_settings_precedence(
    project: Project, flags: dict[str, bool], runs: bool
) -> None:
    _layers(project, {name: {"disableAllHooks": flag} for name, flag in flags.items()})
    fired = project.fire("PreToolUse", PRE_BASH)
    assert bool(fired.hooks) is runs


def test_disable_all_hooks_from_the_settings_flag(project: Project) -> None:
    _layers(project, {"local": {"disableAllHooks": False}})
    fired = project.fire("PreToolUse", PRE_BASH, args=("--settings", '{"disableAllHooks": true}'))
    assert fired.hooks == []


# --- bad input: exit 1, one line naming file and path, never a traceback ------------------


@pytest.mark.parametrize(
    ("settings", "where"),
    [
        ([], "holds an array"),
        ({"hooks": []}, "$.hooks"),
        ({"hooks": None}, "$.hooks"),
        (
            {
                "hooks": {
                    "PreToolUse": [{"hooks": [{"type": "command", "command": "x", "timeout": "5"}]}]
                }
            },
            "timeout",
        ),
    ],
)
def test_settings_of_the_wrong_shape(project: Project, settings: Any, where: str) -> None:
    path = project.write_settings("shape.json", settings)
    failed = project.fail("PreToolUse", PRE_BASH, "--settings", str(path), "--strict")
    assert "shape.json" in failed.stderr and where in failed.stderr


@pytest.mark.parametrize("payload", ["not json", "[1, 2]", ""])
def test_a_payload_that_is_not_a_json_object(project: Project, payload: str) -> None:
    failed = project.fail("PreToolUse", payload)
    assert "payload.json" in failed.stderr
    failed = project.fail("PreToolUse", None, stdin=payload)
    assert "stdin" in failed.stderr or "-" in failed.stderr


def test_the_payload_from_stdin(project: Project) -> None:
    handler = project.answer("b.sh", code=2, stderr="stdin works")
    settings = project.write_settings("s.json", {"hooks": {"PreToolUse": [group(handler)]}})
    fired = project.fire(
        "PreToolUse", None, args=("--settings", str(settings)), stdin=json.dumps(PRE_BASH)
    )
    assert (fired.status, fired.outcome["reason"]) == (2, "stdin works")


def test_an_async_hook_runs_but_cannot_block_and_the_report_says_so(project: Project) -> None:
    handler = {
        "type": "command",
        "command": "cat >/dev/null; echo later >&2; exit 2",
        "async": True,
    }
    fired = project.fire("PreToolUse", PRE_BASH, group(handler))
    (hook,) = fired.hooks
    assert (hook["async"], hook["exitCode"], fired.status) == (True, 2, 0)
    explanation = " ".join(fired.outcome["explanation"])
    assert "No hook ran" not in explanation
    assert "1 async hook(s) also ran" in explanation


def test_a_null_matcher_is_not_an_omitted_one(project: Project) -> None:
    handler = project.answer("any.sh", code=2, stderr="fired")
    fired = project.fire("PreToolUse", PRE_BASH, {"matcher": None, "hooks": [handler]})
    assert (fired.status, fired.hooks) == (0, [])
    assert any("$.hooks.PreToolUse[0].matcher" in w for w in fired.report["warnings"])
