"""What ``hookcourse fire`` found, as data, and its two renderings: text and JSON.

``FireReport`` is the engine entry's answer; ``report_json`` and ``report_text`` are
the only places it is turned into output (``cli.py`` prints them). Pure.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from hookcourse.errors import json_path, visible
from hookcourse.js import json as jsjson
from hookcourse.js.json import quote
from hookcourse.js.values import UNDEFINED, JSValue, Undefined, null_if_undefined

from .catalogue import checked_against
from .env_file import ENV_FILE_VARIABLE, EnvFileWrites
from .outcome import Outcome
from .permissions import PermissionStep, ToolRefusal
from .plan import GroupPlan, PlannedHandler
from .reading import HookReading
from .runner import Execution
from .settings import Settings
from .transcript import PrintMode
from .versions import model_of

ASYNC_NOTE: Final = (
    "async: cannot block; Claude Code runs it in the background and does not wait: fire "
    "waited for it to finish, but a print-mode session that ends first kills it"
)
"""2.1.332 kills an async hook still running when ``claude -p`` exits (the oracle saw no
exit status); fire cannot know when the session will end, so it says so."""


@dataclass(frozen=True)
class HookReport:
    """One handler that ran: what it did and how its event read it."""

    planned: PlannedHandler
    execution: Execution
    reading: HookReading

    @property
    def is_async(self) -> bool:
        return self.planned.handler.is_async


def as_json_value(value: object) -> JSValue:
    """Python data (an evaluator's answer) as a JSON value; anything else becomes its repr."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [as_json_value(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key): as_json_value(item) for key, item in value.items()}
    return repr(value)


@dataclass(frozen=True)
class FireReport:
    """Everything ``hookcourse fire`` shows: matching, each run, and the merged outcome."""

    event: str
    matcher_field: str | None
    matcher_subject: JSValue | Undefined
    settings: Settings
    groups: tuple[GroupPlan, ...]
    hooks: tuple[HookReport, ...]
    outcome: Outcome
    cwd: str
    warnings: tuple[str, ...]
    env_file: EnvFileWrites | None = None
    """What the hooks wrote to CLAUDE_ENV_FILE, on the events that get one."""
    permission: PermissionStep | None = None
    """PreToolUse: the permission rules and mode, read after hooks that did not stop the call."""
    print_mode: PrintMode | None = None
    """What ``claude -p`` does next: the call, the model's texts, whether the run stops."""
    trusted: bool = True
    """The project folder is trusted, so its allow rules apply."""
    removed_by: ToolRefusal | None = None
    """PreToolUse: what refused the call before any hook ran (a bare deny rule, a tool
    print mode does not offer, a path deny rule)."""

    @property
    def stopped(self) -> bool:
        """The action is stopped: by the hooks, a permission rule or mode, or a removed tool."""
        return (
            self.outcome.blocked
            or self.removed_by is not None
            or (self.permission is not None and self.permission.stops)
        )

    @property
    def exit_status(self) -> int:
        """2 when the action is stopped, 0 when it goes ahead."""
        return 2 if self.stopped else 0


def report_json(report: FireReport) -> dict[str, JSValue]:
    """The report as the one JSON object ``fire --json`` prints (camelCase keys)."""
    return {
        "event": report.event,
        "checkedAgainst": f"Claude Code {model_of(checked_against())}",
        "exitStatus": report.exit_status,
        "printMode": None if report.print_mode is None else report.print_mode.to_json(),
        "trusted": report.trusted,
        "removedBy": None if report.removed_by is None else report.removed_by.to_json(),
        "outcome": report.outcome.to_json(),
        "permission": None if report.permission is None else report.permission.to_json(),
        "hooks": [_hook_json(hook) for hook in report.hooks],
        "groups": [_group_json(plan) for plan in report.groups],
        "matcher": {
            "field": report.matcher_field,
            "value": null_if_undefined(report.matcher_subject),
        },
        "settings": {
            "files": [
                {"source": str(layer.source), "file": layer.file}
                for layer in report.settings.layers
            ],
            "notes": list(report.settings.notes),
        },
        "cwd": report.cwd,
        "envFile": None if report.env_file is None else _env_file_json(report.env_file),
        "warnings": list(report.warnings),
    }


def report_text(report: FireReport) -> str:
    """The human report, one fact a line; warnings are left to the caller (stderr).

    Unprintable characters a hook or payload sent (NUL, terminal escapes, lone
    surrogates) are shown escaped.
    """
    return visible("\n".join(_render_lines(report)), keep="\n")


def _hook_json(hook: HookReport) -> dict[str, JSValue]:
    handler = hook.planned.handler
    run = hook.execution.run
    return {
        "source": str(handler.origin.source),
        "file": handler.origin.file,
        "path": json_path(handler.origin.path),
        "type": handler.type,
        "handler": handler.describe(),
        "argv": None if hook.execution.argv is None else list(hook.execution.argv),
        "if": None if handler.if_rule is None else str(handler.if_rule),
        "async": handler.is_async,
        "timeoutSeconds": hook.planned.timeout_s,
        "exitCode": run.exit_code,
        "durationMs": round(hook.execution.duration_ms, 1),
        "timedOut": run.timed_out,
        "startError": run.start_error,
        "httpStatus": run.http_status,
        "evaluator": as_json_value(run.evaluator),
        "evaluatorMissing": run.evaluator_missing,
        "stdout": run.stdout,
        "stderr": run.stderr,
        "truncated": list(hook.execution.truncated),
        "finishOrder": hook.execution.finish_index,
        "cancelled": run.cancelled,
        "classification": str(hook.reading.classification),
        "how": hook.reading.how,
        "reading": hook.reading.to_json(),
        "notes": list(hook.execution.notes),
    }


def _env_file_json(writes: EnvFileWrites) -> dict[str, JSValue]:
    return {
        "variables": {name: value for name, value in writes.variables},
        "otherLines": list(writes.other_lines),
        "notes": list(writes.notes),
    }


def _group_json(plan: GroupPlan) -> dict[str, JSValue]:
    group = plan.group
    return {
        "source": str(group.origin.source),
        "file": group.origin.file,
        "path": json_path(group.origin.path),
        "matcher": group.matcher,
        "matched": plan.matched,
        "branch": plan.branch,
        "why": plan.why,
        "handlers": [
            {
                "path": json_path(p.handler.origin.path),
                "handler": p.handler.describe(),
                "runs": p.runs,
                "skippedBecause": p.skipped_because,
                "if": None if p.if_check is None else p.if_check.why,
            }
            for p in plan.handlers
        ],
    }


def _render_lines(report: FireReport) -> list[str]:
    lines: list[str] = [
        f"checked against Claude Code {model_of(checked_against())} (print mode, claude -p)"
    ]
    if report.removed_by is not None:
        lines.append(f"{report.removed_by.why}, before any hook runs")
    subject = report.matcher_subject
    if report.matcher_field is None:
        lines.append(f"{report.event}: no matcher support; every group fires")
    else:
        shown = "(missing)" if subject is UNDEFINED else jsjson.stringify(subject)
        lines.append(f"{report.event}: matchers are compared with {report.matcher_field} = {shown}")
    files = ", ".join(f"{layer.source} {layer.file}" for layer in report.settings.layers)
    lines.append(f"settings: {files or 'none found'}")
    lines.extend(f"  {note}" for note in report.settings.notes)
    if not report.groups:
        lines.append(f"no matcher group for {report.event}")
    by_plan = {id(hook.planned): hook for hook in report.hooks}
    for plan in report.groups:
        group = plan.group
        matcher = "(omitted)" if group.matcher is None else quote(group.matcher)
        verdict = "matched" if plan.matched else "did not match"
        lines.append(
            f"group {json_path(group.origin.path)} in {group.origin.source} settings, "
            f"matcher {matcher}: {verdict} [{plan.branch}] {plan.why}"
        )
        for planned in plan.handlers:
            lines.append(f"  hook {planned.handler.describe()}")
            if planned.if_check is not None:
                lines.append(f"    if: {planned.if_check.why}")
            if not planned.runs:
                lines.append(f"    not run: {planned.skipped_because}")
                continue
            lines.extend(_render_run(by_plan[id(planned)]))
    lines.extend(_render_env_file(report.env_file))
    lines.extend(_render_outcome(report))
    return lines


def _render_env_file(writes: EnvFileWrites | None) -> list[str]:
    if writes is None:
        return []
    if not writes.variables and not writes.other_lines:
        return [f"{ENV_FILE_VARIABLE}: the hooks wrote nothing to it"]
    lines = [f"{ENV_FILE_VARIABLE}: exported before each later Bash command:"]
    lines.extend(f"  {name}={quote(value)}" for name, value in writes.variables)
    lines.extend(f"  (not an export line, run as written) {line}" for line in writes.other_lines)
    lines.extend(f"  note: {note}" for note in writes.notes)
    return lines


def _render_run(hook: HookReport) -> list[str]:
    run = hook.execution.run
    took = f"{hook.execution.duration_ms:.0f} ms"
    if run.timed_out:
        status = f"timed out after {hook.planned.timeout_s:g} s"
    elif run.start_error is not None:
        status = f"could not start: {run.start_error}"
    elif run.http_status is not None:
        status = f"HTTP {run.http_status}"
    elif run.evaluator_missing:
        status = "not judged: no evaluator configured"
    elif run.evaluator is not None:
        status = f"evaluator answered {jsjson.stringify(as_json_value(run.evaluator))}"
    else:
        status = f"exit {run.exit_code}"
    if not run.evaluator_missing:
        status += f" in {took}"
    lines = [f"    {status}" + (f" ({ASYNC_NOTE})" if hook.is_async else "")]
    for name, text in (("stdout", run.stdout), ("stderr", run.stderr)):
        if text and run.evaluator is None:
            body = text.rstrip("\n").replace("\n", "\n" + " " * 12)
            lines.append(f"    {name}: {body}")
    lines.extend(f"    note: {note}" for note in hook.execution.notes)
    lines.append(f"    read as: {hook.reading.how}")
    return lines


def _render_outcome(report: FireReport) -> list[str]:
    outcome = report.outcome
    state = "blocked" if outcome.blocked else "goes ahead"
    if report.stopped and not outcome.blocked:
        state = "stopped by the permission step"
    lines = [f"outcome: {state}; decision {outcome.decision or 'none'}"]
    if outcome.reason is not None:
        lines.append(f"  reason: {outcome.reason}")
    lines.extend(f"  additionalContext: {text}" for text in outcome.additional_context)
    lines.extend(f"  systemMessage: {text}" for text in outcome.system_messages)
    if not isinstance(outcome.updated_input, Undefined):
        lines.append(f"  updatedInput: {jsjson.stringify(outcome.updated_input)}")
    if not outcome.continue_:
        lines.append(f"  continue: false; stopReason: {outcome.stop_reason or '(none)'}")
    lines.extend(f"  conflict: {conflict}" for conflict in outcome.conflicts)
    lines.extend(f"  notice: {notice}" for notice in outcome.notices)
    step = report.permission
    for line in outcome.explanation:
        # The hooks' verdict is not the last word when the permission step follows it.
        if step is not None and line.startswith("Outcome: "):
            line = f"After the hooks: {line.removeprefix('Outcome: ')} The permission step decides."
        lines.append(f"  {line}")
    if step is not None:
        verdict = {"allow": "runs", "ask": "asks the user first", "deny": "stopped"}
        lines.append(
            f"permission step (mode {step.mode}): {verdict.get(step.decision, step.decision)}; "
            f"{step.decided_by}"
        )
        lines.extend(f"  matching: {line}" for line in step.considered)
    lines.extend(_render_print_mode(report.print_mode, report.outcome.system_messages))
    lines.append(f"exit status {report.exit_status}")
    return lines


def _render_print_mode(mode: PrintMode | None, system_messages: Sequence[str]) -> list[str]:
    if mode is None:
        return []
    lines = ["in print mode (claude -p):"]
    for text in mode.user_turns:
        lines.append(
            "  the model is sent, as a user turn of its own answered before the prompt "
            "(one more request): " + text.replace("\n", "\n" + " " * 4)
        )
    for text in mode.notices:
        lines.append("  the user is shown the notice: " + text.replace("\n", "\n" + " " * 4))
    if system_messages and not mode.notices:
        lines.append("  the systemMessage is shown nowhere (print mode drops it on this event)")
    if mode.tool_runs is not None:
        lines.append(f"  the tool {'runs' if mode.tool_runs else 'does not run'}")
    if mode.when_run is not None:
        lead = "as it runs" if mode.tool_runs else "if it runs (once allowed)"
        lines.extend(f"  {lead}: {line}" for line in mode.when_run.describe())
    if mode.permission_request:
        lines.append(
            "  PermissionRequest fires (where a dialog would be shown): its hooks can allow "
            "or deny the call; if none answers, the refusal below stands"
        )
    if mode.tool_result is not None:
        body = mode.tool_result.text.rstrip("\n").replace("\n", "\n" + " " * 4)
        lines.append(f"  the model gets the tool_result (is_error): {body}")
    for text in mode.system_reminders:
        lines.append("  the model is shown: " + text.replace("\n", "\n" + " " * 4))
    if mode.stop_feedback is not None:
        lines.append("  the model is shown: " + mode.stop_feedback.replace("\n", "\n" + " " * 4))
    if mode.turn_continues is not None:
        lines.append(f"  the turn {'goes on' if mode.turn_continues else 'ends'}")
    if mode.user_message is not None:
        lines.append("  the user is shown: " + mode.user_message.replace("\n", "\n" + " " * 4))
    lines.extend(f"  the user is shown: {note}" for note in mode.user_notes)
    if mode.skill_line is not None:
        lines.append(f"  the line does not run; the skill's text reads instead: {mode.skill_line}")
    if mode.run_stops:
        lines.append(f"  the run stops (terminal_reason {mode.terminal_reason or 'none'})")
    return lines
