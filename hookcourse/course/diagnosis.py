"""Which mistake explains a wrong answer: the hint a check gives, chosen from what differs.

A case's family names the trap the case was written for; a learner's wrong answer
may come from another one. So each exercise has a model of the learner's function
with the classic mistakes as switches (``str.strip()`` for ``trim()``, ``==`` for
``===``, ``or`` for ``??``, top-level fields for ``hookSpecificOutput``, the first
rewrite for the last, the cap off by one...), each switch tied to the hint key that
names it. A mistake explains a wrong answer when the model with that one switch on
gives the learner's answer (or the learner's value at the first differing JSON
path); among several, the one that agrees with the learner's other answers wins,
then the one listed first. Only when no mistake explains it does the hint fall
back to the case's family. Pure: nothing here runs the learner's code.

It also says which failing case to show: one of a form the notebook has taught
(``taught``), then the smallest.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, TypeAlias

from hookcourse.course.cases import FixtureCase, first_difference, same_json
from hookcourse.course.pitfalls import python_re_search
from hookcourse.js import json as jsjson
from hookcourse.js.regex import RegexEngine, regex_test
from hookcourse.js.values import (
    UNDEFINED,
    JSValue,
    Undefined,
    is_js_number,
    is_nullish,
    js_to_string,
    js_trim,
    js_trim_start,
    strict_equals_number,
)
from hookcourse.stages.decoding import Decoded
from hookcourse.stages.registry import exercise_named

Path: TypeAlias = "tuple[str | int, ...]"
Answer: TypeAlias = "JSValue | Undefined"
Model: TypeAlias = "Callable[[tuple[object, ...], frozenset[str]], object]"


@dataclass(frozen=True)
class Mistake:
    """One classic mistake: its switch in the exercise's model, the hint key that names
    it, and what the learner wrote, in words."""

    switch: str
    key: str
    what: str


@dataclass(frozen=True)
class Diagnosis:
    """The hint key for one wrong answer, and the mistake behind it (None: the family's)."""

    key: str
    mistake: Mistake | None = None
    path: Path = ()


# -- reading JSON values the way a Python learner might -------------------------------------

_JS_NUMBER: Final = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|0[xX][0-9a-fA-F]+")


def loose_equals_number(value: object, number: float) -> bool:
    """``value == number`` as JavaScript's ``==`` reads it: "2", true and " 2 " convert."""
    if isinstance(value, bool):
        return float(value) == number
    if is_js_number(value):
        return bool(value == number)
    if isinstance(value, str):
        text = js_trim(value)
        if not text:
            return number == 0
        if _JS_NUMBER.fullmatch(text):
            return float.fromhex(text) == number if "x" in text.lower() else float(text) == number
    return False


def python_equals_number(value: object, number: float) -> bool:
    """``value == number`` in Python: True is 1 and False is 0, "2" is not 2."""
    return isinstance(value, int | float) and value == number


def _python_loads(text: str) -> object:
    """``json.loads(text)`` or, failing that, UNDEFINED (Python's parser, not JavaScript's)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return jsjson.parse(text)
    except (jsjson.JSONSyntaxError, RecursionError, ValueError):
        return UNDEFINED


def _get(value: object, key: str) -> object:
    return value.get(key, UNDEFINED) if isinstance(value, Mapping) else UNDEFINED


def _stream(result: object, name: str) -> str:
    value = _get(result, name)
    return value if isinstance(value, str) else ""


def _as_json(value: object) -> Answer:
    """A model's answer as the JSON the check compares (undefined members vanish)."""
    return jsjson.parse(jsjson.stringify(value))


# -- match_hook ------------------------------------------------------------------------------

_ASCII_NAMES: Final = re.compile(r"[A-Za-z0-9_|]+")
_UNICODE_NAMES: Final = re.compile(r"[\w|]+")


def _python_str(value: object) -> str:
    return "None" if value is UNDEFINED else str(value)


def match_model(args: tuple[object, ...], mistakes: frozenset[str]) -> object:
    """``match_hook`` with the given mistakes."""
    matcher, tool = args
    if matcher is None or matcher == "" or (matcher == "*" and "star-as-regex" not in mistakes):
        return True
    assert isinstance(matcher, str)
    if "string-only" in mistakes and not isinstance(tool, str):
        return False
    names = _UNICODE_NAMES if "unicode-word" in mistakes else _ASCII_NAMES
    if "all-regex" not in mistakes and names.fullmatch(matcher):
        if "ignore-case" in mistakes and isinstance(tool, str):
            return tool.lower() in matcher.lower().split("|")
        if "python-str" in mistakes:
            return _python_str(tool) in matcher.split("|")
        return tool in matcher.split("|")
    subject = _python_str(tool) if "python-str" in mistakes else js_to_string(tool)  # type: ignore[arg-type]
    if "python-re" in mistakes:
        found = python_re_search(matcher, subject)
        return found is True
    pattern = f"^(?:{matcher})$" if "anchored" in mistakes else matcher
    return regex_test(pattern, subject, RegexEngine.NODE)


MATCH_MISTAKES: Final = (
    Mistake("star-as-regex", "match-all", '"*" not read as "every tool"'),
    Mistake("all-regex", "name-list", "every matcher handed to RegExp, name lists too"),
    Mistake("unicode-word", "ascii-word", "Python's Unicode \\w in the name-list test"),
    Mistake("ignore-case", "exact", "names compared without case"),
    Mistake("string-only", "tool-not-a-string", "False for a tool name that is not a string"),
    Mistake("python-str", "tool-not-a-string", "Python's str() of the tool name, not String()"),
    Mistake("python-re", "js-not-python", "Python's re.search for RegExp"),
    Mistake("anchored", "unanchored", "the regex anchored (fullmatch, ^...$)"),
)


# -- interpret_exit_code ---------------------------------------------------------------------


def _trim(text: str, mistakes: frozenset[str]) -> str:
    if "py-strip" in mistakes:
        return text.strip()
    return text if "no-trim" in mistakes else js_trim(text)


def _equals(mistakes: frozenset[str]) -> Callable[[object, float], bool]:
    if "python-eq" in mistakes:
        return python_equals_number
    return loose_equals_number if "loose-eq" in mistakes else strict_equals_number


def exit_model(args: tuple[object, ...], mistakes: frozenset[str]) -> object:
    """``interpret_exit_code`` with the given mistakes."""
    code, stderr = args
    text = stderr if isinstance(stderr, str) else ""
    equals = _equals(mistakes)
    reason = _trim(text, mistakes)
    if equals(code, 0):
        shown = (reason or None) if "success-reason" in mistakes else None
        return {"block": False, "warn": False, "reason": shown}
    if equals(code, 2) or "nonzero-blocks" in mistakes:
        if "block-blank-reason" in mistakes:
            return {"block": True, "warn": False, "reason": reason}
        if "block-null-reason" in mistakes:
            return {"block": True, "warn": False, "reason": reason or None}
        return {"block": True, "warn": False, "reason": reason or "hook blocked"}
    blank = reason if "warn-blank-reason" in mistakes else None
    return {"block": False, "warn": True, "reason": reason or blank}


EXIT_MISTAKES: Final = (
    Mistake("py-strip", "js-trim", "str.strip() for JavaScript's trim()"),
    Mistake("no-trim", "js-trim", "stderr not trimmed"),
    Mistake("python-eq", "strict-equality", "Python's == on the code (False == 0)"),
    Mistake("loose-eq", "strict-equality", 'JavaScript\'s == on the code ("2" == 2)'),
    Mistake("block-blank-reason", "block-default-reason", 'no "hook blocked" for a blank stderr'),
    Mistake("block-null-reason", "block-default-reason", 'null for "hook blocked"'),
    Mistake("warn-blank-reason", "warn-no-reason", '"" for a blank warning\'s null reason'),
    Mistake("success-reason", "success", "stderr read on exit 0"),
    Mistake("nonzero-blocks", "warn", "every code but 0 blocks"),
)


# -- apply_pre_tool_use ----------------------------------------------------------------------


def _fallback(
    output: Mapping[str, object], key: str, default: object, mistakes: frozenset[str]
) -> object:
    """``output[key] ?? default``, or the learner's ``or`` / ``.get(key, default)``."""
    value = output.get(key, UNDEFINED)
    if "or-fallback" in mistakes:
        return value if value is not UNDEFINED and value else default
    if "get-default" in mistakes:
        return default if value is UNDEFINED else value
    return default if is_nullish(value) else value


def _blocks(decision: object, mistakes: frozenset[str]) -> bool:
    if "ignore-case" in mistakes and isinstance(decision, str):
        return decision.lower() == "block"
    if "deny-blocks" in mistakes and decision == "deny":
        return True
    if "truthy-blocks" in mistakes:
        return bool(decision) and decision is not UNDEFINED and decision != "allow"
    return decision == "block"


def apply_model(args: tuple[object, ...], mistakes: frozenset[str]) -> object:
    """``apply_pre_tool_use`` with the given mistakes."""
    output, tool_input = args
    fields: Mapping[str, object] = output if isinstance(output, Mapping) else {}
    if _blocks(fields.get("decision", UNDEFINED), mistakes):
        if "no-block-default" in mistakes:
            reason = fields.get("reason", None)
        else:
            reason = _fallback(fields, "reason", "blocked by hook", mistakes)
        kept = tool_input
        if "block-rewrites" in mistakes:
            kept = _fallback(fields, "updatedInput", tool_input, mistakes)
        context = None
        if "block-injects" in mistakes:
            context = _fallback(fields, "additionalContext", None, mistakes)
        return {"allowed": False, "input": kept, "injectedContext": context, "reason": reason}
    return {
        "allowed": True,
        "input": _fallback(fields, "updatedInput", tool_input, mistakes),
        "injectedContext": _fallback(fields, "additionalContext", None, mistakes),
        "reason": None,
    }


APPLY_MISTAKES: Final = (
    Mistake("or-fallback", "nullish-not-falsy", "Python's or for ??"),
    Mistake("get-default", "null-falls-back", ".get(key, default) for ?? (null kept)"),
    Mistake("no-block-default", "block-default-reason", 'no "blocked by hook" default'),
    Mistake("block-rewrites", "block-keeps-input", "a block runs the updatedInput"),
    Mistake("block-injects", "block-no-context", "a block injects additionalContext"),
    Mistake("ignore-case", "only-block-blocks", '"Block" read as "block"'),
    Mistake("deny-blocks", "only-block-blocks", '"deny" read as "block"'),
    Mistake("truthy-blocks", "only-block-blocks", "any decision but allow blocks"),
)


# -- reading a hook's stdout (merge and stop) ------------------------------------------------


def _stdout_json(stdout: str, mistakes: frozenset[str]) -> dict[str, object] | None:
    """The JSON object on stdout as the learner reads it (the rule: trimStart, "{", parse)."""
    if "no-trim-start" in mistakes:
        text = stdout  # JSON.parse itself skips only " \t\n\r"
        value = _python_loads(text) if text.lstrip(" \t\n\r").startswith("{") else UNDEFINED
    else:
        text = stdout.strip() if "py-strip-stdout" in mistakes else js_trim_start(stdout)
        if "json-anywhere" in mistakes and "{" in text:
            text = text[text.index("{") :]
        value = _python_loads(text) if text.startswith("{") else UNDEFINED
    return value if isinstance(value, dict) else None


STDOUT_MISTAKES: Final = (
    Mistake("no-trim-start", "js-trim-start", "stdout parsed without trimming its start"),
    Mistake("py-strip-stdout", "js-trim-start", "stdout trimmed with str.strip()"),
    Mistake("json-anywhere", "stdout-not-json", 'JSON looked for after text before the "{"'),
)


# -- merge_pre_tool_use ----------------------------------------------------------------------

_STRENGTH: Final = ("allow", "ask", "defer", "deny")
_OLD: Final = {"block": "deny", "approve": "allow"}


def _exit_2_reason(result: object, mistakes: frozenset[str]) -> object:
    """The reason of an exit 2: the trimmed stderr, or "hook blocked" when it is blank."""
    reason = _trim(_stream(result, "stderr"), mistakes)
    if "blank-block-reason" in mistakes:
        return reason
    return reason or (None if "null-block-reason" in mistakes else "hook blocked")


# Reading stdout before the exit code: JSON first and exit 2 only when it decides nothing,
# or exit 2 only when stdout is not JSON at all.
_STDOUT_FIRST: Final = frozenset({"stdout-of-exit-2", "json-replaces-exit-2"})


def _read_merge(result: object, mistakes: frozenset[str]) -> dict[str, object]:
    """One hook's contribution, as the learner reads it."""
    equals = _equals(mistakes)
    exit_2 = equals(_get(result, "code"), 2)
    if exit_2 and not mistakes & _STDOUT_FIRST:
        return {"decision": "deny", "reason": _exit_2_reason(result, mistakes)}
    if "exit-0-only" in mistakes and not equals(_get(result, "code"), 0) and not exit_2:
        return {}
    out = _stdout_json(_stream(result, "stdout"), mistakes)
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
    equals = _equals(mistakes)
    exit_2 = equals(_get(answer, "code"), 2)
    if exit_2 and not mistakes & _STDOUT_FIRST:
        return "block", _exit_2_reason(answer, mistakes)
    parsed = None
    if "exit-0-only" not in mistakes or equals(_get(answer, "code"), 0) or exit_2:
        parsed = _stdout_json(_stream(answer, "stdout"), mistakes)
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
    active = False
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
        matcher = _get(group, "matcher")
        matches = match_model((None if matcher is UNDEFINED else matcher, tool_name), mistakes)
        if not matches and "every-group" not in mistakes:
            continue
        for handler in _get(group, "hooks"):  # type: ignore[attr-defined]
            command = _get(handler, "command")
            assert isinstance(command, str)
            if command not in ran or "no-dedupe" in mistakes:
                ran.append(command)
    return ran


def _look_up(results: object, event: str, ran: list[str], mistakes: frozenset[str]) -> list[object]:
    by_command = _get(results, event) if ran else {}
    assert isinstance(by_command, Mapping)
    if "results-order" in mistakes:
        return [result for command, result in by_command.items() if command in ran]
    return [by_command[command] for command in ran]


def _read_post(result: object, mistakes: frozenset[str]) -> tuple[list[object], list[object]]:
    """One PostToolUse result's feedback and contexts, as the learner reads them."""
    exit_2 = strict_equals_number(_get(result, "code"), 2)
    if exit_2 and "post-stdout-of-exit-2" not in mistakes:
        return [js_trim(_stream(result, "stderr")) or "hook blocked"], []
    if "post-exit-0-only" in mistakes and not strict_equals_number(_get(result, "code"), 0):
        return [], []
    out = _stdout_json(_stream(result, "stdout"), mistakes)
    if out is None:
        return ([js_trim(_stream(result, "stderr")) or "hook blocked"] if exit_2 else []), []
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
        feedback.append(js_trim(_stream(result, "stderr")) or "hook blocked")
    specific = out.get("hookSpecificOutput", UNDEFINED)
    event_ok = isinstance(specific, dict) and (
        "post-any-event" in mistakes or specific.get("hookEventName") == "PostToolUse"
    )
    context = _get(specific, "additionalContext") if event_ok else UNDEFINED
    return feedback, [context] if isinstance(context, str) else []


def run_model(args: tuple[object, ...], mistakes: frozenset[str]) -> object:
    """``run_hooks`` with the given mistakes (the earlier stages' with theirs)."""
    hooks, tool, results = args
    name, tool_input = _get(tool, "name"), _get(tool, "input")
    pre_ran = _handlers(_get(hooks, "PreToolUse"), name, mistakes)
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
    response = _get(tool, "response")
    ran = {"runs": True, "input": kept, "response": None if response is UNDEFINED else response}
    post_ran = _handlers(_get(hooks, "PostToolUse"), name, mistakes)
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
    Mistake("first-rewrite", "rewrite", "the first updatedInput"),
    Mistake("no-post-when-none", "no-post-hooks", "post null when no PostToolUse hook matched"),
)


