"""Stage shout's drawn cases: words padded with JavaScript's whitespace, and blanks."""

from __future__ import annotations

import random

from hookcourse.js.values import JSValue

WORDS = ("hi", "stop", "déjà", "two words")
PADDING = ("", " ", "\n", "\ufeff", "\u3000")


def shout_cases(rng: random.Random) -> list[JSValue]:
    """Eight padded messages and one blank one."""
    padded: list[JSValue] = [
        {"message": rng.choice(PADDING) + rng.choice(WORDS) + rng.choice(PADDING)} for _ in range(8)
    ]
    return [*padded, {"message": rng.choice(PADDING) * 2}]
