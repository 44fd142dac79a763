"""Merge the readings of every hook that ran for one event into what Claude Code applies.

Reference §7b: the most restrictive decision wins, every additionalContext is kept,
the last ``updatedInput`` to finish wins, ``continue: false`` overrides the decision,
and a Stop loop is cut after a cap of consecutive continuations. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hookcourse.engine.catalogue import EventSpec, Recipient, recipient_text
from hookcourse.engine.reading import HookReading
from hookcourse.js.json import quote, stringify
from hookcourse.js.values import UNDEFINED, JSValue, Undefined, null_if_undefined

DEFAULT_STOP_BLOCK_CAP = 8


@dataclass(frozen=True)
class Outcome:
    """What Claude Code does after all of an event's hooks finished."""

    event: str
    blocked: bool
    """The action is stopped: deny, block, exit 2 on a blocking event, or continue:false."""
    decision: str | None
    """The event's own word from the winning hook, or None when no hook decided."""
    reason: str | None
    reason_to: Recipient | None
    additional_context: list[str]
    updated_input: JSValue | Undefined
    updated_tool_output: JSValue | Undefined
    continue_: bool
    stop_reason: str | None
    system_messages: list[str]
    event_output: dict[str, JSValue]
    notices: list[str]
    conflicts: list[str]
    explanation: list[str]
    keeps_going: bool
    """Stop/SubagentStop only: the turn goes on instead of ending."""
    stop_hook_active: bool | None
    """Stop/SubagentStop only: the payload's flag, None when absent or not a boolean."""

    def to_json(self) -> dict[str, JSValue]:
        """Camel-case keys; an absent updatedInput/updatedToolOutput is null."""
        return {
            "event": self.event,
            "blocked": self.blocked,
            "decision": self.decision,
            "reason": self.reason,
            "reasonTo": None if self.reason_to is None else str(self.reason_to),
            "additionalContext": list(self.additional_context),
            "updatedInput": null_if_undefined(self.updated_input),
            "updatedToolOutput": null_if_undefined(self.updated_tool_output),
            "continue": self.continue_,
            "stopReason": self.stop_reason,
            "systemMessages": list(self.system_messages),
            "eventOutput": dict(self.event_output),
            "notices": list(self.notices),
            "conflicts": list(self.conflicts),
            "keepsGoing": self.keeps_going,
            "stopHookActive": self.stop_hook_active,
            "explanation": list(self.explanation),
        }


def _name(index: int, reading: HookReading) -> str:
    return f"hook #{index} ({reading.label or reading.handler_type})"


def _rank(event: EventSpec, word: str) -> int:
    return event.precedence.index(word) if word in event.precedence else len(event.precedence)


@dataclass(frozen=True)
class _Decided:
    word: str | None
    reason: str | None
    reason_to: Recipient | None


def _decide(
    event: EventSpec,
    named: list[tuple[str, HookReading]],
    explanation: list[str],
    conflicts: list[str],
) -> _Decided:
    decided = [(name, r) for name, r in named if r.decision is not None]
    if not decided:
        explanation.append("No hook gave a decision.")
        return _Decided(None, None, None)
    word = min((r.decision for _, r in decided if r.decision), key=lambda w: _rank(event, w))
    order = " > ".join(event.precedence) if len(event.precedence) > 1 else ""
    if len({r.decision for _, r in decided}) > 1:
        said = ", ".join(f"{name} {quote(r.decision or '')}" for name, r in decided)
        conflicts.append(f"hooks disagreed ({said}); {quote(word)} wins ({order})")
    winners = [(name, r) for name, r in decided if r.decision == word]
    reasons = [r.reason for _, r in winners if r.reason]
    by = ", ".join(name for name, _ in winners)
    explanation.append(f"Decision {quote(word)} from {by}" + (f" ({order})." if order else "."))
    if len(reasons) > 1:
        explanation.append("Every winning hook's reason is kept, one a line, in finish order.")
    note = event.decision_notes.get(word)
    if note:
        explanation.append(f"Note: {note}.")
    return _Decided(word, "\n".join(reasons) or None, winners[0][1].reason_to)


def _last_wins(
    what: str,
    named: list[tuple[str, JSValue | Undefined]],
    explanation: list[str],
    conflicts: list[str],
) -> JSValue | Undefined:
    given = [(name, value) for name, value in named if not isinstance(value, Undefined)]
    if not given:
        return UNDEFINED
    winner, value = given[-1]
    if len(given) > 1:
        others = ", ".join(name for name, _ in given[:-1])
        conflicts.append(
            f"{others} and {winner} all returned {what}; the last to finish ({winner}) wins, "
            "and which finishes last is not deterministic because hooks run in parallel"
        )
    else:
        explanation.append(f"{what} from {winner} replaces the whole value.")
    return value


def _event_output(named: list[tuple[str, HookReading]], conflicts: list[str]) -> dict[str, JSValue]:
    merged: dict[str, JSValue] = {}
    setter: dict[str, str] = {}
    for name, reading in named:
        for key, value in reading.event_output.items():
            if key in merged and stringify(merged[key]) != stringify(value):
                conflicts.append(
                    f"{setter[key]} and {name} both set {key}; the last to finish ({name}) wins"
                )
            merged[key], setter[key] = value, name
    return merged


def _stop_hook_active(payload: Mapping[str, object], explanation: list[str]) -> bool | None:
    flag = payload.get("stop_hook_active")
    if not isinstance(flag, bool):
        explanation.append("The payload has no boolean stop_hook_active.")
        return None
    if flag:
        explanation.append(
            "stop_hook_active is true: Claude Code is already continuing because of a stop "
            "hook; a hook that blocks again without checking it risks a loop."
        )
    else:
        explanation.append("stop_hook_active is false: this stop was not forced by a stop hook.")
    return flag


