"""Stage shout (a stage for the tests): a hook's message in capitals, JavaScript's way.

The tests copy this folder into a copy of the repository as ``hookcourse/stages/shout/``
to prove that a stage joins the course by its folder alone.
"""

from __future__ import annotations

from hookcourse.js.values import js_trim
from hookcourse.stages.decoding import CaseError, Decoded, describe_value, member
from hookcourse.stages.descriptor import Exercise, Stage

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hookcourse.js.values import JSValue


def shout(message: str) -> str:
    """``message.trim().toUpperCase() + "!"``, or "" for a blank message."""
    text = js_trim(message)
    return text.upper() + "!" if text else ""


def shout_arguments(case: JSValue) -> Decoded:
    """``(c.message)``; a message that is not a string throws, as ``trim`` would."""
    message = member(case, "message")
    if not isinstance(message, str):
        raise CaseError(
            "message",
            f"message must be a string, got {describe_value(message)}",
            'write "message" as a string',
        )
    return Decoded((message,))


STAGE = Stage(
    __name__,
    "Shout",
    "hook-shout",
    Exercise(
        "shout",
        notebook="99_shout",
        check="check_shout",
        reference=shout,
        decode=shout_arguments,
        case_key="cases",
        output_key="shouts",
        fields=("message",),
        families=("words", "blank"),
        classify="classify:shout_family",
        generate="generate:shout_cases",
    ),
)
