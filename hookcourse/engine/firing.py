"""Firing one event as Claude Code 2.1.332 would, and returning data (through ``api.py``).

Modelled on Claude Code 2.1.332 in print mode (``claude -p``). ``fire`` is one short
composition: read the payload and the settings, plan which hooks run (``plan``; on
PreToolUse a bare ``permissions.deny`` rule for the tool removes it first), run them
(``runner``; managed PreToolUse hooks first, as a tier of their own), read each
(``reading``), merge them in the order they finished (``outcome``; a rewrite is
checked against the tool's schema), then the permission step (``permissions``) and
what the model is shown (``transcript``). It returns a ``FireReport``; ``report``
renders it and ``cli.py`` prints it. ``fire_handlers`` runs given handlers through
the same steps, for the labs. Nothing outside the engine imports this module: they
import ``hookcourse.engine.api``, the engine's front door.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final

from hookcourse.errors import InputError, json_syntax_fix
from hookcourse.js import json as jsjson
from hookcourse.js.json import quote
from hookcourse.js.values import UNDEFINED, JSValue, Undefined, js_trim
from hookcourse.stages.matcher_and_dispatch.reference import MatchResult

from .bounded_match import bounded_explain
from .catalogue import (
    EventSpec,
    common_input_fields,
    event_spec,
    load_catalogue,
    model_text,
    permission_facts,
)
from .env_file import ENV_FILE_VARIABLE, EnvFileWrites, collect_env_file, make_env_file
from .lifecycle import CallEffects, call_effects, loaded_before
from .outcome import DEFAULT_STOP_BLOCK_CAP, Outcome, merge_readings
from .permission_rule import CallPlace
from .permissions import (
    PermissionStep,
    ToolRefusal,
    command_line_rules,
    permission_step,
    refused_before_hooks,
)
from .plan import GroupPlan, PlannedHandler, matcher_subject, plan_hooks
from .reading import Classification, HookReading, read_hook_result
from .report import FireReport, HookReport
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
    CommandHandler,
    Handler,
    Origin,
    PermissionEntry,
    Settings,
    SettingsPlaces,
    SettingsSource,
    SettingsWarning,
    folder_trusted,
    load_settings,
    merge_layers,
)
from .skill_files import skill_has_hooks
from .tool_input import known_keys_only, normalised, schema_problems, tool_refusal
from .transcript import print_mode
from .transcript_reads import files_read, tool_calls
from .validate import fire_findings
from .versions import (
    decision_note,
    default_mode,
    env_exported,
    event_fires,
    exit2_cancels,
    flag_hooks_run,
    max_turns_note,
    payload_key_sent,
    refused_rule_note,
    rewrite_note,
    settings_dirs_read,
    trust_gated,
    unknown_event_note,
)

PERMISSION_EVENT: Final = "PreToolUse"
"""The event after whose hooks the permission rules are read (reference §8)."""
MANAGED_DENIED: Final = (
    "a managed PreToolUse hook denied the call first, so the other hooks do not run"
)


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
    added_dirs: tuple[str, ...] = ()
    """``claude --add-dir`` folders: working directories beside the project."""
    allowed_tools: tuple[str, ...] = ()
    """``claude --allowedTools`` values: allow rules for the session, comma or space separated."""
    disallowed_tools: tuple[str, ...] = ()
    """``claude --disallowedTools`` values: deny rules (a bare tool removes it)."""
    max_turns: int | None = None
    """``claude --max-turns``: model responses a prompt may get (None or 0: no limit)."""
    turn: int = 1
    """Which model response of the prompt the event follows (1: the first)."""


def read_payload(
    spec: EventSpec, text: str, name: str
) -> tuple[dict[str, JSValue], tuple[str, ...]]:
    """The payload object, ``hook_event_name`` filled in, and warnings about missing fields
    (not ``permission_mode``: ``fire`` fills in the session's mode)."""
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
        if field not in payload and field != "permission_mode" and payload_key_sent(field)
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
    managed_denied: bool = False
    """The managed tier denied the call (so the others did not run)."""


def fire(request: FireRequest) -> FireReport:
    """Fire ``request.event``: raises InputError for a bad event, payload or settings file."""
    spec = event_spec(request.event)
    _check_mode(request.permission_mode)
    payload, warnings = read_payload(spec, request.payload_text, request.payload_name)
    settings = _load_settings(request.places)
    mode = session_mode(request.permission_mode, payload, settings)
    if spec.has_permission_mode:
        # Claude Code sends the session's mode: hooks see the mode the step applies.
        payload["permission_mode"] = mode
    trusted = _trusted(request)
    place = _call_place(request, payload, _settings_dirs(settings, trusted))
    rules = (
        *settings.permissions,
        *command_line_rules(request.allowed_tools, request.disallowed_tools),
    )
    removed = _refused_before_hooks(spec, rules, payload, place)
    # An event older releases did not have runs no hook there (fire --claude-version).
    groups = () if removed or not event_fires(spec.name) else settings.groups_for(spec.name)
    if not flag_hooks_run():
        groups = tuple(g for g in groups if g.origin.source is not SettingsSource.FLAG)
    plans = plan_hooks(spec, groups, payload, place, _bounded)
    written = _written_file(spec, payload, place)
    before = _file_state(written)
    ran = _run_tiers(spec, plans, payload, _run_setting(request, spec, payload, place, settings))
    reformatted = written if written is not None and _file_state(written) != before else None
    outcome = _merged(
        spec,
        ran.hooks,
        payload,
        place.cwd,
        request.consecutive_stop_blocks,
        request.stop_block_cap,
    )
    unheeded = decision_note(outcome.decision) if spec.name == PERMISSION_EVENT else None
    if unheeded is not None:
        # fire --claude-version: a release that did not heed this decision yet (measured).
        explanation = [*outcome.explanation, unheeded]
        outcome = replace(outcome, decision=None, explanation=explanation)
    permission = (
        _permission_step(rules, payload, outcome, place, mode, trusted)
        if spec.name == PERMISSION_EVENT and not outcome.blocked and removed is None
        else None
    )
    failures = [
        js_trim(hook.execution.run.stderr)
        for hook in sorted(ran.hooks, key=lambda h: h.execution.finish_index)
        if hook.reading.classification is Classification.NON_BLOCKING_ERROR
    ]
    last_turn = _last_turn(request)
    unchecked = max_turns_note() if last_turn and spec.stop_loop and outcome.keeps_going else None
    if unchecked is not None:
        # fire --claude-version: a release that let the continuation past the limit.
        last_turn = False
        outcome = replace(outcome, explanation=[*outcome.explanation, unchecked])
    shown = print_mode(
        spec,
        payload,
        outcome,
        permission,
        removed,
        reformatted,
        last_turn,
        failures,
        managed_denied=ran.managed_denied,
    )
    if spec.name == PERMISSION_EVENT and shown.tool_runs is not False:
        shell = settings.setting(SKILL_SHELL_OFF) is not True
        # An instruction file loads once a session: the transcript tells which did.
        loaded = loaded_before(tool_calls(payload.get("transcript_path")), place)
        effects = _call_effects(payload, place, shell).without_loaded(loaded)
        shown = replace(shown, when_run=effects)
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
            *map(
                str,
                fire_findings(settings.layers, request.places.project_dir, request.plugin_root),
            ),
            *warnings,
        ),
        env_file=ran.env_file,
        permission=permission,
        print_mode=shown,
        trusted=trusted,
        removed_by=removed,
    )


