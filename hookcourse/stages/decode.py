"""Reading a stage's case out of parsed JSON: members, the value in words, and CaseError.

A case the JavaScript reference would throw on (or that its page calls invalid)
raises ``CaseError`` with the JSON path inside the case, so the grader can name
file, path, problem and fix in one line. Kept lean: the grader imports it.
"""

from __future__ import annotations

from hookcourse.js import json as jsjson
from hookcourse.js.values import UNDEFINED, Undefined, js_to_string

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from hookcourse.js.values import JSValue


def describe_value(value: JSValue | Undefined) -> str:
    """A JSON value in words, for error messages: "null", "the number 2", "an object"."""
    if value is UNDEFINED:
        return "nothing (the key is missing)"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the boolean {js_to_string(value)}"
    if isinstance(value, int | float):
        return f"the number {js_to_string(value)}"
    if isinstance(value, str):
        return f"the string {jsjson.quote(value)}"
    return "an array" if isinstance(value, list) else "an object"


def member(value: JSValue | Undefined, key: str) -> JSValue | Undefined:
    """``value[key]`` for a non-null value: primitives and arrays have none of our keys."""
    return value.get(key, UNDEFINED) if isinstance(value, dict) else UNDEFINED


class CaseError(ValueError):
    """One case the reference throws on; ``steps`` is the JSON path inside the case."""

    def __init__(self, key: str | Sequence[str | int] | None, problem: str, fix: str) -> None:
        super().__init__(problem)
        self.steps: tuple[str | int, ...] = (
            () if key is None else (key,) if isinstance(key, str) else tuple(key)
        )
        self.problem = problem
        self.fix = fix

    def inside(self, *outer: str | int) -> CaseError:
        """The same error with its path under ``outer`` (a list's key and index)."""
        return CaseError((*outer, *self.steps), self.problem, self.fix)
