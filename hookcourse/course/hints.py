"""Hints: which misreading of JavaScript a case catches (its family), and what to say about it.

A case's family is worked out from the case as its decoder read it (``Decoded``: the
parsed arguments, never parsed again here); the registry names each exercise's
classifier and families, and the hint text for each family is data
(``data/exercise_hints.json``, keyed by exercise function, then family). Shared by the
notebook checks and ``hookcourse test``.
"""

from __future__ import annotations

import functools
import json
from importlib import resources

from hookcourse.course.pitfalls import python_re_search, python_thinks_name_list
from hookcourse.js.regex import RegexEngine, regex_error, regex_test
from hookcourse.js.values import (
    UNDEFINED,
    JSValue,
    Undefined,
    is_js_number,
    is_nullish,
    js_trim,
    strict_equals_number,
)
from hookcourse.stages.answers import json_output
from hookcourse.stages.decoding import Decoded
from hookcourse.stages.matcher_and_dispatch.reference import MatchBranch, explain_match
from hookcourse.stages.merge_decisions.reference import (
    DEPRECATED_DECISIONS,
    STRENGTH,
    merge_pre_tool_use,
    read_pre_tool_use,
)
from hookcourse.stages.stop_loop.reference import BLOCK, HALT, read_stop, run_stop_loop

# -- case families: which misreading of JavaScript a case catches (hints are keyed by these) ---


def match_family(case: Decoded) -> str:
    """The misreading a ``match_hook`` case catches."""
    matcher, tool = case.parsed
    result = explain_match(matcher if isinstance(matcher, str) else None, tool)
    if result.branch is MatchBranch.ALL:
        return "match-all"
    if not isinstance(matcher, str) or not isinstance(tool, str):
        return "tool-not-a-string"
    if result.branch is MatchBranch.EXACT:
        as_regex = regex_test(matcher, tool, RegexEngine.NODE)
        return "name-list" if as_regex != result.matched else "exact"
    if python_thinks_name_list(matcher):
        return "ascii-word"
    if regex_error(matcher, RegexEngine.NODE) is not None:
        return "invalid-regex"
    if python_re_search(matcher, tool) != result.matched:
        return "js-not-python"
    if regex_test(f"^(?:{matcher})$", tool, RegexEngine.NODE) != result.matched:
        return "unanchored"
    return "regex"


def exit_family(case: Decoded) -> str:
    """The misreading an ``interpret_exit_code`` case catches."""
    code, stderr = case.parsed
    if not is_js_number(code):
        return "strict-equality"
    if strict_equals_number(code, 0):
        return "success"
    text = stderr if isinstance(stderr, str) else ""
    if js_trim(text) != text.strip():
        return "js-trim"
    if strict_equals_number(code, 2):
        return "block" if js_trim(text) else "block-default-reason"
    return "warn" if js_trim(text) else "warn-no-reason"


def _python_falsy_kept(value: JSValue | Undefined) -> bool:
    """Kept by ``??`` but dropped by Python's ``or``: "", 0, false, {} and []."""
    return not is_nullish(value) and not value


def apply_family(case: Decoded) -> str:
    """The misreading an ``apply_pre_tool_use`` case catches."""
    output, _ = case.parsed
    fields = output if isinstance(output, dict) else {}
    decision = fields.get("decision", UNDEFINED)
    rewritten = fields.get("updatedInput", UNDEFINED)
    context = fields.get("additionalContext", UNDEFINED)
    if decision == "block":
        reason = fields.get("reason", UNDEFINED)
        if not is_nullish(rewritten):
            return "block-keeps-input"
        if not is_nullish(context):
            return "block-no-context"
        if _python_falsy_kept(reason):
            return "nullish-not-falsy"
        return "block-default-reason" if is_nullish(reason) else "block"
    if not is_nullish(decision):
        return "only-block-blocks"
    if _python_falsy_kept(rewritten) or _python_falsy_kept(context):
        return "nullish-not-falsy"
    if rewritten is None or context is None:
        return "null-falls-back"
    if not is_nullish(rewritten):
        return "rewrite"
    return "inject" if not is_nullish(context) else "pass-through"


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


def stop_family(case: Decoded) -> str:
    """The misreading a ``run_stop_loop`` case catches."""
    parsed, cap = case.parsed
    hook = {"whenInactive": parsed.when_inactive, "whenActive": parsed.when_active}
    turns = run_stop_loop(parsed, cap)
    read = {key: read_stop(answer) for key, answer in hook.items()}
    outputs = {key: json_output(answer.stdout) or {} for key, answer in hook.items()}
    if any(o.get("continue") is False and o.get("decision") == "block" for o in outputs.values()):
        return "halt-beats-block"
    if turns[-1].capped:
        return "the-cap"
    if any(not is_js_number(answer.code) for answer in hook.values()):
        return "strict-equality"
    if any(
        o.get("decision") == "block" and kind != BLOCK
        for o, (kind, _) in zip(outputs.values(), read.values(), strict=True)
    ):
        return "block-needs-reason"
    if any(kind == BLOCK and reason != js_trim(reason or "") for kind, reason in read.values()):
        return "reason-as-written"
    if any(
        json_output(answer.stdout) is not None and not strict_equals_number(answer.code, 0)
        for answer in hook.values()
    ):
        return "json-on-any-exit"
    if any(
        json_output(answer.stdout) is None and js_trim(answer.stdout) for answer in hook.values()
    ):
        return "stdout-not-json"
    if any(kind == HALT for kind, _ in read.values()):
        return "halt"
    if len(turns) > 1 and read["whenInactive"] != read["whenActive"]:
        return "flag-after-block"
    return "stop"  # the same blocking answer both times always reaches the cap


@functools.cache
def hints() -> dict[str, dict[str, str]]:
    """The hint for each exercise's case families (``data/exercise_hints.json``), read once."""
    text = resources.files("hookcourse").joinpath("data/exercise_hints.json").read_text("utf-8")
    loaded: dict[str, dict[str, str]] = json.loads(text)
    return loaded


def hint(function: str, case_family: str) -> str | None:
    """The hint for one family of an exercise, or None when there is none."""
    return hints().get(function, {}).get(case_family)
