"""Fire one event as Claude Code would: select, run, read, merge, report.

Modelled on Claude Code 2.1.332 in print mode (``claude -p``):

1. The settings' matcher groups for the event; each group's matcher is compared
   with the event's own payload field under the ``claude-code`` rules (ignored
   where the event has no matcher support), legacy tool names (``Task`` for
   ``Agent``) included. On PreToolUse a bare ``permissions.deny`` rule for the
   tool removes it first: no hook runs.
2. In every matching group, the handlers the event accepts; on the six events
   that evaluate ``if``, a handler's rule must also select the call (elsewhere a
   handler with ``if`` never runs); identical handlers run once.
3. All of them in parallel (``runner``; managed PreToolUse hooks first, as a tier
   of their own), each read as the event reads it (``reading``), merged in the
   order they finished (``outcome``); a rewrite is checked against the tool's
   schema; then the permission step and what the model is shown (``transcript``).

``plan_hooks`` (steps 1-2) and ``FireReport`` are pure; ``fire`` does the I/O.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TypeAlias

from hookcourse.errors import InputError, json_path, json_syntax_fix, visible
from hookcourse.js import json as jsjson
from hookcourse.js.json import quote
from hookcourse.js.values import UNDEFINED, JSValue, Undefined, null_if_undefined
from hookcourse.stages.matcher import MatchResult, RuleSet, explain_match

from .bounded_match import bounded_explain
from .catalogue import (
    EventSpec,
    checked_against,
    common_input_fields,
    event_spec,
    load_catalogue,
    model_text,
    permission_facts,
    tool_aliases,
)
from .env_file import ENV_FILE_VARIABLE, EnvFileWrites, collect_env_file, make_env_file
from .outcome import DEFAULT_STOP_BLOCK_CAP, Outcome, merge_readings
from .permission_rule import CallPlace, RuleCheck, check_rule
from .permissions import PermissionStep, permission_step, tool_removed
from .reading import HookReading, read_hook_result
from .runner import (
    ENV_FILE_EVENTS,
    Evaluator,
    Execution,
    Job,
    RunSetting,
    hook_exports,
    run_jobs,
)
from .settings import (
    PERMISSION_MODES,
    Handler,
    MatcherGroup,
    PermissionEntry,
    Settings,
    SettingsPlaces,
    folder_trusted,
    load_settings,
)
from .tool_input import known_keys_only, normalised, schema_problems
from .transcript import PrintMode, print_mode
from .validate import lint_layers

PERMISSION_EVENT = "PreToolUse"
"""The event after whose hooks the permission rules are read (reference §8)."""
NO_MATCHER_SUPPORT = "ignored"
"""The branch reported for a group on an event without matcher support."""
MANAGED_DENIED = "a managed PreToolUse hook denied the call first, so the other hooks do not run"


@dataclass(frozen=True)
class PlannedHandler:
    """One handler of a matching group: whether it runs, and if not, why not."""

    handler: Handler
    runs: bool
    skipped_because: str | None = None
    if_check: RuleCheck | None = None
    timeout_s: float | None = None


@dataclass(frozen=True)
class GroupPlan:
    """One matcher group of the event: did it match, by which branch, and why."""

    group: MatcherGroup
    matched: bool
    branch: str
    why: str
    handlers: tuple[PlannedHandler, ...]


def matcher_subject(spec: EventSpec, payload: Mapping[str, JSValue]) -> JSValue | Undefined:
    """The payload value an event's matcher is compared with (a basename for FileChanged)."""
    if spec.matcher_field is None:
        return UNDEFINED
    value = payload.get(spec.matcher_field, UNDEFINED)
    if spec.matcher_compares_basename and isinstance(value, str):
        return posixpath.basename(value)
    return value


Match: TypeAlias = "Callable[[str | None, JSValue | Undefined, bool], MatchResult]"


def _explain(matcher: str | None, value: JSValue | Undefined, narrow: bool) -> MatchResult:
    return explain_match(matcher, value, RuleSet.CLAUDE_CODE, narrow=narrow)


