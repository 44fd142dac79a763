"""Rules on a file as a whole: can it be read, is it JSON, is its shape what Claude Code
(and SchemaStore's claude-code-settings schema) reads."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterator
from typing import Final

from hookcourse.js.json import quote
from hookcourse.js.values import JSValue
from hookcourse.stages.decoding import describe_value

from ..settings import MANAGED_ONLY_RULE, SHAPE_RULE
from .facts import load_facts
from .registry import Hit, JSONPath, Scope, Severity, rule
from .sites import DocumentSite, FileKind, FileSite, entries_in


def _is_guard(site: DocumentSite, event: str | int) -> bool:
    """2.1.332 §10.1: an entry of a guard event that cannot be loaded voids its whole file."""
    spec = site.events.get(event) if isinstance(event, str) else None
    return spec is not None and spec.guard


_FILE_RULES: Final = (
    (
        "unreadable",
        Severity.ERROR,
        "§6: settings files are read from disk",
        "a file that cannot be read (missing, a directory, a FIFO, no permission, too large)",
    ),
    (
        "json-syntax",
        Severity.ERROR,
        "§6: settings files are JSON (a file that is not is skipped; §14 of the 2.1.332 notes)",
        "a file that is not JSON, with the line and column (and a byte-order mark by name)",
    ),
    (
        "frontmatter-syntax",
        Severity.ERROR,
        "§6 (hook locations): skill and subagent frontmatter hooks: is YAML between --- lines",
        "a SKILL.md or agent .md whose frontmatter is not YAML validate can read, with the line",
    ),
    (
        "frontmatter-not-checked",
        Severity.INFO,
        "validate reads the YAML that frontmatter hooks are written in, not all of YAML",
        "frontmatter in YAML validate does not follow (anchors, tags, nested flow "
        "collections), so its hooks were not checked",
    ),
)
"""The rules of a file that could not be used: the edge names the rule, each reports it."""


def _file_rule(rule_id: str) -> Callable[[FileSite], Iterator[Hit]]:
    def check(site: FileSite) -> Iterator[Hit]:
        if site.rule == rule_id and site.problem is not None:
            yield Hit(tuple(site.problem.path), site.problem.problem, site.problem.fix)

    return check


for _id, _severity, _reference, _summary in _FILE_RULES:
    rule(_id, _severity, _reference, Scope.FILE, _summary)(_file_rule(_id))


@rule(
    SHAPE_RULE,
    Severity.ERROR,
    "§6: event -> matcher groups -> handlers; SchemaStore $defs.hookMatcher, hookCommand",
    Scope.DOCUMENT,
    "an entry of the wrong shape or type, which Claude Code drops (a missing command, "
    "a wrong type, a timeout that is not a positive number, a non-boolean async, ...)",
)
def settings_shape(site: DocumentSite) -> Iterator[Hit]:
    if site.fatal is not None:
        yield Hit(tuple(site.fatal.path), site.fatal.problem, site.fatal.fix)
    if site.layer is not None:
        for warning in site.layer.warnings:
            if getattr(warning, "rule", SHAPE_RULE) == SHAPE_RULE:
                yield Hit(tuple(warning.path), warning.problem, warning.fix)
    document = site.document if isinstance(site.document, dict) else {}
    facts = load_facts()
    for key in facts.string_list_settings:
        if key in document and not _is_string_list(document[key]):
            yield Hit(
                (key,),
                f"{key} is {describe_value(document[key])}, not a list of strings; it is ignored",
                f'write "{key}": ["..."]',
            )


def _is_string_list(value: JSValue) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) and item for item in value)


@rule(
    "unknown-event",
    Severity.ERROR,
    "§6 and 2.1.332 §1.1: an unknown event name is dropped (`unknown hook event; entry ignored`)",
    Scope.DOCUMENT,
    "an event name Claude Code does not know (a typo, another agent's event), with the "
    "closest real one",
)
def unknown_event(site: DocumentSite) -> Iterator[Hit]:
    if site.layer is not None:
        for warning in site.layer.warnings:
            if getattr(warning, "rule", None) == "unknown-event":
                yield Hit(tuple(warning.path), warning.problem, warning.fix)


@rule(
    "guard-entry-voids-file",
    Severity.ERROR,
    "2.1.332 §10.1: a PreToolUse/PermissionRequest/PreSkillShellCommand entry that cannot be "
    "loaded is fatal: the whole file is not applied",
    Scope.DOCUMENT,
    "a malformed PreToolUse, PermissionRequest or PreSkillShellCommand entry, which makes "
    "Claude Code 2.1.332 ignore the whole file (its permissions, env and every hook)",
)
def guard_entry_voids_file(site: DocumentSite) -> Iterator[Hit]:
    if site.layer is None or site.place.kind is FileKind.PLUGIN:
        return
    for warning in site.layer.warnings:
        path = tuple(warning.path)
        if len(path) >= 2 and path[0] == "hooks" and _is_guard(site, path[1]):
            if getattr(warning, "rule", SHAPE_RULE) != SHAPE_RULE:
                continue
            what = {
                FileKind.MANAGED: "none of this managed file's hooks run",
                FileKind.SKILL: "the skill then loads with no hooks and no allowed-tools",
                FileKind.AGENT: "Claude Code 2.1.332 then does not load the agent at all",
            }.get(
                site.place.kind,
                "Claude Code 2.1.332 then applies nothing from this file: "
                "its permissions, env and every other hook are off too",
            )
            yield Hit(
                path[:3],
                f"this {path[1]} entry cannot be loaded, and a broken guard entry is fatal: "
                + what,
                "fix or remove the entry (see the settings-shape finding beside it)",
            )
            return


@rule(
    MANAGED_ONLY_RULE,
    Severity.WARNING,
    "§6: allowManagedHooksOnly (managed); SchemaStore: managed-only settings",
    Scope.DOCUMENT,
    "a key that has an effect only in managed settings, in another file (say --managed "
    "when the file is a managed-settings.json)",
)
def managed_only_key(site: DocumentSite) -> Iterator[Hit]:
    document = site.document
    if site.place.kind is FileKind.MANAGED or not isinstance(document, dict):
        return
    for key in load_facts().managed_only:
        if key in document:
            yield Hit(
                (key,),
                f"{key} has an effect only in managed settings, so in this {site.place.kind} "
                "file it is ignored",
                "move it to managed-settings.json (or pass --managed if this file is one)",
            )


@rule(
    "event-outside-hooks",
    Severity.ERROR,
    '§6: the structure has three levels under "hooks"; 2.1.332 §10.1: guard hooks placed '
    'outside "hooks" are fatal',
    Scope.DOCUMENT,
    'an event name at the top level of the file, outside "hooks", where nothing reads it',
)
def event_outside_hooks(site: DocumentSite) -> Iterator[Hit]:
    document = site.document
    if not isinstance(document, dict):
        return
    for key in document:
        if key in site.events:
            effect = (
                "; for a guard event Claude Code 2.1.332 then ignores the whole file"
                if _is_guard(site, key) and site.place.kind is not FileKind.PLUGIN
                else ""
            )
            extra = (
                ' (a plugin may add "description")' if site.place.kind is FileKind.PLUGIN else ""
            )
            yield Hit(
                (key,),
                f'{key} sits at the top level, outside "hooks", so its hooks never run{effect}',
                f'move it under "hooks": {{"hooks": {{"{key}": [...]}}}}{extra}',
            )


@rule(
    "unknown-key",
    Severity.WARNING,
    "§5: the handler fields; SchemaStore $defs.hookMatcher and hookCommand "
    "(additionalProperties: false); 2.1.332 §2.2",
    Scope.DOCUMENT,
    "a key Claude Code does not read on a matcher group or handler (timeout_ms, blocking, "
    "once, ...), so it has no effect (notes such as description are left alone)",
)
def unknown_key(site: DocumentSite) -> Iterator[Hit]:
    if site.layer is None:
        return
    facts = load_facts()
    for entry in entries_in(site.layer.groups, site.document):
        handler = entry.handler
        if handler is None:
            for key in entry.raw:
                if key in facts.group_keys or key == "if" or key in facts.documentation_keys:
                    continue
                yield _unknown(entry.group.origin.path, key, "matcher group", facts.group_keys)
            continue
        known = facts.handler_keys.get(handler.type, frozenset())
        for key in entry.raw:
            if key in known or key in facts.documentation_keys:
                continue
            if key == "once" and site.place.kind is FileKind.SKILL:
                continue  # §5: once is honoured in skill frontmatter
            if not _has_own_rule(key, handler.type):
                yield _unknown(handler.origin.path, key, f"{handler.type} handler", known)


def _has_own_rule(key: str, kind: str) -> bool:
    """``async`` off command hooks and ``continueOnBlock`` on agent hooks have their own."""
    return (key in ("async", "asyncRewake") and kind != "command") or (
        key == "continueOnBlock" and kind == "agent"
    )


def _unknown(path: JSONPath, key: str, where: str, known: frozenset[str]) -> Hit:
    hint = load_facts().key_hints.get(key)
    close = difflib.get_close_matches(key, sorted(known), n=1)
    fix = f"remove it; {hint}" if hint else "remove it"
    if close and not hint:
        fix = f"did you mean {quote(close[0])}? otherwise remove it"
    return Hit((*path, key), f"{quote(key)} is not a {where} field: Claude Code ignores it", fix)
