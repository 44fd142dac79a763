"""What Claude Code 2.1.332 in print mode (``claude -p``) does after one event's hooks.

``fire`` models print mode: nobody answers a permission prompt, so an ``ask``
refuses the call and its reason reaches the model as the tool_result, marked as an
error. This module turns the merged ``Outcome`` (and, on PreToolUse, the permission
step) into what the model is shown, in Claude Code's own words (the catalogue's
``model_texts``): the tool_result of a call that did not run, the system reminders,
the Stop feedback, and whether the run stops. Pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hookcourse.js.values import JSValue, Undefined, js_trim

from .catalogue import EventSpec, FieldRole, model_text, permission_facts
from .lifecycle import CallEffects
from .outcome import Outcome
from .permissions import PermissionStep, ToolRefusal
from .versions import (
    contexts_joined,
    deny_shown_as_blocking,
    deny_text,
    exit2_text,
    feedback_text,
    field_heeded,
    no_reason_text,
    notices_shown,
    prompt_message_shown,
    stopped_refusal_text,
    text_form,
    text_shown,
)

AFTER_THE_CALL = frozenset({"PostToolUse", "PostToolUseFailure"})
HOOK_STOPPED = "hook_stopped"
STOP_HOOK_PREVENTED = "stop_hook_prevented"
MAX_TURNS = "max_turns"
TURN_END_CHECK = "PostToolBatch"
"""The last event before Claude Code asks for the next response after tool calls, where
``--max-turns`` ends the run."""
TOOL_DEFERRED = "tool_deferred"
ABORTED_TOOLS = "aborted_tools"
"""The run's end when a call is rejected as the user would reject it (an interrupt)."""
SKILL_SHELL = "PreSkillShellCommand"
PROMPT_EVENTS = frozenset({"UserPromptSubmit", "UserPromptExpansion"})
"""The events whose block stops the prompt before it reaches the model."""
PERMISSION_REQUEST = "PermissionRequest"
"""The event that fires where the permission step would show its dialog."""


@dataclass(frozen=True)
class ToolResult:
    """The tool_result text the model gets for a call that did not run."""

    text: str
    is_error: bool = True


@dataclass(frozen=True)
class PrintMode:
    """What ``claude -p`` does after the event: the call, the model's texts, the run."""

    tool_runs: bool | None
    """PreToolUse: whether the tool runs; None elsewhere, or when a classifier decides."""
    tool_result: ToolResult | None
    system_reminders: tuple[str, ...]
    run_stops: bool
    terminal_reason: str | None
    turn_continues: bool | None
    """Stop/SubagentStop: the turn goes on instead of ending."""
    stop_feedback: str | None
    user_message: str | None
    """UserPromptSubmit: what the user is shown when the prompt is blocked."""
    notices: tuple[str, ...] = ()
    """The hooks' systemMessages the user is shown, as written (2.1.332 shows each line
    as ``<hook> says: <line>``)."""
    permission_request: bool = False
    """PreToolUse: the permission step would show a dialog, so PermissionRequest fires
    (not after a hook's own ask or defer)."""
    user_turns: tuple[str, ...] = ()
    """Texts sent to the model as user turns of their own, each answered before the prompt
    (SessionStart's initialUserMessage): one more model request each."""
    when_run: CallEffects | None = None
    """PreToolUse: what the call sets off as it runs, if it runs (reported even when a
    dialog is still to answer: PermissionRequest may let it run)."""
    user_notes: tuple[str, ...] = ()
    """Lines print mode shows the user beside the hooks' systemMessages (a skill's shell
    line not run, or run although its hook failed)."""
    skill_line: str | None = None
    """PreSkillShellCommand: what stands in the skill's text instead of the line's
    output when the line does not run (None: it runs)."""

    def to_json(self) -> dict[str, JSValue]:
        result = self.tool_result
        return {
            "toolRuns": self.tool_runs,
            "toolResult": None
            if result is None
            else {"text": result.text, "isError": result.is_error},
            "systemReminders": list(self.system_reminders),
            "runStops": self.run_stops,
            "terminalReason": self.terminal_reason,
            "turnContinues": self.turn_continues,
            "stopFeedback": self.stop_feedback,
            "userMessage": self.user_message,
            "notices": list(self.notices),
            "userTurns": list(self.user_turns),
            "permissionRequest": self.permission_request,
            "whenRun": None if self.when_run is None else self.when_run.to_json(),
            "userNotes": list(self.user_notes),
            "skillLine": self.skill_line,
        }