WRITING_TOOLS: Final = frozenset({"Edit", "Write"})
"""Tools after whose PostToolUse hooks 2.1.332 checks whether a hook changed the file."""


SKILL_SHELL_OFF: Final = "disableSkillShellExecution"
"""The setting that keeps a skill's `` !`command` `` lines from running (no hook fires)."""


def _call_effects(
    payload: Mapping[str, JSValue], place: CallPlace, skill_shell: bool
) -> CallEffects:
    """What the call sets off if it runs, with the input it runs with."""
    tool, tool_id = payload.get("tool_name"), payload.get("tool_use_id")
    return call_effects(
        tool if isinstance(tool, str) else "",
        payload.get("tool_input"),
        tool_id if isinstance(tool_id, str) else "",
        place,
        skill_shell,
    )


def _written_file(spec: EventSpec, payload: Mapping[str, JSValue], place: CallPlace) -> str | None:
    """The file an Edit or Write just wrote (its PostToolUse), as an absolute path."""
    tool_input = payload.get("tool_input")
    if spec.name != "PostToolUse" or payload.get("tool_name") not in WRITING_TOOLS:
        return None
    path = tool_input.get("file_path") if isinstance(tool_input, dict) else None
    if not isinstance(path, str) or not path or "\0" in path:
        return None
    return os.path.join(place.cwd, path)


