"""Hints: which misreading of JavaScript a case catches (its family), and what to say about it.

A case's family is worked out from its arguments; the hint text for each family is data
(``data/exercise_hints.json``, keyed by exercise function, then family). An exercise
without a classifier here has the one family ``cases``. Shared by the notebook checks
and ``hookcourse test``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from importlib import resources
from typing import Final

from hookcourse.course.cases import Arguments
from hookcourse.course.labs.logic import python_re_search, python_thinks_name_list
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
from hookcourse.stages.matcher import MatchBranch, explain_match

# -- case families: which misreading of JavaScript a case catches (hints are keyed by these) ---


def _match_family(arguments: Arguments) -> str:
    matcher, tool = arguments
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


def _exit_family(arguments: Arguments) -> str:
    code, stderr = arguments
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


def _apply_family(arguments: Arguments) -> str:
    output, _ = arguments
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


FAMILIES: Final[dict[str, Callable[[Arguments], str]]] = {
    "match_hook": _match_family,
    "interpret_exit_code": _exit_family,
    "apply_pre_tool_use": _apply_family,
}
DEFAULT_FAMILY: Final = "cases"


@functools.cache
def hints() -> dict[str, dict[str, str]]:
    """The hint for each exercise's case families (``data/exercise_hints.json``), read once."""
    text = resources.files("hookcourse").joinpath("data/exercise_hints.json").read_text("utf-8")
    loaded: dict[str, dict[str, str]] = json.loads(text)
    return loaded


def family(function: str, arguments: Arguments) -> str:
    """The family of one call of the exercise named ``function``."""
    classify = FAMILIES.get(function)
    return DEFAULT_FAMILY if classify is None else classify(arguments)


def hint(function: str, case_family: str) -> str | None:
    """The hint for one family of an exercise, or None when there is none."""
    return hints().get(function, {}).get(case_family)
