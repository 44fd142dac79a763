"""merge_readings: several hooks' readings combined as Claude Code combines them (§7b)."""

from __future__ import annotations

from collections.abc import Callable
from itertools import permutations
from typing import Any

import pytest

from hookcourse.engine.outcome import Outcome
from hookcourse.engine.reading import HookReading
from hookcourse.js.json import parse, stringify

Read = Callable[..., HookReading]
Merge = Callable[..., Outcome]
Specific = Callable[..., dict[str, Any]]


def _decides(read: Read, specific: Specific, word: str, label: str = "") -> HookReading:
    stdout = specific("PreToolUse", permissionDecision=word, permissionDecisionReason=f"{word}!")
    return read("PreToolUse", stdout=stdout, label=label or word)


def test_no_hooks_means_the_action_goes_ahead(merge: Merge) -> None:
    outcome = merge("PreToolUse", [])
    assert not outcome.blocked and outcome.decision is None
    assert outcome.to_json()["updatedInput"] is None


@pytest.mark.parametrize(
    ("words", "winner"),
    [(("allow", "ask"), "ask"), (("ask", "defer"), "defer"), (("defer", "deny"), "deny"),
     (("allow", "ask", "defer", "deny"), "deny"), (("allow", "allow"), "allow")],
)  # fmt: skip
def test_pre_tool_use_precedence_is_deny_defer_ask_allow_in_any_finish_order(
    read: Read, merge: Merge, specific: Specific, words: tuple[str, ...], winner: str
) -> None:
    for order in permutations(words):
        outcome = merge("PreToolUse", [_decides(read, specific, w) for w in order])
        assert outcome.decision == winner
        # Claude Code 2.1.332 keeps one reason: the last winning hook's to finish.
        assert outcome.reason == f"{winner}!"
        assert outcome.blocked is (winner == "deny")


def test_disagreeing_decisions_are_reported_as_a_conflict(
    read: Read, merge: Merge, specific: Specific
) -> None:
    outcome = merge("PreToolUse", [_decides(read, specific, w) for w in ("allow", "deny")])
    assert len(outcome.conflicts) == 1
    assert '"deny" wins (deny > defer > ask > allow)' in outcome.conflicts[0]


def test_exit_2_counts_as_deny_and_beats_an_allow(
    read: Read, merge: Merge, specific: Specific
) -> None:
    guard = read("PreToolUse", exit_code=2, stderr="Blocked: no force-push from Claude")
    outcome = merge("PreToolUse", [_decides(read, specific, "allow"), guard])
    assert outcome.blocked and outcome.decision == "deny"
    assert outcome.reason == "Blocked: no force-push from Claude"


def test_every_additional_context_is_kept_in_finish_order(
    read: Read, merge: Merge, specific: Specific
) -> None:
    readings = [
        read("PostToolUse", stdout=specific("PostToolUse", additionalContext=text))
        for text in ("lint passed", "types passed", "tests passed")
    ]
    readings.insert(1, read("PostToolUse", stdout=""))
    outcome = merge("PostToolUse", readings)
    assert outcome.additional_context == ["lint passed", "types passed", "tests passed"]


def test_the_last_updated_input_to_finish_wins_and_the_conflict_is_reported(
    read: Read, merge: Merge, specific: Specific
) -> None:
    def rewrite(command: str) -> HookReading:
        stdout = specific(
            "PreToolUse", permissionDecision="allow", updatedInput={"command": command}
        )
        return read("PreToolUse", stdout=stdout, label=f"to-{command}")

    outcome = merge("PreToolUse", [rewrite("ls"), rewrite("pwd")])
    assert outcome.updated_input == {"command": "pwd"}
    assert len(outcome.conflicts) == 1
    assert "hook #1 (to-ls) and hook #2 (to-pwd)" in outcome.conflicts[0]
    assert "last to finish (hook #2 (to-pwd)) wins" in outcome.conflicts[0]
    assert merge("PreToolUse", [rewrite("pwd"), rewrite("ls")]).updated_input == {"command": "ls"}


