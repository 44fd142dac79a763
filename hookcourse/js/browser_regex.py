"""The regex backend under Pyodide: the browser's own ``RegExp``.

regress has no WebAssembly wheel, but in Pyodide Python can construct JavaScript
objects, so ``new RegExp(pattern).test(subject)`` runs in the very engine whose
semantics the course grades. ``hookcourse.js.regex`` imports this module only when
regress is missing, and runs its syntax-profile pre-pass first: the browser's engine
is newer than Node 20 and accepts ES2025 syntax that the course's reference rejects.
"""

from __future__ import annotations

from js import RegExp

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from hookcourse.js.regex import _StandIns  # the signature regex.py's backends share

BACKEND = "browser RegExp"
_V8_MESSAGE = "Invalid regular expression: /"  # then the pattern, its flags, ": " and the reason


def compile_tester(pattern: str, prepared: str, units: _StandIns) -> Callable[[str], bool]:
    """``new RegExp(pattern)``'s test; raises the engine's SyntaxError as a JsException.

    ``prepared`` and ``units`` are the pre-pass's rewrite and stand-ins for regress; the
    browser needs neither (it matches UTF-16 code units itself), so the original
    pattern is compiled.
    """
    del prepared, units
    test = RegExp.new(pattern).test
    return lambda subject: bool(test(subject))


def syntax_reason(pattern: str, error: Exception) -> str:
    """The reason in the engine's SyntaxError for ``pattern``: V8's message ends with it
    (``Invalid regular expression: /a)/: Unmatched ')'``), and no reason holds ": "."""
    del pattern
    message = str(error).strip().removeprefix("SyntaxError: ")
    return message.rsplit(": ", 1)[-1] if message.startswith(_V8_MESSAGE) else message
