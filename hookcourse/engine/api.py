"""The engine's front door: everything the rest of hookcourse uses of the Claude Code model.

``cli.py``, ``session/``, ``course/`` and the doctor import the engine only from here
(``tests/entry/test_front_door.py``), so the engine's modules can move without touching
them. ``fire`` (in ``firing.py``) fires one event; ``validate_files`` lints settings;
the catalogue answers ``hookcourse events``; ``lifecycle`` says what a session sets off
on its own; the session loop (``session/loop.py``) is built on these.

Each name is loaded when first asked for (PEP 562's module ``__getattr__``), so
``hookcourse events`` loads the catalogue and not the process runner, and a lab that
reads one hook's answer does not load the permission step. The ``TYPE_CHECKING`` block
names every entry for the type checker; a test keeps it and ``PLACES`` the same.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .catalogue import (
        EventSpec as EventSpec,
    )
    from .catalogue import (
        Recipient as Recipient,
    )
    from .catalogue import (
        checked_against as checked_against,
    )
    from .catalogue import (
        describe_event as describe_event,
    )
    from .catalogue import (
        describe_events as describe_events,
    )
    from .catalogue import (
        event_facts as event_facts,
    )
    from .catalogue import (
        event_spec as event_spec,
    )
    from .catalogue import (
        get_event as get_event,
    )
    from .catalogue import (
        load_catalogue as load_catalogue,
    )
    from .catalogue import (
        model_text as model_text,
    )
    from .catalogue import (
        permission_facts as permission_facts,
    )
    from .catalogue import (
        recipient_text as recipient_text,
    )
    from .dialog import (
        Answered as Answered,
    )
    from .dialog import (
        UserAnswer as UserAnswer,
    )
    from .dialog import (
        answer_dialog as answer_dialog,
    )
    from .dialog import (
        check_answer as check_answer,
    )
    from .dialog import (
        interactive_json as interactive_json,
    )
    from .dialog import (
        interactive_lines as interactive_lines,
    )
    from .dialog import (
        shows_dialog as shows_dialog,
    )
    from .firing import (
        Fired as Fired,
    )
    from .firing import (
        FireRequest as FireRequest,
    )
    from .firing import (
        exec_handler as exec_handler,
    )
    from .firing import (
        fire as fire,
    )
    from .firing import (
        fire_handlers as fire_handlers,
    )
    from .lifecycle import (
        SetOff as SetOff,
    )
    from .lifecycle import (
        Task as Task,
    )
    from .lifecycle import (
        file_written as file_written,
    )
    from .lifecycle import (
        instructions_at_start as instructions_at_start,
    )
    from .lifecycle import (
        prompt_expansion as prompt_expansion,
    )
    from .lifecycle import (
        refused_command as refused_command,
    )
    from .lifecycle import (
        startup_events as startup_events,
    )
    from .lifecycle import (
        task_event as task_event,
    )
    from .lifecycle import (
        watched_names as watched_names,
    )
    from .lifecycle import (
        worktree_at_start as worktree_at_start,
    )
    from .lint import Severity as Severity
    from .lint import choose as choose_rules
    from .lint.registry import table as lint_rules
    from .outcome import (
        DEFAULT_STOP_BLOCK_CAP as DEFAULT_STOP_BLOCK_CAP,
    )
    from .outcome import (
        Outcome as Outcome,
    )
    from .outcome import (
        merge_readings as merge_readings,
    )
    from .permission_rule import (
        CallPlace as CallPlace,
    )
    from .permission_rule import (
        check_rule as check_rule,
    )
    from .permission_rule import (
        parse_rule as parse_rule,
    )
    from .permissions import concurrency_safe as concurrency_safe
    from .permissions import path_blocked as path_blocked
    from .permissions import permission_step as permission_step
    from .reading import (
        Classification as Classification,
    )
    from .reading import (
        HookReading as HookReading,
    )
    from .reading import (
        HookRun as HookRun,
    )
    from .reading import (
        read_hook_result as read_hook_result,
    )
    from .report import (
        FireReport as FireReport,
    )
    from .report import (
        report_json as report_json,
    )
    from .report import (
        report_text as report_text,
    )
    from .runner import CommandEvaluator as CommandEvaluator
    from .runner import Execution as Execution
    from .runner import Job as Job
    from .runner import RunSetting as RunSetting
    from .runner import hook_run as hook_run
    from .runner import run_jobs as run_jobs
    from .settings import (
        MANAGED_SETTINGS_ENV as MANAGED_SETTINGS_ENV,
    )
    from .settings import (
        PERMISSION_MODES as PERMISSION_MODES,
    )
    from .settings import (
        STANDARD_SOURCES as STANDARD_SOURCES,
    )
    from .settings import (
        CommandHandler as CommandHandler,
    )
    from .settings import (
        Handler as Handler,
    )
    from .settings import (
        SettingsPlaces as SettingsPlaces,
    )
    from .settings import (
        SettingsSource as SettingsSource,
    )
    from .settings import (
        load_settings as load_settings,
    )
    from .transcript import PrintMode as PrintMode
    from .validate import (
        ValidateOptions as ValidateOptions,
    )
    from .validate import (
        default_files as default_files,
    )
    from .validate import (
        validate_files as validate_files,
    )
    from .validate_output import render as render_findings
    from .versions import (
        across_releases as across_releases,
    )
    from .versions import (
        agent_in_background as agent_in_background,
    )
    from .versions import (
        answering_as as answering_as,
    )
    from .versions import (
        answering_line as answering_line,
    )
    from .versions import (
        auto_fallback_after as auto_fallback_after,
    )
    from .versions import (
        auto_refusal_text as auto_refusal_text,
    )
    from .versions import (
        cancelled_text as cancelled_text,
    )
    from .versions import (
        changelog_lines as changelog_lines,
    )
    from .versions import (
        classifier_takes_turn as classifier_takes_turn,
    )
    from .versions import (
        contexts_joined as contexts_joined,
    )
    from .versions import (
        event_fires as event_fires,
    )
    from .versions import (
        flag_note as flag_note,
    )
    from .versions import (
        model_of as model_of,
    )
    from .versions import (
        not_fired_note as not_fired_note,
    )
    from .versions import (
        own_subagents as own_subagents,
    )
    from .versions import (
        subagent_cut_off as subagent_cut_off,
    )
_ENGINE = "hookcourse.engine."
PLACES: Final[dict[str, str]] = {
    # answering as an older release
    "across_releases": "versions",
    "agent_in_background": "versions",
    "answering_as": "versions",
    "answering_line": "versions",
    "auto_fallback_after": "versions",
    "classifier_takes_turn": "versions",
    "auto_refusal_text": "versions",
    "cancelled_text": "versions",
    "event_fires": "versions",
    "changelog_lines": "versions",
    "contexts_joined": "versions",
    "flag_note": "versions",
    "model_of": "versions",
    "not_fired_note": "versions",
    "own_subagents": "versions",
    "subagent_cut_off": "versions",
    # firing one event
    "fire": "firing",
    "FireRequest": "firing",
    "fire_handlers": "firing",
    "Fired": "firing",
    "exec_handler": "firing",
    "FireReport": "report",
    "report_json": "report",
    "report_text": "report",
    "CommandEvaluator": "runner",
    # the process edge a session replays in the browser
    "Execution": "runner",
    "Job": "runner",
    "RunSetting": "runner",
    "hook_run": "runner",
    "run_jobs": "runner",
    # one hook's answer, and several merged
    "Classification": "reading",
    "HookReading": "reading",
    "HookRun": "reading",
    "read_hook_result": "reading",
    "Outcome": "outcome",
    "merge_readings": "outcome",
    "DEFAULT_STOP_BLOCK_CAP": "outcome",
    # the events
    "EventSpec": "catalogue",
    "Recipient": "catalogue",
    "checked_against": "catalogue",
    "describe_event": "catalogue",
    "describe_events": "catalogue",
    "event_facts": "catalogue",
    "event_spec": "catalogue",
    "get_event": "catalogue",
    "load_catalogue": "catalogue",
    "model_text": "catalogue",
    "permission_facts": "catalogue",
    "recipient_text": "catalogue",
    # what a session sets off on its own
    "SetOff": "lifecycle",
    "instructions_at_start": "lifecycle",
    "prompt_expansion": "lifecycle",
    "refused_command": "lifecycle",
    "startup_events": "lifecycle",
    "file_written": "lifecycle",
    "watched_names": "lifecycle",
    "worktree_at_start": "lifecycle",
    "Task": "lifecycle",
    "task_event": "lifecycle",
    "PrintMode": "transcript",
    # the interactive interface's permission dialog
    "Answered": "dialog",
    "UserAnswer": "dialog",
    "answer_dialog": "dialog",
    "check_answer": "dialog",
    "interactive_json": "dialog",
    "interactive_lines": "dialog",
    "shows_dialog": "dialog",
    # permissions
    "CallPlace": "permission_rule",
    "check_rule": "permission_rule",
    "parse_rule": "permission_rule",
    "path_blocked": "permissions",
    "concurrency_safe": "permissions",
    "permission_step": "permissions",
    # settings
    "CommandHandler": "settings",
    "Handler": "settings",
    "MANAGED_SETTINGS_ENV": "settings",
    "PERMISSION_MODES": "settings",
    "STANDARD_SOURCES": "settings",
    "SettingsPlaces": "settings",
    "SettingsSource": "settings",
    "load_settings": "settings",
    # validate
    "ValidateOptions": "validate",
    "default_files": "validate",
    "validate_files": "validate",
    "render_findings": "validate_output:render",
    "Severity": "lint",
    "choose_rules": "lint:choose",
    "lint_rules": "lint.registry:table",
}
"""Each name -> the engine module that defines it (``module:name`` where it is renamed)."""

__all__ = [
    "DEFAULT_STOP_BLOCK_CAP",
    "MANAGED_SETTINGS_ENV",
    "PERMISSION_MODES",
    "STANDARD_SOURCES",
    "Answered",
    "CallPlace",
    "Classification",
    "CommandEvaluator",
    "CommandHandler",
    "EventSpec",
    "Execution",
    "FireReport",
    "FireRequest",
    "Fired",
    "Handler",
    "HookReading",
    "HookRun",
    "Job",
    "Outcome",
    "PrintMode",
    "Recipient",
    "RunSetting",
    "SetOff",
    "SettingsPlaces",
    "SettingsSource",
    "Severity",
    "Task",
    "UserAnswer",
    "ValidateOptions",
    "across_releases",
    "agent_in_background",
    "answer_dialog",
    "answering_as",
    "answering_line",
    "auto_fallback_after",
    "auto_refusal_text",
    "cancelled_text",
    "changelog_lines",
    "check_answer",
    "check_rule",
    "checked_against",
    "choose_rules",
    "classifier_takes_turn",
    "concurrency_safe",
    "contexts_joined",
    "default_files",
    "describe_event",
    "describe_events",
    "event_facts",
    "event_fires",
    "event_spec",
    "exec_handler",
    "file_written",
    "fire",
    "fire_handlers",
    "flag_note",
    "get_event",
    "hook_run",
    "instructions_at_start",
    "interactive_json",
    "interactive_lines",
    "lint_rules",
    "load_catalogue",
    "load_settings",
    "merge_readings",
    "model_of",
    "model_text",
    "not_fired_note",
    "own_subagents",
    "parse_rule",
    "path_blocked",
    "permission_facts",
    "permission_step",
    "prompt_expansion",
    "read_hook_result",
    "recipient_text",
    "refused_command",
    "render_findings",
    "report_json",
    "report_text",
    "run_jobs",
    "shows_dialog",
    "startup_events",
    "subagent_cut_off",
    "task_event",
    "validate_files",
    "watched_names",
    "worktree_at_start",
]
"""The names of ``PLACES``, for readers and tools (a test keeps the two the same)."""


def __getattr__(name: str) -> object:
    place = PLACES.get(name)
    if place is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, _, attribute = place.partition(":")
    value = getattr(importlib.import_module(_ENGINE + module), attribute or name)
    globals()[name] = value  # the next lookup is an ordinary one
    return value
