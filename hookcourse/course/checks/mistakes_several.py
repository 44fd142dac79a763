"""The models of the several-hooks exercises (merge, the Stop loop, run_hooks), each with
its classic mistakes as switches (``diagnosis.py`` picks the one that explains an answer).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from hookcourse.course.checks.mistakes import Mistake, member_or_undefined, stream_text
from hookcourse.course.checks.mistakes_single import (
    STDOUT_MISTAKES,
    match_model,
    mistaken_trim,
    number_equality,
    stdout_json_read,
)
from hookcourse.js.values import (
    UNDEFINED,
    is_nullish,
    js_trim,
    strict_equals_number,
)

# -- merge_pre_tool_use ----------------------------------------------------------------------

_STRENGTH: Final = ("allow", "ask", "defer", "deny")
_OLD: Final = {"block": "deny", "approve": "allow"}


def _exit_2_reason(result: object, mistakes: frozenset[str]) -> object:
    """The reason of an exit 2: the trimmed stderr, or "hook blocked" when it is blank."""
    reason = mistaken_trim(stream_text(result, "stderr"), mistakes)
    if "blank-block-reason" in mistakes:
        return reason
    return reason or (None if "null-block-reason" in mistakes else "hook blocked")


# Reading stdout before the exit code: JSON first and exit 2 only when it decides nothing,
# or exit 2 only when stdout is not JSON at all.
_STDOUT_FIRST: Final = frozenset({"stdout-of-exit-2", "json-replaces-exit-2"})


def _read_merge(result: object, mistakes: frozenset[str]) -> dict[str, object]:
    """One hook's contribution, as the learner reads it."""
    equals = number_equality(mistakes)
    exit_2 = equals(member_or_undefined(result, "code"), 2)
    if exit_2 and not mistakes & _STDOUT_FIRST:
        return {"decision": "deny", "reason": _exit_2_reason(result, mistakes)}
    if (
        "exit-0-only" in mistakes
        and not equals(member_or_undefined(result, "code"), 0)
        and not exit_2
    ):
        return {}
    out = stdout_json_read(stream_text(result, "stdout"), mistakes)
    if out is None:
        return {"decision": "deny", "reason": _exit_2_reason(result, mistakes)} if exit_2 else {}
    specific = out.get("hookSpecificOutput", UNDEFINED)
    if not isinstance(specific, dict) or (
        "any-event" not in mistakes and specific.get("hookEventName") != "PreToolUse"
    ):
        specific = {}
    if "top-level" in mistakes:
        specific = out
    elif "top-level-too" in mistakes:
        specific = {**out, **specific}
    read: dict[str, object] = {}
    decision = specific.get("permissionDecision", UNDEFINED)
    if "ignore-case" in mistakes and isinstance(decision, str):
        decision = decision.lower()
    if decision in _STRENGTH:
        written = specific.get("permissionDecisionReason", UNDEFINED)
        read.update(decision=decision, reason=_string_field(written, mistakes))
    elif "no-deprecated" not in mistakes and out.get("decision", UNDEFINED) in _OLD:
        old = out["decision"]
        assert isinstance(old, str)
        read.update(
            decision=_OLD[old], reason=_string_field(out.get("reason", UNDEFINED), mistakes)
        )
    updated = specific.get("updatedInput", UNDEFINED)
    if isinstance(updated, dict) or ("any-input" in mistakes and updated is not UNDEFINED):
        read["updatedInput"] = updated
    context = specific.get("additionalContext", UNDEFINED)
    if isinstance(context, str) or ("any-type" in mistakes and not is_nullish(context)):
        read["context"] = context
    if exit_2 and "decision" not in read and "json-replaces-exit-2" not in mistakes:
        read.update(decision="deny", reason=_exit_2_reason(result, mistakes))
    return read


def _string_field(value: object, mistakes: frozenset[str]) -> object:
    if "any-type" in mistakes:
        return None if is_nullish(value) else value
    return value if isinstance(value, str) else None


def _winner(decided: Sequence[dict[str, object]], mistakes: frozenset[str]) -> dict[str, object]:
    if "last-wins" in mistakes:
        return decided[-1]
    if "first-wins" in mistakes:
        return decided[0]
    # (max() of the words themselves is no mistake: allow < ask < defer < deny by chance.)
    top = max((str(read["decision"]) for read in decided), key=_STRENGTH.index)
    ties = [read for read in decided if read["decision"] == top]
    return ties[-1] if "last-reason" in mistakes else ties[0]


