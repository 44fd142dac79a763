"""Reading a stage's case file: each case turned into its function's arguments, as the seed does.

Shared by the grader entry, the notebook checks and the labs. A case the course's
JavaScript reference would throw on is a ``CaseError`` naming the field and the
fix. Kept to the standard library: this is on the grader's cold path.
"""

from __future__ import annotations

from hookcourse.js import json as jsjson
from hookcourse.js.values import UNDEFINED, Undefined, js_to_string
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


def not_null(case: JSValue) -> JSValue:
    """``case`` itself; a null case is a CaseError (reading a property of null throws)."""
    if case is None:  # reading a property of null throws in JavaScript
        raise CaseError(None, "a case is null", "write the case as an object")
    return case