def hook_name(spec: EventSpec, payload: Mapping[str, JSValue]) -> str:
    """How Claude Code names the event's hooks to the model: ``PreToolUse:Bash``, ``Stop``."""
    if spec.matcher_field is None:
        return spec.name
    query = payload.get(spec.matcher_field)
    return f"{spec.name}:{query}" if isinstance(query, str) else spec.name


def _reminders(spec: EventSpec, name: str, outcome: Outcome) -> list[str]:
    """The hook texts the model is shown (a systemMessage is not one: it goes to the user)."""
    texts = [model_text("success", hook=name, text=text) for text in outcome.stdout_context]
    plain = set(outcome.stdout_context)
    contexts = [text for text in outcome.additional_context if js_trim(text) not in plain]
    shown = spec.name if spec.context_without_query else name
    for text in (
        ["\n".join(contexts)]
        if contexts and contexts_joined(spec.name, spec.contexts_joined)
        else contexts
    ):
        texts.append(model_text("additional_context", hook=shown, text=text))
    # After exit 2 with {"decision": "block", "reason": R} on stdout, R is the reason
    # (2.1.332): a Stop block is then also shown as a blocking error, and the blocking
    # error of either carries R without the "[<command>]: " that stderr's reason gets. A
    # Stop block whose reason is stderr is not shown so. After exit 2 blocking_error is
    # the JSON's reason, or "[<command>]: <stderr>", never the trimmed stderr reason.
    stderr_reason = outcome.decided_by_exit2 and outcome.blocking_error != outcome.reason
    json_block = outcome.decision == "block" and not stderr_reason
    post_block = spec.name in AFTER_THE_CALL and outcome.decision == "block"
    if post_block or (spec.stop_loop and json_block and outcome.keeps_going):
        command = outcome.decided_by_command or ""
        reason = outcome.reason or ""
        if stderr_reason:
            # "[<command>]: " and stderr as written, final newline kept (2.1.332).
            reason = outcome.blocking_error or f"[{command}]: {reason}"
        texts.append(
            model_text("blocking_error_from_command", hook=shown, command=command, reason=reason)
        )
    if text_shown(spec.name, "success: Success"):
        # Older releases told the model of each JSON answer too (measured).
        texts += [model_text("success", hook=name, text="Success")] * outcome.json_answers
    # Forms the release answered as did not show yet (fire --claude-version; measured).
    texts = [text for text in texts if text_shown(*(text_form(text) or ("", ""))) is not False]
    json_deny = outcome.decision == "deny" and _json_decided(outcome)
    if spec.name == "PreToolUse" and json_deny and deny_shown_as_blocking():
        # Older releases also showed the deny's reason as a blocking error (measured).
        command, reason = outcome.decided_by_command or "", outcome.reason or ""
        texts.append(
            model_text("blocking_error_from_command", hook=shown, command=command, reason=reason)
        )
    return texts


def _json_decided(outcome: Outcome) -> bool:
    """Whether a JSON answer gave the decision's reason: no exit 2, or an exit 2 beside a
    JSON deny or block whose reason it then gives (stderr's reason keeps its command)."""
    if not outcome.decided_by_exit2:
        return True
    error = outcome.blocking_error or outcome.reason
    return outcome.reason is not None and error == outcome.reason


def hook_denial(spec: EventSpec, name: str, outcome: Outcome) -> str:
    """The tool_result of a call a PreToolUse hook denied (exit 2 or a JSON deny)."""
    if outcome.tool_result is not None:
        return outcome.tool_result
    no_reason = model_text("denied_no_reason", hook=name)
    given = outcome.blocking_error or outcome.reason
    # No reason given: the merge (or this) words it as the newest does.
    unexplained = given in (None, no_reason)
    error = no_reason if given is None else given
    text = model_text("hook_error", hook=name, error=error)
    if not outcome.decided_by_exit2 and not outcome.decided_by_failure:
        # A JSON deny: older releases worded it otherwise (fire --claude-version).
        worded = deny_text(name, name.partition(":")[2], error, text)
        return no_reason_text(name, worded) if unexplained else worded
    if outcome.decided_by_exit2 and _json_decided(outcome):
        # Exit 2 beside a JSON deny whose reason it gives: worded as that deny (seen live on
        # 2.1.181: the reason alone, as its JSON denies were; the newest words both alike).
        return deny_text(name, name.partition(":")[2], error, text)
    if outcome.decided_by_exit2:
        # Older releases worded an exit 2's refusal otherwise too (fire --claude-version).
        return exit2_text(name.partition(":")[2], error, text)
    return text


