"""``new RegExp(pattern).test(subject)`` with no flags, as a JavaScript engine runs it.

The matching itself is done by ``regress``, an ECMAScript regex engine (Annex B
legacy syntax always on). A pre-pass closes the gaps between regress and the
JavaScript engines that matter here:

* ``\\b`` / ``\\B`` followed by a quantifier is a SyntaxError in JavaScript;
  regress accepts it.
* Without the ``u`` flag, ``\\u{41}`` is the letter ``u`` then ``{41}``;
  regress decodes it as a code point escape.
* JavaScript matches UTF-16 code units; regress matches code points. Every
  surrogate code unit, in the pattern and in the subject, is written as a
  stand-in from the supplementary private-use block U+F0000-U+F07FF, which no
  rewritten text can otherwise contain (astral characters are split into their
  units first). So ``.`` matches one half of an emoji, as in JavaScript, and a
  class range that spans surrogates, such as ``[\\u0000-\\uffff]``, is split
  into its parts below, inside and above the surrogate block.
* Inside a ``(?i:...)`` group (Bun only), regress folds case by its own tables, not by
  the non-Unicode ``Canonicalize`` JavaScript uses: it matches U+017F (long s) with
  ``s`` and U+212A (Kelvin sign) with ``k``, for instance. JavaScriptCore keeps each of
  the few code units where the two differ to itself, so in a pattern with such a group
  those units get stand-ins too (after the surrogates'), which no case mapping touches,
  and ``\\W`` inside a class is spelled out without the original units.
* Node 20 (V8) predates ES2025: it rejects modifier groups ``(?i:...)`` and
  duplicate group names. Bun (JavaScriptCore), which Claude Code ships on,
  accepts both, as regress does.

Under Pyodide (the JupyterLite site) regress has no WebAssembly wheel; there the
browser's own ``RegExp`` compiles the original pattern instead
(``hookcourse.js.browser_regex``). The pre-pass still runs first, so the syntax a
profile rejects is rejected on either backend, whatever the browser's engine accepts.
"""

from __future__ import annotations

from hookcourse.js.pattern_text import outside_classes
from hookcourse.record import Choice

TYPE_CHECKING = False  # typing, enum, re and functools would triple the grader's cold start
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import ClassVar, Final, TypeAlias

    Tester: TypeAlias = Callable[[str], bool]  # new RegExp(p).test, bound to one pattern
    # (pattern, engine) -> (tester, None) or (None, SyntaxError text)
    _Compiled: TypeAlias = tuple[Tester | None, str | None]

try:
    import regress
except ModuleNotFoundError:  # Pyodide: the browser's RegExp is the backend
    from hookcourse.js.browser_regex import BACKEND, compile_tester, syntax_reason
else:
    from hookcourse.js.regress_errors import v8_reason

    BACKEND = "regress"

    def compile_tester(pattern: str, prepared: str, units: _StandIns) -> Tester:
        """regress on the pre-pass's rewrite, run over the subject's code units as stand-ins."""
        find = regress.Regex(prepared).find
        return lambda subject: find(units.text(subject)) is not None

    def syntax_reason(pattern: str, error: Exception) -> str:
        """regress's refusal of ``pattern`` in V8's words, as the browser backend gives it."""
        return v8_reason(pattern, str(error).strip())


class RegexEngine(Choice):
    """Which JavaScript engine's RegExp syntax to follow (compare with ``==``)."""

    __slots__ = ()
    _allowed = ("node", "bun")
    NODE: ClassVar[RegexEngine]  # Node 20 / V8: the course's JavaScript reference
    BUN: ClassVar[RegexEngine]  # Bun / JavaScriptCore: Claude Code since ~2.1.113


RegexEngine.NODE = RegexEngine("node")
RegexEngine.BUN = RegexEngine("bun")


class _Invalid(Exception):
    """The pattern is a SyntaxError in the selected engine."""