def merge_model(args: tuple[object, ...], mistakes: frozenset[str]) -> object:
    """``merge_pre_tool_use`` with the given mistakes."""
    results, tool_input = args
    reads = [_read_merge(result, mistakes) for result in results]  # type: ignore[attr-defined]
    decided = [read for read in reads if "decision" in read]
    winner = _winner(decided, mistakes) if decided else {"decision": None, "reason": None}
    decision, reason = winner["decision"], winner["reason"]
    rewrites = [read["updatedInput"] for read in reads if "updatedInput" in read]
    contexts = [read["context"] for read in reads if "context" in read]
    if "truthy-contexts" in mistakes:
        contexts = [context for context in contexts if context]
    if decision == "deny" and "deny-keeps-rewrite" not in mistakes:
        return {"decision": "deny", "reason": reason, "input": tool_input, "contexts": []}
    chosen = rewrites[0 if "first-rewrite" in mistakes else -1] if rewrites else tool_input
    return {"decision": decision, "reason": reason, "input": chosen, "contexts": contexts}


MERGE_MISTAKES: Final = (
    Mistake("top-level", "hook-specific-output", "top-level fields for hookSpecificOutput's"),
    Mistake(
        "top-level-too", "hook-specific-output", "top-level fields beside hookSpecificOutput's"
    ),
    Mistake("stdout-of-exit-2", "exit-2-beats-json", "stdout read first on exit 2"),
    Mistake("json-replaces-exit-2", "exit-2-beats-json", "exit 2 read only without JSON"),
    Mistake("py-strip", "js-trim", "str.strip() for JavaScript's trim() on stderr"),
    *STDOUT_MISTAKES,
    Mistake("loose-eq", "strict-equality", "JavaScript's == on the code"),
    Mistake("exit-0-only", "json-on-any-exit", "JSON read on exit 0 only"),
    Mistake("blank-block-reason", "block-default-reason", '"" for "hook blocked"'),
    Mistake("null-block-reason", "block-default-reason", 'null for "hook blocked"'),
    Mistake("any-type", "string-fields", "a reason or context of any type kept"),
    Mistake("any-input", "object-input", "an updatedInput that is not an object kept"),
    Mistake("any-event", "wrong-event", "hookSpecificOutput read whatever its hookEventName"),
    Mistake("ignore-case", "unknown-decision", 'a permissionDecision such as "Deny" counted'),
    Mistake("no-deprecated", "deprecated-decision", "the top-level decision ignored"),
    Mistake("deny-keeps-rewrite", "deny-drops-rewrite", "a deny keeps rewrites and contexts"),
    Mistake("last-reason", "first-reason", "the last reason of the winning decision"),
    Mistake("first-rewrite", "last-rewrite", "the first updatedInput"),
    Mistake("last-wins", "precedence", "the last decision wins"),
    Mistake("first-wins", "precedence", "the first decision wins"),
    Mistake("truthy-contexts", "contexts", 'an empty additionalContext ("") dropped'),
)


# -- run_stop_loop ---------------------------------------------------------------------------


def _read_stop(answer: object, mistakes: frozenset[str]) -> tuple[str, object]:
    """("block" | "halt" | "stop", reason) for one answer, as the learner reads it."""
    equals = number_equality(mistakes)
    exit_2 = equals(member_or_undefined(answer, "code"), 2)
    if exit_2 and not mistakes & _STDOUT_FIRST:
        return "block", _exit_2_reason(answer, mistakes)
    parsed = None
    if "exit-0-only" not in mistakes or equals(member_or_undefined(answer, "code"), 0) or exit_2:
        parsed = stdout_json_read(stream_text(answer, "stdout"), mistakes)
    out = parsed or {}
    halts = out.get("continue", UNDEFINED) is False
    if "halt-falsy" in mistakes:
        halts = "continue" in out and not out["continue"]
    reason = out.get("reason", UNDEFINED)
    if "blank-reason-blocks" in mistakes:
        blocks = out.get("decision") == "block"
    elif "py-strip" in mistakes:
        blocks = out.get("decision") == "block" and isinstance(reason, str) and bool(reason.strip())
    else:
        blocks = (
            out.get("decision") == "block" and isinstance(reason, str) and bool(js_trim(reason))
        )
    if halts and not (blocks and "block-first" in mistakes):
        stop_reason = out.get("stopReason", UNDEFINED)
        if "any-type" in mistakes:
            return "halt", None if is_nullish(stop_reason) else stop_reason
        return "halt", stop_reason if isinstance(stop_reason, str) else None
    if blocks:
        if "trim-reason" in mistakes and isinstance(reason, str):
            return "block", js_trim(reason)
        return "block", None if reason is UNDEFINED else reason
    if exit_2 and (parsed is None or "json-replaces-exit-2" not in mistakes):
        return "block", _exit_2_reason(answer, mistakes)
    return "stop", None


