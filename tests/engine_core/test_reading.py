"""read_hook_result: one hook's run read as its event reads it (reference §3, §5, table 1b)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookcourse.engine.catalogue import EventSpec, Recipient, load_catalogue
from hookcourse.engine.output_schema import stdout_object
from hookcourse.engine.reading import (
    NO_EVALUATOR,
    Classification,
    HookReading,
    HookRun,
    read_hook_result,
)
from hookcourse.js.json import stringify
from hookcourse.js.values import UNDEFINED, js_length

Read = Callable[..., HookReading]
Specific = Callable[..., dict[str, Any]]
DENY = {"permissionDecision": "deny", "permissionDecisionReason": "no force-push"}


# §3a: how stdout is classified ------------------------------------------------------


@pytest.mark.parametrize(
    ("stdout", "is_json"),
    [
        ('{"continue": true}', True),
        ('\n\t  {"continue": true}\n', True),
        ('\u00a0{"continue": true}', True),  # JS trim() removes NBSP too
        ('[{"continue": true}]', False),
        ('"text"', False),
        ('{"continue": true', False),
        ('profile says hi\n{"continue": true}', False),
        ("{'single': 'quotes'}", False),
        ('{"n": NaN}', False),
    ],
)
def test_stdout_is_json_only_when_it_starts_with_a_brace_and_parses_to_an_object(
    stdout: str, is_json: bool
) -> None:
    assert (stdout_object(stdout) is not None) is is_json


def test_plain_stdout_becomes_context_on_session_start(read: Read) -> None:
    reading = read("SessionStart", stdout="Branch: main, 3 files changed\n")
    assert reading.additional_context == "Branch: main, 3 files changed\n"
    assert reading.classification is Classification.SUCCESS


def test_plain_stdout_goes_to_the_debug_log_on_pre_tool_use(read: Read) -> None:
    reading = read("PreToolUse", stdout="checked\n")
    assert reading.additional_context is None
    assert "debug log" in reading.how


def test_a_json_array_on_user_prompt_submit_is_plain_context(read: Read) -> None:
    assert read("UserPromptSubmit", stdout="[1,2]").additional_context == "[1,2]"


# §3a: exit codes -----------------------------------------------------------------------


def test_exit_2_on_pre_tool_use_denies_with_stderr_as_the_reason(read: Read) -> None:
    reading = read("PreToolUse", exit_code=2, stderr="Blocked: no force-push from Claude\n")
    assert reading.classification is Classification.BLOCKING_ERROR
    assert reading.decision == "deny"
    assert reading.reason == "Blocked: no force-push from Claude"
    assert reading.reason_to is Recipient.CLAUDE
    assert reading.notices == ()


def test_exit_2_outranks_a_json_allow(read: Read, specific: Specific) -> None:
    allow = specific("PreToolUse", permissionDecision="allow", permissionDecisionReason="ok")
    reading = read("PreToolUse", exit_code=2, stdout=allow, stderr="refused")
    assert (reading.decision, reading.reason) == ("deny", "refused")
    assert "outranks" in reading.how


def test_exit_2_takes_the_jsons_blocking_reason_over_stderr(read: Read, specific: Specific) -> None:
    reading = read("PreToolUse", exit_code=2, stdout=specific("PreToolUse", **DENY), stderr="x")
    assert (reading.decision, reading.reason) == ("deny", "no force-push")
    stop = read("Stop", exit_code=2, stdout={"decision": "block", "reason": "tests fail"})
    assert (stop.decision, stop.reason) == ("block", "tests fail")


def test_exit_2_with_empty_stderr_still_blocks(read: Read) -> None:
    reading = read("Stop", exit_code=2)
    assert (reading.decision, reading.reason) == ("block", "No stderr output")


def test_json_is_read_on_exit_2_for_the_other_fields(read: Read, specific: Specific) -> None:
    stdout = specific("PreToolUse", additionalContext="policy: no force-push")
    reading = read("PreToolUse", exit_code=2, stdout=stdout, stderr="no")
    assert reading.additional_context == "policy: no force-push"


def test_exit_2_on_a_non_blocking_event_is_a_notice(read: Read) -> None:
    reading = read("SessionStart", exit_code=2, stderr="setup failed\nmore")
    assert reading.decision is None
    assert reading.classification is Classification.NON_BLOCKING_ERROR
    assert reading.notices == ("SessionStart hook error: setup failed",)


def test_exit_2_on_subagent_start_notices_in_the_subagents_transcript(read: Read) -> None:
    notices = read("SubagentStart", exit_code=2, stderr="no").notices
    assert notices == ("SubagentStart hook error (in the subagent's transcript): no",)


@pytest.mark.parametrize("name", ["Notification", "InstructionsLoaded", "StopFailure"])
def test_events_that_ignore_exit_codes_show_nothing(read: Read, name: str) -> None:
    for code in (1, 2, 127):
        reading = read(name, exit_code=code, stderr="boom")
        assert reading.notices == () and reading.decision is None
        assert reading.classification is Classification.SUCCESS


def test_exit_2_on_permission_request_is_not_honoured(read: Read) -> None:
    reading = read("PermissionRequest", exit_code=2, stderr="deny it")
    assert reading.decision is None and reading.notices == ()


def test_exit_2_on_post_tool_use_feeds_claude_but_is_a_block_word(read: Read) -> None:
    reading = read("PostToolUse", exit_code=2, stderr="lint failed")
    assert (reading.decision, reading.reason, reading.reason_to) == (
        "block",
        "lint failed",
        Recipient.CLAUDE,
    )
    assert "can't undo" in reading.how


def test_exit_1_without_json_is_a_non_blocking_error_with_the_first_stderr_line(
    read: Read,
) -> None:
    reading = read("PreToolUse", exit_code=1, stderr="  Traceback (most recent call last):\n  x")
    assert reading.classification is Classification.NON_BLOCKING_ERROR
    assert reading.decision is None
    assert reading.notices == (
        "PreToolUse hook error: Failed with non-blocking status code: Traceback (most recent "
        "call last):",
    )


def test_exit_1_with_no_stderr_says_so(read: Read) -> None:
    assert read("Stop", exit_code=1).notices == (
        "Stop hook error: Failed with non-blocking status code: No stderr output",
    )


def test_exit_1_with_valid_json_lets_the_json_decide_silently(
    read: Read, specific: Specific
) -> None:
    reading = read("PreToolUse", exit_code=1, stdout=specific("PreToolUse", **DENY), stderr="e")
    assert reading.decision == "deny"
    assert reading.classification is Classification.SUCCESS
    assert reading.notices == ()


def test_exit_1_never_blocks_by_itself(read: Read) -> None:
    assert read("PreToolUse", exit_code=1, stderr="policy violated").decision is None


def test_a_process_killed_by_a_signal_is_non_blocking(read: Read) -> None:
    reading = read("PreToolUse", exit_code=None, stderr="")
    assert reading.classification is Classification.NON_BLOCKING_ERROR
    assert reading.decision is None


def test_worktree_remove_failures_go_to_the_debug_log_only(read: Read) -> None:
    reading = read("WorktreeRemove", exit_code=1, stderr="busy")
    assert reading.notices == ()


# §3a: schema ---------------------------------------------------------------------------


def test_valid_json_failing_the_schema_is_a_non_blocking_notice(read: Read) -> None:
    stdout = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "yes"}}
    reading = read("PreToolUse", stdout=stdout)
    assert reading.classification is Classification.SCHEMA_ERROR
    assert reading.decision is None
    assert len(reading.notices) == 1
    assert reading.notices[0].startswith("PreToolUse hook error: JSON validation failed: ")
    assert "permissionDecision must be one of" in reading.notices[0]


def test_schema_failure_with_exit_2_still_blocks_with_stderr(read: Read) -> None:
    stdout = {"decision": "block", "reason": 7}
    reading = read("Stop", exit_code=2, stdout=stdout, stderr="keep going")
    assert (reading.decision, reading.reason) == ("block", "keep going")
    assert reading.classification is Classification.BLOCKING_ERROR
    assert "reason must be a string" in reading.notices[0]


@pytest.mark.parametrize(
    "hook_specific",
    [
        {"permissionDecision": "deny"},
        {"hookEventName": "PostToolUse", "permissionDecision": "deny"},
    ],
)
def test_hook_event_name_must_match_the_event(read: Read, hook_specific: dict[str, Any]) -> None:
    reading = read("PreToolUse", stdout={"hookSpecificOutput": hook_specific})
    assert reading.decision is None
    assert "hookEventName" in reading.notices[0]


def test_true_is_not_1_for_continue(read: Read) -> None:
    reading = read("PreToolUse", stdout='{"continue": 0}')
    assert reading.continue_ is True
    assert "continue must be true or false, got the number 0" in reading.notices[0]


def test_null_is_not_a_string(read: Read) -> None:
    reading = read("Stop", stdout='{"systemMessage": null}')
    assert reading.classification is Classification.SCHEMA_ERROR


def test_top_level_decision_accepts_only_block(read: Read) -> None:
    reading = read("Stop", stdout={"decision": "approve"})
    assert reading.classification is Classification.SCHEMA_ERROR


@pytest.mark.parametrize("name", ["Stop", "SubagentStop"])
def test_a_stop_block_without_a_reason_still_blocks(read: Read, name: str) -> None:
    # Claude Code 2.1.332 continues the turn and the model reads "Blocked by hook".
    for stdout in ({"decision": "block"}, {"decision": "block", "reason": ""}):
        reading = read(name, stdout=stdout)
        assert reading.classification is Classification.SUCCESS
        assert reading.decision == "block" and reading.reason == "Blocked by hook"
    assert read(name, stdout={"decision": "block", "reason": "go on"}).reason == "go on"


# §3a: could not start, timeouts ---------------------------------------------------------


def test_a_hook_that_could_not_start_is_non_blocking(read: Read) -> None:
    reading = read("PreToolUse", start_error="No such file or directory: ./guard.sh")
    assert reading.classification is Classification.COULD_NOT_START
    assert reading.decision is None
    assert reading.notices == (
        "PreToolUse hook error: could not start: No such file or directory: ./guard.sh",
    )


def test_a_timed_out_pre_tool_use_hook_does_not_block_and_its_output_is_discarded(
    read: Read, specific: Specific
) -> None:
    deny = specific("PreToolUse", **DENY)
    reading = read("PreToolUse", exit_code=2, stdout=deny, stderr="no", timed_out=True)
    assert reading.classification is Classification.TIMEOUT
    assert reading.decision is None and reading.reason is None
    assert "discarded" in reading.how


def test_a_handler_type_the_event_does_not_run_never_runs(read: Read) -> None:
    reading = read("SessionStart", handler_type="http", http_status=200, stdout="")
    assert reading.classification is Classification.COULD_NOT_START


# WorktreeCreate ----------------------------------------------------------------------


def test_worktree_create_fails_on_any_non_zero_exit(read: Read) -> None:
    for code in (1, 2, 127):
        reading = read("WorktreeCreate", exit_code=code, stderr="git said no")
        assert (reading.decision, reading.reason) == ("block", "git said no")
        assert reading.classification is Classification.BLOCKING_ERROR
    assert read("WorktreeCreate", start_error="missing").decision == "block"
    assert read("WorktreeCreate", timed_out=True).decision == "block"


def test_worktree_create_path_is_the_last_non_empty_stdout_line(read: Read) -> None:
    reading = read("WorktreeCreate", stdout="Preparing...\n/tmp/wt/dark-mode\n\n  \n")
    assert reading.event_output == {"worktreePath": "/tmp/wt/dark-mode"}


def test_worktree_create_http_returns_the_path_in_json(read: Read, specific: Specific) -> None:
    stdout = specific("WorktreeCreate", worktreePath="/tmp/wt/x")
    reading = read("WorktreeCreate", handler_type="http", http_status=200, stdout=stdout)
    assert reading.event_output == {"worktreePath": "/tmp/wt/x"}


# §3b universal fields and caps -----------------------------------------------------------


def test_continue_false_and_stop_reason_are_read(read: Read) -> None:
    reading = read("PostToolUse", stdout={"continue": False, "stopReason": "build broke"})
    assert (reading.continue_, reading.stop_reason) == (False, "build broke")


@pytest.mark.parametrize("name", ["Notification", "MessageDisplay", "ConfigChange", "PreCompact"])
def test_events_that_discard_system_message_and_continue(read: Read, name: str) -> None:
    reading = read(name, stdout={"systemMessage": "hi", "continue": False})
    assert reading.system_message is None and reading.continue_ is True
    assert f"systemMessage is discarded on {name}" in reading.notes


def test_task_created_discards_continue_but_keeps_system_message(read: Read) -> None:
    reading = read("TaskCreated", stdout={"systemMessage": "hi", "continue": False})
    assert (reading.system_message, reading.continue_) == ("hi", True)


def test_system_message_is_read_where_honoured(read: Read) -> None:
    assert read("PreToolUse", stdout={"systemMessage": "careful"}).system_message == "careful"


def test_suppress_output_is_accepted_with_no_effect(read: Read) -> None:
    reading = read("PostToolUse", stdout={"suppressOutput": True})
    assert reading.classification is Classification.SUCCESS
    assert "suppressOutput is accepted but has no effect now" in reading.notes


def test_additional_context_at_the_cap_is_kept_whole(read: Read, specific: Specific) -> None:
    text = "x" * 10_000
    reading = read("PostToolUse", stdout=specific("PostToolUse", additionalContext=text))
    assert reading.additional_context == text and reading.notes == ()


def test_additional_context_over_the_cap_is_replaced_by_a_preview_and_a_note(
    read: Read, specific: Specific
) -> None:
    text = "y" * 10_001
    reading = read("PostToolUse", stdout=specific("PostToolUse", additionalContext=text))
    assert reading.additional_context is not None
    assert reading.additional_context.startswith("y" * 2000 + "\n[additionalContext cut here")
    assert "would save the full text to a file" in reading.additional_context
    assert any(
        "10,001 characters, over Claude Code's 10,000-character cap" in n for n in reading.notes
    )


def test_the_cap_counts_utf16_code_units_like_javascript(read: Read, specific: Specific) -> None:
    assert js_length("\U0001f600") == 2
    fits = "\U0001f600" * 5000
    over = fits + "a"
    assert read("Stop", stdout=specific("Stop", additionalContext=fits)).additional_context == fits
    assert read("Stop", stdout=specific("Stop", additionalContext=over)).additional_context != over


def test_plain_stdout_and_system_message_are_capped_too(read: Read) -> None:
    long = "z" * 12_000
    assert read("UserPromptSubmit", stdout=long).additional_context != long
    assert read("PreToolUse", stdout={"systemMessage": long}).system_message != long


# PreToolUse ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "to"),
    [("allow", Recipient.USER), ("ask", Recipient.USER), ("deny", Recipient.CLAUDE),
     ("defer", Recipient.NOWHERE)],
)  # fmt: skip
def test_pre_tool_use_permission_decisions(
    read: Read, specific: Specific, word: str, to: Recipient
) -> None:
    stdout = specific("PreToolUse", permissionDecision=word, permissionDecisionReason="why")
    reading = read("PreToolUse", stdout=stdout)
    assert (reading.decision, reading.reason, reading.reason_to) == (word, "why", to)


@pytest.mark.parametrize(("old", "new"), [("approve", "allow"), ("block", "deny")])
def test_deprecated_top_level_decisions_map_to_allow_and_deny(
    read: Read, old: str, new: str
) -> None:
    reading = read("PreToolUse", stdout={"decision": old, "reason": "legacy"})
    assert (reading.decision, reading.reason) == (new, "legacy")
    assert any("deprecated" in note for note in reading.notes)


def test_hook_specific_decision_wins_over_the_deprecated_one(
    read: Read, specific: Specific
) -> None:
    stdout = {**specific("PreToolUse", permissionDecision="ask"), "decision": "approve"}
    assert read("PreToolUse", stdout=stdout).decision == "ask"


def test_updated_input_replaces_the_whole_input(read: Read, specific: Specific) -> None:
    stdout = specific("PreToolUse", permissionDecision="allow", updatedInput={"command": "ls"})
    reading = read("PreToolUse", stdout=stdout)
    assert reading.updated_input == {"command": "ls"}


def test_updated_input_must_be_an_object(read: Read, specific: Specific) -> None:
    reading = read("PreToolUse", stdout=specific("PreToolUse", updatedInput="ls"))
    assert reading.classification is Classification.SCHEMA_ERROR
    assert reading.updated_input is UNDEFINED


def test_a_top_level_permission_decision_is_ignored(read: Read) -> None:
    # Issue #4669: the reporter put permissionDecision at the top level.
    reading = read("PreToolUse", stdout={"permissionDecision": "deny"})
    assert reading.decision is None
    assert "permissionDecision means nothing on PreToolUse and is ignored" in reading.notes


# PostToolUse, Stop, UserPromptSubmit, PermissionRequest, the rest ------------------------


def test_post_tool_use_block_reason_updated_output_and_context(
    read: Read, specific: Specific
) -> None:
    stdout = {
        "decision": "block",
        "reason": "prettier failed",
        **specific("PostToolUse", additionalContext="lint ok", updatedToolOutput={"ok": False}),
    }
    reading = read("PostToolUse", stdout=stdout)
    assert (reading.decision, reading.reason) == ("block", "prettier failed")
    assert reading.additional_context == "lint ok"
    assert reading.updated_tool_output == {"ok": False}


def test_user_prompt_submit_block_goes_to_the_user(read: Read) -> None:
    reading = read("UserPromptSubmit", stdout={"decision": "block", "reason": "no secrets"})
    assert (reading.decision, reading.reason_to) == ("block", Recipient.USER)


def test_user_prompt_submit_cannot_rewrite_the_prompt(read: Read, specific: Specific) -> None:
    stdout = specific("UserPromptSubmit", updatedInput={"prompt": "other"}, prompt="other")
    reading = read("UserPromptSubmit", stdout=stdout)
    assert reading.updated_input is UNDEFINED
    assert reading.event_output == {}
    assert "hookSpecificOutput.updatedInput means nothing on UserPromptSubmit and is ignored" in (
        reading.notes
    )


def test_permission_request_allow_carries_updated_input(read: Read, specific: Specific) -> None:
    decision = {"behavior": "allow", "updatedInput": {"command": "npm ci"}}
    reading = read("PermissionRequest", stdout=specific("PermissionRequest", decision=decision))
    assert reading.decision == "allow"
    assert reading.updated_input == {"command": "npm ci"}


def test_permission_request_deny_ignores_updated_input_and_reads_message(
    read: Read, specific: Specific
) -> None:
    decision = {"behavior": "deny", "message": "not here", "interrupt": True,
                "updatedInput": {"command": "x"}}  # fmt: skip
    reading = read("PermissionRequest", stdout=specific("PermissionRequest", decision=decision))
    assert (reading.decision, reading.reason) == ("deny", "not here")
    assert reading.updated_input is UNDEFINED
    assert reading.event_output == {"interrupt": True}


def test_permission_denied_retry_is_read(read: Read, specific: Specific) -> None:
    reading = read("PermissionDenied", stdout=specific("PermissionDenied", retry=True))
    assert reading.event_output == {"retry": True} and reading.decision is None


def test_elicitation_exit_2_declines_and_ignores_hook_specific_output(
    read: Read, specific: Specific
) -> None:
    accept = specific("Elicitation", action="accept", content={"repository": "a/b"})
    reading = read("Elicitation", exit_code=2, stdout=accept)
    assert reading.decision == "decline"
    assert reading.event_output == {}
    assert read("Elicitation", stdout=accept).decision == "accept"


def test_json_discarded_on_session_end(read: Read) -> None:
    reading = read("SessionEnd", stdout={"systemMessage": "bye", "continue": False})
    assert reading.system_message is None and reading.continue_ is True


def test_message_display_reads_display_content(read: Read, specific: Specific) -> None:
    reading = read("MessageDisplay", stdout=specific("MessageDisplay", displayContent="**hi**"))
    assert reading.event_output == {"displayContent": "**hi**"}


def test_stop_failure_honours_only_terminal_sequence(read: Read) -> None:
    reading = read("StopFailure", stdout={"terminalSequence": "\u0007", "systemMessage": "x"})
    assert reading.event_output == {"terminalSequence": "\u0007"}
    assert reading.system_message is None


# HTTP hooks -----------------------------------------------------------------------------


def test_http_2xx_with_an_empty_body_is_success(read: Read) -> None:
    reading = read("PreToolUse", handler_type="http", http_status=204, stdout="")
    assert reading.classification is Classification.SUCCESS


def test_http_2xx_with_json_is_read_like_stdout(read: Read, specific: Specific) -> None:
    stdout = specific("PreToolUse", **DENY)
    assert read("PreToolUse", handler_type="http", http_status=200, stdout=stdout).decision == (
        "deny"
    )


@pytest.mark.parametrize(("status", "body"), [(403, ""), (500, '{"decision":"block"}'),
                                              (200, "denied"), (None, "")])  # fmt: skip
def test_http_status_alone_cannot_block(read: Read, status: int | None, body: str) -> None:
    reading = read("Stop", handler_type="http", http_status=status, stdout=body)
    assert reading.decision is None
    assert reading.classification is Classification.NON_BLOCKING_ERROR
    assert reading.notices


# §5 prompt and agent evaluators ----------------------------------------------------------


def test_a_missing_evaluator_is_a_plain_notice_never_an_answer(read: Read) -> None:
    reading = read("Stop", handler_type="prompt", evaluator_missing=True)
    assert reading.decision is None
    assert reading.notices == (f"Stop hook error: {NO_EVALUATOR}",)
    assert NO_EVALUATOR == "no evaluator configured; no model was asked"


def test_evaluator_ok_false_on_stop_is_the_next_instruction(read: Read) -> None:
    answer = {"ok": False, "reason": "Run the tests first"}
    reading = read("Stop", handler_type="prompt", evaluator=answer)
    assert (reading.decision, reading.reason, reading.reason_to) == (
        "block",
        "Run the tests first",
        Recipient.CLAUDE,
    )


def test_evaluator_ok_true_allows(read: Read) -> None:
    assert read("Stop", handler_type="agent", evaluator={"ok": True}).decision is None


def test_evaluator_ok_false_on_pre_tool_use_denies_and_ends_the_turn(read: Read) -> None:
    answer = {"ok": False, "reason": "touches prod"}
    prompt = read("PreToolUse", handler_type="prompt", evaluator=answer)
    assert (prompt.decision, prompt.continue_) == ("deny", False)
    kept = read("PreToolUse", handler_type="prompt", evaluator=answer, continue_on_block=True)
    assert (kept.decision, kept.continue_) == ("deny", True)
    agent = read("PreToolUse", handler_type="agent", evaluator=answer)
    assert (agent.decision, agent.continue_) == ("deny", True)


@pytest.mark.parametrize("name", ["PermissionRequest", "PermissionDenied"])
def test_evaluator_ok_false_has_no_effect_on_permission_events(read: Read, name: str) -> None:
    reading = read(name, handler_type="prompt", evaluator={"ok": False, "reason": "no"})
    assert reading.decision is None and reading.continue_ is True


def test_impossible_is_honoured_only_by_prompt_hooks_on_stop_events(read: Read) -> None:
    answer = {"ok": False, "reason": "cannot be done", "impossible": True}
    assert read("Stop", handler_type="prompt", evaluator=answer).decision is None
    assert read("SubagentStop", handler_type="prompt", evaluator=answer).decision is None
    assert read("Stop", handler_type="agent", evaluator=answer).decision == "block"
    assert read("UserPromptSubmit", handler_type="prompt", evaluator=answer).decision == "block"


@pytest.mark.parametrize(
    "answer", [{}, {"ok": "false"}, {"ok": False}, {"ok": False, "reason": ""},
               {"ok": True, "impossible": "yes"}],
)  # fmt: skip
def test_a_malformed_evaluator_answer_is_a_schema_error(read: Read, answer: dict[str, Any]) -> None:
    reading = read("Stop", handler_type="prompt", evaluator=answer)
    assert reading.classification is Classification.SCHEMA_ERROR
    assert reading.decision is None


# totality --------------------------------------------------------------------------------

_json_values = st.recursive(
    st.none() | st.booleans() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
_keys = st.sampled_from(
    ["decision", "reason", "continue", "stopReason", "systemMessage", "suppressOutput",
     "hookSpecificOutput", "permissionDecision", "hookEventName", "updatedInput", "action",
     "behavior", "additionalContext"]
)  # fmt: skip
_documents = st.recursive(
    st.dictionaries(_keys, _json_values, max_size=4),
    lambda inner: st.dictionaries(_keys, inner | _json_values, max_size=4),
    max_leaves=6,
)
_events = st.sampled_from(list(load_catalogue().values()))


@settings(max_examples=300, deadline=None)
@given(
    spec=_events,
    handler=st.sampled_from(["command", "http", "mcp_tool", "prompt", "agent"]),
    code=st.none() | st.integers(-5, 300),
    stdout=st.text(max_size=20) | _documents.map(stringify),
    stderr=st.text(max_size=20),
    status=st.none() | st.integers(100, 599),
    evaluator=st.none()
    | st.dictionaries(st.sampled_from(["ok", "reason", "impossible"]), _json_values),
    flags=st.tuples(st.booleans(), st.booleans(), st.booleans()),
)
def test_reading_is_total(
    spec: EventSpec,
    handler: str,
    code: int | None,
    stdout: str,
    stderr: str,
    status: int | None,
    evaluator: dict[str, Any] | None,
    flags: tuple[bool, bool, bool],
) -> None:
    timed_out, missing, cob = flags
    run = HookRun(handler, code, stdout, stderr, timed_out, None, status, evaluator, missing, cob)
    reading = read_hook_result(spec, run)
    stringify(reading.to_json())
    assert reading.how
    if reading.decision is not None:
        assert reading.decision in {*spec.precedence, *spec.blocking_decisions}


def test_reading_to_json_keeps_any_updated_tool_output_and_nulls_absent_ones(
    read: Read, specific: Specific
) -> None:
    stdout = specific("PostToolUse", updatedToolOutput=["line 1", "line 2"])
    document = read("PostToolUse", stdout=stdout).to_json()
    assert document["updatedToolOutput"] == ["line 1", "line 2"]
    assert document["updatedInput"] is None
    assert document["classification"] == "success"
