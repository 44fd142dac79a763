"""One finished hook, as stages merge-decisions and stop-loop read it.

A ``HookResult`` is ``{code, stdout?, stderr?}`` with ``stdout ?? ""`` and
``stderr ?? ""`` already applied. ``json_output`` is the rule both stages share
for stdout: JSON only when ``stdout.trimStart()`` starts with ``{``, parses, and
is an object (not an array, not null); anything else is no JSON at all.
"""

from __future__ import annotations

from hookcourse.js import json as jsjson
from hookcourse.js.values import Undefined, js_trim_start
from hookcourse.record import Record
from hookcourse.stages.decoding import CaseError, describe_value, member

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hookcourse.js.values import JSValue


class HookResult(Record):
    """A hook's exit code, stdout and stderr (absent or null streams read as ``""``)."""

    _fields = ("code", "stdout", "stderr")
    __slots__ = _fields
    code: JSValue | Undefined
    stdout: str
    stderr: str

    def __init__(self, code: JSValue | Undefined, stdout: str = "", stderr: str = "") -> None:
        self._fill(code, stdout, stderr)

    def to_json(self) -> dict[str, JSValue | Undefined]:
        """``{code, stdout, stderr}`` as a case file writes it."""
        return {"code": self.code, "stdout": self.stdout, "stderr": self.stderr}


def json_output(stdout: str) -> dict[str, JSValue] | None:
    """The JSON object a hook printed, or None when its stdout is not one."""
    text = js_trim_start(stdout)
    if not text.startswith("{"):
        return None
    try:
        value = jsjson.parse(text)
    except jsjson.JSONSyntaxError:
        return None
    return value if isinstance(value, dict) else None


def _stream(result: dict[str, JSValue], name: str) -> str:
    value = member(result, name)
    if isinstance(value, str):
        return value
    if value is None or isinstance(value, Undefined):
        return ""  # value ?? ""
    raise CaseError(
        name,
        f"{name} must be a string, null or left out, got {describe_value(value)}",
        f'write {name} as the text the hook printed, e.g. ""',
    )


def hook_result(value: JSValue | Undefined) -> HookResult:
    """A case file's ``{code, stdout?, stderr?}`` as a HookResult; CaseError when it is not one."""
    if not isinstance(value, dict):
        raise CaseError(
            None,
            f"a hook result must be an object, got {describe_value(value)}",
            'write it as {"code": 0, "stdout": "", "stderr": ""}',
        )
    return HookResult(member(value, "code"), _stream(value, "stdout"), _stream(value, "stderr"))