def _with_aliases(spec: EventSpec, match: Match) -> Match:
    """On tool-name matchers, also try the tool's legacy names (``Task`` for ``Agent``)."""
    if spec.matcher_field != "tool_name":
        return match

    def aliased(matcher: str | None, value: JSValue | Undefined, narrow: bool) -> MatchResult:
        result = match(matcher, value, narrow)
        if result.matched or not isinstance(value, str):
            return result
        for legacy, current in tool_aliases().items():
            if current == value:
                again = match(matcher, legacy, narrow)
                if again.matched:
                    why = f"{again.why} ({legacy} is the legacy name of {value})"
                    return MatchResult(True, again.branch, why)
        return result

    return aliased


def plan_hooks(
    spec: EventSpec,
    groups: Sequence[MatcherGroup],
    payload: Mapping[str, JSValue],
    place: CallPlace,
    match: Match = _explain,
) -> tuple[GroupPlan, ...]:
    """Which groups match and which of their handlers run (steps 1 and 2 above).

    ``match`` is the matcher test; ``fire`` passes one bounded in time.
    """
    subject = matcher_subject(spec, payload)
    match = _with_aliases(spec, match)
    seen: dict[tuple[object, ...], Handler] = {}
    plans: list[GroupPlan] = []
    for group in groups:
        if spec.matcher_field is None:
            matched, branch = True, NO_MATCHER_SUPPORT
            why = f"{spec.name} has no matcher support, so the matcher is ignored"
            if group.matcher is None:
                why = f"{spec.name} has no matcher support: every group fires"
        else:
            result = match(group.matcher, subject, spec.narrow_exact)
            matched, branch, why = result.matched, str(result.branch), result.why
        handlers = (
            tuple(_plan_handler(spec, handler, payload, place, seen) for handler in group.handlers)
            if matched
            else ()
        )
        plans.append(GroupPlan(group, matched, branch, why, handlers))
    return _with_timeouts(spec, plans)


def _plan_handler(
    spec: EventSpec,
    handler: Handler,
    payload: Mapping[str, JSValue],
    place: CallPlace,
    seen: dict[tuple[object, ...], Handler],
) -> PlannedHandler:
    if handler.type not in spec.handler_types:
        return PlannedHandler(
            handler,
            False,
            f"{spec.name} does not run {handler.type} hooks "
            f"(it runs {', '.join(spec.handler_types)})",
        )
    check = None
    if handler.if_rule is not None:
        if not spec.if_condition:
            return PlannedHandler(
                handler,
                False,
                f'"if" is evaluated only on the six tool events, and on {spec.name} a '
                "handler with it never runs",
            )
        tool_name = payload.get("tool_name")
        check = check_rule(
            handler.if_rule,
            tool_name if isinstance(tool_name, str) else "",
            payload.get("tool_input", {}),
            place,
        )
        if not check.applies:
            return PlannedHandler(handler, False, check.why, check)
    # Async hooks are never merged with an identical one (2.1.332).
    first = handler if handler.is_async else seen.setdefault(handler.dedupe_key(), handler)
    if first is not handler:
        return PlannedHandler(
            handler,
            False,
            f"identical to the handler at {first.origin}, which runs once for both",
            check,
        )
    return PlannedHandler(handler, True, None, check)


def _with_timeouts(spec: EventSpec, plans: list[GroupPlan]) -> tuple[GroupPlan, ...]:
    """Give each running handler its timeout: its own, else the type's default for the event."""
    running = [p.handler for plan in plans for p in plan.handlers if p.runs]
    shared = spec.shared_budget_for([h.timeout_s for h in running if h.timeout_s is not None])

    def timeout(handler: Handler) -> float:
        if shared is not None:
            return shared
        if handler.timeout_s is not None:
            return handler.timeout_s
        return spec.default_timeout_s(handler.type)

    return tuple(
        replace(
            plan,
            handlers=tuple(
                replace(p, timeout_s=timeout(p.handler)) if p.runs else p for p in plan.handlers
            ),
        )
        for plan in plans
    )


# --- the report --------------------------------------------------------------------------------


