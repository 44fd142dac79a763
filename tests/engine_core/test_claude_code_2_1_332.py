"""What Claude Code 2.1.332 does that the 2026-08 reference did not say (pure parts).

Each test names the observation or binary fact it models (shared/reference/
claude-code-2.1.332.md, §14 for observed runs); the differential suite in
tests/claude_code/ checks the same against the binary itself.
"""

from __future__ import annotations

import errno
import socket
from collections.abc import Callable
from typing import Any

from hookcourse.engine.catalogue import get_event
from hookcourse.engine.outcome import Outcome
from hookcourse.engine.permission_rule import CallPlace, parse_rule
from hookcourse.engine.permissions import permission_step, read_only_command, refused_before_hooks
from hookcourse.engine.reading import Classification, HookReading, looks_like_json
from hookcourse.engine.runner import http_failure
from hookcourse.engine.settings import (
    CommandHandler,
    Origin,
    PermissionEntry,
    SettingsSource,
    settings_layer,
)
from hookcourse.engine.tool_input import known_keys_only, normalised, schema_problems
from hookcourse.engine.transcript import print_mode

Read = Callable[..., HookReading]
Merge = Callable[..., Outcome]
BASH = {"tool_name": "Bash", "tool_input": {"command": "git push"}}
PLACE = CallPlace("/p", "/p", "/home/u")


def _pre(outcome: Outcome, **kw: Any) -> Any:
    spec = get_event("PreToolUse")
    assert spec is not None
    return print_mode(spec, BASH, outcome, **kw)


def _deny(specific: Callable[..., dict[str, Any]], reason: str | None) -> dict[str, Any]:
    fields = {"permissionDecision": "deny"}
    if reason is not None:
        fields["permissionDecisionReason"] = reason
    return specific("PreToolUse", **fields)


def test_one_reason_reaches_the_model_the_last_blocking_hook_to_finish(
    read: Read, merge: Merge, specific: Callable[..., dict[str, Any]]
) -> None:
    exit2 = read("PreToolUse", exit_code=2, stderr="no force\n", command="guard.sh")
    deny = read("PreToolUse", stdout=_deny(specific, "json says no"))
    assert _pre(merge("PreToolUse", [deny, exit2])).tool_result.text == (
        "PreToolUse:Bash hook error: [guard.sh]: no force\n"
    )
    assert _pre(merge("PreToolUse", [exit2, deny])).tool_result.text == (
        "PreToolUse:Bash hook error: json says no"
    )


def test_exit_2_with_empty_stderr_and_a_deny_without_reason(
    read: Read, merge: Merge, specific: Callable[..., dict[str, Any]]
) -> None:
    silent = read("PreToolUse", exit_code=2, command="h")
    assert _pre(merge("PreToolUse", [silent])).tool_result.text == (
        "PreToolUse:Bash hook error: [h]: No stderr output"
    )
    bare = read("PreToolUse", stdout=_deny(specific, None))
    assert _pre(merge("PreToolUse", [bare])).tool_result.text == (
        "PreToolUse:Bash hook error: Blocked by hook"
    )


def test_ask_with_nobody_to_ask_gives_the_model_the_reason_as_an_error(
    read: Read, merge: Merge, specific: Callable[..., dict[str, Any]]
) -> None:
    ask = read(
        "PreToolUse",
        stdout=specific("PreToolUse", permissionDecision="ask", permissionDecisionReason="sure?"),
    )
    outcome = merge("PreToolUse", [ask])
    step = permission_step("ask", [], "Bash", BASH["tool_input"], PLACE, "default")
    mode = _pre(outcome, step=step)
    assert mode.tool_runs is False
    assert (mode.tool_result.text, mode.tool_result.is_error) == ("sure?", True)


def test_continue_false_on_pre_tool_use_runs_the_tool_then_stops_the_run(
    read: Read, merge: Merge
) -> None:
    outcome = merge("PreToolUse", [read("PreToolUse", stdout={"continue": False})])
    step = permission_step(None, [], "Bash", {"command": "echo hi"}, PLACE, "default")
    mode = _pre(outcome, step=step)
    assert (mode.tool_runs, mode.run_stops, mode.terminal_reason) == (True, True, "hook_stopped")