# -- the exercises ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Learner:
    """An exercise's model of the learner's function, and the mistakes it can switch on."""

    model: Model
    mistakes: tuple[Mistake, ...]

    def answer(self, given: tuple[object, ...], mistakes: Iterable[str] = ()) -> Answer | None:
        """The model's answer, as JSON; None where it cannot say (a value it cannot read)."""
        try:
            return _as_json(self.model(given, frozenset(mistakes)))
        except (TypeError, ValueError, KeyError, AttributeError, AssertionError, IndexError):
            return None


LEARNERS: Final = {
    "match_hook": Learner(match_model, MATCH_MISTAKES),
    "interpret_exit_code": Learner(exit_model, EXIT_MISTAKES),
    "apply_pre_tool_use": Learner(apply_model, APPLY_MISTAKES),
    "merge_pre_tool_use": Learner(merge_model, MERGE_MISTAKES),
    "run_stop_loop": Learner(stop_model, STOP_MISTAKES),
    "run_hooks": Learner(run_model, RUN_MISTAKES),
}


def hint_keys(function: str) -> tuple[str, ...]:
    """Every hint key a check of ``function`` can give: its families, then its mistakes'."""
    exercise = exercise_named(function)
    families = exercise.families if exercise is not None else ()
    learner = LEARNERS.get(function)
    mistakes = learner.mistakes if learner is not None else ()
    return tuple(dict.fromkeys([*families, *(m.key for m in mistakes)]))