@dataclass(frozen=True)
class HookReport:
    """One handler that ran: what it did and how its event read it."""

    planned: PlannedHandler
    execution: Execution
    reading: HookReading

    @property
    def is_async(self) -> bool:
        return self.planned.handler.is_async

    def to_json(self) -> dict[str, JSValue]:
        handler = self.planned.handler
        run = self.execution.run
        return {
            "source": str(handler.origin.source),
            "file": handler.origin.file,
            "path": json_path(handler.origin.path),
            "type": handler.type,
            "handler": handler.describe(),
            "argv": None if self.execution.argv is None else list(self.execution.argv),
            "if": None if handler.if_rule is None else str(handler.if_rule),
            "async": handler.is_async,
            "timeoutSeconds": self.planned.timeout_s,
            "exitCode": run.exit_code,
            "durationMs": round(self.execution.duration_ms, 1),
            "timedOut": run.timed_out,
            "startError": run.start_error,
            "httpStatus": run.http_status,
            "evaluator": as_json_value(run.evaluator),
            "evaluatorMissing": run.evaluator_missing,
            "stdout": run.stdout,
            "stderr": run.stderr,
            "truncated": list(self.execution.truncated),
            "finishOrder": self.execution.finish_index,
            "cancelled": run.cancelled,
            "classification": str(self.reading.classification),
            "how": self.reading.how,
            "reading": self.reading.to_json(),
            "notes": list(self.execution.notes),
        }


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
    removed_by: PermissionEntry | None = None
    """PreToolUse: the bare deny rule that removed the tool before any hook ran."""

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

    def to_json(self) -> dict[str, JSValue]:
        return {
            "event": self.event,
            "checkedAgainst": f"Claude Code {checked_against()}",
            "exitStatus": self.exit_status,
            "printMode": None if self.print_mode is None else self.print_mode.to_json(),
            "trusted": self.trusted,
            "removedBy": None if self.removed_by is None else _rule_json(self.removed_by),
            "outcome": self.outcome.to_json(),
            "permission": None if self.permission is None else self.permission.to_json(),
            "hooks": [hook.to_json() for hook in self.hooks],
            "groups": [_group_json(plan) for plan in self.groups],
            "matcher": {
                "field": self.matcher_field,
                "value": null_if_undefined(self.matcher_subject),
            },
            "settings": {
                "files": [
                    {"source": str(layer.source), "file": layer.file}
                    for layer in self.settings.layers
                ],
                "notes": list(self.settings.notes),
            },
            "cwd": self.cwd,
            "envFile": None if self.env_file is None else _env_file_json(self.env_file),
            "warnings": list(self.warnings),
        }

    def render(self) -> str:
        """The human report, one fact a line; warnings are left to the caller (stderr).

        Unprintable characters a hook or payload sent (NUL, terminal escapes, lone
        surrogates) are shown escaped.
        """
        return visible("\n".join(_render_lines(self)), keep="\n")