def test_additional_context_is_shown_with_the_hook_name_and_system_message_is_not(
    read: Read, merge: Merge, specific: Callable[..., dict[str, Any]]
) -> None:
    stdout = {**specific("PreToolUse", additionalContext="CTX"), "systemMessage": "note"}
    mode = _pre(merge("PreToolUse", [read("PreToolUse", stdout=stdout)]))
    assert mode.system_reminders == ("PreToolUse:Bash hook additional context: CTX",)


def test_a_reasonless_stop_block_continues_with_blocked_by_hook(read: Read, merge: Merge) -> None:
    spec = get_event("Stop")
    assert spec is not None
    outcome = merge("Stop", [read("Stop", stdout={"decision": "block"}, command="s.sh")])
    mode = print_mode(spec, {}, outcome)
    assert mode.turn_continues is True
    assert mode.stop_feedback == "Stop hook feedback:\nBlocked by hook"
    assert 'Stop hook blocking error from command: "s.sh": Blocked by hook' in mode.system_reminders


def test_stop_exit2_feedback_keeps_stderr_as_written(read: Read, merge: Merge) -> None:
    # Recorded sessions (hookcourse/data/sessions): the final newline of stderr stays;
    # checked with none, one and two of them.
    spec = get_event("Stop")
    assert spec is not None
    for stderr in ("not yet", "not yet\n", "not yet\n\n", ""):
        outcome = merge("Stop", [read("Stop", exit_code=2, stderr=stderr, command="s.sh")])
        shown = stderr or "No stderr output"
        feedback = print_mode(spec, {}, outcome).stop_feedback
        assert feedback == f"Stop hook feedback:\n[s.sh]: {shown}"


def test_the_ninth_consecutive_stop_block_is_overridden(read: Read, merge: Merge) -> None:
    block = read("Stop", exit_code=2, stderr="again")
    assert merge("Stop", [block], consecutive_stop_blocks=7).keeps_going
    assert not merge("Stop", [block], consecutive_stop_blocks=8).keeps_going


def test_plain_stdout_on_session_start_is_a_hook_success(read: Read, merge: Merge) -> None:
    spec = get_event("SessionStart")
    assert spec is not None
    outcome = merge("SessionStart", [read("SessionStart", stdout="branch main\n")])
    mode = print_mode(spec, {"source": "startup"}, outcome)
    assert mode.system_reminders == ("SessionStart:startup hook success: branch main",)


def test_json_looking_invalid_output_is_a_hook_error_but_exit_2_still_blocks(read: Read) -> None:
    assert looks_like_json("{broken json}") and not looks_like_json('{"a": 1}\n{"b": 2}')
    assert not looks_like_json("{not closed")
    reading = read("PreToolUse", stdout="{broken json}")
    assert reading.classification is Classification.SCHEMA_ERROR
    assert read("PreToolUse", exit_code=2, stdout="{broken}").decision == "deny"


def test_on_failure_block_turns_a_failure_into_a_block(read: Read) -> None:
    crashed = read(
        "PreToolUse", exit_code=1, stderr="crashed\n", on_failure_block=True, command="h"
    )
    assert crashed.decision == "deny"
    assert crashed.blocking_error == '[h]: failed; blocking because onFailure is "block"\ncrashed'
    timed = read("PreToolUse", timed_out=True, exit_code=None, on_failure_block=True, command="h")
    assert timed.blocking_error == '[h]: timed out; blocking because onFailure is "block"'
    # Ignored on Stop.
    assert read("Stop", exit_code=1, on_failure_block=True).decision is None


def test_a_bare_deny_rule_removes_the_tool(merge: Merge) -> None:
    origin = Origin(SettingsSource.USER, "u.json", ("permissions", "deny", 0))
    entry = PermissionEntry("deny", parse_rule("Bash"), origin)
    removed = refused_before_hooks([entry], "Bash", {"command": "ls"}, PLACE)
    assert removed is not None and removed.rule is entry
    narrow = PermissionEntry("deny", parse_rule("Bash(rm *)"), origin)
    assert refused_before_hooks([narrow], "Bash", {"command": "ls"}, PLACE) is None
    mode = _pre(merge("PreToolUse", []), removed_by=removed)
    assert mode.tool_result.text == (
        "<tool_use_error>Error: No such tool available: Bash. Bash is disabled for this "
        "session, in subagents as well as here.</tool_use_error>"
    )


