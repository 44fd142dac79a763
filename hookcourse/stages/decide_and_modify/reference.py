"""Apply a PreToolUse hook's JSON to a pending tool call (course stage ``decide-and-modify``)."""

from __future__ import annotations

from hookcourse.js.values import UNDEFINED, Undefined, nullish_or
from hookcourse.record import Record
from hookcourse.stages.decoding import CaseError, Decoded, describe_value, member, not_null
from hookcourse.stages.descriptor import Exercise, Stage

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from hookcourse.js.values import JSValue


class HookEffect(Record):
    """What the loop does with the call: run it or not, with which input, plus context."""

    _fields = ("allowed", "input", "injected_context", "reason")
    __slots__ = _fields
    allowed: bool
    input: JSValue | Undefined
    injected_context: JSValue
    reason: JSValue

    def __init__(
        self,
        allowed: bool,
        input: JSValue | Undefined,
        injected_context: JSValue,
        reason: JSValue,
    ) -> None:
        self._fill(allowed, input, injected_context, reason)

    def to_json(self) -> dict[str, JSValue | Undefined]:
        """The seed's ``{allowed, input, injectedContext, reason}``, in that order."""
        return {
            "allowed": self.allowed,
            "input": self.input,
            "injectedContext": self.injected_context,
            "reason": self.reason,
        }


def apply_pre_tool_use(
    output: Mapping[str, JSValue], tool_input: JSValue | Undefined
) -> HookEffect:
    """The course's ``applyPreToolUse(out, toolInput)``; a missing key reads as undefined."""
    if output.get("decision", UNDEFINED) == "block":
        reason = nullish_or(output.get("reason", UNDEFINED), "blocked by hook")
        return HookEffect(False, tool_input, None, reason)
    context = nullish_or(output.get("additionalContext", UNDEFINED), None)
    rewritten = nullish_or(output.get("updatedInput", UNDEFINED), tool_input)
    return HookEffect(allowed=True, input=rewritten, injected_context=context, reason=None)


def apply_arguments(case: JSValue) -> Decoded:
    """``(x.output, x.input)`` for applyPreToolUse; a non-object output has none of its keys."""
    output = member(not_null(case), "output")
    if output is None or isinstance(output, Undefined):
        raise CaseError(
            "output",
            f"output must be the hook's JSON output, got {describe_value(output)}",
            'give the case an "output" object, e.g. {}',
        )
    return Decoded((output if isinstance(output, dict) else {}, member(case, "input")))


STAGE = Stage(
    __name__,
    "Decide and modify",
    "hook-apply",
    Exercise(
        "apply_pre_tool_use",
        notebook="03_decide_modify_inject",
        check="check_apply",
        reference=apply_pre_tool_use,
        decode=apply_arguments,
        case_key="cases",
        output_key="effects",
        fields=("output", "input"),
        families=(
            "block",
            "block-default-reason",
            "block-keeps-input",
            "block-no-context",
            "only-block-blocks",
            "rewrite",
            "inject",
            "pass-through",
            "null-falls-back",
            "nullish-not-falsy",
        ),
        classify="classify:apply_family",
        generate="generate:apply_cases",
    ),
)
