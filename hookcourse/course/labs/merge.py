"""The several-hooks lab: many PreToolUse answers, one decision, and why.

Each hook's answer is typed as an exit code (JSON, so ``2`` and ``"2"`` differ),
stdout and stderr. The lab merges them with the graded stage (merge-decisions)
and, beside it, with the engine's model of Claude Code, whose explanation says
which rule applied to each hook. It also translates the course's simplified
``{"decision": "block"}`` into Claude Code's own ``hookSpecificOutput`` format.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from hookcourse.course.labs.logic import BoxError, Readout, read_json_box, shown, unreadable_box
from hookcourse.engine.api import HookReading, HookRun, event_spec, merge_readings, read_hook_result
from hookcourse.js import json as jsjson
from hookcourse.js.values import (
    UNDEFINED,
    JSValue,
    Undefined,
    is_nullish,
    strict_equals_number,
)
from hookcourse.stages.answers import HookResult
from hookcourse.stages.decide_and_modify.reference import apply_pre_tool_use
from hookcourse.stages.merge_decisions.reference import (
    Merged,
    PreToolUseAnswer,
    merge_pre_tool_use,
    read_pre_tool_use,
)

HookBoxes = tuple[str, str, str]
"""One hook as the lab's boxes hold it: exit code (as JSON), stdout, stderr."""


def _answer_text(answer: PreToolUseAnswer) -> str:
    parts = []
    if answer.decision is not None:
        reason = "no reason" if answer.reason is None else f"reason {jsjson.quote(answer.reason)}"
        parts.append(f"{answer.decision} ({reason})")
    if not isinstance(answer.updated_input, Undefined):
        parts.append(f"rewrite {jsjson.stringify(answer.updated_input)}")
    if answer.context is not None:
        parts.append(f"context {jsjson.quote(answer.context)}")
    return ", ".join(parts) or "nothing to merge"


def hook_line(result: HookResult) -> str:
    """How the stage reads one hook, in words."""
    answer = read_pre_tool_use(result)
    if answer.decision == "deny" and strict_equals_number(result.code, 2):
        return f"exit 2: deny with reason {jsjson.quote(answer.reason or '')}; stdout is not read"
    return f"exit {shown(result.code)}: {_answer_text(answer)}"


def why_merged(results: Sequence[HookResult], merged: Merged) -> str:
    """Which hook's decision won, which gave the reason, and what ran."""
    if merged.decision is None:
        return "no hook decided, so Claude Code's own permission rules decide"
    answers = [read_pre_tool_use(result) for result in results]
    first = next(i for i, a in enumerate(answers, 1) if a.decision == merged.decision)
    others = sorted({a.decision for a in answers if a.decision and a.decision != merged.decision})
    beaten = f", beating {', '.join(others)}" if others else ""
    text = f"{merged.decision} is the strongest decision (deny > defer > ask > allow){beaten}; "
    text += f"hook {first} is the first to give it, so its reason is used"
    if merged.decision == "deny":
        text += "; a denied call runs nothing, so no rewrite and no context"
    return text


def _results(hooks: Sequence[HookBoxes]) -> list[HookResult]:
    results = []
    for number, (code_text, stdout, stderr) in enumerate(hooks, 1):
        code = read_json_box(code_text, f"hook {number} exit code", "2 or 0")
        results.append(HookResult(code, stdout, stderr))
    return results


def _engine_reading(number: int, result: HookResult) -> HookReading | None:
    """Claude Code's reading of one answer; None when its code is not a process's exit code."""
    code = result.code
    if not isinstance(code, int | float) or isinstance(code, bool) or not float(code).is_integer():
        return None
    run = HookRun("command", int(code), result.stdout, result.stderr, False, None)
    return read_hook_result(event_spec("PreToolUse"), replace(run, label=f"hook {number}"))


def claude_code_explanation(results: Sequence[HookResult], tool_input: JSValue) -> list[str]:
    """The engine's step-by-step reading and merge of the same answers (integer codes only)."""
    readings = [_engine_reading(i, r) for i, r in enumerate(results, 1)]
    if None in readings:
        return ["a real process always exits with a whole number: give every hook one"]
    known = [reading for reading in readings if reading is not None]
    return merge_readings(event_spec("PreToolUse"), known, {"tool_input": tool_input}).explanation


def merge_readout(hooks: Sequence[HookBoxes], tool_input_text: str) -> Readout:
    """The lab: each hook read, the merged answer, why, and Claude Code's own explanation."""
    try:
        results = _results(hooks)
        tool_input = read_json_box(tool_input_text, "tool_input", '{"command": "ls"}')
    except BoxError as error:
        return error.readout
    merged = merge_pre_tool_use(results, tool_input)
    rows = [(f"hook {i}", hook_line(r)) for i, r in enumerate(results, 1)]
    rows.append(("merged", jsjson.stringify(merged.to_json())))
    rows.append(("why", why_merged(results, merged)))
    rows += [("Claude Code", line) for line in claude_code_explanation(results, tool_input)]
    return Readout(f"merged decision: {merged.decision or 'none'}", tuple(rows))


def to_claude_code(output: dict[str, JSValue]) -> dict[str, JSValue]:
    """The course's answer (``{decision, reason, updatedInput, additionalContext}``), rewritten
    in Claude Code's own format."""
    specific: dict[str, JSValue] = {"hookEventName": "PreToolUse"}
    effect = apply_pre_tool_use(output, UNDEFINED)
    if not effect.allowed:
        specific["permissionDecision"] = "deny"
        specific["permissionDecisionReason"] = effect.reason
        return {"hookSpecificOutput": specific}
    if not is_nullish(effect.input):
        specific["updatedInput"] = effect.input  # type: ignore[assignment]
    if effect.injected_context is not None:
        specific["additionalContext"] = effect.injected_context
    return {"hookSpecificOutput": specific}


def course_format_readout(output_text: str) -> Readout:
    """What the course's answer means to the course, to Claude Code as written, and rewritten."""
    try:
        output = read_json_box(output_text, "hook output", '{"decision": "block", "reason": "no"}')
    except BoxError as error:
        return error.readout
    if not isinstance(output, dict):
        return unreadable_box("hook output", "a hook prints a JSON object", "wrap it in braces")
    effect = apply_pre_tool_use(output, UNDEFINED)
    reading = _engine_reading(1, HookResult(0, jsjson.stringify(output), ""))
    assert reading is not None  # exit code 0
    read = f"decision {jsjson.quote(reading.decision)}" if reading.decision else "no decision"
    rows = (
        ("course stage", "blocked" if not effect.allowed else "allowed"),
        ("Claude Code reads", "; ".join([read, *reading.notes])),
        ("Claude Code's format", jsjson.stringify(to_claude_code(output))),
        (
            "why",
            "Claude Code still reads the old top-level decision (block -> deny), but it reads "
            "updatedInput and additionalContext only inside hookSpecificOutput",
        ),
    )
    return Readout("the same answer in two formats", rows)