def test_a_project_allow_rule_needs_a_trusted_folder_and_edit_does_not_cover_write() -> None:
    def rule(source: SettingsSource, text: str) -> PermissionEntry:
        return PermissionEntry("allow", parse_rule(text), Origin(source, "s.json", ()))

    call = {"command": "touch x"}
    project = [rule(SettingsSource.PROJECT, "Bash(touch *)")]
    assert permission_step(None, project, "Bash", call, PLACE, "default").decision == "allow"
    untrusted = permission_step(None, project, "Bash", call, PLACE, "default", trusted=False)
    assert untrusted.decision == "ask"
    user = [rule(SettingsSource.USER, "Bash(touch *)")]
    assert permission_step(None, user, "Bash", call, PLACE, "default", False).decision == "allow"
    write = {"file_path": "/p/a.txt", "content": "x"}
    edit = [rule(SettingsSource.USER, "Edit")]
    assert permission_step(None, edit, "Write", write, PLACE, "default").decision == "ask"


def test_read_only_commands_need_no_rule_inside_the_project() -> None:
    assert read_only_command({"command": "echo pushed; echo err >&2"}, PLACE)
    assert not read_only_command({"command": "ls /"}, PLACE)
    assert not read_only_command({"command": "echo x > f"}, PLACE)
    assert not read_only_command({"command": "touch f"}, PLACE)


def test_edit_input_is_normalised_and_a_rewrite_is_checked_against_the_schema() -> None:
    edit, notes = normalised("Edit", {"file_path": "a", "old_string": "x", "new_string": "y"})
    assert isinstance(edit, dict) and edit["replace_all"] is False and notes
    assert schema_problems("Bash", {"command": "ls"}) == []
    assert schema_problems("Bash", {"cmd": "ls"}) == ["The required parameter `command` is missing"]
    assert schema_problems("Bash", {"command": 3}) == [
        "The parameter `command` type is expected as `string` but provided as `number`"
    ]
    assert known_keys_only("Bash", {"command": "ls", "extra": 1}) == {"command": "ls"}


def test_a_malformed_pre_tool_use_entry_voids_its_whole_file() -> None:
    document = {
        "permissions": {"allow": ["Bash"]},
        "hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "nope"}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "true"}]}],
        },
    }
    events = ["PreToolUse", "Stop"]
    layer = settings_layer(document, SettingsSource.PROJECT, "p.json", events, ["PreToolUse"])
    assert layer.groups == () and layer.permissions == ()
    managed = settings_layer(document, SettingsSource.MANAGED, "m.json", events, ["PreToolUse"])
    assert managed.groups == () and len(managed.permissions) == 1
    elsewhere = settings_layer(document, SettingsSource.PROJECT, "p.json", events, ["Stop"])
    assert len(elsewhere.groups) == 2


def test_a_post_tool_use_context_beside_continue_false_never_reaches_the_model(
    read: Read, merge: Merge, specific: Callable[..., dict[str, Any]]
) -> None:
    # Observed (hidden-post-context-continue-false-one-hook): the run stops before the
    # request that would carry the tool_result and the context.
    stdout = {**specific("PostToolUse", additionalContext="context then stop"), "continue": False}
    spec = get_event("PostToolUse")
    assert spec is not None
    mode = print_mode(spec, BASH, merge("PostToolUse", [read("PostToolUse", stdout=stdout)]))
    assert (mode.run_stops, mode.system_reminders) == (True, ())


def test_an_exec_form_hook_is_named_by_command_and_args_as_configured() -> None:
    origin = Origin(SettingsSource.PROJECT, "settings.json", ())
    handler = CommandHandler(origin=origin, command="sh", args=("${X}/argv", "two words"))
    assert handler.named_by == "sh ${X}/argv two words"
    assert CommandHandler(origin=origin, command="sh ./h").named_by == "sh ./h"


def test_an_http_hook_that_cannot_connect_is_described_in_nodes_words() -> None:
    refused = ConnectionRefusedError(errno.ECONNREFUSED, "Connection refused")
    assert http_failure("http://127.0.0.1:9/hook", refused) == "connect ECONNREFUSED 127.0.0.1:9"
    assert http_failure("https://[::1]/h", refused) == "connect ECONNREFUSED ::1:443"
    lookup = socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    assert http_failure("http://nosuch.invalid/h", lookup) == "getaddrinfo ENOTFOUND nosuch.invalid"
    assert http_failure("http://h/x", ValueError("odd")) == "POST http://h/x failed: odd"