def _stop_cap_overrides(consecutive: int, cap: int, explanation: list[str]) -> bool:
    """True when the cap ends the turn despite a continuation (CLAUDE_CODE_STOP_HOOK_BLOCK_CAP)."""
    before = max(consecutive, 0)
    if cap <= 0:
        explanation.append(
            "The stop-hook cap is disabled (0): a hook that always continues loops for ever."
        )
        return False
    if before >= cap:
        explanation.append(
            f"Stop hooks already continued the turn {before} times in a row and the cap is "
            f"{cap}: Claude Code overrides this continuation and ends the turn."
        )
        return True
    explanation.append(f"This is continuation {before + 1} in a row; the cap is {cap}.")
    return False


def _verdict(event: EventSpec, *, blocked: bool, stopped: bool, going: bool) -> str:
    if stopped and event.stop_loop:
        return "Outcome: the turn ends; Claude stops entirely."
    if stopped:
        return "Outcome: blocked; Claude stops entirely."
    if event.stop_loop:
        if blocked:
            return "Outcome: blocked; the turn does not end and the reason is the next instruction."
        return (
            "Outcome: the turn goes on with the added context."
            if going
            else ("Outcome: the turn ends.")
        )
    return "Outcome: blocked." if blocked else "Outcome: the action goes ahead."


def merge_readings(
    event: EventSpec,
    readings: Sequence[HookReading],
    payload: Mapping[str, object],
    *,
    consecutive_stop_blocks: int = 0,
    stop_block_cap: int = DEFAULT_STOP_BLOCK_CAP,
    in_background: int = 0,
) -> Outcome:
    """Combine ``readings`` (in the order the hooks finished) as ``event`` combines them.

    ``in_background`` counts the async hooks that also ran: they are not in ``readings``
    because their results arrive on the next turn and cannot block.
    """
    named = [(_name(index, r), r) for index, r in enumerate(readings, 1)]
    waited = " that Claude Code waits for" if in_background else ""
    explanation = [
        f"{len(readings)} hook(s){waited} ran for {event.name}, read in the order they finished."
        if readings
        else f"No hook{waited} ran for {event.name}; the action goes ahead."
    ]
    if in_background:
        explanation.append(
            f"{in_background} async hook(s) also ran; their results arrive on the next turn "
            "and cannot block, so they are not merged."
        )
    explanation.extend(f"{name}: {r.how}." for name, r in named)
    conflicts: list[str] = []
    decided = _decide(event, named, explanation, conflicts)
    contexts = [r.additional_context for r in readings if r.additional_context is not None]
    if len(contexts) > 1:
        explanation.append(f"All {len(contexts)} additionalContext texts are kept, in order.")
    updated_input = _last_wins(
        "updatedInput", [(n, r.updated_input) for n, r in named], explanation, conflicts
    )
    updated_tool_output = _last_wins(
        "updatedToolOutput", [(n, r.updated_tool_output) for n, r in named], explanation, conflicts
    )
    stops = decided.word is not None and decided.word in event.blocking_decisions
    if stops and not event.can_block:
        stops = False
        explanation.append(
            f"{event.name} cannot stop anything: {quote(decided.word or '')} only delivers the "
            f"reason to {recipient_text(decided.reason_to or Recipient.CLAUDE)}."
        )
    for field, values in event.unblockable_when.items():
        if stops and payload.get(field) in values:
            stops = False
            explanation.append(
                f"{event.name} cannot block when {field} is {quote(str(payload.get(field)))}."
            )
    keeps_going = event.stop_loop and (stops or bool(contexts))
    stop_hook_active = _stop_hook_active(payload, explanation) if event.stop_loop else None
    if keeps_going and _stop_cap_overrides(consecutive_stop_blocks, stop_block_cap, explanation):
        stops = keeps_going = False
    stoppers = [(name, r) for name, r in named if not r.continue_]
    if stoppers:
        # On Stop/SubagentStop the action is ending the turn: continue:false lets it happen.
        keeps_going = False
        stops = stops and not event.stop_loop
        overrides = f", overriding {quote(decided.word)}" if decided.word else ""
        explanation.append(
            f"continue: false from {stoppers[0][0]}: Claude stops entirely{overrides}."
        )
    blocked = stops or (bool(stoppers) and not event.stop_loop)
    if blocked and not isinstance(updated_input, Undefined):
        explanation.append("updatedInput is dropped: the call it would rewrite does not run.")
        updated_input = UNDEFINED
    system_messages = [r.system_message for r in readings if r.system_message is not None]
    if system_messages and event.system_message_to is not Recipient.USER:
        where = recipient_text(event.system_message_to)
        explanation.append(f"On {event.name}, systemMessage goes to {where}.")
    explanation.append(_verdict(event, blocked=blocked, stopped=bool(stoppers), going=keeps_going))
    return Outcome(
        event=event.name,
        blocked=blocked,
        decision=decided.word,
        reason=decided.reason,
        reason_to=decided.reason_to,
        additional_context=contexts,
        updated_input=updated_input,
        updated_tool_output=updated_tool_output,
        continue_=not stoppers,
        stop_reason=next((r.stop_reason for _, r in stoppers if r.stop_reason), None),
        system_messages=system_messages,
        event_output=_event_output(named, conflicts),
        notices=[notice for r in readings for notice in r.notices],
        conflicts=conflicts,
        explanation=explanation,
        keeps_going=keeps_going,
        stop_hook_active=stop_hook_active,
    )
