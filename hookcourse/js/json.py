"""JSON as JavaScript reads it (``JSON.parse``) and writes it (``JSON.stringify``).

Parsing uses CPython's C scanner (``_json``) directly: ``json`` itself would
import ``re``, which the grader's cold start cannot afford, and the scanner is
the same code ``json.loads`` runs.
"""

from __future__ import annotations

import math
import sys

from hookcourse.js.values import UNDEFINED, js_number, number_to_string

try:
    from _json import encode_basestring as _quote_basic
    from _json import make_scanner as _make_scanner
except ImportError:  # an interpreter without the accelerator: json's own Python code
    from json.encoder import py_encode_basestring as _quote_basic
    from json.scanner import make_scanner as _make_scanner

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final, TypeVar

    _T = TypeVar("_T")

    from hookcourse.js.values import JSValue

_MAX_ARRAY_INDEX: Final = 2**32 - 2
# JSON.parse in V8 has no nesting limit; Python's scanner and writer recurse. Nesting deeper
# than the interpreter allows is retried on a thread with a large stack and this limit.
DEEP_NESTING: Final = 50_000
_DEEP_STACK_BYTES: Final = 512 * 1024 * 1024
_JSON_WHITESPACE: Final = " \t\n\r"


class JSONSyntaxError(ValueError):
    """Text that ``JSON.parse`` rejects; ``line`` and ``column`` are 1-based (0 = unknown)."""

    def __init__(self, message: str, line: int = 0, column: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column

    @classmethod
    def at(cls, message: str, text: str, index: int) -> JSONSyntaxError:
        """An error at character ``index`` of ``text``."""
        line = text.count("\n", 0, index) + 1
        return cls(message, line, index - (text.rfind("\n", 0, index) + 1) + 1)

    def __str__(self) -> str:
        if self.line:
            return f"{self.message} at line {self.line}, column {self.column}"
        return self.message


def _reject_constant(name: str) -> JSValue:
    # The C scanner accepts NaN and Infinity; JSON.parse does not.
    raise ValueError(f"{name} is not JSON")


class _ScannerContext:
    """The settings json.JSONDecoder hands its scanner, JavaScript's way."""

    strict = True  # raw control characters in strings are errors, as in JSON.parse
    object_hook = None
    object_pairs_hook = None  # a plain dict: a repeated key keeps its first place, last value
    memo: dict[str, str] = {}  # noqa: RUF012 (the scanner reads it as a plain attribute)

    def __init__(self) -> None:
        self.parse_float = float
        self.parse_int = float  # JavaScript has one number type
        self.parse_constant = _reject_constant


_scan = _make_scanner(_ScannerContext())  # type: ignore[arg-type]


def _skip_whitespace(text: str, index: int) -> int:
    while index < len(text) and text[index] in _JSON_WHITESPACE:
        index += 1
    return index


def _scan_value(text: str, start: int) -> tuple[JSValue, int]:
    try:
        return _scan(text, start)
    except SystemError:
        # CPython 3.11's C scanner builds its error from json.decoder.JSONDecodeError only
        # when json.decoder is already imported; otherwise it fails with a bare SystemError.
        # The grader never imports json (it pulls in re), so import it on this error path
        # alone and scan again for the real message and position.
        import json.decoder  # noqa: F401

        return _scan(text, start)


def _deeply(work: Callable[[], _T], limit: int = DEEP_NESTING) -> _T:
    """``work()`` on a thread with a large stack and a recursion limit of ``limit``.

    Only deeply nested JSON gets here, so ``threading`` stays off the grader's usual path.
    """
    import threading

    outcome: list[_T] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            outcome.append(work())
        except BaseException as error:  # handed to the caller's thread below
            failure.append(error)

    previous_limit, previous_stack = sys.getrecursionlimit(), threading.stack_size()
    sys.setrecursionlimit(max(previous_limit, limit))
    try:
        threading.stack_size(_DEEP_STACK_BYTES)
        worker = threading.Thread(target=run, name="deep JSON")
        worker.start()
        worker.join()
    finally:
        threading.stack_size(previous_stack)
        sys.setrecursionlimit(previous_limit)
    if failure:
        raise failure[0]
    return outcome[0]


def parse(text: str) -> JSValue:
    """``JSON.parse(text)``: numbers become doubles; NaN, Infinity and a BOM are errors.

    Nesting deeper than the interpreter's recursion limit is parsed on a deep stack,
    up to DEEP_NESTING levels, as JSON.parse would parse it.
    """
    try:
        return _parse(text)
    except RecursionError:
        pass
    try:
        # The C scanner spends two levels of the limit on each level of nesting.
        return _deeply(lambda: _parse(text), 2 * DEEP_NESTING + 100)
    except RecursionError:
        raise JSONSyntaxError(f"JSON is nested more than {DEEP_NESTING} levels deep") from None


def _parse(text: str) -> JSValue:
    if text.startswith("\ufeff"):
        raise JSONSyntaxError.at("Unexpected byte-order mark (U+FEFF) before the value", text, 0)
    start = _skip_whitespace(text, 0)
    try:
        value, end = _scan_value(text, start)
    except StopIteration as stop:
        raise JSONSyntaxError.at("Expecting a value", text, stop.value) from None
    except SystemError:
        raise JSONSyntaxError("not valid JSON") from None
    except ValueError as error:  # json.JSONDecodeError carries its own position
        position = getattr(error, "pos", None)
        # Some of the scanner's messages end in " at", meant to be followed by a position.
        message = getattr(error, "msg", str(error)).removesuffix(" at")
        if position is None:
            raise JSONSyntaxError(message) from None
        raise JSONSyntaxError.at(message, text, position) from None
    end = _skip_whitespace(text, end)
    if end != len(text):
        raise JSONSyntaxError.at("Unexpected text after the JSON value", text, end)
    return value


def quote(text: str) -> str:
    """A JSON string literal as ``JSON.stringify`` writes it, lone surrogates escaped."""
    quoted: str = _quote_basic(text)
    try:
        quoted.encode("utf-8")
    except UnicodeEncodeError:
        return _escape_surrogates(quoted)
    return quoted


def _escape_surrogates(quoted: str) -> str:
    """Join split surrogate pairs and write lone surrogates as ``\\udxxx``, as ES2019 does."""
    out: list[str] = []
    i = 0
    while i < len(quoted):
        point = ord(quoted[i])
        if (
            0xD800 <= point <= 0xDBFF
            and i + 1 < len(quoted)
            and "\udc00" <= quoted[i + 1] <= "\udfff"
        ):
            out.append(chr(0x10000 + ((point - 0xD800) << 10) + (ord(quoted[i + 1]) - 0xDC00)))
            i += 2
            continue
        out.append(f"\\u{point:04x}" if 0xD800 <= point <= 0xDFFF else quoted[i])
        i += 1
    return "".join(out)


def _is_array_index(key: str) -> bool:
    return (
        key.isascii()
        and key.isdigit()
        and (key == "0" or key[0] != "0")
        and int(key) <= _MAX_ARRAY_INDEX
    )


def js_key_order(keys: list[str]) -> list[str]:
    """Object keys in JavaScript's own-property order: array indices ascending, then the rest."""
    indices = sorted((k for k in keys if _is_array_index(k)), key=int)
    return indices + [k for k in keys if not _is_array_index(k)]


def stringify(value: object) -> str:
    """``JSON.stringify(value)`` without indentation; top-level ``undefined`` gives ``"null"``.

    ``value`` is JSON-shaped, with ``UNDEFINED`` allowed anywhere; anything else is a TypeError.
    Deeply nested values are written on a deep stack, as for ``parse``.
    """
    parts: list[str] = []
    try:
        _write(value, parts.append)
    except RecursionError:
        parts.clear()
        # Room above what parse accepts: the grader nests the input a few levels deeper.
        _deeply(lambda: _write(value, parts.append), DEEP_NESTING + 1000)
    return "".join(parts)


def _write(value: object, emit: Callable[[str], object]) -> None:
    if value is None or value is UNDEFINED:
        emit("null")
    elif value is True:
        emit("true")
    elif value is False:
        emit("false")
    elif isinstance(value, int | float):
        number = js_number(value)
        emit(number_to_string(number) if math.isfinite(number) else "null")
    elif isinstance(value, str):
        emit(quote(value))
    elif isinstance(value, list):
        emit("[")
        for index, item in enumerate(value):
            if index:
                emit(",")
            _write(item, emit)
        emit("]")
    elif isinstance(value, dict):
        emit("{")
        first = True
        for key in js_key_order(list(value)):
            item = value[key]
            if item is UNDEFINED:
                continue
            if not first:
                emit(",")
            first = False
            emit(quote(key))
            emit(":")
            _write(item, emit)
        emit("}")
    else:
        raise TypeError(f"not a JSON value: {type(value).__name__}")