def test_a_blocked_call_drops_updated_input(read: Read, merge: Merge, specific: Specific) -> None:
    stdout = specific("PreToolUse", permissionDecision="allow", updatedInput={"command": "ls"})
    outcome = merge(
        "PreToolUse", [read("PreToolUse", stdout=stdout), _decides(read, specific, "deny")]
    )
    assert outcome.blocked
    assert outcome.to_json()["updatedInput"] is None


def test_continue_false_beside_an_allow_lets_the_tool_run_then_stops(
    read: Read, merge: Merge, specific: Specific
) -> None:
    stopper = read("PreToolUse", stdout={"continue": False, "stopReason": "quota reached"})
    outcome = merge("PreToolUse", [_decides(read, specific, "allow"), stopper])
    assert not outcome.blocked and not outcome.continue_ and outcome.run_stops
    assert outcome.stop_reason == "quota reached"
    assert outcome.decision == "allow"
    assert outcome.explanation[-1] == "Outcome: the action goes ahead, then Claude stops."


def test_continue_false_on_user_prompt_submit_still_blocks(read: Read, merge: Merge) -> None:
    halt = read("UserPromptSubmit", stdout={"continue": False})
    outcome = merge("UserPromptSubmit", [halt])
    assert outcome.blocked and outcome.run_stops


def test_continue_false_is_ignored_where_the_event_discards_it(read: Read, merge: Merge) -> None:
    outcome = merge("Notification", [read("Notification", stdout={"continue": False})])
    assert not outcome.blocked and outcome.continue_


def test_post_tool_use_block_cannot_stop_the_call(read: Read, merge: Merge) -> None:
    outcome = merge(
        "PostToolUse", [read("PostToolUse", stdout={"decision": "block", "reason": "r"})]
    )
    assert outcome.decision == "block" and not outcome.blocked
    assert outcome.reason == "r"


def test_config_change_cannot_block_a_policy_settings_change(read: Read, merge: Merge) -> None:
    blocker = read("ConfigChange", exit_code=2, stderr="no")
    assert merge("ConfigChange", [blocker], {"source": "project_settings"}).blocked
    assert not merge("ConfigChange", [blocker], {"source": "policy_settings"}).blocked


def test_user_prompt_submit_block_blocks(read: Read, merge: Merge) -> None:
    blocker = read("UserPromptSubmit", stdout={"decision": "block", "reason": "contains a key"})
    outcome = merge("UserPromptSubmit", [blocker])
    assert outcome.blocked and outcome.to_json()["reasonTo"] == "user"


def test_stop_hook_active_from_the_payload_is_reported(read: Read, merge: Merge) -> None:
    block = read("Stop", stdout={"decision": "block", "reason": "finish the task"})
    assert merge("Stop", [block], {"stop_hook_active": True}).stop_hook_active is True
    assert merge("Stop", [block], {"stop_hook_active": False}).stop_hook_active is False
    missing = merge("Stop", [block], {})
    assert missing.stop_hook_active is None
    assert "The payload has no boolean stop_hook_active." in missing.explanation
    assert merge("PreToolUse", [], {"stop_hook_active": True}).stop_hook_active is None


@pytest.mark.parametrize(
    ("before", "cap", "honoured"),
    [(0, 8, True), (7, 8, True), (8, 8, False), (20, 8, False), (2, 3, True), (3, 3, False),
     (500, 0, True)],
)  # fmt: skip
def test_the_stop_cap_overrides_the_block_after_cap_consecutive_continuations(
    read: Read, merge: Merge, before: int, cap: int, honoured: bool
) -> None:
    block = read("Stop", stdout={"decision": "block", "reason": "keep going"})
    outcome = merge("Stop", [block], {"stop_hook_active": True},
                    consecutive_stop_blocks=before, stop_block_cap=cap)  # fmt: skip
    assert outcome.blocked is honoured
    assert outcome.keeps_going is honoured
    if not honoured:
        assert any(
            "overrides this continuation and ends the turn" in s for s in outcome.explanation
        )


