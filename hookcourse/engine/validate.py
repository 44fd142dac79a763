"""``hookcourse validate``: lint hook settings without running anything.

Each finding names the file, the JSON path, a severity, a rule id, what is wrong and
how to fix it. The rules are one registry (``RULES``): each rests on a line of the
reference (``reference``), which the tests cite. Regexes are checked with Bun's
syntax, as Claude Code compiles them. ``fire`` runs the same checks and shows the
findings as warnings. Pure, except ``validate_files``.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Final

from hookcourse.errors import InputError, json_path, json_syntax_fix
from hookcourse.js import json as jsjson
from hookcourse.js.json import quote
from hookcourse.js.regex import RegexEngine, regex_error
from hookcourse.js.values import JSValue

from .catalogue import EventSpec, load_catalogue
from .inputs import read_bounded
from .runner import PLACEHOLDERS
from .settings import (
    SHAPE_RULE,
    Handler,
    JSONPath,
    MatcherGroup,
    SettingsLayer,
    SettingsSource,
    settings_layer,
)


class Severity(StrEnum):
    ERROR = "error"
    """The entry does not do what it says: a hook never runs, or runs unsafely."""
    WARNING = "warning"
    """Legal, but likely a mistake or fragile."""


@dataclass(frozen=True)
class Rule:
    """One lint rule: its id, severity, and the reference line it rests on."""

    id: str
    severity: Severity
    reference: str


RULES: Final[Mapping[str, Rule]] = {
    rule.id: rule
    for rule in (
        Rule("json-syntax", Severity.ERROR, "§6: settings files are JSON"),
        Rule("unreadable", Severity.ERROR, "§6: settings files are read from disk"),
        Rule(SHAPE_RULE, Severity.ERROR, "§6: event -> matcher groups -> handlers"),
        Rule("unknown-event", Severity.ERROR, "§6: unknown event names are dropped"),
        Rule("handler-type", Severity.ERROR, "§5: which handler types each event accepts"),
        Rule("matcher-ignored", Severity.WARNING, "§4: a matcher on such an event is ignored"),
        Rule("permission-rule-matcher", Severity.ERROR, "§4: matchers cannot test arguments"),
        Rule("invalid-regex", Severity.ERROR, "§4: any other character: a JavaScript regex"),
        Rule("bare-mcp-server", Severity.ERROR, "§4: a bare mcp__memory matches no tool"),
        Rule("spaces-around-pipe", Severity.WARNING, "§10.2: which characters make it exact"),
        Rule("timeout-milliseconds", Severity.WARNING, "§5: timeout, in seconds; §10.7"),
        Rule("unquoted-placeholder", Severity.WARNING, "§7a: in shell form, quote them"),
        Rule("placeholder-in-shell", Severity.WARNING, "§7a: substituted in shell form"),
        Rule("async-not-command", Severity.ERROR, "§5: only command hooks can be async"),
        Rule("if-not-tool-event", Severity.ERROR, "§5: `if` elsewhere: the handler never runs"),
        Rule("continue-on-block-agent", Severity.WARNING, "§5: agent: no continueOnBlock"),
        Rule("duplicate-handler", Severity.WARNING, "§6: the same handler runs once"),
        Rule("plugin-wrapper", Severity.ERROR, "§6: plugin hooks/hooks.json wraps `hooks`"),
    )
}

USAGE: Final = 2
MILLISECONDS_FROM: Final = 1000
"""A timeout this large (in seconds: 16 minutes and more) was most likely meant in ms."""
_PERMISSION_RULE_SHAPE: Final = re.compile(r"[A-Za-z_][\w-]*\(.*\)", re.DOTALL)
_PLACEHOLDER: Final = re.compile(r"\$\{(" + "|".join(PLACEHOLDERS) + r")\}")
_SPACED_PIPE: Final = re.compile(r" *\| *")
_EXACT_CHARACTERS: Final = re.compile(r"[\w|, -]*", re.ASCII)


@dataclass(frozen=True)
class Finding:
    """One problem: where (file and JSON path), how bad, which rule, what, and the fix."""

    file: str
    path: JSONPath
    rule: str
    message: str
    fix: str

    @property
    def severity(self) -> Severity:
        return RULES[self.rule].severity

    def __str__(self) -> str:
        where = f"{self.file}: {json_path(self.path)}" if self.path else self.file
        return f"{where}: {self.severity} [{self.rule}] {self.message}; fix: {self.fix}"

    def to_json(self) -> dict[str, JSValue]:
        return {
            "file": self.file,
            "path": json_path(self.path),
            "severity": str(self.severity),
            "rule": self.rule,
            "message": self.message,
            "fix": self.fix,
            "reference": RULES[self.rule].reference,
        }


def lint_layers(layers: Sequence[SettingsLayer]) -> list[Finding]:
    """Every finding in these settings layers, file by file, then duplicates across them."""
    catalogue = load_catalogue()
    findings: list[Finding] = []
    for layer in layers:
        findings.extend(_from_warnings(layer))
        findings.extend(_wrapper(layer, catalogue.keys()))
        findings.extend(_ignored_fields(layer, catalogue.keys()))
        for group in layer.groups:
            spec = catalogue[group.event]
            findings.extend(_matcher(layer.file, spec, group))
            for handler in group.handlers:
                findings.extend(_handler(layer.file, spec, handler))
    findings.extend(_duplicates(layers))
    return findings


def _from_warnings(layer: SettingsLayer) -> Iterator[Finding]:
    for warning in layer.warnings:
        rule = getattr(warning, "rule", SHAPE_RULE)
        yield Finding(layer.file, warning.path, rule, warning.problem, warning.fix)


def _wrapper(layer: SettingsLayer, events: Collection[str]) -> Iterator[Finding]:
    """Event names at the top level, outside ``hooks``: the wrapper is missing."""
    document = layer.document
    if not isinstance(document, dict):
        return
    for key in document:
        if key in events:
            yield Finding(
                layer.file,
                (key,),
                "plugin-wrapper",
                f'{key} sits at the top level, outside "hooks", so its hooks never run',
                f'wrap it: {{"hooks": {{"{key}": [...]}}}} (a plugin may add "description")',
            )


def _raw_handlers(
    layer: SettingsLayer, events: Collection[str]
) -> Iterator[tuple[JSONPath, Mapping[str, JSValue]]]:
    """Every handler object as written, with its path (the reader drops fields it ignores)."""
    hooks = layer.document.get("hooks") if isinstance(layer.document, dict) else None
    if not isinstance(hooks, dict):
        return
    for event, groups in hooks.items():
        if event not in events or not isinstance(groups, list):
            continue
        for g, group in enumerate(groups):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for h, handler in enumerate(handlers if isinstance(handlers, list) else ()):
                if isinstance(handler, dict):
                    yield ("hooks", event, g, "hooks", h), handler


def _ignored_fields(layer: SettingsLayer, events: Collection[str]) -> Iterator[Finding]:
    """``async`` off command hooks, ``continueOnBlock`` on agent hooks: fields with no effect."""
    for path, handler in _raw_handlers(layer, events):
        kind = handler.get("type")
        for key in ("async", "asyncRewake"):
            if key in handler and kind != "command":
                yield Finding(
                    layer.file,
                    (*path, key),
                    "async-not-command",
                    f"{key} on the {kind} handler has no effect: only command hooks can be async",
                    f"remove {key}, or make it a command hook",
                )
        if "continueOnBlock" in handler and kind == "agent":
            yield Finding(
                layer.file,
                (*path, "continueOnBlock"),
                "continue-on-block-agent",
                "agent hooks have no continueOnBlock: they always behave as if it were true",
                "remove continueOnBlock",
            )


def _matcher(file: str, spec: EventSpec, group: MatcherGroup) -> Iterator[Finding]:
    matcher = group.matcher
    path = (*group.origin.path, "matcher")
    if matcher is None or matcher in ("", "*"):
        return
    if spec.matcher_field is None:
        yield Finding(
            file,
            path,
            "matcher-ignored",
            f"{spec.name} has no matcher support, so the matcher {quote(matcher)} is ignored "
            "and the hooks run every time",
            "remove the matcher",
        )
        return
    if _PERMISSION_RULE_SHAPE.fullmatch(matcher):
        tool = matcher.split("(", 1)[0]
        yield Finding(
            file,
            path,
            "permission-rule-matcher",
            f"{quote(matcher)} is permission-rule syntax; as a matcher it is a regex tested "
            "against the tool name, so it matches no tool",
            f'match "{tool}" and put the rule in the handler\'s "if": {quote(matcher)}',
        )
        return
    exact = _EXACT_CHARACTERS.fullmatch(matcher) is not None
    narrow_regex = spec.narrow_exact and not re.fullmatch(r"[\w|]*", matcher, re.ASCII)
    if not exact or narrow_regex:
        error = regex_error(matcher, RegexEngine.BUN)
        if error is not None:
            yield Finding(
                file,
                path,
                "invalid-regex",
                f"{quote(matcher)} is a regex Bun cannot compile ({error}), so it matches nothing",
                "fix the regular expression (Claude Code runs on Bun's engine)",
            )
    if _SPACED_PIPE.sub("|", matcher) != matcher:
        where = (
            f"on {spec.name} only letters, digits, _ and | make a matcher exact, so this is a "
            "regex and the spaces are part of the names"
            if spec.narrow_exact
            else "the course rules (and Claude Code before 2.1.191) read it as a regex with "
            "the spaces in the names; current Claude Code drops them"
        )
        yield Finding(
            file,
            path,
            "spaces-around-pipe",
            f"{quote(matcher)} has spaces around |: {where}",
            f"write {quote(_SPACED_PIPE.sub('|', matcher))}",
        )
    if exact and not spec.narrow_exact:
        for name in re.split(r"[|,]", matcher):
            name = name.strip(" ")
            if name.startswith("mcp__") and "__" not in name[len("mcp__") :]:
                yield Finding(
                    file,
                    path,
                    "bare-mcp-server",
                    f"{quote(name)} is an exact name, and no tool is called that: MCP tools are "
                    f"named {name}__<tool>",
                    f"match the whole server with {quote(name + '__.*')}",
                )


def _handler(file: str, spec: EventSpec, handler: Handler) -> Iterator[Finding]:
    path = handler.origin.path
    if handler.type not in spec.handler_types:
        yield Finding(
            file,
            (*path, "type"),
            "handler-type",
            f"{spec.name} does not run {handler.type} hooks, so this one never runs",
            f"use one of {', '.join(spec.handler_types)}",
        )
    if handler.if_rule is not None and not spec.is_tool_event:
        yield Finding(
            file,
            (*path, "if"),
            "if-not-tool-event",
            f'"if" is checked only on tool events; on {spec.name} a handler with it never runs',
            'remove "if", or move the hook to a tool event',
        )
    if handler.timeout_s is not None and handler.timeout_s >= MILLISECONDS_FROM:
        seconds = handler.timeout_s
        yield Finding(
            file,
            (*path, "timeout"),
            "timeout-milliseconds",
            f"timeout {seconds:g} is in seconds ({seconds / 60:,.0f} minutes); it looks like "
            "milliseconds",
            f'write "timeout": {seconds / 1000:g} if you meant {seconds:g} ms',
        )
    yield from _placeholders(file, handler)


def _placeholders(file: str, handler: Handler) -> Iterator[Finding]:
    """Shell-form commands with ``${CLAUDE_PROJECT_DIR}`` and friends substituted as text."""
    if handler.type != "command" or handler.args is not None or handler.command is None:
        return
    command = handler.command
    path = (*handler.origin.path, "command")
    for match in _PLACEHOLDER.finditer(command):
        name = match.group(1)
        if not _inside_double_quotes(command, match.start()):
            yield Finding(
                file,
                path,
                "unquoted-placeholder",
                f"${{{name}}} is unquoted in a shell command: a path with a space splits "
                "into two words (exit 127)",
                f'quote it: "${{{name}}}", or use exec form with "args"',
            )
        yield Finding(
            file,
            path,
            "placeholder-in-shell",
            f"${{{name}}} is pasted into the sh -c text before the shell runs, so a path "
            "holding $(...) or a quote would run as code",
            f'use exec form ("args": [...]) or the variable "${name}", which the shell expands',
        )


def _inside_double_quotes(command: str, index: int) -> bool:
    """Whether ``index`` falls inside a double-quoted string of a shell command."""
    quote_char = ""
    i = 0
    while i < index:
        ch = command[i]
        if quote_char == "'":
            quote_char = "" if ch == "'" else quote_char
        elif ch == "\\":
            i += 1
        elif ch == '"':
            quote_char = "" if quote_char == '"' else '"'
        elif ch == "'" and not quote_char:
            quote_char = "'"
        i += 1
    return quote_char == '"'


def _duplicates(layers: Sequence[SettingsLayer]) -> Iterator[Finding]:
    seen: dict[tuple[object, ...], Handler] = {}
    for layer in layers:
        for group in layer.groups:
            for handler in group.handlers:
                key = (group.event, group.matcher, *handler.dedupe_key())
                first = seen.setdefault(key, handler)
                if first is not handler:
                    yield Finding(
                        layer.file,
                        handler.origin.path,
                        "duplicate-handler",
                        f"the same handler is at {json_path(first.origin.path)} in "
                        f"{first.origin.file}; Claude Code runs it once",
                        "remove one of the two",
                    )


# --- files (I/O) -------------------------------------------------------------------------------


def default_files(project_dir: Path) -> list[Path]:
    """The project's settings files that exist, and a plugin's hooks/hooks.json."""
    candidates = [
        project_dir / ".claude" / "settings.json",
        project_dir / ".claude" / "settings.local.json",
        project_dir / "hooks" / "hooks.json",
    ]
    return [path for path in candidates if path.is_file()]


def validate_files(files: Sequence[Path]) -> list[Finding]:
    """Read and lint ``files``; a file that cannot be read or parsed is a finding too."""
    catalogue = load_catalogue()
    layers: list[SettingsLayer] = []
    findings: list[Finding] = []
    for path in files:
        name = str(path)
        try:
            text = read_bounded(name, what="the settings file").text
        except InputError as error:
            findings.append(Finding(name, (), "unreadable", error.problem, error.fix))
            continue
        try:
            document = jsjson.parse(text)
        except jsjson.JSONSyntaxError as error:
            problem, fix = f"not valid JSON ({error})", json_syntax_fix(text)
            findings.append(Finding(name, (), "json-syntax", problem, fix))
            continue
        try:
            layers.append(settings_layer(document, SettingsSource.FLAG, name, catalogue.keys()))
        except InputError as error:
            findings.append(Finding(name, error.path, SHAPE_RULE, error.problem, error.fix))
    return findings + lint_layers(layers)


def run_validate(files: Sequence[str], project_dir: str | None, as_json: bool) -> int:
    """``hookcourse validate``: print the findings; 0 clean, 1 an error finding, 2 usage."""
    from hookcourse.errors import visible

    directory = Path(project_dir or ".")
    if project_dir is not None and not directory.is_dir():
        print(
            f"hookcourse validate: --project-dir {project_dir} is not a directory", file=sys.stderr
        )
        return USAGE
    folder = next((name for name in files if os.path.isdir(name)), None)
    if folder is not None:
        print(
            f"hookcourse validate: {visible(folder)} is a directory; fix: pass settings files, "
            f"or use --project-dir {visible(folder)}",
            file=sys.stderr,
        )
        return USAGE
    paths = [Path(name) for name in files] or default_files(directory)
    if not paths:
        print(
            f"hookcourse validate: no settings file in {directory} (.claude/settings.json, "
            ".claude/settings.local.json or hooks/hooks.json); fix: name FILE",
            file=sys.stderr,
        )
        return USAGE
    findings = validate_files(paths)
    errors = sum(1 for finding in findings if finding.severity is Severity.ERROR)
    if as_json:
        document: dict[str, JSValue] = {
            "files": [str(path) for path in paths],
            "findings": [finding.to_json() for finding in findings],
            "errors": errors,
            "warnings": len(findings) - errors,
        }
        print(jsjson.stringify(document))
    else:
        for finding in findings:
            print(visible(str(finding)))
        checked = ", ".join(str(path) for path in paths)
        print(
            f"{len(paths)} file(s) checked ({checked}): {errors} error(s), "
            f"{len(findings) - errors} warning(s)"
        )
    return 1 if errors else 0