_SURROGATE_FIRST: Final = 0xD800
_SURROGATE_LAST: Final = 0xDFFF
# Stand-in for surrogate unit u: chr(_STAND_IN + u - 0xD800), in Supplementary Private Use
# Area-A. After the rewrite no other astral code point is left, so it cannot collide.
_STAND_IN: Final = 0xF0000
# The code units regress folds to other units under (?i:...) and JavaScriptCore does not
# (Bun 1.4.5 against regress 2026.9.1, every BMP unit compared: tests/oracle/case_exceptions.py).
_CASE_EXCEPTIONS: Final = (
    "00df 0131 017f 019b 0264 0390 03b0 03f4 1c89-1c8a 1e9e 1f80-1faf 1fb3 1fbc 1fc3 1fcc "
    "1fd3 1fe3 1ff3 1ffc 2126 212a-212b a7cb-a7cf a7d2-a7d5 a7da-a7dc fb05-fb06"
)
_CASE_STAND_IN: Final = _STAND_IN + _SURROGATE_LAST + 1 - _SURROGATE_FIRST
_HEX: Final = frozenset("0123456789abcdefABCDEF")
_DIGITS: Final = frozenset("0123456789")
_OCTAL: Final = frozenset("01234567")
_CLASS_ESCAPES: Final = frozenset("dDwWsS")
_CONTROL_ESCAPES: Final = {"b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, "-": 45}
_WORD_RANGES: Final = ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A))
_CACHE_LIMIT: Final = 4096


def _is_surrogate(unit: int) -> bool:
    return _SURROGATE_FIRST <= unit <= _SURROGATE_LAST


def _code_units(ch: str) -> list[int]:
    """The UTF-16 code units of one character (a lone surrogate is its own unit)."""
    point = ord(ch)
    if point < 0x10000:
        return [point]
    point -= 0x10000
    return [0xD800 + (point >> 10), 0xDC00 + (point & 0x3FF)]


class _StandIns:
    """The code units regress is shown as stand-ins, for one compiled pattern: every
    surrogate, and the case exceptions when part of the pattern can ignore case (other
    patterns keep those units as they are, so they pay nothing for them)."""

    __slots__ = ("_bmp", "case", "first", "last", "runs")

    def __init__(self, case_exceptions: str) -> None:
        runs = [(_SURROGATE_FIRST, _SURROGATE_LAST, _STAND_IN)]
        stand_in = _CASE_STAND_IN
        for item in case_exceptions.split():
            first, _, last = item.partition("-")
            low, high = int(first, 16), int(last or first, 16)
            runs.append((low, high, stand_in))
            stand_in += high - low + 1
        # Each run of mapped units: (first unit, last unit, first stand-in), in order.
        self.runs = tuple(sorted(runs))
        self.case = {
            unit: chr(stand_in + unit - first)
            for first, last, stand_in in runs[1:]
            for unit in range(first, last + 1)
        }
        self.first, self.last = self.runs[0][0], self.runs[-1][1]
        self._bmp: dict[int, str] = {}  # str.translate table for BMP text, built on first use

    def is_mapped(self, unit: int) -> bool:
        return _is_surrogate(unit) or unit in self.case

    def unit_text(self, unit: int) -> str:
        """How regress is shown one code unit: itself, or its stand-in."""
        if _is_surrogate(unit):
            return chr(_STAND_IN + unit - _SURROGATE_FIRST)
        return self.case.get(unit) or chr(unit)

    def text(self, text: str) -> str:
        """``text`` as regress should see it: one code point per UTF-16 code unit."""
        # Pure ASCII is the common case and str.isascii() is a single C call.
        if text.isascii():
            return text
        if max(text) <= "\uffff":  # one unit per character: translate runs in C
            if not self._bmp:
                self._bmp.update(
                    (unit, self.unit_text(unit))
                    for first, last, _ in self.runs
                    for unit in range(first, last + 1)
                )
            return text.translate(self._bmp)
        return "".join(self.unit_text(unit) for ch in text for unit in _code_units(ch))

    def range_text(self, low: int, high: int) -> str:
        """A class range over code units, as regress ranges over code points and
        stand-ins: the parts between mapped runs as they are, the mapped parts as
        stand-in ranges."""
        parts = []
        for first, last, stand_in in self.runs:
            if last < low or first > high:
                continue
            if low < first:
                parts.append(f"\\u{low:04x}-\\u{first - 1:04x}")
            inner_high = min(high, last)
            start, end = stand_in + max(low, first) - first, stand_in + inner_high - first
            parts.append(f"{chr(start)}-{chr(end)}")
            low = inner_high + 1
        if low <= high:
            parts.append(f"\\u{low:04x}-\\u{high:04x}")
        return "".join(parts)

    def non_word_class(self) -> str:
        """``\\W`` as class contents. With case exceptions it is spelled out, every unit
        that is not a word character with the mapped ones as stand-ins: under (?i:...)
        regress adds the case partners of a class's members, and the original long s and
        Kelvin sign would bring in ``s`` and ``k``, which JavaScript does not."""
        if not self.case:
            return "\\W"
        parts, low = [], 0
        for first, last in _WORD_RANGES:
            parts.append(self.range_text(low, first - 1))
            low = last + 1
        parts.append(self.range_text(low, 0xFFFF))
        return "".join(parts)