# -- choosing the hint -----------------------------------------------------------------------


def value_at(value: Answer, path: Path) -> Answer:
    """The part of a JSON value at ``path``; UNDEFINED where there is none."""
    for step in path:
        found = isinstance(value, list) and isinstance(step, int) and 0 <= step < len(value)
        if not (found or (isinstance(value, dict) and isinstance(step, str) and step in value)):
            return UNDEFINED
        value = value[step]  # type: ignore[index]
    return value


def _same(expected: Answer, got: Answer) -> bool:
    if isinstance(expected, Undefined) or isinstance(got, Undefined):
        return expected is got
    return same_json(expected, got)


@dataclass(frozen=True)
class Answered:
    """One case the learner's function answered: the case, the right answer, the learner's."""

    decoded: Decoded
    expected: JSValue
    got: JSValue


def diagnose(
    function: str, family: str, case: Answered, others: Sequence[Answered] = ()
) -> Diagnosis:
    """The hint key for one wrong answer: the mistake that explains it, else ``family``.

    A mistake explains the answer when the model with it gives the learner's whole
    answer (best), or the learner's value where the answers first differ. Ties go to
    the mistake that also gives the learner's answers to ``others``, then to the one
    listed first.
    """
    difference = first_difference(case.expected, case.got)
    if difference is None:
        return Diagnosis(family)
    learner = LEARNERS.get(function)
    if learner is None:
        return Diagnosis(family, None, difference.path)
    scored: list[tuple[int, int, Mistake]] = []
    for rank, mistake in enumerate(learner.mistakes):
        answer = learner.answer(case.decoded.given, [mistake.switch])
        if answer is None or _same(answer, case.expected):
            continue
        if _same(answer, case.got):
            scored.append((2, -rank, mistake))
        elif _same(value_at(answer, difference.path), difference.got) and not _same(
            value_at(answer, difference.path), difference.expected
        ):
            scored.append((1, -rank, mistake))
    if not scored:
        return Diagnosis(family, None, difference.path)
    best = max(strength for strength, _, _ in scored)
    tied = [(rank, mistake) for strength, rank, mistake in scored if strength == best]
    if len(tied) > 1 and others:
        agree = {m.switch: _agreement(learner, m, others) for _, m in tied}
        top = max(agree.values())
        tied = [(rank, m) for rank, m in tied if agree[m.switch] == top]
    _, chosen = max(tied, key=lambda pair: pair[0])
    return Diagnosis(chosen.key, chosen, difference.path)


