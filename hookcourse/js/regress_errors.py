"""regress's SyntaxError texts in V8's words, so a learner reads the same reason on the
desktop (regress) as in the browser (the browser's own ``RegExp``, V8 in Chromium).

V8 says ``Invalid regular expression: /a)/: Unmatched ')'``; the course shows the reason
after the last colon, as the syntax pre-pass's own errors do. Each rule below was read
off Node 20 for the regex corpus's invalid patterns (``tests/lite/test_regex_words.py``
holds every one of them to it); a text with no rule is kept as regress wrote it.
"""

from __future__ import annotations

from hookcourse.js.pattern_text import outside_classes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

# regress's text -> V8's, where one always gives the other.
SAME_REASON: Final = {
    "Incomplete escape": "\\ at end of pattern",
    "Invalid atom character": "Nothing to repeat",
    "Invalid braced quantifier": "Nothing to repeat",
    "Invalid quantifier": "numbers out of order in {} quantifier",
    "Invalid named backreference syntax": "Invalid named reference",
    "Invalid token at named capture group identifier": "Invalid capture group name",
}
_QUANTIFIERS: Final = "*+?{"


def _groups(pattern: str) -> tuple[str | None, bool]:
    """Read the pattern's groups left to right as V8 does (escapes and classes skipped):
    the parenthesis error it meets, if any, and whether a quantifier follows a
    lookbehind (which V8 calls an invalid quantifier, not nothing to repeat)."""
    opened: list[bool] = []  # per open group: is it a lookbehind
    quantified_lookbehind = False
    for i in outside_classes(pattern):
        if pattern[i] == "(":
            opened.append(pattern.startswith(("(?<=", "(?<!"), i))
        elif pattern[i] == ")":
            if not opened:
                return "Unmatched ')'", quantified_lookbehind
            lookbehind = opened.pop()
            after = pattern[i + 1 : i + 2]
            quantified_lookbehind |= lookbehind and after != "" and after in _QUANTIFIERS
    return ("Unterminated group" if opened else None), quantified_lookbehind


def v8_reason(pattern: str, message: str) -> str:
    """The reason V8 gives for ``pattern`` where regress refused it with ``message``."""
    if message in SAME_REASON:
        return SAME_REASON[message]
    unbalanced, quantified_lookbehind = _groups(pattern)
    if message == "Unbalanced parenthesis" and unbalanced is not None:
        return unbalanced
    if message.startswith("Backreference to invalid named capture group"):
        # V8 finds an unclosed group before it checks the names referred to.
        return unbalanced or "Invalid named capture referenced"
    if message == "Quantifier not allowed here":
        return "Invalid quantifier" if quantified_lookbehind else "Nothing to repeat"
    return message
