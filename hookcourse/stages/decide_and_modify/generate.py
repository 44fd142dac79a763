"""Fresh ``apply_pre_tool_use`` cases, drawn around each case family from a ``random.Random``.

Named by the stage's ``Exercise.generate``; the shared draws (tool names, JavaScript's
whitespace, JSON values) are ``hookcourse.course.checks.generators``'.
"""

from __future__ import annotations

import random

from hookcourse.course.checks.generators import case_with, json_object, maybe, some_text
from hookcourse.js.values import JSValue


def apply_cases(rng: random.Random) -> list[JSValue]:
    """``{"output", "input"}`` cases: block or not, ``??`` on falsy values, nested rewrites."""
    cases: list[JSValue] = []
    for _ in range(24):
        output = case_with(
            decision=maybe(rng, "block", "block", "Block", "allow", "approve", "", None, 0.0),
            reason=maybe(rng, some_text(rng), "", None, 0.0, False),
            updatedInput=maybe(
                rng, json_object(rng), json_object(rng), {}, [], None, 0.0, "", False
            ),
            additionalContext=maybe(rng, some_text(rng), "", None, 0.0, False),
        )
        cases.append({"output": output, "input": json_object(rng)})
    return cases
