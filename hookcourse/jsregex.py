"""``new RegExp(pattern).test(subject)`` with no flags, as a JavaScript engine runs it.

The matching itself is done by ``regress``, an ECMAScript regex engine (Annex B
legacy syntax always on). A pre-pass closes the gaps between regress and the
JavaScript engines that matter here:

* ``\\b`` / ``\\B`` followed by a quantifier is a SyntaxError in JavaScript;
  regress accepts it.
* Without the ``u`` flag, ``\\u{41}`` is the letter ``u`` then ``{41}``;
  regress decodes it as a code point escape.
* JavaScript matches UTF-16 code units; regress matches code points. Surrogate
  code units are mapped to a private-use block on both sides, so ``.`` matches
  one half of an emoji, as it does in JavaScript.
* Node 20 (V8) predates ES2025: it rejects modifier groups ``(?i:...)`` and
  duplicate group names. Bun (JavaScriptCore), which Claude Code ships on,
  accepts both, as regress does.
"""

from __future__ import annotations

import regress

from hookcourse.record import Choice

TYPE_CHECKING = False  # typing, enum, re and functools would triple the grader's cold start
if TYPE_CHECKING:
    from typing import ClassVar, Final


class RegexEngine(Choice):
    """Which JavaScript engine's RegExp syntax to follow (compare with ``==``)."""

    __slots__ = ()
    NODE: ClassVar[RegexEngine]  # Node 20 / V8: the course's JavaScript reference
    BUN: ClassVar[RegexEngine]  # Bun / JavaScriptCore: Claude Code since ~2.1.113


RegexEngine.NODE = RegexEngine("node")
RegexEngine.BUN = RegexEngine("bun")


class _Invalid(Exception):
    """The pattern is a SyntaxError in the selected engine."""


_SURROGATE_FIRST: Final = 0xD800
_SURROGATE_COUNT: Final = 0x800
# Private-use blocks the size of the surrogate range, tried in order; the first one
# that neither the pattern nor the subject uses stands in for the surrogates.
_STAND_IN_BLOCKS: Final = (0xE000, 0xF000)
_HEX: Final = frozenset("0123456789abcdefABCDEF")
_DIGITS: Final = frozenset("0123456789")
_CACHE_LIMIT: Final = 4096
# (pattern, engine, stand-in block) -> (compiled regex, None) or (None, SyntaxError text)
_compiled: dict[tuple[str, str, int], tuple[regress.Regex | None, str | None]] = {}


def _stand_in_base(*texts: str) -> int:
    if all(text.isascii() for text in texts):
        return _STAND_IN_BLOCKS[0]
    for base in _STAND_IN_BLOCKS:
        low, high = chr(base), chr(base + _SURROGATE_COUNT - 1)
        if not any(low <= ch <= high for text in texts for ch in text):
            return base
    return _STAND_IN_BLOCKS[0]


def _has_wide_or_surrogate(text: str) -> bool:
    # Pure ASCII is the common case and str.isascii() is a single C call.
    return not text.isascii() and any(
        ch >= "\U00010000" or "\ud800" <= ch <= "\udfff" for ch in text
    )


def _to_code_units(text: str, base: int) -> str:
    """Rewrite astral characters and surrogates as stand-ins for their UTF-16 code units."""
    if not _has_wide_or_surrogate(text):
        return text
    out: list[str] = []
    for ch in text:
        point = ord(ch)
        if point >= 0x10000:
            point -= 0x10000
            high, low = 0xD800 + (point >> 10), 0xDC00 + (point & 0x3FF)
            out.append(chr(base + high - _SURROGATE_FIRST))
            out.append(chr(base + low - _SURROGATE_FIRST))
        elif _SURROGATE_FIRST <= point < _SURROGATE_FIRST + _SURROGATE_COUNT:
            out.append(chr(base + point - _SURROGATE_FIRST))
        else:
            out.append(ch)
    return "".join(out)


def _quantifier_at(pattern: str, index: int) -> bool:
    if index >= len(pattern):
        return False
    if pattern[index] in "*+?":
        return True
    return pattern[index] == "{" and _braced_quantifier_end(pattern, index) > 0


def _braced_quantifier_end(pattern: str, index: int) -> int:
    """The end of ``{n}``, ``{n,}`` or ``{n,m}`` starting at ``index``, or 0 if there is none."""
    i = index + 1
    start = i
    while i < len(pattern) and pattern[i] in _DIGITS:
        i += 1
    if i == start:
        return 0
    if i < len(pattern) and pattern[i] == ",":
        i += 1
        while i < len(pattern) and pattern[i] in _DIGITS:
            i += 1
    return i + 1 if i < len(pattern) and pattern[i] == "}" else 0