def stop_model(args: tuple[object, ...], mistakes: frozenset[str]) -> object:
    """``run_stop_loop`` with the given mistakes (at most 101 turns: past any cap)."""
    hook, cap = args
    assert isinstance(hook, Mapping) and isinstance(cap, int)
    limit = cap - 1 if "cap-early" in mistakes else cap + 1 if "cap-late" in mistakes else cap
    turns: list[dict[str, object]] = []
    active = "active-from-start" in mistakes
    for blocks in range(1, 103):  # the blocks so far, this one included, if it blocks
        if "flag-never" in mistakes:
            answer = hook.get("whenInactive")
        elif "flag-always" in mistakes:
            answer = hook.get("whenActive")
        else:
            answer = hook.get("whenActive" if active else "whenInactive")
        kind, reason = _read_stop(answer, mistakes)
        if kind != "block":
            turns.append(
                {"stopHookActive": active, "continues": False, "reason": reason, "capped": False}
            )
            break
        if blocks > limit:
            kept = reason if "cap-reason" in mistakes else None
            turns.append(
                {"stopHookActive": active, "continues": False, "reason": kept, "capped": True}
            )
            break
        turns.append(
            {"stopHookActive": active, "continues": True, "reason": reason, "capped": False}
        )
        active = True
    return turns


STOP_MISTAKES: Final = (
    Mistake("stdout-of-exit-2", "exit-2-beats-json", "stdout read first on exit 2"),
    Mistake("json-replaces-exit-2", "exit-2-beats-json", "exit 2 read only without JSON"),
    Mistake("py-strip", "js-trim", "str.strip() for JavaScript's trim()"),
    # (No graded Stop case puts U+FEFF before its JSON: str.strip() there is never wrong.)
    *(mistake for mistake in STDOUT_MISTAKES if mistake.switch != "py-strip-stdout"),
    Mistake("block-first", "halt-beats-block", "a block read before continue: false"),
    Mistake("blank-reason-blocks", "block-needs-reason", "a block without a usable reason kept"),
    Mistake("trim-reason", "reason-as-written", "a JSON block's reason trimmed"),
    Mistake("cap-early", "the-cap", "the cap one block early (>= cap)"),
    Mistake("cap-late", "the-cap", "the cap one block late"),
    Mistake("cap-reason", "the-cap", "the overridden block's reason delivered"),
    Mistake("flag-never", "flag-after-block", "whenInactive read on every attempt"),
    Mistake("flag-always", "flag-after-block", "whenActive read on the first attempt"),
    Mistake("active-from-start", "flag-after-block", "stopHookActive true from the first attempt"),
    Mistake("loose-eq", "strict-equality", "JavaScript's == on the code"),
    Mistake("exit-0-only", "json-on-any-exit", "JSON read on exit 0 only"),
    Mistake("halt-falsy", "halt", 'a falsy continue (0, null, "") read as false'),
    Mistake("any-type", "halt", "a stopReason of any type kept"),
)


# -- run_hooks -------------------------------------------------------------------------------


def _handlers(groups: object, tool_name: object, mistakes: frozenset[str]) -> list[str]:
    """The commands that run for one event, as the learner lists them."""
    ran: list[str] = []
    for group in groups if isinstance(groups, list) else []:
        matcher = member_or_undefined(group, "matcher")
        matches = match_model((None if matcher is UNDEFINED else matcher, tool_name), mistakes)
        if not matches and "every-group" not in mistakes:
            continue
        for handler in member_or_undefined(group, "hooks"):  # type: ignore[attr-defined]
            command = member_or_undefined(handler, "command")
            assert isinstance(command, str)
            if command not in ran or "no-dedupe" in mistakes:
                ran.append(command)
    return ran


def _look_up(results: object, event: str, ran: list[str], mistakes: frozenset[str]) -> list[object]:
    if "event-always-read" in mistakes:
        by_command = results[event]  # type: ignore[index]  # a KeyError, as the learner's
    else:
        by_command = member_or_undefined(results, event) if ran else {}
    assert isinstance(by_command, Mapping)
    if "results-order" in mistakes:
        return [result for command, result in by_command.items() if command in ran]
    return [by_command[command] for command in ran]


