"""``hookcourse doctor``: one ranked answer to "why didn't my hook do that?".

It walks the path a hook takes in Claude Code 2.1.332, on the engine ``fire`` and
``validate`` use: the files a session reads (and look-alikes it never reads), what
``validate`` finds in them, the policy switches, whether each command's process can start
on this machine, and, given an event and payload, a real run through ``fire`` with each
answer's shape checked; given a debug log, the runs Claude Code itself recorded.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Final

from hookcourse.engine.api import FireRequest, fire
from hookcourse.engine.catalogue import event_spec, load_catalogue
from hookcourse.engine.lint import Severity
from hookcourse.engine.plan import GroupPlan
from hookcourse.engine.settings import (
    CommandHandler,
    SettingsLayer,
    SettingsPlaces,
    merge_layers,
)
from hookcourse.engine.validate import Report, ValidateOptions, validate_files
from hookcourse.errors import json_path

from .answers import Answer, NamedScript, not_found_path, shape_problems
from .conditions import event_conditions, trust_note
from .debug_log import LoggedRun, read_debug_log
from .findings import Finding, Reach, ranked
from .places import Machine, SettingsFile, layers, never_read, policy, read_settings
from .plugins import Plugin, disabled, installed_plugins, plugin_layers
from .scripts import bare_placeholders, stop_loops
from .start import script_of, start_problems
from .transcript import read_transcript

_VOIDS_FILE: Final = frozenset(
    {"json-syntax", "guard-entry-voids-file", "unreadable", "event-outside-hooks"}
)
"""validate rules whose finding means no hook of the file runs."""
_MATCHER_RULES: Final = frozenset(
    {
        "permission-rule-matcher",
        "bare-mcp-server",
        "invalid-regex",
        "regex-matches-no-tool",
        "matcher-value-never-sent",
        "spaces-around-pipe",
        "unknown-tool",
    }
)
"""validate rules about a matcher that selects nothing the author meant."""


@dataclass(frozen=True)
class Question:
    """What the author asks about: the machine, and optionally one event's payload and a
    debug log of a real session."""

    machine: Machine
    event: str | None = None
    payload_text: str | None = None
    payload_name: str = "the payload"
    debug_log: str | None = None
    transcript: str | None = None
    mode: str | None = None
    """interactive or print, when the author says how Claude Code was started."""


@dataclass(frozen=True)
class Diagnosis:
    """The files read, the hook runs looked at, and the findings, most reach first."""

    files: tuple[SettingsFile, ...]
    runs: tuple[str, ...]
    findings: tuple[Finding, ...]


def diagnose(question: Question) -> Diagnosis:
    """Every finding for the question; raises InputError for a bad event or payload."""
    machine = question.machine
    catalogue = load_catalogue()
    files = read_settings(machine)
    plugins = installed_plugins(machine, files)
    read = layers(files) + plugin_layers(plugins)
    merged = merge_layers(read)
    findings: list[Finding] = [
        *never_read(machine, frozenset(catalogue)),
        *bare_placeholders(read),
        *_validated(files, machine),
        *_validated_plugins(plugins),
        *disabled(plugins),
        *policy(read),
        *start_problems(merged, read, machine),
        *stop_loops(read, partial(_script, machine=machine)),
    ]
    runs: list[str] = []
    if any(layer.groups for layer in read):
        findings += trust_note(question.mode)
    if question.event is not None:
        findings += event_conditions(question.event, question.mode)
    if question.event is not None and question.payload_text is not None:
        fired, described = _fired(question, read)
        findings += _explained_by_matchers(fired, findings, question.event)
        runs += described
    if question.debug_log is not None:
        logged = read_debug_log(question.debug_log)
        findings += _logged(logged, question.event, "debug log")
        runs += [
            f"debug log line {run.line}: {run.event} [{run.command}] exit {run.status}"
            for run in logged
        ]
    if question.transcript is not None:
        transcript = read_transcript(question.transcript)
        findings += _logged(list(transcript.runs), question.event, "transcript")
        runs += [
            f"transcript line {run.line}: {run.event} [{run.command}] exit {run.status}"
            for run in transcript.runs
        ]
        runs += transcript.said
    return Diagnosis(tuple(files), tuple(runs), tuple(ranked(findings)))


def _script(layer: SettingsLayer, handler: CommandHandler, machine: Machine) -> Path | None:
    return script_of(layer, handler, machine)


def _validated_plugins(plugins: list[Plugin]) -> Iterator[Finding]:
    """validate's findings on the hook files of every enabled plugin, each with its root."""
    for plugin in plugins:
        if plugin.enabled and plugin.hook_files:
            options = ValidateOptions(plugin_root=plugin.root)
            yield from _as_causes(validate_files(list(plugin.hook_files), options))


def _validated(files: list[SettingsFile], machine: Machine) -> Iterator[Finding]:
    """validate's findings on every file read, as causes."""
    plugin_hooks = machine.project_dir / "hooks" / "hooks.json"
    plugin = (
        [plugin_hooks]
        if (machine.project_dir / ".claude-plugin").is_dir() and plugin_hooks.is_file()
        else []
    )
    for managed in (False, True):
        paths = [file.path for file in files if file.managed is managed] + (
            [] if managed else plugin
        )
        if not paths:
            continue
        options = ValidateOptions(project_dir=machine.project_dir, managed=managed)
        yield from _as_causes(validate_files(paths, options))