_AGREEMENT_CASES: Final = 200  # enough to tell mistakes apart, few enough to stay quick


def _agreement(learner: Learner, mistake: Mistake, others: Sequence[Answered]) -> int:
    """On how many of ``others`` the model with ``mistake`` gives the learner's answer."""
    agreeing = 0
    for other in others[:_AGREEMENT_CASES]:
        answer = learner.answer(other.decoded.given, [mistake.switch])
        agreeing += answer is not None and _same(answer, other.got)
    return agreeing


# -- which failing case to show --------------------------------------------------------------

# The matcher forms notebook 01 teaches: name lists, "*", and regexes of literal names,
# ".", "*", "+", "?", "|", "^", "$", groups, (?i), named groups and \d, \w, \s, \|.
_TAUGHT_MATCHER: Final = re.compile(r"(?:[\w|.*+?^$ ()]|\(\?i\)|\(\?P?<\w+>|\\[dws|])*")
# Invisible characters the notebooks show by name (trim's and strip()'s differences).
_TAUGHT_INVISIBLE: Final = frozenset(" \t\n\r\u00a0\ufeff\x85\x1c\x1d\x1e\x1f")


def _strings(value: object) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def _plain(text: str) -> bool:
    return all(char.isprintable() or char in _TAUGHT_INVISIBLE for char in text) and all(
        ord(char) <= 0xFFFF for char in text
    )


def taught(function: str, decoded: Decoded) -> bool:
    """True when the case is of a form the exercise's notebook teaches (a matcher built of
    taught regex parts, strings of printable text and the invisibles the notebooks name)."""
    if function == "match_hook":
        matcher, tool = decoded.given
        if isinstance(matcher, str) and not _TAUGHT_MATCHER.fullmatch(matcher):
            return False
        return isinstance(tool, str) and _plain(tool)
    return all(_plain(text) for text in _strings(decoded.given))


def showing_order(function: str, case: FixtureCase) -> tuple[bool, bool, bool, int]:
    """Sort key for the failing case to show: taught forms first, then the seed's own case
    file, then the other case files before drawn cases, then the shortest call."""
    size = len(jsjson.stringify(list(case.decoded.given)))
    return (not taught(function, case.decoded), not case.seed, case.drawn, size)
