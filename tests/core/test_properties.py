"""Totality: the course functions, and the grader around them, never raise."""

from __future__ import annotations

import io
import os
import sys
import tempfile
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from hookcourse import grader
from hookcourse.js import json as jsjson
from hookcourse.js.regex import RegexEngine, regex_error, regex_test
from hookcourse.js.values import UNDEFINED, is_nullish
from hookcourse.stages.answers import HookResult
from hookcourse.stages.decide_and_modify.reference import apply_pre_tool_use
from hookcourse.stages.matcher_and_dispatch.reference import match_hook
from hookcourse.stages.matcher_and_dispatch.verdicts import interpret_exit_code
from hookcourse.stages.merge_decisions.reference import STRENGTH, merge_pre_tool_use
from hookcourse.stages.stop_loop.reference import CAP_RANGE, StopHook, run_stop_loop

# Text that reaches the corners: lone surrogates, astral characters, JS-only whitespace.
_ODD_CHARACTERS = (
    "\ud800\udc00\ud83d\ude00😀\U0001d49c\ufeff\u00a0\u2028\u180e\u0085\u001c\x00\r\né"
)
texts = st.text(alphabet=st.characters() | st.sampled_from(_ODD_CHARACTERS))
numbers = st.integers() | st.floats(allow_nan=False, allow_infinity=False)
json_values = st.recursive(
    st.none() | st.booleans() | numbers | texts,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=12,
)
maybe_missing = json_values | st.just(UNDEFINED)

# Fragments that make regex parsers work: groups, classes, escapes, quantifiers, ES2025.
_REGEX_TOKENS = (
    "a", "B", "é", "😀", "\ud83d", "|", ".", "^", "$", "*", "+", "?", "{", "}", "{2}", "{,2}",
    "{2,1}", "(", ")", "(?:", "(?=", "(?!", "(?<=", "(?<!", "(?<n>", "\\k<n>", "(?i:", "(?-s:",
    "(?P<n>", "(?i)", "[", "]", "[^", "-", "\\", "\\b", "\\B", "\\d", "\\w", "\\s", "\\u",
    "\\u{", "\\ud83d", "\\uDE00", "\\x", "\\c", "\\0", "\\1", "\\8", "\\p{L}", "\\k", "\\/",
)  # fmt: skip
patterns = st.lists(st.sampled_from(_REGEX_TOKENS), max_size=10).map("".join) | texts
engines = st.sampled_from(list(RegexEngine))

_PROGRAM_KEYS = (
    "cases", "exitCases", "matcher", "tool", "code", "stdout", "stderr", "output", "input",
    "results", "toolInput", "hook", "whenInactive", "whenActive", "cap",
)  # fmt: skip
_HOOK_KEYS = (
    "decision", "reason", "updatedInput", "additionalContext", "hookSpecificOutput",
    "hookEventName", "permissionDecision", "permissionDecisionReason", "continue", "stopReason",
)  # fmt: skip
_COMMANDS = ["hook-match", "hook-apply", "hook-merge", "hook-stop"]


@given(matcher=st.none() | patterns, tool=maybe_missing)
def test_match_hook_never_raises(matcher: str | None, tool: Any) -> None:
    assert isinstance(match_hook(matcher, tool), bool)


@given(pattern=patterns, subject=texts, engine=engines)
def test_an_invalid_regex_matches_nothing(pattern: str, subject: str, engine: RegexEngine) -> None:
    error = regex_error(pattern, engine)
    matched = regex_test(pattern, subject, engine)
    assert error is None or isinstance(error, str)
    assert error is None or matched is False


@given(code=maybe_missing, stderr=texts)
def test_interpret_exit_code_never_raises(code: Any, stderr: str) -> None:
    verdict = interpret_exit_code(code, stderr)
    assert not (verdict.block and verdict.warn)
    if verdict.block:
        assert isinstance(verdict.reason, str) and verdict.reason
    jsjson.stringify(verdict.to_json())


