"""Which misreading of JavaScript a case of this stage catches: its hint family.

Worked out from the case as its decoder read it (``Decoded``: the parsed arguments,
never parsed again here). Named by the stage's ``Exercise.classify``; the hint texts
are ``hints.json`` beside it.
"""

from __future__ import annotations

from hookcourse.js.values import (
    UNDEFINED,
    JSValue,
    Undefined,
    is_nullish,
)
from hookcourse.stages.decoding import Decoded


def _python_falsy_kept(value: JSValue | Undefined) -> bool:
    """Kept by ``??`` but dropped by Python's ``or``: "", 0, false, {} and []."""
    return not is_nullish(value) and not value


def apply_family(case: Decoded) -> str:
    """The misreading an ``apply_pre_tool_use`` case catches."""
    output, _ = case.parsed
    fields = output if isinstance(output, dict) else {}
    decision = fields.get("decision", UNDEFINED)
    rewritten = fields.get("updatedInput", UNDEFINED)
    context = fields.get("additionalContext", UNDEFINED)
    if decision == "block":
        reason = fields.get("reason", UNDEFINED)
        if not is_nullish(rewritten):
            return "block-keeps-input"
        if not is_nullish(context):
            return "block-no-context"
        if _python_falsy_kept(reason):
            return "nullish-not-falsy"
        return "block-default-reason" if is_nullish(reason) else "block"
    if not is_nullish(decision):
        return "only-block-blocks"
    if _python_falsy_kept(rewritten) or _python_falsy_kept(context):
        return "nullish-not-falsy"
    if rewritten is None or context is None:
        return "null-falls-back"
    if not is_nullish(rewritten):
        return "rewrite"
    return "inject" if not is_nullish(context) else "pass-through"
