"""Merge the readings of every hook that ran for one event into what Claude Code applies.

Reference §7b, as Claude Code 2.1.332 runs it: the most restrictive decision wins
and only the reason of the winning hook that finished last reaches Claude, every
additionalContext is kept, the last ``updatedInput`` to finish wins,
``continue: false`` stops Claude (on PreToolUse after the tool ran), and a Stop
loop is cut at the cap's next consecutive block (the 9th by default). Pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from hookcourse.engine.catalogue import EventSpec, Recipient, recipient_text
from hookcourse.engine.reading import Classification, HookReading
from hookcourse.js.json import quote, stringify
from hookcourse.js.values import UNDEFINED, JSValue, Undefined, null_if_undefined

from .versions import continue_note, stop_cap_note, stop_context_continues

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
    stdout_context: list[str] = field(default_factory=list)
    """The additional contexts that were plain stdout, trimmed (shown as "hook success")."""
    json_answers: int = 0
    """How many hooks answered with exit 0 and valid JSON."""
    decided_by_exit2: bool = False
    decided_by_failure: bool = False
    """The winning block is ``onFailure: "block"`` reading a failed run."""
    """The winning reason came from an exit 2 (not from JSON)."""
    tool_result: str | None = None
    """The tool_result text when Claude Code gives it without the hook-error prefix."""
    decided_by_command: str | None = None
    """The command (or URL) of the hook whose reason won."""
    blocking_error: str | None = None
    """The winning reason as Claude Code words it (``[<command>]: <stderr>`` after exit 2)."""
    run_stops: bool = False
    """``continue: false``: Claude stops after this event (terminal_reason hook_stopped)."""
    stop_asked: bool = False
    """A hook answered ``continue: false``, heeded or not (``stop_reason``: its reason)."""

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
            "blockingError": self.blocking_error,
            "runStops": self.run_stops,
            "explanation": list(self.explanation),
        }


def _name(index: int, reading: HookReading) -> str:
    return f"hook #{index} ({reading.label or reading.handler_type})"


def _rank(event: EventSpec, word: str) -> int:
    return event.precedence.index(word) if word in event.precedence else len(event.precedence)


@dataclass(frozen=True)
class _Said:
    """What one phase of the merge adds to the explanation and to the conflicts."""

    lines: tuple[str, ...] = ()
    conflicts: tuple[str, ...] = ()


Named = Sequence[tuple[str, HookReading]]


@dataclass(frozen=True)
class _Decided:
    word: str | None
    reason: str | None
    reason_to: Recipient | None
    said: _Said
    blocking_error: str | None = None
    command: str | None = None
    by_exit2: bool = False
    by_failure: bool = False


def _ran(event: EventSpec, readings: Sequence[HookReading], in_background: int) -> _Said:
    """Phase 1: how many hooks ran and which rule read each."""
    waited = " that Claude Code waits for" if in_background else ""
    lines = [
        f"{len(readings)} hook(s){waited} ran for {event.name}, read in the order they finished."
        if readings
        else f"No hook{waited} ran for {event.name}; the action goes ahead."
    ]
    if in_background:
        lines.append(
            f"{in_background} async hook(s) also ran; their results arrive on the next turn "
            "and cannot block, so they are not merged."
        )
    return _Said(tuple(lines))


def _decide(event: EventSpec, named: Named) -> _Decided:
    """Phase 2: the most restrictive decision wins; every winning reason is kept."""
    decided = [(name, r) for name, r in named if r.decision is not None]
    if not decided:
        return _Decided(None, None, None, _Said(("No hook gave a decision.",)))
    word = min((r.decision for _, r in decided if r.decision), key=lambda w: _rank(event, w))
    order = " > ".join(event.precedence) if len(event.precedence) > 1 else ""
    conflicts = []
    if len({r.decision for _, r in decided}) > 1:
        words = ", ".join(f"{name} {quote(r.decision or '')}" for name, r in decided)
        conflicts.append(f"hooks disagreed ({words}); {quote(word)} wins ({order})")
    winners = [(name, r) for name, r in decided if r.decision == word]
    by = ", ".join(name for name, _ in winners)
    lines = [f"Decision {quote(word)} from {by}" + (f" ({order})." if order else ".")]
    last_name, last = winners[-1]
    if len(winners) > 1:
        lines.append(
            f"Only the reason of {last_name}, the last of them to finish, reaches Claude "
            "(Claude Code 2.1.332 keeps one reason, not all)."
        )
    note = event.decision_notes.get(word)
    if note:
        lines.append(f"Note: {note}.")
    said = _Said(tuple(lines), tuple(conflicts))
    by_exit2 = last.classification is Classification.BLOCKING_ERROR
    return _Decided(
        word,
        last.reason,
        last.reason_to,
        said,
        last.blocking_error,
        last.command,
        by_exit2,
        last.failure_blocks,
    )


def _contexts(readings: Sequence[HookReading]) -> tuple[list[str], _Said]:
    """Phase 3: every additionalContext is kept, in finish order."""
    contexts = [r.additional_context for r in readings if r.additional_context is not None]
    if len(contexts) > 1:
        return contexts, _Said(
            (f"All {len(contexts)} additionalContext texts are kept, in order.",)
        )
    return contexts, _Said()


def _last_wins(
    what: str, named: Sequence[tuple[str, JSValue | Undefined]]
) -> tuple[JSValue | Undefined, _Said]:
    """Phase 4: of several replacements, the last hook to finish wins."""
    given = [(name, value) for name, value in named if not isinstance(value, Undefined)]
    if not given:
        return UNDEFINED, _Said()
    winner, value = given[-1]
    if len(given) == 1:
        return value, _Said((f"{what} from {winner} replaces the whole value.",))
    others = ", ".join(name for name, _ in given[:-1])
    conflict = (
        f"{others} and {winner} all returned {what}; the last to finish ({winner}) wins, "
        "and which finishes last is not deterministic because hooks run in parallel"
    )
    return value, _Said(conflicts=(conflict,))


def _event_output(named: Named) -> tuple[dict[str, JSValue], _Said]:
    """Phase 4b: the event's other fields; the last hook to set one wins."""
    merged: dict[str, JSValue] = {}
    setter: dict[str, str] = {}
    conflicts = []
    for name, reading in named:
        for key, value in reading.event_output.items():
            if key in merged and stringify(merged[key]) != stringify(value):
                conflicts.append(
                    f"{setter[key]} and {name} both set {key}; the last to finish ({name}) wins"
                )
            merged[key], setter[key] = value, name
    return merged, _Said(conflicts=tuple(conflicts))