def _file_state(path: str | None) -> tuple[int, int, int] | None:
    """What tells a change apart: inode, size and modification time (None: no file)."""
    if path is None:
        return None
    try:
        stat = os.stat(path)
    except (OSError, ValueError):
        return None
    return stat.st_ino, stat.st_size, stat.st_mtime_ns


def _bounded(matcher: str | None, value: JSValue | Undefined, narrow: bool) -> MatchResult:
    return bounded_explain(matcher, value, narrow=narrow)


def _check_mode(mode: str | None) -> None:
    if mode is not None and mode not in PERMISSION_MODES:
        raise InputError(
            "--permission-mode",
            f"{quote(mode)} is not a permission mode",
            "use one of " + ", ".join(PERMISSION_MODES),
        )


def _load_settings(places: SettingsPlaces) -> Settings:
    catalogue = load_catalogue()
    guards = [name for name, event in catalogue.items() if event.guard]
    settings = load_settings(places, catalogue.keys(), guards)
    flag = SettingsSource.FLAG
    if not flag_hooks_run() and any(ly.source is flag for ly in settings.layers):
        # An older release answered as heeded no disableAllHooks of --settings, whose hooks
        # it did not run either (settings-disable-all-flag, live on 2.0.15).
        layers = [
            replace(ly, disable_all_hooks=None) if ly.source is flag else ly
            for ly in settings.layers
        ]
        kept = merge_layers(layers)
        settings = replace(settings, groups=kept.groups, notes=kept.notes)
    # An older release answered as (fire --claude-version) read nothing of a file naming
    # an event it did not know yet, or holding a rule it refused.
    unread = {g.origin.file: note for g in settings.groups if (note := unknown_event_note(g.event))}
    for warning in settings.warnings:
        if isinstance(warning, SettingsWarning) and warning.rule == "unknown-event":
            note = unknown_event_note(str(warning.path[-1]), known=False)
            if note is not None:
                unread.setdefault(warning.where, note)
    for entry in settings.permissions:
        note = refused_rule_note(str(entry.rule))
        if note is not None:
            unread.setdefault(entry.origin.file, note)
    if not unread:
        return settings
    return replace(
        settings,
        groups=tuple(group for group in settings.groups if group.origin.file not in unread),
        permissions=tuple(e for e in settings.permissions if e.origin.file not in unread),
        notes=(*settings.notes, *(f"{file}: {note}" for file, note in unread.items())),
    )


def _trusted(request: FireRequest) -> bool:
    if not trust_gated():
        return True  # an older release answered as applied the project's permissions anyway
    if request.trusted is not None:
        return request.trusted
    places = request.places
    return folder_trusted(places.home, places.project_dir, permission_facts().trust_file)


def _merged(
    spec: EventSpec,
    hooks: Sequence[HookReport],
    payload: Mapping[str, JSValue],
    cwd: str,
    consecutive_stop_blocks: int = 0,
    stop_block_cap: int = DEFAULT_STOP_BLOCK_CAP,
) -> Outcome:
    """Read hooks merged in finish order (async ones stay out), a rewrite checked against
    the tool's schema."""
    finished = sorted((h for h in hooks if not h.is_async), key=lambda h: h.execution.finish_index)
    outcome = merge_readings(
        spec,
        [hook.reading for hook in finished],
        payload,
        consecutive_stop_blocks=consecutive_stop_blocks,
        stop_block_cap=stop_block_cap,
        in_background=len(hooks) - len(finished),
    )
    return checked_rewrite(spec, payload, outcome, cwd)