def _as_causes(report: Report) -> Iterator[Finding]:
    """A validate report's warnings and errors as doctor's findings."""
    for finding in report.findings:
        if finding.severity is Severity.INFO:
            continue
        reach = (
            Reach.STOPS_ALL
            if finding.rule in _VOIDS_FILE
            else Reach.STOPS_HOOK
            if finding.severity is Severity.ERROR
            else Reach.CHANGES
        )
        line = report.line_of(finding)
        where = f"{finding.file}:{line}" if line else finding.file
        if finding.path:
            where += f": {json_path(finding.path)}"
        what, _, why = finding.message.partition(": ")
        yield Finding(finding.rule, reach, what, where, why or finding.message, finding.fix)


def _fired(question: Question, read: list[SettingsLayer]) -> tuple[list[Finding], list[str]]:
    """Fire the event for real and check how each answer was read."""
    assert question.event is not None and question.payload_text is not None
    machine = question.machine
    spec = event_spec(question.event)
    managed = machine.managed_dir / "managed-settings.json"
    places = SettingsPlaces(
        machine.project_dir, machine.home, managed=managed if managed.is_file() else None
    )
    env = {"PATH": machine.hook_path, "HOME": str(machine.home)}
    report = fire(
        FireRequest(spec.name, question.payload_text, question.payload_name, places, base_env=env)
    )
    findings: list[Finding] = []
    described: list[str] = []
    for hook in report.hooks:
        run = hook.execution.run
        command = hook.planned.handler.describe()
        described.append(f"{spec.name} [{command}] exit {run.exit_code}: {hook.reading.how}")
        answer = Answer(command, run.exit_code, run.stdout, run.stderr)
        place = f"{spec.name} hook [{command}]"
        findings += shape_problems(spec, answer, place, _named(answer))
    if not report.hooks and any(layer.groups for layer in read):
        findings.append(_nothing_matched(spec.name, report.groups, report.matcher_subject))
    return findings, described


def _explained_by_matchers(fired: list[Finding], found: list[Finding], event: str) -> list[Finding]:
    """Nothing matched is what a matcher finding under the event causes: then it is a note
    beside that cause, not a cause of its own."""
    cause = next(
        (
            finding
            for finding in found
            if finding.cause in _MATCHER_RULES and f"$.hooks.{event}[" in finding.where
        ),
        None,
    )
    if cause is None:
        return fired
    return [
        replace(finding, reach=Reach.NOTE, fix=f"see [{cause.cause}] above")
        if finding.cause == "nothing-matched"
        else finding
        for finding in fired
    ]


def _nothing_matched(event: str, groups: tuple[GroupPlan, ...], subject: object) -> Finding:
    reasons = "; ".join(plan.why for plan in groups) or f"no group is under {event}"
    return Finding(
        "nothing-matched",
        Reach.STOPS_ALL,
        f"no hook of {event} matched this payload",
        event,
        f"for {subject!r}: {reasons}",
        "fix the matcher (hookcourse fire shows each group's branch), or the event name",
    )


def _logged(logged: list[LoggedRun], event: str | None, source: str) -> Iterator[Finding]:
    """What the runs a debug log or transcript recorded say, each run's answer checked."""
    catalogue = load_catalogue()
    if event is not None and not any(run.event == event for run in logged):
        yield _not_recorded(event, source)
    for run in logged:
        spec = catalogue.get(run.event)
        if spec is None:
            continue
        place = f"{source} line {run.line} ({run.event} [{run.command}])"
        answer = Answer(run.command, run.status, run.stdout, run.stderr)
        yield from shape_problems(spec, answer, place, _named(answer))


def _not_recorded(event: str, source: str) -> Finding:
    """No run of the event in a debug log (which records every run) or a transcript (which
    records none that exited 0 and printed nothing)."""
    if source == "transcript":
        return Finding(
            "not-in-transcript",
            Reach.NOTE,
            f"the transcript records no {event} hook",
            source,
            "Claude Code 2.1.332 writes no transcript entry for a hook that exits 0 and prints "
            f"nothing, so this does not show that no {event} hook ran: check with a debug log",
            "run claude --debug-file FILE, then hookcourse doctor EVENT --debug-log FILE",
        )
    return Finding(
        "never-ran",
        Reach.STOPS_ALL,
        f"the {source} shows no {event} hook running",
        source,
        f"Claude Code never ran a {event} hook in that session: the hook was not loaded "
        "(see the other findings), its matcher never selected the call, or the event never "
        "fired",
        "fix the first finding above; hookcourse fire shows which groups match a payload",
    )


def _named(answer: Answer) -> NamedScript | None:
    """The disk's facts about the script a 127's "not found" names."""
    path = not_found_path(answer.stderr) if answer.exit_code == 127 else None
    if path is None:
        return None
    script = Path(path)
    return NamedScript(script.is_file(), _crlf_shebang(script))


def _crlf_shebang(script: Path) -> bool:
    """Whether the script's first line ends in a carriage return (dash then says 'not found')."""
    if not script.is_file():
        return False
    try:
        with script.open("rb") as file:
            first = file.readline(512)
    except OSError:
        return False
    return first.startswith(b"#!") and first.rstrip(b"\n").endswith(b"\r")
