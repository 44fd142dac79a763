"""Fresh ``run_stop_loop`` cases, drawn around each case family from a ``random.Random``.

Named by the stage's ``Exercise.generate``; the shared draws (tool names, JavaScript's
whitespace, JSON values) are ``hookcourse.course.checks.generators``'.
"""

from __future__ import annotations

import random

from hookcourse.course.checks.generators import (
    ABSENT,
    JS_ONLY_SPACE,
    SHARED_SPACE,
    Case,
    case_with,
    maybe,
    padded,
    some_text,
)
from hookcourse.js.values import JSValue


def _stop_answer(rng: random.Random) -> Case:
    from hookcourse.js import json as jsjson

    roll = rng.random()
    if roll < 0.3:
        return case_with(code=rng.choice((2.0, 2.0, "2", True)), stderr=maybe(rng, padded(rng)))
    if roll < 0.7:
        body = case_with(
            decision=rng.choice(("block", "block", "Block", ABSENT)),
            reason=maybe(rng, padded(rng), some_text(rng), None),
            stopReason=maybe(rng, some_text(rng)),
            **{"continue": rng.choice((ABSENT, ABSENT, False, True))},
        )
        lead = rng.choice(("", "", "  ", "note\n"))
        return case_with(code=rng.choice((0.0, 0.0, 1.0)), stdout=lead + jsjson.stringify(body))
    return case_with(code=rng.choice((0.0, 1.0)), stdout=maybe(rng, "", some_text(rng)))


def _blocking(rng: random.Random) -> Case:
    """An answer that blocks: exit 2, or a JSON block with a reason."""
    from hookcourse.js import json as jsjson

    if rng.random() < 0.5:
        return case_with(code=2.0, stderr=maybe(rng, padded(rng)))
    body = {"decision": "block", "reason": some_text(rng)}
    return {"code": 0.0, "stdout": jsjson.stringify(body)}


def _shaped_stops(rng: random.Random) -> list[Case]:
    """One case of each shape the stage is about, so every draw holds them all."""
    from hookcourse.js import json as jsjson

    halt = {"continue": False, "stopReason": some_text(rng), "decision": "block", "reason": "go on"}
    blank_space = SHARED_SPACE + JS_ONLY_SPACE  # blank to trim(), whatever strip() says
    blank = {"decision": "block", "reason": "".join(rng.sample(blank_space, rng.randint(1, 3)))}
    bare = case_with(decision="block", reason=rng.choice((ABSENT, None, 0.0)))
    plain = case_with(code=0.0, stdout=maybe(rng, "", some_text(rng)))
    return [
        # blocks every time: the cap ends it
        {
            "hook": {"whenInactive": _blocking(rng), "whenActive": _blocking(rng)},
            "cap": float(rng.randint(1, 6)),
        },
        # blocks once, then lets Claude stop
        {"hook": {"whenInactive": _blocking(rng), "whenActive": plain}},
        # continue: false outranks the block in the same JSON
        {
            "hook": {
                "whenInactive": {"code": 0.0, "stdout": jsjson.stringify(halt)},
                "whenActive": _blocking(rng),
            }
        },
        # a block with a blank reason is ignored
        {
            "hook": {
                "whenInactive": {"code": 0.0, "stdout": jsjson.stringify(blank)},
                "whenActive": _blocking(rng),
            }
        },
        # a block without a reason string is ignored too
        {
            "hook": {
                "whenInactive": {"code": 0.0, "stdout": jsjson.stringify(bare)},
                "whenActive": _blocking(rng),
            }
        },
        # JSON counts on exit 1 too
        {
            "hook": {
                "whenInactive": {
                    "code": 1.0,
                    "stdout": jsjson.stringify({"decision": "block", "reason": some_text(rng)}),
                },
                "whenActive": plain,
            },
            "cap": 2.0,
        },
    ]


def stop_cases(rng: random.Random) -> list[JSValue]:
    """``{"hook", "cap"}`` cases: each shape of the stage, then every answer kind before and
    after the flag, and caps."""
    cases: list[JSValue] = list(_shaped_stops(rng))
    for _ in range(14):
        first = _stop_answer(rng)
        later = first if rng.random() < 0.3 else _stop_answer(rng)
        cap = rng.choice((ABSENT, None, 1.0, 2.0, 3.0, float(rng.randint(1, 12)), 8.0, 100.0))
        cases.append(case_with(hook={"whenInactive": first, "whenActive": later}, cap=cap))
    rng.shuffle(cases)
    return cases
