"""Session-level facts of 2.1.332 that ``fire`` models (each seen by the oracle, scenario named)."""

from __future__ import annotations

import json
from typing import Any

Project = Any
MODE_HOOK = """
tr -d '\\n' | sed -n 's/.*"permission_mode": *"\\([^"]*\\)".*/MODE=\\1/p' >&2
exit 0
"""


def _write_call(project: Project, **fields: Any) -> Any:
    document = {
        "session_id": "s",
        "transcript_path": str(project.scratch / "t.jsonl"),
        "cwd": str(project.dir),
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": str(project.dir / "out.txt"), "content": "hi\n"},
        "tool_use_id": "toolu_1",
        **fields,
    }
    path = project.scratch / "write.json"
    path.write_text(json.dumps(document))
    return path


def _mode_settings(project: Project, mode: str) -> None:
    project.script("mode.sh", MODE_HOOK)
    handler = {"type": "command", "command": str(project.dir / ".claude/hooks/mode.sh")}
    project.settings(
        {
            "permissions": {"defaultMode": mode},
            "hooks": {"PreToolUse": [{"matcher": "Write", "hooks": [handler]}]},
        },
        "user",
    )


def test_the_settings_default_mode_is_the_sessions_mode(project: Project) -> None:
    """mode-default-user: hooks are sent defaultMode, and the permission step applies it."""
    _mode_settings(project, "acceptEdits")
    fired = project.fire("PreToolUse", _write_call(project))
    (hook,) = fired.hooks
    assert hook["stderr"] == "MODE=acceptEdits"
    assert fired.report["printMode"]["toolRuns"] is True


def test_a_flag_or_a_stated_mode_beats_default_mode(project: Project) -> None:
    """mode-flag-beats-default-mode."""
    _mode_settings(project, "acceptEdits")
    flagged = project.fire("PreToolUse", _write_call(project), "--permission-mode", "default")
    assert flagged.hooks[0]["stderr"] == "MODE=default"
    assert flagged.report["printMode"]["toolRuns"] is False
    stated = project.fire("PreToolUse", _write_call(project, permission_mode="default"))
    assert stated.report["printMode"]["toolRuns"] is False


def test_plan_mode_refuses_a_write_in_its_own_words(project: Project) -> None:
    """mode-plan-edit, mode-default-local-beats-user."""
    fired = project.fire("PreToolUse", _write_call(project), "--permission-mode", "plan")
    result = fired.report["printMode"]["toolResult"]
    assert result == {
        "text": f"Cannot write to {project.dir / 'out.txt'} while in plan mode.",
        "isError": True,
    }


def _start(project: Project, output: dict[str, Any], json_out: bool = True) -> Any:
    project.script("start.sh", f"printf '%s\\n' '{json.dumps(output)}'")
    handler = {"type": "command", "command": str(project.dir / ".claude/hooks/start.sh")}
    project.hooks("SessionStart", handler)
    return project.fire(
        "SessionStart", project.payload("SessionStart", source="startup"), json_out=json_out
    )


def test_session_start_system_message_is_shown_nowhere_in_print_mode(project: Project) -> None:
    """start-system-message."""
    fired = _start(project, {"systemMessage": "START-MSG"})
    assert fired.outcome["systemMessages"] == ["START-MSG"]
    assert fired.report["printMode"]["notices"] == []
    text = _start(project, {"systemMessage": "START-MSG"}, json_out=False).stdout
    assert "the systemMessage is shown nowhere" in text


def test_initial_user_message_is_a_user_turn_of_its_own(project: Project) -> None:
    """start-initial-user-message, start-initial-user-message-turns."""
    output = {"hookSpecificOutput": {"hookEventName": "SessionStart", "initialUserMessage": "HI"}}
    fired = _start(project, output)
    assert fired.report["printMode"]["userTurns"] == ["HI"]
    assert (
        "answered before the prompt (one more request): HI"
        in _start(project, output, json_out=False).stdout
    )


