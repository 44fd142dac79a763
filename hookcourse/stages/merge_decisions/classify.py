"""Which misreading of JavaScript a case of this stage catches: its hint family.

Worked out from the case as its decoder read it (``Decoded``: the parsed arguments,
never parsed again here). Named by the stage's ``Exercise.classify``; the hint texts
are ``hints.json`` beside it.
"""

from __future__ import annotations

from hookcourse.course.grading.program_hints import parse_refuses_lead
from hookcourse.js.values import (
    UNDEFINED,
    Undefined,
    is_js_number,
    js_trim,
    strict_equals_number,
)
from hookcourse.stages.answers import json_output
from hookcourse.stages.decoding import Decoded
from hookcourse.stages.merge_decisions.reference import (
    DEPRECATED_DECISIONS,
    STRENGTH,
    merge_pre_tool_use,
    read_pre_tool_use,
)


def merge_family(case: Decoded) -> str:
    """The misreading a ``merge_pre_tool_use`` case catches."""
    results, tool_input = case.parsed
    answers = [read_pre_tool_use(result) for result in results]
    read = [(result, json_output(result.stdout)) for result in results]
    merged = merge_pre_tool_use(results, tool_input)
    blocks = [result for result in results if strict_equals_number(result.code, 2)]
    if any(strict_equals_number(r.code, 2) and out is not None for r, out in read):
        return "exit-2-beats-json"
    changes = [not isinstance(a.updated_input, Undefined) or a.context is not None for a in answers]
    if merged.decision == "deny" and any(changes):
        return "deny-drops-rewrite"
    if any(not is_js_number(result.code) for result in results):
        return "strict-equality"
    if any(not js_trim(result.stderr) for result in blocks):
        return "block-default-reason"
    if blocks and len(results) > 1:
        return "exit-2-beats-json"
    if any(out is not None and not strict_equals_number(r.code, 0) for r, out in read):
        return "json-on-any-exit"
    if any(out is None and js_trim(r.stdout) for r, out in read):
        return "stdout-not-json"
    for output in filter(None, (out for _, out in read)):
        specific = output.get("hookSpecificOutput", UNDEFINED)
        if not isinstance(specific, dict) or specific.get("hookEventName") != "PreToolUse":
            if output.get("decision", UNDEFINED) in DEPRECATED_DECISIONS:
                return "deprecated-decision"
            if not isinstance(specific, Undefined):
                return "wrong-event"
        elif "permissionDecision" in specific and specific["permissionDecision"] not in STRENGTH:
            return "unknown-decision"
    decided = [answer.decision for answer in answers if answer.decision is not None]
    if merged.decision is not None and decided.count(merged.decision) > 1:
        return "first-reason"
    if sum(not isinstance(answer.updated_input, Undefined) for answer in answers) > 1:
        return "last-rewrite"
    if len(set(decided)) > 1:
        return "precedence"
    if merged.contexts:
        return "contexts"
    return "no-decision" if merged.decision is None else "one-decision"


def merge_hinted_family(family: str, case: Decoded, field: str | int | None) -> str:
    """A stdout JSON.parse refuses though trimStart() reads it (a byte-order mark first)."""
    stdouts = [getattr(result, "stdout", None) for result in case.parsed[0]]
    if family != "exit-2-beats-json" and any(map(parse_refuses_lead, stdouts)):
        return "stdout-not-json"
    return family
