"""A learner's classic mistakes as switches in a model of their function: the shared parts.

A ``Mistake`` ties a switch to the hint key that names it; the helpers read a learner's
values the way a mistaken function would (Python's ``==``, ``json.loads``, ``str.strip``).
Pure: nothing here runs the learner's code.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final, TypeAlias

from hookcourse.js import json as jsjson
from hookcourse.js.values import (
    UNDEFINED,
    JSValue,
    Undefined,
    is_js_number,
    js_trim,
)

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


def python_loads(text: str) -> object:
    """``json.loads(text)`` or, failing that, UNDEFINED (Python's parser, not JavaScript's)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return jsjson.parse(text)
    except (jsjson.JSONSyntaxError, RecursionError, ValueError):
        return UNDEFINED


def member_or_undefined(value: object, key: str) -> object:
    return value.get(key, UNDEFINED) if isinstance(value, Mapping) else UNDEFINED


def stream_text(result: object, name: str) -> str:
    value = member_or_undefined(result, name)
    return value if isinstance(value, str) else ""


def as_json(value: object) -> Answer:
    """A model's answer as the JSON the check compares (undefined members vanish)."""
    return jsjson.parse(jsjson.stringify(value))


def python_str(value: object) -> str:
    return "None" if value is UNDEFINED else str(value)