def test_the_default_stop_cap_is_8(read: Read, merge: Merge) -> None:
    block = read("SubagentStop", exit_code=2, stderr="more")
    assert merge("SubagentStop", [block], consecutive_stop_blocks=7).blocked
    assert not merge("SubagentStop", [block], consecutive_stop_blocks=8).blocked


def test_stop_additional_context_keeps_the_turn_going_and_counts_toward_the_cap(
    read: Read, merge: Merge, specific: Specific
) -> None:
    nudge = read("Stop", stdout=specific("Stop", additionalContext="CI is still red"))
    going = merge("Stop", [nudge])
    assert going.keeps_going and not going.blocked
    assert not merge("Stop", [nudge], consecutive_stop_blocks=8).keeps_going


def test_stop_continue_false_ends_the_turn_even_over_a_block(read: Read, merge: Merge) -> None:
    block = read("Stop", stdout={"decision": "block", "reason": "go on"})
    halt = read("Stop", stdout={"continue": False, "stopReason": "budget spent"})
    outcome = merge("Stop", [block, halt])
    # Ending the turn is Stop's action, and continue:false lets it happen: not blocked.
    assert not outcome.blocked and not outcome.keeps_going and not outcome.continue_
    assert outcome.explanation[-1] == "Outcome: the turn ends; Claude stops entirely."


def test_continue_false_on_pre_tool_use_runs_the_call_then_stops(read: Read, merge: Merge) -> None:
    halt = read("PreToolUse", stdout={"continue": False, "stopReason": "budget spent"})
    outcome = merge("PreToolUse", [halt])
    assert not outcome.blocked and not outcome.continue_ and outcome.run_stops


def test_evaluator_ok_false_on_stop_blocks_with_its_reason(read: Read, merge: Merge) -> None:
    answer = {"ok": False, "reason": "Run the tests first"}
    outcome = merge("Stop", [read("Stop", handler_type="prompt", evaluator=answer)])
    assert outcome.blocked and outcome.reason == "Run the tests first"


def test_a_missing_evaluator_never_decides(read: Read, merge: Merge) -> None:
    outcome = merge(
        "PreToolUse", [read("PreToolUse", handler_type="agent", evaluator_missing=True)]
    )
    assert not outcome.blocked and outcome.decision is None
    assert outcome.notices == ["PreToolUse hook error: no evaluator configured; no model was asked"]


def test_system_messages_and_notices_are_collected(read: Read, merge: Merge) -> None:
    readings = [
        read("PreToolUse", stdout={"systemMessage": "one"}),
        read("PreToolUse", exit_code=1, stderr="oops"),
        read("PreToolUse", stdout={"systemMessage": "two"}),
    ]
    outcome = merge("PreToolUse", readings)
    assert outcome.system_messages == ["one", "two"]
    assert outcome.notices == ["PreToolUse hook error: Failed with non-blocking status code: oops"]


def test_directory_added_system_message_goes_to_claude(read: Read, merge: Merge) -> None:
    outcome = merge("DirectoryAdded", [read("DirectoryAdded", stdout={"systemMessage": "indexed"})])
    assert "On DirectoryAdded, systemMessage goes to Claude." in outcome.explanation


def test_to_json_has_the_documented_keys(read: Read, merge: Merge, specific: Specific) -> None:
    outcome = merge("PreToolUse", [_decides(read, specific, "deny")])
    document = parse(stringify(outcome.to_json()))
    assert isinstance(document, dict)
    required = {"blocked", "decision", "reason", "additionalContext", "updatedInput", "continue",
                "stopReason", "systemMessages", "conflicts", "explanation"}  # fmt: skip
    assert required <= set(document)
    assert document["blocked"] is True and document["decision"] == "deny"
    assert document["additionalContext"] == [] and document["continue"] is True
