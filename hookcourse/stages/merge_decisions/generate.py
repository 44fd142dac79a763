"""Fresh ``merge_pre_tool_use`` cases, drawn around each case family from a ``random.Random``.

Named by the stage's ``Exercise.generate``; the shared draws (tool names, JavaScript's
whitespace, JSON values) are ``hookcourse.course.checks.generators``'.
"""

from __future__ import annotations

import random
from typing import Final

from hookcourse.course.checks.generators import (
    ABSENT,
    Case,
    case_with,
    json_object,
    maybe,
    padded,
    some_text,
)
from hookcourse.js.values import JSValue

_DECISIONS: Final = ("allow", "ask", "defer", "deny", "Deny", "block", "")


def _stdout(rng: random.Random) -> str:
    """What a hook prints: its JSON in either format, text, or JSON that does not count."""
    from hookcourse.js import json as jsjson

    roll = rng.random()
    if roll < 0.15:
        return rng.choice(("", "   ", "not json", "{", "[]", "null", '"deny"'))
    if roll < 0.3:
        old = case_with(
            decision=rng.choice(("block", "approve", "deny")), reason=maybe(rng, some_text(rng))
        )
        body: JSValue = old
    else:
        specific = case_with(
            hookEventName=rng.choice(("PreToolUse", "PreToolUse", "PostToolUse", ABSENT)),
            permissionDecision=maybe(rng, *_DECISIONS),
            permissionDecisionReason=maybe(rng, some_text(rng), "", None),
            updatedInput=maybe(rng, json_object(rng), None, []),
            additionalContext=maybe(rng, some_text(rng), "", None),
        )
        body = {"hookSpecificOutput": specific}
    text = jsjson.stringify(body)
    lead = rng.choice(("", "", " \n", "\ufeff", "Loading profile...\n"))
    return lead + text


def _result(rng: random.Random) -> Case:
    code = rng.choice((0.0, 0.0, 2.0, 1.0, 2.0, "2", True, None, ABSENT))
    stdout = rng.choice((_stdout(rng), _stdout(rng), ABSENT))
    return case_with(code=code, stdout=stdout, stderr=maybe(rng, padded(rng), None))


def _specific(rng: random.Random, decision: object = ABSENT, **fields: object) -> str:
    """A hook's stdout: ``hookSpecificOutput`` with ``decision`` and the other fields given."""
    from hookcourse.js import json as jsjson

    event = fields.pop("event", "PreToolUse")
    body = case_with(
        hookEventName=event,
        permissionDecision=decision,
        permissionDecisionReason=fields.pop("reason", some_text(rng)),
        **fields,
    )
    return jsjson.stringify({"hookSpecificOutput": body})


def _shaped_merges(rng: random.Random) -> list[Case]:
    """One case of each rule of the stage (its pitfalls), so every draw holds them all."""
    from hookcourse.js import json as jsjson

    tool_input = json_object(rng)
    # rewrites no drawn toolInput equals
    one, other = (
        {"command": some_text(rng), "rewrite": 1.0},
        {"command": some_text(rng), "rewrite": 2.0},
    )
    weaker, stronger = sorted(rng.sample(("allow", "ask", "defer"), 2), key=_STRENGTH.index)
    block: Case = {"code": 2.0, "stderr": padded(rng)}
    old = jsjson.stringify({"decision": "block", "reason": some_text(rng)})
    unknown = {
        "decision": "block",
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": rng.choice(("Deny", "block", "ALLOW")),
        },
    }
    cases: list[tuple[list[Case], JSValue]] = [
        # the last updatedInput wins, every additionalContext is kept in order
        (
            [
                {"code": 0.0, "stdout": _specific(rng, "allow", updatedInput=one)},
                {"code": 0.0, "stdout": _specific(rng, updatedInput=other, additionalContext="")},
            ],
            tool_input,
        ),
        # the first reason of the winning decision, even a null one
        (
            [
                {"code": 0.0, "stdout": _specific(rng, stronger, reason=rng.choice((None, "a")))},
                {"code": 0.0, "stdout": _specific(rng, weaker)},
                {"code": 0.0, "stdout": _specific(rng, stronger, reason="b")},
            ],
            tool_input,
        ),
        # JSON counts on exit 1 too, and after whitespace trimStart() removes
        ([{"code": 1.0, "stdout": _specific(rng, "deny")}], tool_input),
        ([{"code": 0.0, "stdout": rng.choice(("\ufeff", "\u00a0", "\u2028 ")) + old}], tool_input),
        # text before the JSON makes it no JSON at all
        ([{"code": 0.0, "stdout": "Loading profile...\n" + old}], tool_input),
        # a deny drops every rewrite and context; exit 2 is never read as JSON
        (
            rng.sample(
                [
                    {"code": 0.0, "stdout": _specific(rng, "allow", updatedInput=one)},
                    {**block, "stdout": _specific(rng, "allow", additionalContext="x")},
                ],
                2,
            ),
            tool_input,
        ),
        # "2" and true are not 2: their stdout is read
        ([{"code": rng.choice(("2", True)), "stdout": _specific(rng, weaker)}], tool_input),
        # another event's output, or an unknown decision, falls back to the top level
        ([{"code": 0.0, "stdout": _specific(rng, "deny", event="PostToolUse")}], tool_input),
        ([{"code": 0.0, "stdout": jsjson.stringify(unknown)}], tool_input),
    ]
    return [{"results": list(results), "toolInput": given} for results, given in cases]


_STRENGTH: Final = ("allow", "ask", "defer", "deny")


def merge_cases(rng: random.Random) -> list[JSValue]:
    """``{"results", "toolInput"}`` cases, each list also merged in another order, then
    each rule of the stage."""
    cases: list[JSValue] = []
    for _ in range(12):
        results: list[JSValue] = [_result(rng) for _ in range(rng.randint(0, 4))]
        tool_input = json_object(rng)
        cases.append({"results": results, "toolInput": tool_input})
        if len(results) > 1:  # the same hooks finishing in another order
            shuffled = list(results)
            rng.shuffle(shuffled)
            cases.append({"results": shuffled, "toolInput": tool_input})
    return cases + list(_shaped_merges(rng))
