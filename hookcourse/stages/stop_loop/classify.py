"""Which misreading of JavaScript a case of this stage catches: its hint family.

Worked out from the case as its decoder read it (``Decoded``: the parsed arguments,
never parsed again here). Named by the stage's ``Exercise.classify``; the hint texts
are ``hints.json`` beside it.
"""

from __future__ import annotations

from hookcourse.course.grading.program_hints import parse_refuses_lead
from hookcourse.js.values import (
    is_js_number,
    js_trim,
    strict_equals_number,
)
from hookcourse.stages.answers import json_output
from hookcourse.stages.decoding import Decoded
from hookcourse.stages.stop_loop.reference import BLOCK, HALT, read_stop, run_stop_loop


def stop_family(case: Decoded) -> str:
    """The misreading a ``run_stop_loop`` case catches."""
    parsed, cap = case.parsed
    hook = {"whenInactive": parsed.when_inactive, "whenActive": parsed.when_active}
    turns = run_stop_loop(parsed, cap)
    read = {key: read_stop(answer) for key, answer in hook.items()}
    outputs = {key: json_output(answer.stdout) or {} for key, answer in hook.items()}
    if any(o.get("continue") is False and o.get("decision") == "block" for o in outputs.values()):
        return "halt-beats-block"
    if turns[-1].capped:
        return "the-cap"
    if any(not is_js_number(answer.code) for answer in hook.values()):
        return "strict-equality"
    if any(
        o.get("decision") == "block" and kind != BLOCK
        for o, (kind, _) in zip(outputs.values(), read.values(), strict=True)
    ):
        return "block-needs-reason"
    if any(kind == BLOCK and reason != js_trim(reason or "") for kind, reason in read.values()):
        return "reason-as-written"
    if any(
        json_output(answer.stdout) is not None and not strict_equals_number(answer.code, 0)
        for answer in hook.values()
    ):
        return "json-on-any-exit"
    if any(
        json_output(answer.stdout) is None and js_trim(answer.stdout) for answer in hook.values()
    ):
        return "stdout-not-json"
    if any(kind == HALT for kind, _ in read.values()):
        return "halt"
    if len(turns) > 1 and read["whenInactive"] != read["whenActive"]:
        return "flag-after-block"
    return "stop"  # the same blocking answer both times always reaches the cap


def stop_hinted_family(family: str, case: Decoded, field: str | int | None) -> str:
    """A Stop answer JSON.parse refuses though trimStart() reads it (a byte-order mark)."""
    hook = case.parsed[0]
    stdouts = [getattr(answer, "stdout", None) for answer in (hook.when_inactive, hook.when_active)]
    if any(map(parse_refuses_lead, stdouts)):
        return "stdout-not-json"
    return family
