"""Reading a stage's case file: each case turned into its function's arguments, as the seed does.

Shared by the grader entry, the notebook checks and the labs. A case the course's
JavaScript reference would throw on is a ``CaseError`` naming the field and the
fix. Kept to the standard library: this is on the grader's cold path.
"""

from __future__ import annotations

from hookcourse.js import json as jsjson
from hookcourse.js.values import UNDEFINED, Undefined, js_to_string, strict_equals_number
from hookcourse.record import Record

TYPE_CHECKING = False  # typing alone would add half a node start-up to the grader
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from hookcourse.js.values import JSValue

_SHOWN_STRING = 60  # characters of a string quoted in a message; longer ones are cut


def describe_value(value: JSValue | Undefined) -> str:
    """A JSON value in words, for messages: "null", "the number 2", "an object"."""
    if value is UNDEFINED:
        return "nothing (the key is missing)"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the boolean {js_to_string(value)}"
    if isinstance(value, int | float):
        return f"the number {js_to_string(value)}"
    if isinstance(value, str):
        cut = value if len(value) <= _SHOWN_STRING else value[: _SHOWN_STRING - 1] + "…"
        return f"the string {jsjson.quote(cut)}"
    return "an array" if isinstance(value, list) else "an object"


def member(value: JSValue | Undefined, key: str) -> JSValue | Undefined:
    """``value[key]`` for a non-null value: primitives and arrays have none of our keys."""
    return value.get(key, UNDEFINED) if isinstance(value, dict) else UNDEFINED


class CaseError(ValueError):
    """One case the JavaScript reference would throw on; ``key`` is the offending field.

    ``key`` may also be a path inside the case (``("results", 1, "stdout")``); ``steps``
    is that path as a tuple, empty when the case itself is at fault.
    """

    def __init__(self, key: str | Sequence[str | int] | None, problem: str, fix: str) -> None:
        super().__init__(problem)
        self.steps: tuple[str | int, ...] = (
            () if key is None else (key,) if isinstance(key, str) else tuple(key)
        )
        self.problem = problem
        self.fix = fix

    @property
    def key(self) -> str | int | None:
        """The offending field itself: the last step of the path, None for the whole case."""
        return self.steps[-1] if self.steps else None

    def inside(self, *outer: str | int) -> CaseError:
        """The same error with its path under ``outer`` (a list's key and an index)."""
        return CaseError((*outer, *self.steps), self.problem, self.fix)


class Decoded(Record):
    """One case read once: ``given``, the arguments the learner's function gets (the case's
    values as written), and ``parsed``, those the course's reference takes (the same
    values, or records parsed from them)."""

    _fields = ("given", "parsed")
    __slots__ = _fields
    given: tuple[Any, ...]
    parsed: tuple[Any, ...]

    def __init__(self, given: tuple[Any, ...], parsed: tuple[Any, ...] | None = None) -> None:
        self._fill(given, given if parsed is None else parsed)


def _not_null(case: JSValue) -> JSValue:
    if case is None:  # reading a property of null throws in JavaScript
        raise CaseError(None, "a case is null", "write the case as an object")
    return case


def match_arguments(case: JSValue) -> Decoded:
    """``(c.matcher, c.tool)`` for matchHook; None stands for an omitted matcher."""
    matcher = member(_not_null(case), "matcher")
    if not isinstance(matcher, str | Undefined):
        raise CaseError(
            "matcher",
            f"matcher must be a string or left out, got {describe_value(matcher)}",
            'write the matcher as a string such as "Bash", or leave the key out',
        )
    return Decoded((matcher if isinstance(matcher, str) else None, member(case, "tool")))


def exit_arguments(case: JSValue) -> Decoded:
    """``(e.code, e.stderr ?? "")`` for interpretExitCode: the seed's stderr is optional."""
    code, stderr = member(_not_null(case), "code"), member(case, "stderr")
    if isinstance(stderr, str):
        return Decoded((code, stderr))
    if stderr is None or stderr is UNDEFINED or strict_equals_number(code, 0):
        return Decoded((code, ""))  # ?? reads null and a missing key as ""; code 0 never reads it
    # JavaScript calls stderr.trim() on every code but 0, which throws for a non-string.
    raise CaseError(
        "stderr",
        f"stderr must be a string or left out when code is not 0, got {describe_value(stderr)}",
        'write "stderr" as a string (it may be ""), or leave the key out',
    )


def apply_arguments(case: JSValue) -> Decoded:
    """``(x.output, x.input)`` for applyPreToolUse; a non-object output has none of its keys."""
    output = member(_not_null(case), "output")
    if output is None or isinstance(output, Undefined):
        raise CaseError(
            "output",
            f"output must be the hook's JSON output, got {describe_value(output)}",
            'give the case an "output" object, e.g. {}',
        )
    return Decoded((output if isinstance(output, dict) else {}, member(case, "input")))
