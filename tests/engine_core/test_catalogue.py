"""The event catalogue matches the reference's tables 1a/1b, §4 and §5."""

from __future__ import annotations

import pytest

from hookcourse.engine.catalogue import (
    describe_event,
    describe_events,
    get_event,
    load_catalogue,
)

# Table 1a of the 2026-08 reference, in its order.
REFERENCE_EVENTS = [
    "SessionStart", "Setup", "InstructionsLoaded", "UserPromptSubmit", "UserPromptExpansion",
    "MessageDisplay", "PreToolUse", "PermissionRequest", "PermissionDenied", "PostToolUse",
    "PostToolUseFailure", "PostToolBatch", "Notification", "SubagentStart", "SubagentStop",
    "TaskCreated", "TaskCompleted", "Stop", "StopFailure", "TeammateIdle", "ConfigChange",
    "CwdChanged", "DirectoryAdded", "FileChanged", "WorktreeCreate", "WorktreeRemove",
    "PreCompact", "PostCompact", "Elicitation", "ElicitationResult", "SessionEnd",
]  # fmt: skip
# Added after the reference, from the 2.1.332 binary (its §1.1): 34 events in all.
NEW_IN_2_1_332 = ["PreModelSwitch", "PostModelSwitch", "PreSkillShellCommand"]

ALL_FIVE = ("command", "http", "mcp_tool", "prompt", "agent")


def test_the_catalogue_has_the_34_events_of_2_1_332_reference_order_first() -> None:
    assert list(load_catalogue()) == REFERENCE_EVENTS + NEW_IN_2_1_332


def test_every_event_records_the_version_it_was_checked_against() -> None:
    assert {spec.checked_against for spec in load_catalogue().values()} == {"2.1.332"}


def test_if_is_evaluated_on_six_events() -> None:
    evaluated = {name for name, spec in load_catalogue().items() if spec.if_condition}
    assert evaluated == {
        "PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest",
        "PermissionDenied", "PreSkillShellCommand",
    }  # fmt: skip


def test_get_event_is_exact_and_case_sensitive() -> None:
    spec = get_event("PreToolUse")
    assert spec is not None and spec.name == "PreToolUse"
    assert get_event("pretooluse") is None
    assert get_event("BeforeTool") is None


def test_events_without_matcher_support_are_the_ten_of_section_4() -> None:
    without = {name for name, spec in load_catalogue().items() if spec.matcher_field is None}
    assert without == {
        "UserPromptSubmit", "PostToolBatch", "Stop", "TeammateIdle", "TaskCreated",
        "TaskCompleted", "WorktreeCreate", "WorktreeRemove", "MessageDisplay", "CwdChanged",
    }  # fmt: skip


def test_matcher_fields_follow_table_1a() -> None:
    fields = {name: spec.matcher_field for name, spec in load_catalogue().items()}
    assert fields["PreToolUse"] == fields["PermissionDenied"] == "tool_name"
    assert fields["SessionStart"] == fields["ConfigChange"] == "source"
    assert fields["Notification"] == "notification_type"
    assert fields["StopFailure"] == "error"
    assert fields["UserPromptExpansion"] == "command_name"
    assert fields["Elicitation"] == "mcp_server_name"
    assert "fork" in load_catalogue()["SessionStart"].matcher_values
    assert load_catalogue()["FileChanged"].matcher_compares_basename


def test_only_filechanged_and_stopfailure_use_the_narrow_exact_set() -> None:
    narrow = {name for name, spec in load_catalogue().items() if spec.narrow_exact}
    assert narrow == {"FileChanged", "StopFailure"}


def test_the_if_field_applies_on_exactly_the_five_tool_events() -> None:
    tool = {name for name, spec in load_catalogue().items() if spec.is_tool_event}
    assert tool == {
        "PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied"
    }  # fmt: skip