_SURROGATES_ONLY: Final = _StandIns("")
_WITH_CASE_EXCEPTIONS: Final = _StandIns(_CASE_EXCEPTIONS)
_compiled: dict[tuple[str, str], _Compiled] = {}


def _may_ignore_case(pattern: str, engine: str) -> bool:
    """True when ``pattern`` may hold a ``(?i...:`` modifier group, which only Bun takes."""
    if engine != RegexEngine.BUN:
        return False
    start = pattern.find("(?")
    while start >= 0:
        end = start + 2
        while end < len(pattern) and pattern[end] in "ims":
            end += 1
        if "i" in pattern[start + 2 : end]:
            return True
        start = pattern.find("(?", end)
    return False


class _Context:
    """What the pre-pass knows of the whole pattern while it rewrites one piece of it."""

    __slots__ = ("captures", "engine", "named", "units")

    def __init__(self, pattern: str, engine: str) -> None:
        self.named, self.captures = _capture_groups(pattern)
        self.engine = engine
        may_ignore_case = _may_ignore_case(pattern, engine)
        self.units = _WITH_CASE_EXCEPTIONS if may_ignore_case else _SURROGATES_ONLY


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


def _opens_named_group(pattern: str, index: int) -> bool:
    return pattern.startswith("(?<", index) and pattern[index + 3 : index + 4] not in ("=", "!")


def _capture_groups(pattern: str) -> tuple[dict[str, list[int]], int]:
    """Each group name outside classes, with the numbers of the groups that carry it,
    and the number of capturing groups."""
    groups: dict[str, list[int]] = {}
    count = 0
    for i in outside_classes(pattern):
        if pattern[i] == "(" and not pattern.startswith("(?", i):
            count += 1
        elif _opens_named_group(pattern, i):
            count += 1
            groups.setdefault(_group_name(pattern, i + 3) or "", []).append(count)
    return groups, count


class _Atom:
    """One class atom: its text for regress, and its code unit (None for ``\\d`` and kin)."""

    __slots__ = ("dash", "text", "unit")

    def __init__(self, text: str, unit: int | None, dash: bool = False) -> None:
        self.text = text
        self.unit = unit
        self.dash = dash  # an unescaped "-", which can make a range


def _literal_atoms(ch: str, units: _StandIns, prefix: str = "") -> list[_Atom]:
    atoms = [_Atom(units.unit_text(unit), unit) for unit in _code_units(ch)]
    atoms[0].text = prefix + atoms[0].text
    return atoms


def _octal_escape(pattern: str, i: int) -> tuple[int, int]:
    """The Annex B legacy octal escape at ``pattern[i]`` (at most \\377) and where it ends."""
    end = i + 2
    longest = i + (4 if pattern[i + 1] in "0123" else 3)
    while end < longest and end < len(pattern) and pattern[end] in _OCTAL:
        end += 1
    return int(pattern[i + 1 : end], 8), end


def _class_escape(pattern: str, i: int, context: _Context) -> tuple[list[_Atom], int]:
    """The atoms of the escape at ``pattern[i]`` inside a class, and where it ends."""
    if i + 1 >= len(pattern):
        raise _Invalid("\\ at end of pattern")
    escaped = pattern[i + 1]
    if escaped == "W":
        return [_Atom(context.units.non_word_class(), None)], i + 2
    if escaped in _CLASS_ESCAPES:
        return [_Atom(pattern[i : i + 2], None)], i + 2
    if escaped in _CONTROL_ESCAPES:
        return [_Atom(f"\\x{_CONTROL_ESCAPES[escaped]:02x}", _CONTROL_ESCAPES[escaped])], i + 2
    if escaped == "c":
        letter = pattern[i + 2 : i + 3]
        # Annex B: inside a class, \c also takes a digit or _ (ClassControlLetter).
        if letter and letter.isascii() and (letter.isalnum() or letter == "_"):
            unit = ord(letter) % 32
            return [_Atom(f"\\x{unit:02x}", unit)], i + 3
        return [_Atom("\\\\", ord("\\"))], i + 1  # a backslash; the "c" is read next
    if escaped in "xu":
        count = 2 if escaped == "x" else 4
        value = _hex_at(pattern, i + 2, count)
        if value is None:  # without the u flag, \x4 and \u{41} start with a plain x or u
            return [_Atom(escaped, ord(escaped))], i + 2
        mapped = context.units.is_mapped(value)
        text = context.units.unit_text(value) if mapped else pattern[i : i + 2 + count]
        return [_Atom(text, value)], i + 2 + count
    if escaped in _OCTAL:
        unit, end = _octal_escape(pattern, i)
        mapped = context.units.is_mapped(unit)
        return [_Atom(context.units.unit_text(unit) if mapped else f"\\x{unit:02x}", unit)], end
    if escaped == "k" and context.named:
        raise _Invalid("Invalid escape")
    return _literal_atoms(escaped, context.units, prefix="\\"), i + 2  # an identity escape