@given(
    output=st.dictionaries(st.sampled_from(_HOOK_KEYS) | texts, json_values, max_size=5),
    tool_input=maybe_missing,
)
def test_apply_pre_tool_use_never_raises(output: dict[str, Any], tool_input: Any) -> None:
    effect = apply_pre_tool_use(output, tool_input)
    if not effect.allowed:
        assert effect.input is tool_input and effect.injected_context is None
    else:
        assert effect.reason is None
        assert not is_nullish(effect.input) or is_nullish(tool_input)
    jsjson.stringify(effect.to_json())


def _document(keys: tuple[str, ...]) -> st.SearchStrategy[Any]:
    """JSON documents shaped loosely like case files: right keys, any values."""
    return st.recursive(
        json_values,
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.dictionaries(st.sampled_from(keys) | texts, inner, max_size=4)
        ),
        max_leaves=16,
    )


def _run_grader(command: str, content: bytes) -> tuple[int, str, bytes]:
    handle, path = tempfile.mkstemp(suffix=".json")
    with os.fdopen(handle, "wb") as file:
        file.write(content)
    stdout, stderr = io.TextIOWrapper(io.BytesIO(), encoding="utf-8"), io.StringIO()
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = stdout, stderr
    try:
        status = grader.main([command, path])
    finally:
        sys.stdout, sys.stderr = saved
        os.unlink(path)
    stdout.flush()
    return status, stderr.getvalue(), stdout.detach().getvalue()  # type: ignore[attr-defined]


@settings(max_examples=200, deadline=None)
@given(
    command=st.sampled_from(_COMMANDS),
    document=_document(_PROGRAM_KEYS + _HOOK_KEYS),
)
def test_grader_answers_any_json_with_output_or_one_line(command: str, document: Any) -> None:
    """Any JSON document: either a JSON answer on stdout, or exit 2 with one stderr line."""
    status, stderr, stdout = _run_grader(command, jsjson.stringify(document).encode("utf-8"))
    if status == 0:
        assert stderr == ""
        jsjson.parse(stdout.decode("utf-8"))
    else:
        assert status == 2 and stdout == b""
        assert stderr.endswith("\n") and stderr.count("\n") == 1


@settings(max_examples=200, deadline=None)
@given(command=st.sampled_from(_COMMANDS), content=st.binary(max_size=64))
def test_grader_answers_any_bytes_with_output_or_one_line(command: str, content: bytes) -> None:
    status, stderr, stdout = _run_grader(command, content)
    assert status in (0, 2)
    if status == 2:
        assert stdout == b"" and stderr.count("\n") == 1


# A hook's stdout: text, or JSON objects shaped like hook output, with or without noise.
_hook_json = st.dictionaries(
    st.sampled_from(_HOOK_KEYS) | texts,
    json_values | st.dictionaries(st.sampled_from(_HOOK_KEYS), json_values, max_size=5),
    max_size=5,
)
stdouts = texts | st.tuples(texts, _hook_json).map(
    lambda pair: pair[0][:3] + jsjson.stringify(pair[1])
)
hook_results = st.builds(HookResult, maybe_missing, stdouts, texts)


@given(results=st.lists(hook_results, max_size=5), tool_input=json_values)
def test_merge_pre_tool_use_never_raises(results: list[HookResult], tool_input: Any) -> None:
    merged = merge_pre_tool_use(results, tool_input)
    assert merged.decision is None or merged.decision in STRENGTH
    if merged.decision == "deny":
        assert merged.input is tool_input and merged.contexts == ()
        assert isinstance(merged.reason, str) or merged.reason is None
    if merged.decision is None:
        assert merged.reason is None
    jsjson.stringify(merged.to_json())


@given(
    inactive=hook_results,
    active=hook_results,
    cap=st.integers(CAP_RANGE.start, CAP_RANGE.stop - 1),
)
def test_run_stop_loop_always_ends(inactive: HookResult, active: HookResult, cap: int) -> None:
    turns = run_stop_loop(StopHook(inactive, active), cap)
    *going, last = turns
    assert all(turn.continues and not turn.capped for turn in going)
    assert not last.continues
    assert len(turns) <= cap + 1
    assert last.capped == (len(turns) == cap + 1)
    assert [turn.stop_hook_active for turn in turns] == [False] + [True] * (len(turns) - 1)
    jsjson.stringify([turn.to_json() for turn in turns])
