"""Which misreading of JavaScript a case of this stage catches: its hint family.

Worked out from the case as its decoder read it (``Decoded``: the parsed arguments,
never parsed again here). Named by the stage's ``Exercise.classify``; the hint texts
are ``hints.json`` beside it.
"""

from __future__ import annotations

from hookcourse.course.checks.pitfalls import python_re_search, python_thinks_name_list
from hookcourse.js.regex import RegexEngine, regex_error, regex_test
from hookcourse.js.values import (
    is_js_number,
    js_trim,
    strict_equals_number,
)
from hookcourse.stages.decoding import Decoded
from hookcourse.stages.matcher_and_dispatch.reference import MatchBranch, explain_match


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


def exit_hinted_family(family: str, case: Decoded, field: str | int | None) -> str:
    """A wrong reason of a ``strict-equality`` case whose stderr JavaScript trims: the
    code decides block or warn, the reason is trim()'s."""
    if family == "strict-equality" and field == "reason":
        stderr = case.parsed[1]
        text = stderr if isinstance(stderr, str) else ""
        if js_trim(text) and js_trim(text) != text:
            return "js-trim"
    return family
