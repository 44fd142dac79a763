"""JavaScript value semantics the course's reference relies on.

JSON read into Python keeps JavaScript's distinctions: a missing key is
``UNDEFINED`` (not ``None``, which is JSON ``null``), every number is a
double, and ``True`` is never the number ``1``.
"""

from __future__ import annotations

import math

TYPE_CHECKING = False  # typing costs the grader's cold start; it is needed by mypy only
if TYPE_CHECKING:
    from typing import Final, TypeAlias, TypeVar

    _Fallback = TypeVar("_Fallback")


class Undefined:
    """JavaScript ``undefined``: a key that is absent, not one that is ``null``."""

    _instance: Undefined | None = None

    def __new__(cls) -> Undefined:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNDEFINED"

    def __bool__(self) -> bool:
        return False


UNDEFINED: Final = Undefined()

JSValue: TypeAlias = "bool | int | float | str | list[JSValue] | dict[str, JSValue] | None"
"""A value JSON can carry; numbers may be ``int`` when built by hand in Python."""

# ECMAScript WhiteSpace and LineTerminator (ES2024 §12.2, §12.3): what trim() removes.
# Unlike str.strip(), it keeps U+001C-U+001F and U+0085 and removes U+FEFF.
JS_WHITESPACE: Final = frozenset(
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_JS_WHITESPACE_CHARS: Final = "".join(sorted(JS_WHITESPACE))


def js_trim(text: str) -> str:
    """``text.trim()`` as JavaScript does it."""
    return text.strip(_JS_WHITESPACE_CHARS)


def js_trim_start(text: str) -> str:
    """``text.trimStart()`` as JavaScript does it."""
    return text.lstrip(_JS_WHITESPACE_CHARS)


def is_nullish(value: object) -> bool:
    """True where ``value ?? fallback`` takes the fallback: ``null`` or ``undefined`` only."""
    return value is None or value is UNDEFINED


def js_length(text: str) -> int:
    """``text.length``: UTF-16 code units, so an astral character counts two."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def nullish_or(value: JSValue | Undefined, fallback: _Fallback) -> JSValue | _Fallback:
    """``value ?? fallback``: only null and undefined fall back; ``""``, 0 and ``{}`` stay."""
    if value is None or isinstance(value, Undefined):
        return fallback
    return value


def null_if_undefined(value: JSValue | Undefined) -> JSValue:
    """``value ?? null``: a report field that is always present, ``null`` when undefined."""
    return None if isinstance(value, Undefined) else value


def is_js_number(value: object) -> bool:
    """True for a JavaScript number; ``True`` and ``False`` are booleans, not numbers."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def strict_equals_number(value: object, number: float) -> bool:
    """``value === number`` for a numeric literal: only a number of the same value."""
    return is_js_number(value) and value == number


def js_number(value: int | float) -> float:
    """The double JavaScript would hold for ``value`` (huge integers become infinities)."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def number_to_string(value: int | float) -> str:
    """``Number.prototype.toString()`` in base 10 (ES2024 §6.1.6.1.20)."""
    number = js_number(value)
    if math.isnan(number):
        return "NaN"
    if number == 0:
        return "0"
    if number < 0:
        return "-" + number_to_string(-number)
    if math.isinf(number):
        return "Infinity"
    # repr() gives the shortest digits that round-trip, as the spec requires.
    mantissa, _, exponent = repr(number).partition("e")
    whole, _, fraction = mantissa.partition(".")
    raw = whole + fraction
    significant = raw.lstrip("0")
    # n is where the decimal point falls after the significant digits' first one.
    n = len(whole) + int(exponent or "0") - (len(raw) - len(significant))
    digits = significant.rstrip("0")
    k = len(digits)
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + digits
    sign = "+" if n - 1 >= 0 else "-"
    if k == 1:
        return f"{digits}e{sign}{abs(n - 1)}"
    return f"{digits[0]}.{digits[1:]}e{sign}{abs(n - 1)}"


def js_to_string(value: JSValue | Undefined) -> str:
    """``String(value)`` for a JSON-shaped value."""
    if value is UNDEFINED:
        return "undefined"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return number_to_string(value)
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return ",".join("" if is_nullish(item) else js_to_string(item) for item in value)
    return "[object Object]"
