"""Stage shout's case families: a message with words, or a blank one."""

from __future__ import annotations

from hookcourse.js.values import js_trim
from hookcourse.stages.decoding import Decoded


def shout_family(case: Decoded) -> str:
    """``blank`` when JavaScript's trim leaves nothing, else ``words``."""
    (message,) = case.parsed
    return "words" if js_trim(message) else "blank"
