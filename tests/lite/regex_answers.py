"""What hookcourse.js.regex answers for pattern/subject pairs, on whichever backend it chose.

Shared by tests/lite/test_regex_backends.py (desktop, regress) and pyodide_regex.mjs
(Pyodide, the JavaScript engine's RegExp), so both sides compute exactly the same thing.
"""

from __future__ import annotations


def regex_answers(pairs: list[list[str]]) -> dict[str, object]:
    """The backend's name and, per pair and rule-set engine, [compiles, matches]."""
    from hookcourse.js.regex import BACKEND, RegexEngine, regex_error, regex_test

    rows = [
        [regex_error(pattern, engine) is None, regex_test(pattern, subject, engine)]
        for pattern, subject in pairs
        for engine in (RegexEngine.NODE, RegexEngine.BUN)
    ]
    return {"backend": BACKEND, "rows": rows}
