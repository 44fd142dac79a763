"""Stage ``merge-decisions``: ``merge_pre_tool_use``, in the shape the learner writes.

Results are the case file's dicts ``{"code", "stdout"?, "stderr"?}``; the answer is
a dict ``{"decision", "reason", "input", "contexts"}``. The package's own version,
which ``./your_program.sh hook-merge`` runs, is ``hookcourse.stages.merge_decisions.reference``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from hookcourse.js.json import JSONSyntaxError, parse
from hookcourse.js.values import JSValue, js_trim, js_trim_start, strict_equals_number

STRENGTH: Final = ["allow", "ask", "defer", "deny"]  # weakest first


def stream(result: Mapping[str, JSValue], name: str) -> str:
    """``result.stdout ?? ""`` (or stderr): the graded cases hold a string, null or nothing."""
    value = result.get(name)
    return value if isinstance(value, str) else ""


def stdout_json(stdout: str) -> dict[str, JSValue] | None:
    """The JSON object on stdout, or None: only text starting with "{" that parses to one."""
    text = js_trim_start(stdout)
    if not text.startswith("{"):
        return None  # "Loading profile...\n{...}" is plain text, not JSON
    try:
        value = parse(text)
    except JSONSyntaxError:
        return None
    return value if isinstance(value, dict) else None


def read_one(result: Mapping[str, JSValue]) -> dict[str, JSValue]:
    """One hook's contribution: any of decision, reason, updatedInput, context."""
    if strict_equals_number(result.get("code"), 2):  # code === 2: 2.0 too, never True or "2"
        # Exit 2 outranks any JSON: stdout is not read at all.
        return {"decision": "deny", "reason": js_trim(stream(result, "stderr")) or "hook blocked"}
    out = stdout_json(stream(result, "stdout"))
    if out is None:
        return {}
    specific = out.get("hookSpecificOutput")
    if not isinstance(specific, dict) or specific.get("hookEventName") != "PreToolUse":
        specific = {}
    read: dict[str, JSValue] = {}
    decision = specific.get("permissionDecision")
    if decision in STRENGTH:
        reason = specific.get("permissionDecisionReason")
        read.update(decision=decision, reason=reason if isinstance(reason, str) else None)
    elif out.get("decision") in ("block", "approve"):
        reason = out.get("reason")
        read.update(
            decision="deny" if out["decision"] == "block" else "allow",
            reason=reason if isinstance(reason, str) else None,
        )
    if isinstance(specific.get("updatedInput"), dict):
        read["updatedInput"] = specific["updatedInput"]
    if isinstance(specific.get("additionalContext"), str):
        read["context"] = specific["additionalContext"]
    return read


def merge_pre_tool_use(
    results: Sequence[Mapping[str, JSValue]], tool_input: JSValue
) -> dict[str, JSValue]:
    """``{decision, reason, input, contexts}`` for every PreToolUse hook, in finishing order."""
    reads = [read_one(result) for result in results]
    decided = [read for read in reads if "decision" in read]
    if decided:
        strongest = max(STRENGTH.index(str(read["decision"])) for read in decided)
        # The first hook (in order) that gave the winning decision supplies the reason.
        winner = next(r for r in decided if STRENGTH.index(str(r["decision"])) == strongest)
        decision, reason = winner["decision"], winner["reason"]
    else:
        decision, reason = None, None
    if decision == "deny":
        # A blocked call runs nothing: no rewrite, no context.
        return {"decision": "deny", "reason": reason, "input": tool_input, "contexts": []}
    rewrites = [read["updatedInput"] for read in reads if "updatedInput" in read]
    return {
        "decision": decision,
        "reason": reason,
        "input": rewrites[-1] if rewrites else tool_input,  # the last rewrite wins
        "contexts": [read["context"] for read in reads if "context" in read],
    }