def _stop_hook_active(payload: Mapping[str, object]) -> tuple[bool | None, _Said]:
    flag = payload.get("stop_hook_active")
    if not isinstance(flag, bool):
        return None, _Said(("The payload has no boolean stop_hook_active.",))
    if flag:
        line = (
            "stop_hook_active is true: Claude Code is already continuing because of a stop "
            "hook; a hook that blocks again without checking it risks a loop."
        )
    else:
        line = "stop_hook_active is false: this stop was not forced by a stop hook."
    return flag, _Said((line,))


def _stop_cap_overrides(consecutive: int, cap: int) -> tuple[bool, _Said]:
    """True when the cap ends the turn despite a continuation (CLAUDE_CODE_STOP_HOOK_BLOCK_CAP)."""
    before = max(consecutive, 0)
    uncapped = stop_cap_note()
    if uncapped is not None:
        return False, _Said((uncapped,))
    if cap <= 0:
        line = "The stop-hook cap is disabled (0): a hook that always continues loops for ever."
        return False, _Said((line,))
    if before >= cap:
        line = (
            f"Stop hooks already continued the turn {before} times in a row and the cap is "
            f"{cap}: Claude Code overrides this continuation and ends the turn."
        )
        return True, _Said((line,))
    return False, _Said((f"This is continuation {before + 1} in a row; the cap is {cap}.",))


@dataclass(frozen=True)
class _Stopping:
    """Whether the decision stops the action, and whether a Stop turn keeps going."""

    stops: bool
    keeps_going: bool
    stop_hook_active: bool | None
    said: _Said