def _rule_json(entry: PermissionEntry) -> dict[str, JSValue]:
    return {
        "rule": str(entry.rule),
        "ruleList": entry.behaviour,
        "ruleFile": entry.origin.file,
        "rulePath": json_path(entry.origin.path),
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
    lines: list[str] = [f"checked against Claude Code {checked_against()} (print mode, claude -p)"]
    if report.removed_by is not None:
        entry = report.removed_by
        lines.append(
            f"permissions.deny rule {quote(str(entry.rule))} in {entry.origin.source} settings "
            f"{entry.origin.file} removes the tool before any hook runs"
        )
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
    lines = [f"    {status}" + (" (async: cannot block)" if hook.is_async else "")]
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
    lines.extend(_render_print_mode(report.print_mode))
    lines.append(f"exit status {report.exit_status}")
    return lines


def _render_print_mode(mode: PrintMode | None) -> list[str]:
    if mode is None:
        return []
    lines = ["in print mode (claude -p):"]
    if mode.tool_runs is not None:
        lines.append(f"  the tool {'runs' if mode.tool_runs else 'does not run'}")
    if mode.tool_result is not None:
        body = mode.tool_result.text.replace("\n", "\n" + " " * 4)
        lines.append(f"  the model gets the tool_result (is_error): {body}")
    for text in mode.system_reminders:
        lines.append("  the model is shown: " + text.replace("\n", "\n" + " " * 4))
    if mode.stop_feedback is not None:
        lines.append("  the model is shown: " + mode.stop_feedback.replace("\n", "\n" + " " * 4))
    if mode.turn_continues is not None:
        lines.append(f"  the turn {'goes on' if mode.turn_continues else 'ends'}")
    if mode.user_message is not None:
        lines.append("  the user is shown: " + mode.user_message.replace("\n", "\n" + " " * 4))
    if mode.run_stops:
        lines.append(f"  the run stops (terminal_reason {mode.terminal_reason or 'none'})")
    return lines


# --- firing (I/O) ------------------------------------------------------------------------------


@dataclass(frozen=True)
class FireRequest:
    """What to fire, with which payload, and where settings are found."""

    event: str
    payload_text: str
    payload_name: str
    places: SettingsPlaces
    evaluator: Evaluator | None = None
    consecutive_stop_blocks: int = 0
    stop_block_cap: int = DEFAULT_STOP_BLOCK_CAP
    plugin_root: str | None = None
    plugin_data: str | None = None
    base_env: Mapping[str, str] | None = None
    permission_mode: str | None = None
    """Overrides the payload's permission_mode and the settings' defaultMode."""
    trusted: bool | None = None
    """Whether the project folder is trusted; None reads ``~/.claude.json``."""


def read_payload(
    spec: EventSpec, text: str, name: str
) -> tuple[dict[str, JSValue], tuple[str, ...]]:
    """The payload object, ``hook_event_name`` filled in, and warnings about missing fields."""
    try:
        payload = jsjson.parse(text)
    except jsjson.JSONSyntaxError as error:
        problem = f"the payload is not valid JSON ({error})"
        raise InputError(name, problem, json_syntax_fix(text)) from None
    if not isinstance(payload, dict):
        raise InputError(
            name,
            "the payload is not a JSON object",
            f'send an object such as {{"hook_event_name": "{spec.name}", ...}}',
        )
    warnings: list[str] = []
    stated = payload.get("hook_event_name", UNDEFINED)
    if not isinstance(stated, Undefined) and stated != spec.name:
        warnings.append(
            f"{name}: hook_event_name is {jsjson.stringify(stated)}, but {spec.name} is fired; "
            f"the hooks receive {quote(spec.name)}"
        )
    payload["hook_event_name"] = spec.name
    missing = [
        field
        for field in spec.required_payload_fields(common_input_fields())
        if field not in payload
    ]
    if missing:
        warnings.append(
            f"{name}: the payload lacks {', '.join(missing)}, which Claude Code always sends "
            f"on {spec.name}"
        )
    if spec.name == PERMISSION_EVENT:
        tool = payload.get("tool_name")
        tool_input, notes = normalised(
            tool if isinstance(tool, str) else "", payload.get("tool_input")
        )
        if notes:
            payload["tool_input"] = tool_input
            warnings.extend(f"{name}: {note}" for note in notes)
    return payload, tuple(warnings)


@dataclass(frozen=True)
class _Ran:
    """The plans after running (a managed deny leaves the rest unrun) and each hook's report."""

    plans: tuple[GroupPlan, ...]
    hooks: tuple[HookReport, ...]
    env_file: EnvFileWrites | None


def fire(request: FireRequest) -> FireReport:
    """Fire ``request.event``: raises InputError for a bad event, payload or settings file."""
    spec = event_spec(request.event)
    if request.permission_mode is not None and request.permission_mode not in PERMISSION_MODES:
        raise InputError(
            "--permission-mode",
            f"{quote(request.permission_mode)} is not a permission mode",
            "use one of " + ", ".join(PERMISSION_MODES),
        )
    payload, warnings = read_payload(spec, request.payload_text, request.payload_name)
    catalogue = load_catalogue()
    guards = [name for name, event in catalogue.items() if event.guard]
    settings = load_settings(request.places, catalogue.keys(), guards)
    place = _call_place(request, payload)
    removed = _removed_tool(spec, settings, payload)
    plans = plan_hooks(
        spec,
        () if removed else settings.groups_for(spec.name),
        payload,
        place,
        lambda matcher, value, narrow: bounded_explain(matcher, value, narrow=narrow),
    )
    setting = _run_setting(request, spec, payload, place, settings)
    ran = _run_tiers(spec, plans, payload, setting)
    finished = sorted(
        (hook for hook in ran.hooks if not hook.is_async), key=lambda h: h.execution.finish_index
    )
    outcome = merge_readings(
        spec,
        [hook.reading for hook in finished],
        payload,
        consecutive_stop_blocks=request.consecutive_stop_blocks,
        stop_block_cap=request.stop_block_cap,
        in_background=len(ran.hooks) - len(finished),
    )
    outcome = checked_rewrite(spec, payload, in_settings_order(outcome, ran.hooks))
    trusted = request.trusted
    if trusted is None:
        trusted = folder_trusted(
            request.places.home, request.places.project_dir, permission_facts().trust_file
        )
    permission = (
        _permission_step(request, settings, payload, outcome, place, trusted)
        if spec.name == PERMISSION_EVENT and not outcome.blocked and removed is None
        else None
    )
    return FireReport(
        event=spec.name,
        matcher_field=spec.matcher_field,
        matcher_subject=matcher_subject(spec, payload),
        settings=settings,
        groups=ran.plans,
        hooks=ran.hooks,
        outcome=outcome,
        cwd=place.cwd,
        warnings=(
            *map(str, settings.skipped),
            *(str(finding) for finding in lint_layers(settings.layers)),
            *warnings,
        ),
        env_file=ran.env_file,
        permission=permission,
        print_mode=print_mode(spec, payload, outcome, permission, removed),
        trusted=trusted,
        removed_by=removed,
    )


def _call_place(request: FireRequest, payload: Mapping[str, JSValue]) -> CallPlace:
    project_dir = str(request.places.project_dir.resolve())
    stated_cwd = payload.get("cwd")
    cwd = stated_cwd if isinstance(stated_cwd, str) and os.path.isdir(stated_cwd) else project_dir
    home = str(request.places.home) if request.places.home else os.path.expanduser("~")
    return CallPlace(project_dir, cwd, home)


def _removed_tool(
    spec: EventSpec, settings: Settings, payload: Mapping[str, JSValue]
) -> PermissionEntry | None:
    tool = payload.get("tool_name")
    if spec.name != PERMISSION_EVENT or not isinstance(tool, str):
        return None
    return tool_removed(settings.permissions, tool)


def _run_setting(
    request: FireRequest,
    spec: EventSpec,
    payload: Mapping[str, JSValue],
    place: CallPlace,
    settings: Settings,
) -> RunSetting:
    placeholders, exports = hook_exports(
        place.project_dir, payload, request.plugin_root, request.plugin_data
    )
    return RunSetting(
        cwd=place.cwd,
        event=spec.name,
        # The settings' env is Claude Code's own environment, so its hooks inherit it.
        base_env={
            **(os.environ if request.base_env is None else request.base_env),
            **dict(settings.env),
        },
        placeholders=placeholders,
        exports=exports,
        evaluator=request.evaluator,
        cancel_on_exit2=spec.exit2_cancels_siblings,
    )


def _run_tiers(
    spec: EventSpec, plans: tuple[GroupPlan, ...], payload: dict[str, JSValue], setting: RunSetting
) -> _Ran:
    """Run the planned handlers: on PreToolUse managed ones first, as a tier of their own.

    A managed deny ends the call before the other hooks run; a managed rewrite is the
    input the other hooks see (Claude Code 2.1.332).
    """
    planned = [p for plan in plans for p in plan.handlers if p.runs]
    managed = [p for p in planned if p.handler.is_managed] if spec.name == PERMISSION_EVENT else []
    first = {id(p) for p in managed}
    tiers = [managed, [p for p in planned if id(p) not in first]] if managed else [planned]
    env_file = make_env_file() if spec.name in ENV_FILE_EVENTS and planned else None
    if env_file is not None:
        setting = replace(setting, exports={**setting.exports, ENV_FILE_VARIABLE: env_file})
    hooks: list[HookReport] = []
    try:
        for tier in tiers:
            if hooks and managed and _managed_denied(spec, hooks, payload):
                plans = _not_run(plans, set(map(id, tier)), MANAGED_DENIED)
                break
            jobs = [
                Job(p.handler, p.timeout_s or spec.default_timeout_s(p.handler.type)) for p in tier
            ]
            offset = len(hooks)
            for p, execution in zip(
                tier, run_jobs(jobs, jsjson.stringify(payload), setting), strict=True
            ):
                execution = replace(execution, finish_index=execution.finish_index + offset)
                hooks.append(HookReport(p, execution, read_hook_result(spec, execution.run)))
    finally:
        env_writes = collect_env_file(env_file) if env_file is not None else None
    return _Ran(plans, tuple(hooks), env_writes)


def _managed_denied(
    spec: EventSpec, hooks: Sequence[HookReport], payload: dict[str, JSValue]
) -> bool:
    """After the managed tier: did it deny? If it rewrote the input, the others see that."""
    readings = [h.reading for h in sorted(hooks, key=lambda h: h.execution.finish_index)]
    outcome = checked_rewrite(spec, payload, merge_readings(spec, readings, payload))
    if outcome.blocked:
        return True
    if not isinstance(outcome.updated_input, Undefined):
        payload["tool_input"] = outcome.updated_input
    return False


def _not_run(plans: tuple[GroupPlan, ...], skipped: set[int], why: str) -> tuple[GroupPlan, ...]:
    return tuple(
        replace(
            plan,
            handlers=tuple(
                replace(p, runs=False, skipped_because=why) if id(p) in skipped else p
                for p in plan.handlers
            ),
        )
        for plan in plans
    )


def in_settings_order(outcome: Outcome, hooks: Sequence[HookReport]) -> Outcome:
    """additionalContext in the order the hooks are configured, as 2.1.332 shows them."""
    contexts = [
        hook.reading.additional_context
        for hook in hooks
        if not hook.is_async and hook.reading.additional_context is not None
    ]
    if sorted(contexts) != sorted(outcome.additional_context):
        return outcome  # a later phase changed them; keep the merge's own list
    return replace(outcome, additional_context=contexts)


def checked_rewrite(spec: EventSpec, payload: Mapping[str, JSValue], outcome: Outcome) -> Outcome:
    """A PreToolUse rewrite that fails the tool's input schema denies the call (2.1.332)."""
    tool = payload.get("tool_name")
    if spec.name != PERMISSION_EVENT or outcome.blocked or not isinstance(tool, str):
        return outcome
    if isinstance(outcome.updated_input, Undefined):
        return outcome
    problems = schema_problems(tool, outcome.updated_input)
    if not problems:
        return replace(outcome, updated_input=known_keys_only(tool, outcome.updated_input))
    reason = model_text(
        "updated_input_invalid",
        event=spec.name,
        tool=tool,
        issues="issue" if len(problems) == 1 else "issues",
        errors="\n".join(problems),
    )
    return replace(
        outcome,
        blocked=True,
        decision="deny",
        reason=reason,
        blocking_error=reason,
        tool_result=reason,
        updated_input=UNDEFINED,
        explanation=[
            *outcome.explanation,
            f"The hooks' updatedInput fails the {tool} input schema ({'; '.join(problems)}): "
            "Claude Code denies the call.",
        ],
    )


def _permission_step(
    request: FireRequest,
    settings: Settings,
    payload: Mapping[str, JSValue],
    outcome: Outcome,
    place: CallPlace,
    trusted: bool,
) -> PermissionStep:
    stated = payload.get("permission_mode")
    mode = (
        request.permission_mode
        or (stated if isinstance(stated, str) and stated in PERMISSION_MODES else None)
        or settings.default_mode
        or "default"
    )
    tool_name = payload.get("tool_name")
    tool_input = outcome.updated_input
    if isinstance(tool_input, Undefined):
        tool_input = payload.get("tool_input", {})
    return permission_step(
        outcome.decision,
        settings.permissions,
        tool_name if isinstance(tool_name, str) else "",
        tool_input,
        place,
        mode,
        trusted,
    )
