"""Stage ``stop-loop``: ``run_stop_loop``, in the shape the learner writes.

``hook`` is the case file's ``{"whenInactive": {...}, "whenActive": {...}}`` and
``cap`` a whole number (8 when the case leaves it out); the answer is a list of
``{"stopHookActive", "continues", "reason", "capped"}`` dicts. The package's own
version, which ``./your_program.sh hook-stop`` runs, is ``hookcourse.stages.stop_loop.reference``.
"""

from __future__ import annotations

from collections.abc import Mapping

from hookcourse.js.values import JSValue, js_trim, strict_equals_number
from hookcourse.stages.merge_decisions.solution import stdout_json, stream


def read_answer(answer: Mapping[str, JSValue]) -> tuple[str, str | None]:
    """("block" | "halt" | "stop", reason) for one answer of the Stop hook."""
    if strict_equals_number(answer.get("code"), 2):
        return "block", js_trim(stream(answer, "stderr")) or "hook blocked"
    out = stdout_json(stream(answer, "stdout")) or {}
    if out.get("continue") is False:  # continue: false outranks a block
        reason = out.get("stopReason")
        return "halt", reason if isinstance(reason, str) else None
    reason = out.get("reason")
    if out.get("decision") == "block" and isinstance(reason, str) and js_trim(reason):
        return "block", reason  # the reason as written, not trimmed
    return "stop", None


def run_stop_loop(hook: Mapping[str, Mapping[str, JSValue]], cap: int) -> list[dict[str, JSValue]]:
    """Every stop attempt until Claude really stops."""
    turns: list[dict[str, JSValue]] = []
    active = False
    blocks = 0
    while True:
        kind, reason = read_answer(hook["whenActive"] if active else hook["whenInactive"])
        if kind == "block":
            blocks += 1
        capped = kind == "block" and blocks > cap  # the cap-th block still continues
        continues = kind == "block" and not capped
        turns.append(
            {
                "stopHookActive": active,
                "continues": continues,
                "reason": reason if continues or kind == "halt" else None,
                "capped": capped,
            }
        )
        if not continues:
            return turns
        active = True
