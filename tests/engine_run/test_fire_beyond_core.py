"""`fire --json`'s printMode beyond the core, each case named after the oracle scenario
(tests/claude_code/corpus/beyond.json) that shows Claude Code 2.1.332 doing it."""

from __future__ import annotations

import json
from typing import Any

Project = Any


def _hook(event: str, matcher: str | None, command: str, **fields: Any) -> dict[str, Any]:
    group: dict[str, Any] = {"hooks": [{"type": "command", "command": command, **fields}]}
    if matcher is not None:
        group["matcher"] = matcher
    return {"hooks": {event: [group]}}


def _prints(document: dict[str, Any]) -> str:
    return f"echo '{json.dumps(document)}'"


def _skill_line(project: Project, answer: str) -> dict[str, Any]:
    project.hooks("PreSkillShellCommand", {"type": "command", "command": answer})
    payload = project.payload(
        "PreSkillShellCommand",
        tool_name="Bash",
        tool_input={"command": "echo on-main"},
        tool_use_id="toolu_1:preamble-0",
        command_name="status",
        command_source="projectSettings",
        invoked_by="claude",
    )
    mode: dict[str, Any] = project.fire("PreSkillShellCommand", payload).report["printMode"]
    return mode


def test_a_refused_skill_line_is_named_to_the_user_and_the_model(project: Project) -> None:
    """x-skill-deny-two, x-skill-ask, x-skill-updated-input, x-skill-exit1."""
    deny = {
        "hookSpecificOutput": {
            "hookEventName": "PreSkillShellCommand",
            "permissionDecision": "deny",
            "permissionDecisionReason": "no shell here",
        }
    }
    mode = _skill_line(project, _prints(deny))
    assert mode["userNotes"] == [
        "Not run in /status: echo on-main (blocked by hook: no shell here)"
    ]
    assert mode["skillLine"] == "[not run: blocked by hook: no shell here]"
    rewrite = {"hookSpecificOutput": {"hookEventName": "PreSkillShellCommand"}}
    rewrite["hookSpecificOutput"]["updatedInput"] = {"command": "echo other"}
    assert _skill_line(project, _prints(rewrite))["userNotes"] == [
        "Not run in /status: echo on-main "
        "(the hook changed the command, which isn't supported here)"
    ]
    failed = _skill_line(project, "echo crashed >&2; exit 1")
    assert failed["userNotes"] == ["Ran anyway in /status: echo on-main (hook failed: crashed)"]
    assert failed["skillLine"] is None


def test_a_permission_request_deny_with_interrupt_ends_the_run(project: Project) -> None:
    """x-permreq-deny-interrupt; x-permreq-allow-continue-false goes on."""
    answer = {
        "hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "deny", "message": "stop now", "interrupt": True},
        }
    }
    project.hooks("PermissionRequest", {"type": "command", "command": _prints(answer)})
    payload = project.payload(
        "PermissionRequest",
        tool_name="Write",
        tool_input={"file_path": str(project.dir / "q.txt"), "content": "q"},
        permission_suggestions=[],
    )
    mode = project.fire("PermissionRequest", payload).report["printMode"]
    assert (mode["toolRuns"], mode["runStops"], mode["terminalReason"]) == (
        False,
        True,
        "aborted_tools",
    )
    assert mode["toolResult"]["text"].startswith("The user doesn't want to proceed")
    allow = {
        "continue": False,
        "hookSpecificOutput": {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "allow"},
        },
    }
    project.hooks("PermissionRequest", {"type": "command", "command": _prints(allow)})
    mode = project.fire("PermissionRequest", payload).report["printMode"]
    assert (mode["toolRuns"], mode["runStops"]) == (True, False)


def test_a_managed_deny_reaches_the_model_as_a_tool_error(project: Project) -> None:
    """The managed tier's deny is wrapped in <tool_use_error> (issue's blind set)."""
    managed = project.settings(
        _hook("PreToolUse", "Bash", "echo 'no, by policy' >&2; exit 2"), "managed.json"
    )
    fired = project.fire("PreToolUse", project.bash_call("ls"), "--managed-settings", str(managed))
    text = fired.report["printMode"]["toolResult"]["text"]
    assert text.startswith("<tool_use_error>") and text.endswith("</tool_use_error>")
    assert "no, by policy" in text


def test_the_same_command_sync_and_async_runs_once_as_async(project: Project) -> None:
    """x-dup-sync-async."""
    answer = {"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "c"}}
    project.hooks("PostToolUse", {"type": "command", "command": _prints(answer)})
    flag = _hook("PostToolUse", None, _prints(answer), **{"async": True})
    payload = project.payload(
        "PostToolUse",
        tool_name="Bash",
        tool_input={"command": "echo a"},
        tool_use_id="toolu_1",
        tool_response={"stdout": "a", "stderr": "", "interrupted": False, "isImage": False},
    )
    fired = project.fire("PostToolUse", payload, "--settings", json.dumps(flag))
    assert [hook["async"] for hook in fired.hooks] == [True]
    assert fired.report["printMode"]["systemReminders"] == []


def test_the_text_report_says_what_becomes_of_a_refused_skill_line(project: Project) -> None:
    project.hooks("PreSkillShellCommand", {"type": "command", "command": "echo no >&2; exit 2"})
    payload = project.payload(
        "PreSkillShellCommand",
        tool_name="Bash",
        tool_input={"command": "echo hi"},
        tool_use_id="toolu_1:preamble-0",
        command_name="status",
        command_source="projectSettings",
        invoked_by="claude",
    )
    text = project.fire("PreSkillShellCommand", payload, json_out=False).stdout
    assert "the user is shown: Not run in /status: echo hi (blocked by hook: no)" in text
    assert "the skill's text reads instead: [not run: blocked by hook: no]" in text
