"""Transcripts compare by what both engines can see, and each difference is named."""

from __future__ import annotations

import copy

from hookcourse.session.recorded import load_recorded
from hookcourse.session.transcript import differences, render, render_side_by_side


def test_a_transcript_agrees_with_itself_and_each_change_is_named() -> None:
    real = load_recorded("guard-retry")["transcript"]
    assert differences(real, copy.deepcopy(real)) == []
    other = copy.deepcopy(real)
    other["engine"] = "hookcourse's engine (model of Claude Code 2.1.332)"
    other["rounds"][2]["shown"][0]["text"] = "PreToolUse:Bash hook error: something else"
    other["rounds"][1]["calls"][0]["runs"] = True
    found = differences(other, real)
    assert found == [
        "request 2, the tool calls: only hookcourse's engine: Bash toolu_t1c0 runs"
        " | only Claude Code 2.1.332: Bash toolu_t1c0 does not run",
        "request 3, what the model is shown: only hookcourse's engine: tool_result toolu_t1c0"
        " (is_error): 'PreToolUse:Bash hook error: something else' | only Claude Code 2.1.332:"
        " tool_result toolu_t1c0 (is_error): 'PreToolUse:Bash hook error:"
        " [${CLAUDE_PROJECT_DIR}/.claude/hooks/no-force-push.sh]: Blocked: no force-push from"
        " Claude\\n'",
    ]
    side = render_side_by_side(other, real)
    assert side.endswith("\n".join(["2 difference(s):", *(f"  ≠ {line}" for line in found)]))
    marked = [line for line in side.splitlines() if " ≠ " in line and "request 3" in line]
    assert marked, "the differing request is marked in the columns"


def test_the_order_of_parallel_hooks_and_regrouped_texts_does_not_matter() -> None:
    real = load_recorded("several-hooks")["transcript"]
    swapped = copy.deepcopy(real)
    swapped["rounds"][0]["events"][0]["hooks"].reverse()
    assert differences(real, swapped) == []
    assert "PreToolUse:Bash hook error: slow: deploys need a ticket" in render(real)


def test_a_recorded_exit_2_reads_as_a_blocking_error_not_a_failure() -> None:
    text = render(load_recorded("several-hooks")["transcript"])
    assert 'read as: Claude Code: blocking error (exit 2; the recording\'s word: "error")' in text
    assert "read as: Claude Code: error" not in text
    assert "read as: Claude Code: success" in text  # every other word as recorded