def _read_post(result: object, mistakes: frozenset[str]) -> tuple[list[object], list[object]]:
    """One PostToolUse result's feedback and contexts, as the learner reads them."""
    exit_2 = strict_equals_number(member_or_undefined(result, "code"), 2)
    if exit_2 and "post-stdout-of-exit-2" not in mistakes:
        return [js_trim(stream_text(result, "stderr")) or "hook blocked"], []
    if "post-exit-0-only" in mistakes and not strict_equals_number(
        member_or_undefined(result, "code"), 0
    ):
        return [], []
    out = stdout_json_read(stream_text(result, "stdout"), mistakes)
    if out is None:
        return ([js_trim(stream_text(result, "stderr")) or "hook blocked"] if exit_2 else []), []
    feedback: list[object] = []
    reason = out.get("reason", UNDEFINED)
    if out.get("decision") == "block" and isinstance(reason, str):
        if "post-trim-reason" in mistakes:
            feedback.append(js_trim(reason))
        elif "post-strip-reason" in mistakes:
            feedback.append(reason.strip())
        elif js_trim(reason) or "post-blank-reason" in mistakes:
            feedback.append(reason)
    if exit_2 and not feedback:
        feedback.append(js_trim(stream_text(result, "stderr")) or "hook blocked")
    specific = out.get("hookSpecificOutput", UNDEFINED)
    event_ok = isinstance(specific, dict) and (
        "post-any-event" in mistakes or specific.get("hookEventName") == "PostToolUse"
    )
    context = member_or_undefined(specific, "additionalContext") if event_ok else UNDEFINED
    return feedback, [context] if isinstance(context, str) else []


def run_model(args: tuple[object, ...], mistakes: frozenset[str]) -> object:
    """``run_hooks`` with the given mistakes (the earlier stages' with theirs)."""
    hooks, tool, results = args
    name, tool_input = member_or_undefined(tool, "name"), member_or_undefined(tool, "input")
    pre_ran = _handlers(member_or_undefined(hooks, "PreToolUse"), name, mistakes)
    merged = merge_model((_look_up(results, "PreToolUse", pre_ran, mistakes), tool_input), mistakes)
    assert isinstance(merged, dict)
    pre = {key: merged[key] for key in ("decision", "reason", "contexts")}
    pre = {"ran": pre_ran, **pre}
    stops = (
        merged["decision"] == "deny"
        if "only-deny-stops" in mistakes
        else (merged["decision"] not in (None, "allow"))
    )
    if stops:
        return {"pre": pre, "tool": {"runs": False, "input": None, "response": None}, "post": None}
    kept = tool_input if "tool-input-kept" in mistakes else merged["input"]
    response = member_or_undefined(tool, "response")
    if "response-or" in mistakes and not response:
        response = None  # `tool.get("response") or None`: 0, "" and False lost
    ran = {"runs": True, "input": kept, "response": None if response is UNDEFINED else response}
    post_ran = _handlers(member_or_undefined(hooks, "PostToolUse"), name, mistakes)
    if not post_ran and "no-post-when-none" in mistakes:
        return {"pre": pre, "tool": ran, "post": None}
    feedback: list[object] = []
    contexts: list[object] = []
    for result in _look_up(results, "PostToolUse", post_ran, mistakes):
        said, added = _read_post(result, mistakes)
        feedback += said
        contexts += added
    return {
        "pre": pre,
        "tool": ran,
        "post": {"ran": post_ran, "feedback": feedback, "contexts": contexts},
    }


RUN_MISTAKES: Final = (
    Mistake("no-dedupe", "run-once", "an identical command run twice"),
    Mistake("results-order", "settings-order", "results read in their own order"),
    Mistake("only-deny-stops", "ask-or-defer", "ask and defer let the tool run"),
    Mistake("every-group", "only-matching-run", "every group's handlers run"),
    Mistake("all-regex", "name-list", "a name-list matcher handed to RegExp"),
    Mistake("post-stdout-of-exit-2", "post-exit-2", "a PostToolUse exit 2's stdout read"),
    Mistake("post-blank-reason", "post-block-reason", "a blank PostToolUse block reason kept"),
    Mistake("post-trim-reason", "post-block-reason", "a PostToolUse block reason trimmed"),
    Mistake("post-strip-reason", "post-block-reason", "a PostToolUse block reason stripped"),
    Mistake("post-any-event", "post-context-event", "a context of any hookEventName kept"),
    Mistake("post-exit-0-only", "post-feedback", "PostToolUse JSON read on exit 0 only"),
    Mistake("tool-input-kept", "rewrite", "the tool run with its own input, not the merged"),
    Mistake("response-or", "rewrite", 'a falsy response (0, "", False) read as None'),
    Mistake("event-always-read", "only-matching-run", "results[event] read when none runs"),
    Mistake("first-rewrite", "rewrite", "the first updatedInput"),
    Mistake("no-post-when-none", "no-post-hooks", "post null when no PostToolUse hook matched"),
)
