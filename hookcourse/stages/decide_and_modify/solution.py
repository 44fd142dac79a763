"""Stage ``decide-and-modify``: ``apply_pre_tool_use``.

``??`` is not Python's ``or``: only a missing key (``UNDEFINED``) or ``None``
falls back; ``""``, ``0``, ``False``, ``{}`` and ``[]`` are kept.
"""

from __future__ import annotations

from collections.abc import Mapping

from hookcourse.js.values import UNDEFINED, JSValue, Undefined, is_nullish


def apply_pre_tool_use(
    output: Mapping[str, JSValue], tool_input: JSValue | Undefined
) -> dict[str, JSValue | Undefined]:
    """``{allowed, input, injectedContext, reason}`` for a PreToolUse hook's JSON ``output``."""
    if output.get("decision", UNDEFINED) == "block":
        reason = output.get("reason", UNDEFINED)
        # A blocked call never runs: keep its input, inject nothing.
        return {
            "allowed": False,
            "input": tool_input,
            "injectedContext": None,
            "reason": "blocked by hook" if is_nullish(reason) else reason,
        }
    rewritten = output.get("updatedInput", UNDEFINED)
    context = output.get("additionalContext", UNDEFINED)
    return {
        "allowed": True,
        "input": tool_input if is_nullish(rewritten) else rewritten,
        "injectedContext": None if is_nullish(context) else context,
        "reason": None,
    }
