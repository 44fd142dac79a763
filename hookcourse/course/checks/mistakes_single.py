"""The models of one hook's exercises (matcher, exit code, apply, a hook's stdout JSON), each
with its classic mistakes as switches (``diagnosis.py`` picks the one that explains an answer).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Final

from hookcourse.course.checks.mistakes import (
    Mistake,
    loose_equals_number,
    python_equals_number,
    python_loads,
    python_str,
)
from hookcourse.course.checks.pitfalls import python_re_search
from hookcourse.js.regex import RegexEngine, regex_test
from hookcourse.js.values import (
    UNDEFINED,
    is_nullish,
    js_to_string,
    js_trim,
    js_trim_start,
    strict_equals_number,
)

# -- match_hook ------------------------------------------------------------------------------

_ASCII_NAMES: Final = re.compile(r"[A-Za-z0-9_|]+")
_UNICODE_NAMES: Final = re.compile(r"[\w|]+")


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
            return python_str(tool) in matcher.split("|")
        return tool in matcher.split("|")
    subject = python_str(tool) if "python-str" in mistakes else js_to_string(tool)  # type: ignore[arg-type]
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


def mistaken_trim(text: str, mistakes: frozenset[str]) -> str:
    if "py-strip" in mistakes:
        return text.strip()
    return text if "no-trim" in mistakes else js_trim(text)


def number_equality(mistakes: frozenset[str]) -> Callable[[object, float], bool]:
    if "python-eq" in mistakes:
        return python_equals_number
    return loose_equals_number if "loose-eq" in mistakes else strict_equals_number


def exit_model(args: tuple[object, ...], mistakes: frozenset[str]) -> object:
    """``interpret_exit_code`` with the given mistakes."""
    code, stderr = args
    text = stderr if isinstance(stderr, str) else ""
    equals = number_equality(mistakes)
    reason = mistaken_trim(text, mistakes)
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


def stdout_json_read(stdout: str, mistakes: frozenset[str]) -> dict[str, object] | None:
    """The JSON object on stdout as the learner reads it (the rule: trimStart, "{", parse)."""
    if "no-trim-start" in mistakes:
        text = stdout  # JSON.parse itself skips only " \t\n\r"
        value = python_loads(text) if text.lstrip(" \t\n\r").startswith("{") else UNDEFINED
    else:
        text = stdout.strip() if "py-strip-stdout" in mistakes else js_trim_start(stdout)
        if "json-anywhere" in mistakes and "{" in text:
            text = text[text.index("{") :]
        value = python_loads(text) if text.startswith("{") else UNDEFINED
    return value if isinstance(value, dict) else None


STDOUT_MISTAKES: Final = (
    Mistake("no-trim-start", "js-trim-start", "stdout parsed without trimming its start"),
    Mistake("py-strip-stdout", "js-trim-start", "stdout trimmed with str.strip()"),
    Mistake("json-anywhere", "stdout-not-json", 'JSON looked for after text before the "{"'),
)
