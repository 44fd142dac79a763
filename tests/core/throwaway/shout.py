"""A throwaway stage, ``hook-shout``: a hook's message in capitals, JavaScript's way.

Everything a stage needs besides its registry entry and its case files, in one module:
the pure function, the decoder, the case family classifier, the generator and the
teacher's solution (a real stage keeps the solution in hookcourse/solutions/).
"""

from __future__ import annotations

import random

from hookcourse.js.values import js_trim
from hookcourse.stages.decoding import CaseError, Decoded, describe_value, member


def shout(message: str) -> str:
    """``message.trim().toUpperCase() + "!"``, or "" for a blank message."""
    text = js_trim(message)
    return text.upper() + "!" if text else ""


def shout_arguments(case: object) -> Decoded:
    """``(c.message)``; a message that is not a string throws, as ``trim`` would."""
    message = member(case, "message")  # type: ignore[arg-type]
    if not isinstance(message, str):
        raise CaseError(
            "message",
            f"message must be a string, got {describe_value(message)}",
            'write "message" as a string',
        )
    return Decoded((message,))


def shout_family(case: Decoded) -> str:
    (message,) = case.parsed
    return "blank" if not js_trim(message) else "words"


def shout_cases(rng: random.Random) -> list[object]:
    words = ["hi", "stop", "déjà", " spaced ", "\ufeffbom"]
    return [{"message": rng.choice(words) + rng.choice(["", " ", "\n"])} for _ in range(8)] + [
        {"message": rng.choice(["", "  ", "\ufeff"])}
    ]


def shout_solution(message):  # type: ignore[no-untyped-def]
    text = message.strip(" \t\n\r\v\f\ufeff\u00a0")
    return text.upper() + "!" if text else ""