def test_shell_bash_is_ignored_and_exit_127_is_said_plainly(project: Project) -> None:
    """handler-shell-bash-syntax: /bin/sh cannot run `[[`, the script never starts."""
    project.hooks(
        "PreToolUse",
        {"type": "command", "shell": "bash", "command": "[[ -n x ]] && echo ran"},
        matcher="Bash",
    )
    fired = project.fire("PreToolUse", project.bash_call("ls"))
    (hook,) = fired.hooks
    assert hook["argv"][:2] == ["/bin/sh", "-c"] and hook["exitCode"] == 127
    assert any('shell "bash" is ignored' in note for note in hook["notes"])
    assert any(
        note.startswith("exit 127: the shell found no such command") for note in hook["notes"]
    )
    assert fired.report["printMode"]["toolRuns"] is True


def test_a_permission_request_hook_answers_the_dialog(project: Project) -> None:
    """permreq-write-no-rule, permreq-allow, permreq-deny-no-message."""
    asked = project.fire("PreToolUse", _write_call(project))
    assert asked.report["printMode"]["permissionRequest"] is True
    for decision, runs, text in (
        ({"behavior": "allow"}, True, None),
        ({"behavior": "deny"}, False, "Permission denied by hook"),
    ):
        output = {
            "hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": decision}
        }
        project.script("answer.sh", f"printf '%s\\n' '{json.dumps(output)}'")
        handler = {"type": "command", "command": str(project.dir / ".claude/hooks/answer.sh")}
        project.hooks("PermissionRequest", handler)
        payload = project.payload(
            "PermissionRequest", tool_name="Write", tool_input={"file_path": "x", "content": ""}
        )
        mode = project.fire("PermissionRequest", payload).report["printMode"]
        assert mode["toolRuns"] is runs
        assert (mode["toolResult"] or {}).get("text") == text


def test_contexts_are_joined_only_on_pre_tool_use_and_session_start(project: Project) -> None:
    """b-post-two-contexts, b-several-ups-contexts-order, settings-all-scopes."""
    for name, text in (("a.sh", "CTX-A"), ("b.sh", "CTX-B")):
        out = {
            "hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": text}
        }
        project.script(name, f"printf '%s\\n' '{json.dumps(out)}'")
    handlers = [
        {"type": "command", "command": str(project.dir / ".claude/hooks" / name)}
        for name in ("a.sh", "b.sh")
    ]
    project.hooks("UserPromptSubmit", *handlers)
    fired = project.fire("UserPromptSubmit", project.payload("UserPromptSubmit", prompt="p"))
    assert sorted(fired.report["printMode"]["systemReminders"]) == [
        "UserPromptSubmit hook additional context: CTX-A",
        "UserPromptSubmit hook additional context: CTX-B",
    ]


def test_a_stopped_prompt_is_shown_with_the_original_prompt(project: Project) -> None:
    """ups-exit2, ups-block, b-on-failure-block-ups."""
    project.script("no.sh", "printf 'refused\\n' >&2; exit 2")
    project.hooks(
        "UserPromptSubmit", {"type": "command", "command": str(project.dir / ".claude/hooks/no.sh")}
    )
    fired = project.fire("UserPromptSubmit", project.payload("UserPromptSubmit", prompt="hello"))
    command = str(project.dir / ".claude/hooks/no.sh")
    assert fired.report["printMode"]["userMessage"] == (
        f"UserPromptSubmit operation blocked by hook:\n[{command}]: refused\n\n\n"
        "Original prompt: hello"
    )


def test_a_running_call_says_what_it_sets_off(project: Project) -> None:
    """hidden-cd-subdir: printMode.whenRun."""
    (project.dir / "sub").mkdir()
    fired = project.fire("PreToolUse", project.bash_call("cd sub"))
    when_run = fired.report["printMode"]["whenRun"]
    assert when_run["cwd"] == str(project.dir / "sub")
    assert [e["event"] for e in when_run["events"]] == ["CwdChanged"]


def test_a_launched_skill_registers_its_frontmatter_hooks(project: Project) -> None:
    """hidden-skill-frontmatter-hooks: fire --skill runs the skill's own PreToolUse hook."""
    skill = project.dir / ".claude" / "skills" / "guard" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(
        "---\nname: guard\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n"
        "        - type: command\n          command: \"echo 'guarded' >&2; exit 2\"\n"
        "---\nBe careful.\n"
    )
    call = project.bash_call("echo hi")
    assert project.fire("PreToolUse", call).hooks == []
    fired = project.fire("PreToolUse", call, "--skill", "guard", "--skill", "missing")
    (hook,) = fired.hooks
    assert hook["source"] == "skill" and fired.outcome["blocked"] is True
