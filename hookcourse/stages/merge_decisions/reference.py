"""Several PreToolUse hooks, one decision (course stage ``merge-decisions``).

Claude Code runs every matching PreToolUse hook and merges their answers in
its own output format (``hookSpecificOutput.permissionDecision``): the strongest
decision wins by deny > defer > ask > allow, the first hook that gave it
supplies the reason, the last ``updatedInput`` is the one that runs, and every
``additionalContext`` is kept in order, unless the call is denied.
"""

from __future__ import annotations

from hookcourse.js.values import UNDEFINED, Undefined, strict_equals_number
from hookcourse.record import Record
from hookcourse.stages.answers import HookResult, hook_result, json_output
from hookcourse.stages.decoding import CaseError, Decoded, describe_value, member
from hookcourse.stages.descriptor import Exercise, Stage
from hookcourse.stages.matcher_and_dispatch.verdicts import block_reason

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Final

    from hookcourse.js.values import JSValue

STRENGTH: Final = {"allow": 1, "ask": 2, "defer": 3, "deny": 4}
"""The four permission decisions, weakest first: deny > defer > ask > allow."""

DEPRECATED_DECISIONS: Final = {"block": "deny", "approve": "allow"}
"""The old top-level ``decision`` words and the permission decision each stands for."""


class PreToolUseAnswer(Record):
    """What one hook contributes: a decision and its reason, a rewrite, a context."""

    _fields = ("decision", "reason", "updated_input", "context")
    __slots__ = _fields
    decision: str | None
    reason: str | None
    updated_input: dict[str, JSValue] | Undefined
    context: str | None

    def __init__(
        self,
        decision: str | None = None,
        reason: str | None = None,
        updated_input: dict[str, JSValue] | Undefined = UNDEFINED,
        context: str | None = None,
    ) -> None:
        self._fill(decision, reason, updated_input, context)


class Merged(Record):
    """The merged decision on one tool call: ``{decision, reason, input, contexts}``."""

    _fields = ("decision", "reason", "input", "contexts")
    __slots__ = _fields
    decision: str | None
    reason: str | None
    input: JSValue
    contexts: tuple[str, ...]

    def __init__(
        self, decision: str | None, reason: str | None, input: JSValue, contexts: Sequence[str]
    ) -> None:
        self._fill(decision, reason, input, tuple(contexts))

    def to_json(self) -> dict[str, JSValue]:
        """The page's ``{decision, reason, input, contexts}``, in that order."""
        return {
            "decision": self.decision,
            "reason": self.reason,
            "input": self.input,
            "contexts": list(self.contexts),
        }


def _string_or_null(value: JSValue | Undefined) -> str | None:
    return value if isinstance(value, str) else None


def read_pre_tool_use(result: HookResult) -> PreToolUseAnswer:
    """One hook's contribution: exit 2 denies unread; otherwise its JSON (on any exit code)."""
    if strict_equals_number(result.code, 2):
        return PreToolUseAnswer("deny", block_reason(result.stderr))
    output = json_output(result.stdout)
    if output is None:
        return PreToolUseAnswer()  # plain text, or a failing hook without JSON: nothing to merge
    specific = output.get("hookSpecificOutput", UNDEFINED)
    if not isinstance(specific, dict) or specific.get("hookEventName", UNDEFINED) != "PreToolUse":
        specific = {}
    decision = specific.get("permissionDecision", UNDEFINED)
    if isinstance(decision, str) and decision in STRENGTH:
        reason = _string_or_null(specific.get("permissionDecisionReason", UNDEFINED))
    else:
        old = output.get("decision", UNDEFINED)
        decision = DEPRECATED_DECISIONS.get(old) if isinstance(old, str) else None
        reason = _string_or_null(output.get("reason", UNDEFINED))
    updated = specific.get("updatedInput", UNDEFINED)
    return PreToolUseAnswer(
        decision,
        reason,
        updated if isinstance(updated, dict) else UNDEFINED,
        _string_or_null(specific.get("additionalContext", UNDEFINED)),
    )


def merge_pre_tool_use(results: Sequence[HookResult], tool_input: JSValue) -> Merged:
    """The page's ``mergePreToolUse``: results in the order the hooks finished."""
    decision: str | None = None
    reason: str | None = None
    rewritten: dict[str, JSValue] | Undefined = UNDEFINED
    contexts: list[str] = []
    for result in results:
        answer = read_pre_tool_use(result)
        # Strictly stronger only: among equal decisions the first hook's reason stays.
        if answer.decision is not None and (
            decision is None or STRENGTH[answer.decision] > STRENGTH[decision]
        ):
            decision, reason = answer.decision, answer.reason
        if not isinstance(answer.updated_input, Undefined):
            rewritten = answer.updated_input  # the last rewrite wins
        if answer.context is not None:
            contexts.append(answer.context)
    if decision == "deny":  # a blocked call runs nothing: no rewrite, no context
        return Merged(decision, reason, tool_input, ())
    chosen = tool_input if isinstance(rewritten, Undefined) else rewritten
    return Merged(decision, reason, chosen, contexts)


def merge_arguments(case: JSValue) -> Decoded:
    """``(c.results, c.toolInput)``: given as the case file writes them, parsed into
    HookResults for ``merge_pre_tool_use``. CaseError for exactly the invalid inputs the
    page names.
    """
    results = member(case, "results")
    if not isinstance(results, list):
        raise CaseError(
            "results",
            f"results must be a list, got {describe_value(results)}",
            'give the case a "results" array of {"code", "stdout", "stderr"} objects',
        )
    tool_input = member(case, "toolInput")
    if isinstance(tool_input, Undefined):
        raise CaseError(
            "toolInput",
            "the case has no toolInput",
            'give the case a "toolInput" (any JSON value, e.g. {"command": "ls"})',
        )
    return Decoded((results, tool_input), (hook_results(results), tool_input))


def hook_results(results: Sequence[JSValue]) -> list[HookResult]:
    """A case's ``results`` as HookResults; CaseError (with its index) for one that is not."""
    read: list[HookResult] = []
    for index, result in enumerate(results):
        try:
            read.append(hook_result(result))
        except CaseError as error:
            raise error.inside("results", index) from None
    return read


STAGE = Stage(
    __name__,
    "Several hooks, one decision",
    "hook-merge",
    Exercise(
        "merge_pre_tool_use",
        notebook="05_several_hooks",
        check="check_merge",
        reference=merge_pre_tool_use,
        decode=merge_arguments,
        case_key="cases",
        output_key="merged",
        fields=("results", "toolInput"),
        families=(
            "exit-2-beats-json",
            "block-default-reason",
            "deny-drops-rewrite",
            "strict-equality",
            "json-on-any-exit",
            "stdout-not-json",
            "deprecated-decision",
            "wrong-event",
            "unknown-decision",
            "first-reason",
            "last-rewrite",
            "precedence",
            "contexts",
            "no-decision",
            "one-decision",
        ),
        classify="classify:merge_family",
        generate="generate:merge_cases",
        hinted="classify:merge_hinted_family",
    ),
)