def _tool_call(
    spec: EventSpec,
    name: str,
    tool: str,
    outcome: Outcome,
    step: PermissionStep | None,
) -> tuple[bool | None, ToolResult | None, str | None]:
    """Does the call run, what the model gets if not, and a terminal reason (PreToolUse)."""
    if outcome.blocked:
        return False, ToolResult(hook_denial(spec, name, outcome)), None
    if step is None:
        return None, None, None
    if step.decision == "allow":
        return True, None, None
    if step.decision == "classifier":
        return None, None, None
    if step.rule is None and outcome.decision == "defer":
        return False, None, TOOL_DEFERRED
    if step.rule is None and outcome.decision == "ask":
        # Nobody to ask: the hook's reason is what the model reads.
        text = outcome.reason or model_text("asked_no_reason", hook=name)
        return False, ToolResult(text), None
    return False, ToolResult(step.refusal or permission_facts().refusal("tool", tool=tool)), None


def _prompt_refusal(spec: EventSpec, payload: Mapping[str, JSValue], outcome: Outcome) -> str:
    """What the user is shown for a prompt a UserPromptSubmit or UserPromptExpansion hook
    stopped (2.1.332): a block's reason as the model would read it (stderr as written
    after exit 2), and the prompt (not after an ``onFailure`` block); ``continue: false``
    its stopReason, even beside a block."""
    if not outcome.continue_:
        return model_text("prompt_stopped", reason=outcome.stop_reason or "")
    reason = outcome.blocking_error or outcome.reason or model_text("denied_no_reason")
    if outcome.decided_by_failure:
        return model_text("prompt_blocked_by_failure", event=spec.name, reason=reason)
    prompt = payload.get("prompt")
    return model_text(
        "prompt_blocked",
        event=spec.name,
        reason=reason,
        prompt=prompt if isinstance(prompt, str) else "",
    )


def _dialog_answer(outcome: Outcome) -> tuple[bool | None, ToolResult | None, str | None]:
    """PermissionRequest: the hooks answer the dialog nobody else answers in print mode; a
    deny with ``interrupt: true`` rejects the call as the user would and ends the run."""
    if outcome.decision == "allow":
        return True, None, None
    if outcome.decision != "deny":
        return None, None, None
    if outcome.event_output.get("interrupt") is True:
        return False, ToolResult(model_text("tool_use_rejected")), ABORTED_TOOLS
    # A failure read as a deny (onFailure "block") names the command: "[<command>]: ".
    text = outcome.blocking_error if outcome.decided_by_failure else outcome.reason
    return False, ToolResult(text or model_text("dialog_denied_no_message")), None


def _skill_shell_line(
    payload: Mapping[str, JSValue], outcome: Outcome, failures: Sequence[str]
) -> tuple[tuple[str, ...], str | None]:
    """PreSkillShellCommand: what the user is told about the line, and what the skill's
    text holds instead of its output when it does not run (2.1.332)."""
    tool_input = payload.get("tool_input")
    command = tool_input.get("command") if isinstance(tool_input, dict) else None
    skill = payload.get("command_name")
    where = {"skill": skill if isinstance(skill, str) else "", "command": str(command or "")}
    rewrite = outcome.event_output.get("updatedInput", outcome.updated_input)
    if not isinstance(rewrite, Undefined) and rewrite is not None:
        # Any rewrite stops the line: the command a skill runs cannot be changed.
        why = model_text("skill_line_rewritten")
    elif outcome.blocked and outcome.continue_:
        why = model_text("skill_line_blocked", reason=outcome.reason or "")
        if outcome.decision in ("ask", "defer"):
            why += model_text("skill_line_asked")
    else:
        notes = tuple(model_text("skill_line_ran_anyway", **where, error=e) for e in failures)
        return notes, None
    return (model_text("skill_line_not_run", **where, why=why),), model_text(
        "skill_line_placeholder", why=why
    )