def _call_place(
    request: FireRequest, payload: Mapping[str, JSValue], settings_dirs: Sequence[str]
) -> CallPlace:
    project_dir = str(request.places.project_dir.resolve())
    stated_cwd = payload.get("cwd")
    cwd = stated_cwd if isinstance(stated_cwd, str) and os.path.isdir(stated_cwd) else project_dir
    home = str(request.places.home) if request.places.home else os.path.expanduser("~")
    given = (*request.added_dirs, *settings_dirs)
    added = tuple(os.path.normpath(os.path.join(project_dir, d)) for d in given)
    return CallPlace(project_dir, cwd, home, tuple(dict.fromkeys(added)))


def _settings_dirs(settings: Settings, trusted: bool) -> list[str]:
    """The working directories the settings files add (``permissions.additionalDirectories``,
    as ``--add-dir`` does; a project's only in a trusted folder, 2.1.332)."""
    found: list[str] = []
    for layer in settings.layers:
        document = layer.document if isinstance(layer.document, dict) else {}
        permissions = document.get("permissions")
        dirs = permissions.get("additionalDirectories") if isinstance(permissions, dict) else None
        if not isinstance(dirs, list) or (layer.source is SettingsSource.PROJECT and not trusted):
            continue
        if not settings_dirs_read(str(layer.source)):
            continue  # fire --claude-version: a release that took none of this file's yet
        found += [os.path.expanduser(d) for d in dirs if isinstance(d, str) and d]
    return found


def _last_turn(request: FireRequest) -> bool:
    """``--max-turns`` allows no further model response after this event's (2.1.332 checks
    the next response's number against the limit before asking for it)."""
    return bool(request.max_turns) and request.turn >= (request.max_turns or 0)


def _refused_before_hooks(
    spec: EventSpec,
    rules: Sequence[PermissionEntry],
    payload: Mapping[str, JSValue],
    place: CallPlace,
) -> ToolRefusal | None:
    tool = payload.get("tool_name")
    if spec.name != PERMISSION_EVENT or not isinstance(tool, str):
        return None
    read = files_read(payload.get("transcript_path"))
    return refused_before_hooks(rules, tool, payload.get("tool_input"), place, read)


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
        cancel_on_exit2=exit2_cancels(spec.name, spec.exit2_cancels_siblings),
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
    # A release answered as (fire --claude-version) may predate the variable.
    given = spec.name in ENV_FILE_EVENTS and planned and env_exported(ENV_FILE_VARIABLE)
    env_file = make_env_file() if given else None
    if env_file is not None:
        setting = replace(setting, exports={**setting.exports, ENV_FILE_VARIABLE: env_file})
    hooks: list[HookReport] = []
    denied = False
    try:
        for tier in tiers:
            if hooks and managed and _managed_denied(spec, hooks, payload, setting.cwd):
                plans = _not_run(plans, set(map(id, tier)), MANAGED_DENIED)
                denied = True
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
    return _Ran(plans, tuple(hooks), env_writes, denied)


def _managed_denied(
    spec: EventSpec, hooks: Sequence[HookReport], payload: dict[str, JSValue], cwd: str
) -> bool:
    """After the managed tier: did it deny? If it rewrote the input, the others see that."""
    readings = [h.reading for h in sorted(hooks, key=lambda h: h.execution.finish_index)]
    outcome = checked_rewrite(spec, payload, merge_readings(spec, readings, payload), cwd)
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


def checked_rewrite(
    spec: EventSpec, payload: Mapping[str, JSValue], outcome: Outcome, cwd: str
) -> Outcome:
    """A PreToolUse rewrite that fails the tool's input schema, or the tool's own input
    check (in ``cwd``), denies the call; a valid one is normalised (2.1.332)."""
    tool = payload.get("tool_name")
    if spec.name != PERMISSION_EVENT or outcome.blocked or not isinstance(tool, str):
        return outcome
    if isinstance(outcome.updated_input, Undefined):
        return outcome
    ignored = rewrite_note() if outcome.decision is None else None
    if ignored is not None:
        # An older release answered as (fire --claude-version) ran the call unchanged.
        lines = [*outcome.explanation, ignored]
        return replace(outcome, updated_input=UNDEFINED, explanation=lines)
    problems = schema_problems(tool, outcome.updated_input)
    if not problems:
        rewrite, _ = normalised(tool, known_keys_only(tool, outcome.updated_input))
        refusal = tool_refusal(tool, rewrite, cwd)
        if refusal is None:
            return replace(outcome, updated_input=rewrite)
        reason = model_text("updated_input_refused", event=spec.name, tool=tool, error=refusal)
        problems = [refusal]
    else:
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
            f"The hooks' updatedInput fails the {tool} input check ({'; '.join(problems)}): "
            "Claude Code denies the call.",
        ],
    )


