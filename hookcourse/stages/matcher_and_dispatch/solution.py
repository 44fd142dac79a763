"""Stage ``matcher-and-dispatch``: ``match_hook`` and ``interpret_exit_code``.

Written with the helpers the notebook hands the learner, so a teacher can show it
line by line. The package's own implementations are ``reference`` and ``verdicts``
beside it; these must agree with them on every fixture case.
"""

from __future__ import annotations

import re
from typing import Final

from hookcourse.js.regex import RegexEngine, regex_test
from hookcourse.js.values import JSValue, Undefined, js_to_string, js_trim, strict_equals_number

# JavaScript's /^[\w|]+$/: its \w is ASCII only, Python's is Unicode, so spell it out.
NAME_LIST: Final = re.compile(r"[A-Za-z0-9_|]+")


def match_hook(matcher: str | None, tool_name: JSValue | Undefined) -> bool:
    """Does a hook with ``matcher`` (None = the key is left out) fire for ``tool_name``?"""
    if matcher is None or matcher in ("", "*"):
        return True
    if NAME_LIST.fullmatch(matcher):
        # A list of whole names: "Edit|Write" must not match "MultiEdit".
        return tool_name in matcher.split("|")
    # new RegExp(matcher).test(toolName): unanchored, an invalid pattern is False, and
    # test() reads a tool_name that is not a string as String(tool_name).
    return regex_test(matcher, js_to_string(tool_name), RegexEngine.NODE)


def interpret_exit_code(code: JSValue, stderr: str) -> dict[str, JSValue]:
    """``{block, warn, reason}`` for a hook that exited with ``code``, comparing with ``===``."""
    if strict_equals_number(code, 0):
        # Success, not "allow": the caller now reads stdout.
        return {"block": False, "warn": False, "reason": None}
    reason = js_trim(stderr)
    if strict_equals_number(code, 2):
        return {"block": True, "warn": False, "reason": reason or "hook blocked"}
    return {"block": False, "warn": True, "reason": reason or None}