def print_mode(
    spec: EventSpec,
    payload: Mapping[str, JSValue],
    outcome: Outcome,
    step: PermissionStep | None = None,
    removed_by: ToolRefusal | None = None,
    reformatted: str | None = None,
    last_turn: bool = False,
    failures: Sequence[str] = (),
    *,
    managed_denied: bool = False,
) -> PrintMode:
    """What ``claude -p`` does after ``spec``'s hooks merged into ``outcome``;
    ``reformatted``: the file an Edit or Write wrote that its PostToolUse hooks changed;
    ``last_turn``: ``--max-turns`` allows no further model response, so a Stop
    continuation or the response after tool calls ends the run (``max_turns``);
    ``failures``: the trimmed stderr of each hook that failed without blocking;
    ``managed_denied``: the denial came from managed settings' hooks, which Claude Code
    reports as a tool error (``<tool_use_error>...</tool_use_error>``)."""
    name = hook_name(spec, payload)
    tool = payload.get("tool_name")
    tool_name = tool if isinstance(tool, str) else ""
    if removed_by is not None:
        return PrintMode(False, ToolResult(removed_by.result), (), False, None, None, None, None)
    runs, result, terminal = (None, None, None)
    if spec.name == "PreToolUse":
        runs, result, terminal = _tool_call(spec, name, tool_name, outcome, step)
        if result is not None and outcome.stop_asked:
            # Early releases worded any refusal beside continue: false by its stopReason.
            result = ToolResult(stopped_refusal_text(outcome.stop_reason, result.text))
        if managed_denied and result is not None and outcome.blocked:
            result = ToolResult(model_text("tool_use_error", text=result.text), result.is_error)
    if spec.name == PERMISSION_REQUEST:
        runs, result, terminal = _dialog_answer(outcome)
    dialog = (
        step is not None
        and step.decision == "ask"
        and outcome.decision not in ("ask", "defer")
        and runs is False
    )
    stops = outcome.run_stops or terminal is not None
    if spec.block_stops_run and outcome.blocked:
        stops, terminal = True, HOOK_STOPPED
    user_message = None
    if spec.name in PROMPT_EVENTS and outcome.blocked:
        # An older release answered as may have said nothing (fire --claude-version).
        shown = prompt_message_shown(spec.name)
        user_message = _prompt_refusal(spec, payload, outcome) if shown else ""
        stops = True
    feedback = None
    if spec.stop_loop and outcome.keeps_going and outcome.decision is not None:
        reason = outcome.reason or ""
        if outcome.decided_by_exit2 and outcome.blocking_error is not None:
            # After exit 2 the model reads the blocking error: "[<command>]: " and stderr
            # as written, final newline kept (2.1.332; outcome.reason is trimmed).
            reason = outcome.blocking_error
        event = spec.feedback_event or spec.name
        feedback = model_text("stop_feedback", event=event, reason=reason)
        # Older releases worded it otherwise (fire --claude-version).
        feedback = feedback_text(event, reason, feedback)
    if outcome.run_stops and terminal is None:
        terminal = STOP_HOOK_PREVENTED if spec.stop_loop else HOOK_STOPPED
    continues = outcome.keeps_going if spec.stop_loop else None
    ends_turns = continues or (spec.name == TURN_END_CHECK and not stops)
    if last_turn and ends_turns:
        # The continuation would be one response too many: nothing more is sent.
        stops, terminal, continues, feedback = True, MAX_TURNS, False, None
    # An older release answered as (fire --claude-version) may not show them yet.
    silent = spec.system_message_silent_in_print or not notices_shown()
    notices = () if silent else tuple(outcome.system_messages)
    reminders = tuple(_reminders(spec, name, outcome))
    if reformatted is not None:
        note = model_text("formatter_note", file=reformatted)
        reminders = (*reminders, model_text("additional_context", hook=name, text=note))
    if stops or spec.context_silent_in_print or (spec.stop_loop and continues is False):
        # The texts of a step ride on the next request (a blocked prompt's with the prompt,
        # a PostToolUse context with the tool_result); a run that ends here, or a turn a
        # Stop hook lets end, makes none.
        reminders = ()
    turns = tuple(
        value
        for item in spec.output_fields
        if item.role is FieldRole.USER_TURN
        and field_heeded(spec.name, item.name)  # an older release may ignore it
        and isinstance(value := outcome.event_output.get(item.name), str)
    )
    notes, line = (
        _skill_shell_line(payload, outcome, failures) if spec.name == SKILL_SHELL else ((), None)
    )
    return PrintMode(
        user_notes=notes,
        skill_line=line,
        tool_runs=runs,
        tool_result=result,
        system_reminders=reminders,
        run_stops=stops,
        terminal_reason=terminal,
        turn_continues=continues,
        stop_feedback=feedback,
        user_message=user_message,
        notices=notices,
        user_turns=turns,
        permission_request=dialog,
    )