def test_handler_types_follow_section_5() -> None:
    catalogue = load_catalogue()
    all_five = {name for name, spec in catalogue.items() if spec.handler_types == ALL_FIVE}
    assert all_five == {
        "PermissionDenied", "PostToolBatch", "PostToolUse",
        "PostToolUseFailure", "PreToolUse", "Stop", "SubagentStop", "TaskCompleted",
        "TaskCreated", "TeammateIdle", "UserPromptExpansion", "UserPromptSubmit",
    }  # fmt: skip
    assert catalogue["SessionStart"].handler_types == ("command", "mcp_tool")
    assert catalogue["Setup"].handler_types == ("command", "mcp_tool")
    # 2.1.332 §6.6: "agent-type hooks are not supported for PermissionRequest events".
    assert catalogue["PermissionRequest"].handler_types == ("command", "http", "mcp_tool", "prompt")
    rest = set(catalogue) - all_five - {"SessionStart", "Setup", "PermissionRequest"}
    assert {catalogue[name].handler_types for name in rest} == {("command", "http", "mcp_tool")}


def test_an_evaluator_rule_exists_exactly_where_prompt_hooks_run() -> None:
    for spec in load_catalogue().values():
        assert (spec.evaluator is not None) == ("prompt" in spec.handler_types), spec.name


def test_default_timeouts() -> None:
    catalogue = load_catalogue()
    pre = catalogue["PreToolUse"]
    assert [pre.default_timeout_s(t) for t in ALL_FIVE] == [600, 600, 600, 30, 60]
    assert catalogue["UserPromptSubmit"].default_timeout_s("command") == 30
    assert catalogue["UserPromptSubmit"].default_timeout_s("prompt") == 30
    assert catalogue["MessageDisplay"].default_timeout_s("command") == 10
    assert catalogue["MessageDisplay"].default_timeout_s("http") == 600


def test_session_end_hooks_share_a_budget_of_1_5_s_raised_up_to_60_s() -> None:
    end = load_catalogue()["SessionEnd"]
    assert end.default_timeout_s("command") == 1.5
    assert end.shared_budget_for([]) == 1.5
    assert end.shared_budget_for([1, 5]) == 5
    assert end.shared_budget_for([120]) == 60
    assert load_catalogue()["Stop"].shared_budget_for([120]) is None


def test_a_handler_type_the_event_does_not_run_has_no_timeout() -> None:
    with pytest.raises(ValueError, match="SessionStart does not run 'http' hooks"):
        load_catalogue()["SessionStart"].default_timeout_s("http")


def test_exit_2_blocks_where_table_1b_says_it_can() -> None:
    blocking = {n for n, s in load_catalogue().items() if s.can_block and s.exit2_decision}
    assert blocking == {
        "UserPromptSubmit", "UserPromptExpansion", "PreToolUse", "PostToolBatch", "SubagentStop",
        "TaskCreated", "TaskCompleted", "Stop", "TeammateIdle", "ConfigChange", "WorktreeCreate",
        "PreCompact", "Elicitation", "ElicitationResult", "PreModelSwitch", "PreSkillShellCommand",
    }  # fmt: skip
    assert load_catalogue()["PermissionRequest"].exit2_decision is None


def test_plain_stdout_becomes_context_only_on_four_events() -> None:
    context = {n for n, s in load_catalogue().items() if s.plain_stdout_is_context}
    assert context == {"SessionStart", "UserPromptSubmit", "UserPromptExpansion", "PostModelSwitch"}


def test_describe_event_names_the_rules_a_user_looks_up() -> None:
    text = describe_event(load_catalogue()["PreToolUse"])
    assert text.startswith("PreToolUse: ")
    assert "tool_name" in text
    assert "Blocks the tool call" in text
    assert "deny > defer > ask > allow" in text
    assert "approve -> allow" in text
    stop = describe_event(load_catalogue()["Stop"])
    assert "silently ignored" in stop and 'without one: "Blocked by hook"' in stop


def test_describe_events_is_one_row_per_event_under_a_heading() -> None:
    lines = describe_events(load_catalogue().values()).splitlines()
    assert len(lines) == 35
    assert lines[0].split()[:3] == ["event", "matcher", "field"]
    assert [line.split()[0] for line in lines[1:]] == REFERENCE_EVENTS + NEW_IN_2_1_332
