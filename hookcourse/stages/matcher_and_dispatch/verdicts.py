"""The exit-code half of a hook's verdict (course stage ``matcher-and-dispatch``)."""

from __future__ import annotations

from hookcourse.js.values import js_trim, strict_equals_number
from hookcourse.record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hookcourse.js.values import JSValue


class ExitVerdict(Record):
    """What the agent does with a finished hook's exit code: proceed, block or warn."""

    _fields = ("block", "warn", "reason")
    __slots__ = _fields
    block: bool
    warn: bool
    reason: str | None

    def __init__(self, block: bool, warn: bool, reason: str | None) -> None:
        self._fill(block, warn, reason)

    def to_json(self) -> dict[str, JSValue]:
        """The seed's ``{block, warn, reason}``."""
        return {"block": self.block, "warn": self.warn, "reason": self.reason}


def block_reason(stderr: str) -> str:
    """The reason an exit 2 gives: ``stderr.trim() || "hook blocked"``."""
    return js_trim(stderr) or "hook blocked"


def interpret_exit_code(code: object, stderr: str) -> ExitVerdict:
    """The course's ``interpretExitCode``: 0 = success (now read stdout), 2 = block, else warn.

    Comparisons are ``===``: only the number 0 or 2 counts, never ``false``, ``"2"`` or ``True``.
    """
    if strict_equals_number(code, 0):
        return ExitVerdict(block=False, warn=False, reason=None)
    if strict_equals_number(code, 2):
        return ExitVerdict(block=True, warn=False, reason=block_reason(stderr))
    return ExitVerdict(block=False, warn=True, reason=js_trim(stderr) or None)