def _char_class(pattern: str, i: int, context: _Context) -> tuple[str, int]:
    """The class opening at ``pattern[i]``, rewritten for regress, and where it ends."""
    j = i + 1
    opener = "[^" if pattern.startswith("^", j) else "["
    j += len(opener) - 1
    atoms: list[_Atom] = []
    # In JavaScript "[]" and "[^]" are complete classes: the first "]" always closes.
    while j < len(pattern) and pattern[j] != "]":
        if pattern[j] == "\\":
            more, j = _class_escape(pattern, j, context)
        else:
            more = (
                [_Atom("\\-", ord("-"), dash=True)]  # escaped: regress must not join neighbours
                if pattern[j] == "-"
                else _literal_atoms(pattern[j], context.units)
            )
            j += 1
        atoms.extend(more)
    if j >= len(pattern):
        raise _Invalid("Unterminated character class")
    parts = [opener]
    k = 0
    while k < len(atoms):
        low = atoms[k]
        if k + 2 < len(atoms) and atoms[k + 1].dash:
            high = atoms[k + 2]
            k += 3
            if low.unit is None or high.unit is None:
                # Annex B: a range with a class escape at either end is the union of the parts.
                parts.append(f"{low.text}\\-{high.text}")
            elif low.unit > high.unit:
                raise _Invalid("Range out of order in character class")
            elif high.unit < context.units.first or low.unit > context.units.last:
                parts.append(f"{low.text}-{high.text}")
            else:
                parts.append(context.units.range_text(low.unit, high.unit))
            continue
        parts.append(low.text)
        k += 1
    parts.append("]")
    return "".join(parts), j + 1


def _identifier_char(ch: str, first: bool) -> bool:
    if first:
        return ch in "$_" or ch.isidentifier()
    return ch in "$\u200c\u200d" or ("a" + ch).isidentifier()


def _identifier_escape_end(pattern: str, i: int) -> tuple[str, int] | None:
    """The character a ``\\uXXXX`` or ``\\u{X...}`` escape at ``i`` spells, and its end."""
    if not pattern.startswith("\\u", i):
        return None
    unit = _hex_at(pattern, i + 2, 4)
    if unit is not None:
        return chr(unit), i + 6
    close = pattern.find("}", i + 3) if pattern.startswith("{", i + 2) else -1
    digits = pattern[i + 3 : close]
    if close < 0 or not digits or not set(digits) <= _HEX or int(digits, 16) > 0x10FFFF:
        return None
    return chr(int(digits, 16)), close + 1


def _check_bun_reference_text(pattern: str, i: int) -> None:
    """JavaScriptCore reads an identifier after ``\\k<`` even in a pattern without group
    names, and throws on a backslash in it that is not a ``\\u`` escape."""
    first = True
    while i < len(pattern):
        if pattern[i] == "\\":
            escape = _identifier_escape_end(pattern, i)
            if escape is None:
                raise _Invalid("invalid Unicode \\u escape")
            ch, end = escape
        else:
            ch, end = pattern[i], i + 1
        if not _identifier_char(ch, first):
            return
        first, i = False, end


def _legacy_octal_unit(pattern: str, i: int, captures: int) -> tuple[int, int] | None:
    """The unit and end of ``\\1``..``\\377`` at ``i`` when it is an Annex B octal escape,
    not a back-reference (its decimal value exceeds the number of capturing groups)."""
    if pattern[i + 1] not in "1234567":
        return None
    end = i + 1
    while end < len(pattern) and pattern[end] in _DIGITS:
        end += 1
    if int(pattern[i + 1 : end]) <= captures:
        return None
    return _octal_escape(pattern, i)


