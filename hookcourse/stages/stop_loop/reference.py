"""A Stop hook through Claude's turns until Claude really stops (course stage ``stop-loop``).

A Stop hook that blocks keeps Claude working; the next time Claude tries to stop,
the hook runs again with ``stop_hook_active: true``. Claude Code ends a loop of
consecutive blocks after ``cap`` of them (8 by default): the next block is
overridden and its reason never delivered.
"""

from __future__ import annotations

from hookcourse.js.values import Undefined, js_number, js_trim, strict_equals_number
from hookcourse.record import Record
from hookcourse.stages.answers import HookResult, hook_result, json_output
from hookcourse.stages.decoding import CaseError, Decoded, describe_value, member
from hookcourse.stages.descriptor import Exercise, Stage
from hookcourse.stages.matcher_and_dispatch.verdicts import block_reason

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Final

    from hookcourse.js.values import JSValue

DEFAULT_CAP: Final = 8
CAP_RANGE: Final = range(1, 101)

BLOCK: Final = "block"  # Claude must keep working
HALT: Final = "halt"  # continue: false, Claude stops now
STOP: Final = "stop"  # the hook lets Claude finish


class StopHook(Record):
    """A Stop hook, described by its answer with ``stop_hook_active`` false and true."""

    _fields = ("when_inactive", "when_active")
    __slots__ = _fields
    when_inactive: HookResult
    when_active: HookResult

    def __init__(self, when_inactive: HookResult, when_active: HookResult) -> None:
        self._fill(when_inactive, when_active)


class StopTurn(Record):
    """One stop attempt: the flag the hook saw, whether Claude goes on, why, and the cap."""

    _fields = ("stop_hook_active", "continues", "reason", "capped")
    __slots__ = _fields
    stop_hook_active: bool
    continues: bool
    reason: str | None
    capped: bool

    def __init__(
        self, stop_hook_active: bool, continues: bool, reason: str | None, capped: bool
    ) -> None:
        self._fill(stop_hook_active, continues, reason, capped)

    def to_json(self) -> dict[str, JSValue]:
        """The page's ``{stopHookActive, continues, reason, capped}``, in that order."""
        return {
            "stopHookActive": self.stop_hook_active,
            "continues": self.continues,
            "reason": self.reason,
            "capped": self.capped,
        }


def read_stop(result: HookResult) -> tuple[str, str | None]:
    """``(BLOCK | HALT | STOP, reason)`` for one answer of a Stop hook."""
    if strict_equals_number(result.code, 2):
        return BLOCK, block_reason(result.stderr)
    output = json_output(result.stdout)
    if output is None:
        return STOP, None
    if output.get("continue") is False:  # outranks a block in the same JSON
        reason = output.get("stopReason")
        return HALT, reason if isinstance(reason, str) else None
    reason = output.get("reason")
    if output.get("decision") == "block" and isinstance(reason, str) and js_trim(reason):
        return BLOCK, reason  # as written, not trimmed
    return STOP, None  # a block without a usable reason is ignored


def run_stop_loop(hook: StopHook, cap: int = DEFAULT_CAP) -> list[StopTurn]:
    """The page's ``runStopLoop``: every stop attempt until Claude really stops.

    ``cap`` is a whole number from 1 to 100, as the grader checks it.
    """
    turns: list[StopTurn] = []
    active, blocks = False, 0
    while True:
        kind, reason = read_stop(hook.when_active if active else hook.when_inactive)
        if kind != BLOCK:
            turns.append(StopTurn(active, False, reason, False))
            return turns
        blocks += 1
        if blocks > cap:  # Claude Code overrides this block; its reason is not delivered
            turns.append(StopTurn(active, False, None, True))
            return turns
        turns.append(StopTurn(active, True, reason, False))
        active = True


def _answer(hook: Mapping[str, JSValue], key: str) -> HookResult:
    if key not in hook:
        raise CaseError(
            ("hook", key),
            f"the hook has no {key}",
            f'give the hook a "{key}" answer, e.g. {{"code": 0}}, even if the loop never reads it',
        )
    try:
        return hook_result(hook[key])
    except CaseError as error:
        raise error.inside("hook", key) from None


def _cap(value: JSValue | Undefined) -> int:
    if value is None or isinstance(value, Undefined):
        return DEFAULT_CAP  # c.cap ?? 8
    # 3.0 is the integer 3, as in JavaScript; true is not a number.
    if isinstance(value, int | float) and not isinstance(value, bool):
        number = js_number(value)
        if number.is_integer() and int(number) in CAP_RANGE:
            return int(number)
    raise CaseError(
        "cap",
        f"cap must be a whole number from 1 to 100, got {describe_value(value)}",
        "write a number such as 8, or leave cap out for the default 8",
    )


def stop_hook(hook: JSValue | Undefined) -> StopHook:
    """A case's ``hook`` as a StopHook; CaseError where the page calls it invalid."""
    if not isinstance(hook, dict):
        raise CaseError(
            "hook",
            f"hook must be an object, got {describe_value(hook)}",
            'write it as {"whenInactive": {"code": 0}, "whenActive": {"code": 0}}',
        )
    return StopHook(_answer(hook, "whenInactive"), _answer(hook, "whenActive"))


def stop_arguments(case: JSValue) -> Decoded:
    """``(c.hook, c.cap ?? 8)``: the hook given as the case file writes it and parsed into a
    StopHook for ``run_stop_loop``, the cap as a whole number. CaseError for exactly the
    invalid inputs the page names.
    """
    hook = member(case, "hook")
    parsed = stop_hook(hook)
    cap = _cap(member(case, "cap"))
    return Decoded((hook, cap), (parsed, cap))


STAGE = Stage(
    __name__,
    "Keep going, but not forever",
    "hook-stop",
    Exercise(
        "run_stop_loop",
        notebook="06_stop_loop",
        check="check_stop",
        reference=run_stop_loop,
        decode=stop_arguments,
        case_key="cases",
        output_key="loops",
        fields=("hook", "cap"),
        defaults={"cap": 8},
        families=(
            "halt-beats-block",
            "the-cap",
            "flag-after-block",
            "strict-equality",
            "halt",
            "block-needs-reason",
            "reason-as-written",
            "stdout-not-json",
            "json-on-any-exit",
            "stop",
        ),
        classify="classify:stop_family",
        generate="generate:stop_cases",
        hinted="classify:stop_hinted_family",
    ),
)