def session_mode(flag: str | None, payload: Mapping[str, JSValue], settings: Settings) -> str:
    """The session's permission mode: ``--permission-mode``, else the payload's (what the
    session had), else ``permissions.defaultMode`` of the settings, else the release's own
    (default; auto in the releases a ``default-mode`` rule names)."""
    stated = payload.get("permission_mode")
    return (
        flag
        or (stated if isinstance(stated, str) and stated in PERMISSION_MODES else None)
        or settings.default_mode
        or default_mode()
        or "default"
    )


def _permission_step(
    rules: Sequence[PermissionEntry],
    payload: Mapping[str, JSValue],
    outcome: Outcome,
    place: CallPlace,
    mode: str,
    trusted: bool,
) -> PermissionStep:
    tool_name = payload.get("tool_name")
    tool_input = outcome.updated_input
    if isinstance(tool_input, Undefined):
        tool_input = payload.get("tool_input", {})
    skill = tool_input.get("skill") if isinstance(tool_input, dict) else None
    hooked = tool_name == "Skill" and isinstance(skill, str) and skill_has_hooks(place, skill)
    return permission_step(
        outcome.decision,
        rules,
        tool_name if isinstance(tool_name, str) else "",
        tool_input,
        place,
        mode,
        trusted,
        skill_hooks=hooked,
    )


# --- handlers given directly (the labs) ------------------------------------------------------


NOTEBOOK_ORIGIN: Final = Origin(SettingsSource.PROJECT, "(the notebook)", ())


def exec_handler(argv: Sequence[str], origin: Origin = NOTEBOOK_ORIGIN) -> Handler:
    """A command handler in exec form: ``argv[0]`` runs with the rest as its arguments."""
    return CommandHandler(origin=origin, command=argv[0], args=tuple(argv[1:]))


@dataclass(frozen=True)
class Fired:
    """Handlers run on one event: each report, in the order they finished, and the outcome."""

    hooks: tuple[HookReport, ...]
    outcome: Outcome

    @property
    def executions(self) -> tuple[Execution, ...]:
        return tuple(hook.execution for hook in self.hooks)

    @property
    def readings(self) -> tuple[HookReading, ...]:
        return tuple(hook.reading for hook in self.hooks)


def fire_handlers(
    event: str,
    handlers: Sequence[Handler],
    payload: Mapping[str, JSValue],
    cwd: str,
    *,
    timeout_s: float,
    consecutive_stop_blocks: int = 0,
    stop_block_cap: int = DEFAULT_STOP_BLOCK_CAP,
) -> Fired:
    """Run ``handlers`` for real on ``payload`` (no settings file is read) and merge them as
    ``event`` does: the same run, read and merge steps as ``fire``."""
    spec = event_spec(event)
    full = {**payload, "hook_event_name": spec.name}
    placeholders, exports = hook_exports(cwd, full)
    setting = RunSetting(cwd, spec.name, dict(os.environ), placeholders, exports)
    planned = [PlannedHandler(handler, True, timeout_s=timeout_s) for handler in handlers]
    jobs = [Job(p.handler, timeout_s) for p in planned]
    executions = run_jobs(jobs, jsjson.stringify(full), setting)
    hooks = sorted(
        (
            HookReport(p, execution, read_hook_result(spec, execution.run))
            for p, execution in zip(planned, executions, strict=True)
        ),
        key=lambda hook: hook.execution.finish_index,
    )
    outcome = _merged(spec, hooks, full, cwd, consecutive_stop_blocks, stop_block_cap)
    return Fired(tuple(hooks), outcome)