def _escape(pattern: str, i: int, context: _Context) -> tuple[str, int]:
    """The escape at ``pattern[i]`` outside classes, rewritten for regress, and where it ends."""
    if i + 1 >= len(pattern):
        return "\\", i + 1  # regress reports the dangling backslash
    escaped = pattern[i + 1]
    if escaped in "bB" and _quantifier_at(pattern, i + 2):
        raise _Invalid("Nothing to repeat")
    if escaped == "u":
        unit = _hex_at(pattern, i + 2, 4)
        if unit is None:  # without the u flag, \u{41} and \u12 start with a plain u
            return "u", i + 2
        mapped = context.units.is_mapped(unit)
        return (context.units.unit_text(unit) if mapped else pattern[i : i + 6]), i + 6
    if context.units.case:  # \xdf and \337 spell the sharp s, a case exception
        value = _hex_at(pattern, i + 2, 2) if escaped == "x" else None
        if value is not None and context.units.is_mapped(value):
            return context.units.unit_text(value), i + 4
        octal = _legacy_octal_unit(pattern, i, context.captures)
        if octal is not None and context.units.is_mapped(octal[0]):
            return context.units.unit_text(octal[0]), octal[1]
    if escaped == "k" and context.named and pattern.startswith("<", i + 2):
        end = pattern.find(">", i + 3)
        numbers = context.named.get(_group_name(pattern, i + 3) or "", [])
        if end > 0 and len(numbers) > 1:
            # A name shared by groups in different alternatives (ES2025): at most one of
            # them takes part in a match, and a reference to a group that did not is
            # empty, so referring to all of them in a row is the reference to the one
            # that did. regress would instead refer to one of them only.
            return "(?:" + "".join(f"\\{number}" for number in numbers) + ")", end + 1
        if end > 0:  # a named reference: the name is copied as written, like the group's
            return pattern[i : end + 1], end + 1
    if escaped == "k" and context.engine == RegexEngine.BUN and pattern.startswith("<", i + 2):
        _check_bun_reference_text(pattern, i + 3)
    return "\\" + context.units.text(escaped), i + 2


def _group_opening(pattern: str, i: int, engine: str, names: set[str]) -> tuple[str, int]:
    """The ``(?`` construct at ``pattern[i]``: named groups verbatim, Node 20's syntax checked."""
    if _opens_named_group(pattern, i):
        end = pattern.find(">", i + 3)
        if end < 0:
            raise _Invalid("Invalid capture group name")
        if engine == RegexEngine.NODE:
            name = _group_name(pattern, i + 3)
            if name in names:
                raise _Invalid("Duplicate capture group name")
            names.add(name or "")
        # regress reads names, \u escapes and astral letters included, as JavaScript does.
        return pattern[i : end + 1], end + 1
    if engine == RegexEngine.NODE and pattern[i + 2 : i + 3] not in (":", "=", "!", "<"):
        raise _Invalid("Invalid group")
    return "(?", i + 2


def _prepass(pattern: str, context: _Context) -> str:
    """The pattern regress should compile; raises _Invalid where JavaScript throws."""
    out: list[str] = []
    names: set[str] = set()
    as_units = context.units.text
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            text, i = _escape(pattern, i, context)
        elif ch == "[":
            text, i = _char_class(pattern, i, context)
        elif ch == "(" and pattern.startswith("(?", i):
            text, i = _group_opening(pattern, i, context.engine, names)
        else:
            text, i = as_units(ch), i + 1
        out.append(text)
    return "".join(out)


def _compile(pattern: str, engine: str) -> _Compiled:
    key = (pattern, engine)
    found = _compiled.get(key)
    if found is not None:
        return found
    context = _Context(pattern, engine)
    try:
        # The pre-pass checks the engine profile's syntax in front of either backend.
        prepared = _prepass(pattern, context)
        result: _Compiled = (compile_tester(pattern, prepared, context.units), None)
    except _Invalid as error:
        result = (None, str(error))
    except Exception as error:  # the backend's SyntaxError, or a pattern it cannot take as text
        result = (None, syntax_reason(pattern, error) or type(error).__name__)
    if len(_compiled) >= _CACHE_LIMIT:
        _compiled.clear()
    _compiled[key] = result
    return result


def regex_error(pattern: str, engine: str) -> str | None:
    """The SyntaxError ``new RegExp(pattern)`` throws in ``engine``, or None when it compiles."""
    return _compile(pattern, engine)[1]


def regex_test(pattern: str, subject: str, engine: str) -> bool:
    """``new RegExp(pattern).test(subject)``; a pattern that does not compile gives False."""
    test = _compile(pattern, engine)[0]
    if test is None:
        return False
    try:
        return test(subject)
    except Exception:  # defensive: a backend refusing a subject must not escape as a traceback
        return False


def engine_dependent(pattern: str) -> bool:
    """True when Node 20 and Bun disagree on whether ``pattern`` compiles."""
    return (regex_error(pattern, RegexEngine.NODE) is None) != (
        regex_error(pattern, RegexEngine.BUN) is None
    )