def _stopping(
    event: EventSpec,
    decided: _Decided,
    has_context: bool,
    payload: Mapping[str, object],
    consecutive_stop_blocks: int,
    stop_block_cap: int,
) -> _Stopping:
    """Phase 5: does the winning decision stop anything here (and the Stop loop cap)?"""
    lines: list[str] = []
    stops = decided.word is not None and decided.word in event.blocking_decisions
    if stops and not event.can_block:
        stops = False
        lines.append(
            f"{event.name} cannot stop anything: {quote(decided.word or '')} only delivers the "
            f"reason to {recipient_text(decided.reason_to or Recipient.CLAUDE)}."
        )
    for key, values in event.unblockable_when.items():
        if stops and payload.get(key) in values:
            stops = False
            lines.append(f"{event.name} cannot block when {key} is {quote(str(payload.get(key)))}.")
    if not event.stop_loop:
        return _Stopping(stops, False, None, _Said(tuple(lines)))
    # An older release answered as may have let the context go unheeded (measured).
    keeps_going = stops or (has_context and stop_context_continues(event.name))
    active, active_said = _stop_hook_active(payload)
    lines.extend(active_said.lines)
    if keeps_going:
        capped, cap_said = _stop_cap_overrides(consecutive_stop_blocks, stop_block_cap)
        lines.extend(cap_said.lines)
        if capped:
            stops = keeps_going = False
    return _Stopping(stops, keeps_going, active, _Said(tuple(lines)))


def _verdict(event: EventSpec, *, blocked: bool, stopped: bool, going: bool) -> str:
    if stopped and event.stop_loop:
        return "Outcome: the turn ends; Claude stops entirely."
    if stopped and not blocked:
        return "Outcome: the action goes ahead, then Claude stops."
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
    because their results arrive on the next turn and cannot block. The merge runs in
    named phases, each returning its values and what it adds to the explanation.
    """
    named = [(_name(index, r), r) for index, r in enumerate(readings, 1)]
    ran = _ran(event, readings, in_background)
    each = _Said(tuple(f"{name}: {r.how}." for name, r in named))
    decided = _decide(event, named)
    contexts, kept = _contexts(readings)
    updated_input, input_said = _last_wins("updatedInput", [(n, r.updated_input) for n, r in named])
    updated_tool_output, output_said = _last_wins(
        "updatedToolOutput", [(n, r.updated_tool_output) for n, r in named]
    )
    event_output, fields_said = _event_output(named)
    stopping = _stopping(
        event, decided, bool(contexts), payload, consecutive_stop_blocks, stop_block_cap
    )
    stops, keeps_going = stopping.stops, stopping.keeps_going
    lines: list[str] = []
    # Phase 6: continue:false stops Claude entirely and overrides the decision. On
    # Stop/SubagentStop the action is ending the turn, so continue:false lets it happen.
    askers = [(name, r) for name, r in named if not r.continue_]
    unheeded = continue_note(event.name, decided.word) if askers else None
    stoppers = askers if unheeded is None else []
    after_action = event.continue_false_after_action
    if unheeded is not None:
        lines.append(f"continue: false from {askers[0][0]} is not heeded: {unheeded}.")
    if stoppers:
        keeps_going = False
        stops = stops and not event.stop_loop
        if after_action:
            lines.append(
                f"continue: false from {stoppers[0][0]}: the call still goes on, then Claude "
                "stops (terminal_reason hook_stopped)."
            )
        else:
            overrides = f", overriding {quote(decided.word)}" if decided.word else ""
            lines.append(
                f"continue: false from {stoppers[0][0]}: Claude stops entirely{overrides}."
            )
    blocked = stops or (bool(stoppers) and not event.stop_loop and not after_action)
    if blocked and not isinstance(updated_input, Undefined):
        lines.append("updatedInput is dropped: the call it would rewrite does not run.")
        updated_input = UNDEFINED
    # Phase 7: where system messages go.
    system_messages = [r.system_message for r in readings if r.system_message is not None]
    if system_messages and event.system_message_to is not Recipient.USER:
        lines.append(
            f"On {event.name}, systemMessage goes to {recipient_text(event.system_message_to)}."
        )
    lines.append(_verdict(event, blocked=blocked, stopped=bool(stoppers), going=keeps_going))
    phases = (ran, each, decided.said, kept, input_said, output_said, fields_said, stopping.said)
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
        stop_reason=next((r.stop_reason for _, r in askers if r.stop_reason), None),
        stop_asked=bool(askers),
        system_messages=system_messages,
        event_output=event_output,
        notices=[notice for r in readings for notice in r.notices],
        conflicts=[c for phase in phases for c in phase.conflicts],
        explanation=[line for phase in phases for line in phase.lines] + lines,
        keeps_going=keeps_going,
        stop_hook_active=stopping.stop_hook_active,
        blocking_error=decided.blocking_error,
        decided_by_command=decided.command,
        decided_by_exit2=decided.by_exit2,
        decided_by_failure=decided.by_failure,
        stdout_context=[r.stdout_context for r in readings if r.stdout_context is not None],
        json_answers=sum(r.answered_json for r in readings),
        run_stops=bool(stoppers),
    )