def _hex_at(text: str, index: int, count: int) -> int | None:
    """The value of ``count`` hex digits at ``index``, or None."""
    digits = text[index : index + count]
    if len(digits) != count or not set(digits) <= _HEX:
        return None
    return int(digits, 16)


def _group_name(pattern: str, start: int) -> str | None:
    end = pattern.find(">", start)
    if end < 0:
        return None
    raw, name, i = pattern[start:end], [], 0
    while i < len(raw):  # \uXXXX escapes spell the same name as the letters they stand for
        unit = _hex_at(raw, i + 2, 4) if raw.startswith("\\u", i) else None
        name.append(raw[i] if unit is None else chr(unit))
        i += 1 if unit is None else 6
    return "".join(name)


def _prepass(pattern: str, engine: str, base: int) -> str:
    """The pattern regress should compile; raises _Invalid where JavaScript throws."""
    out: list[str] = []
    names: set[str] = set()
    in_class = False
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            escaped = pattern[i + 1]
            if escaped in "bB" and not in_class and _quantifier_at(pattern, i + 2):
                raise _Invalid("Nothing to repeat")
            if escaped == "u" and pattern.startswith("{", i + 2):
                out.append(
                    "u"
                )  # an identity escape; the braces after it are literal or a quantifier
                i += 2
                continue
            unit = _hex_at(pattern, i + 2, 4) if escaped == "u" else None
            if unit is not None and _SURROGATE_FIRST <= unit < _SURROGATE_FIRST + _SURROGATE_COUNT:
                out.append(f"\\u{base + unit - _SURROGATE_FIRST:04x}")
                i += 6
                continue
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if in_class:
            in_class = ch != "]"
        elif ch == "[":
            # In JavaScript "[]" and "[^]" are complete classes: a "]" right after "[" or
            # "[^" closes the class instead of being a literal.
            opener = 2 if pattern.startswith("[^", i) else 1
            out.append(pattern[i : i + opener])
            i += opener
            in_class = not pattern.startswith("]", i)
            if not in_class:
                out.append("]")
                i += 1
            continue
        elif ch == "(" and pattern.startswith("(?", i) and engine == RegexEngine.NODE:
            kind = pattern[i + 2 : i + 3]
            if kind not in (":", "=", "!", "<"):
                raise _Invalid("Invalid group")
            if kind == "<" and pattern[i + 3 : i + 4] not in ("=", "!"):
                name = _group_name(pattern, i + 3)
                if name is not None and name in names:
                    raise _Invalid("Duplicate capture group name")
                if name is not None:
                    names.add(name)
        out.append(ch)
        i += 1
    return _to_code_units("".join(out), base)


def _compile(pattern: str, engine: str, base: int) -> tuple[regress.Regex | None, str | None]:
    key = (pattern, engine, base)
    found = _compiled.get(key)
    if found is not None:
        return found
    try:
        result: tuple[regress.Regex | None, str | None] = (
            regress.Regex(_prepass(pattern, engine, base)),
            None,
        )
    except _Invalid as error:
        result = (None, str(error))
    except Exception as error:  # RegressError, or a pattern regress cannot take as text
        result = (None, str(error).strip() or type(error).__name__)
    if len(_compiled) >= _CACHE_LIMIT:
        _compiled.clear()
    _compiled[key] = result
    return result


def regex_error(pattern: str, engine: str) -> str | None:
    """The SyntaxError ``new RegExp(pattern)`` throws in ``engine``, or None when it compiles."""
    return _compile(pattern, engine, _stand_in_base(pattern))[1]


def regex_test(pattern: str, subject: str, engine: str) -> bool:
    """``new RegExp(pattern).test(subject)``; a pattern that does not compile gives False."""
    base = _stand_in_base(pattern, subject)
    regex = _compile(pattern, engine, base)[0]
    if regex is None:
        return False
    try:
        return regex.find(_to_code_units(subject, base)) is not None
    except Exception:  # defensive: regress refusing a subject must not escape as a traceback
        return False


def engine_dependent(pattern: str) -> bool:
    """True when Node 20 and Bun disagree on whether ``pattern`` compiles."""
    return (regex_error(pattern, RegexEngine.NODE) is None) != (
        regex_error(pattern, RegexEngine.BUN) is None
    )
