"""Settings files: read, validate the three-layer hook shape, merge.

Hooks live under ``hooks`` in every settings file: event name -> list of matcher
groups ``{matcher, hooks: [handler, ...]}``. Files do not override each other's
hooks; every group from every file is kept. Only ``disableAllHooks`` follows
settings precedence (managed > ``--settings`` > local > project > user), only the
managed file can switch managed hooks off, and a managed ``allowManagedHooksOnly``
keeps managed hooks alone.

A file whose top level has the wrong shape is an error (``InputError``: file, JSON
path, fix). As Claude Code 2.1.332 does: a user, project or local file that is not
JSON is skipped with a warning (the other files still apply); an unknown event name
or a malformed group or handler is dropped with a warning, except under a guard
event (PreToolUse, PermissionRequest, PreSkillShellCommand), where it voids the
whole file (a managed file keeps its permissions but none of its hooks run).
"""

from __future__ import annotations

import difflib
import math
import os
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import ClassVar, Final, Literal, TypeAlias, TypedDict

from hookcourse.errors import InputError, json_path, json_syntax_fix
from hookcourse.js import json as jsjson
from hookcourse.js.json import quote
from hookcourse.js.values import UNDEFINED, JSValue, is_js_number
from hookcourse.stages.decoding import describe_value
from hookcourse.system.inputs import is_present, read_bounded

from .permission_rule import CallPlace, PermissionRule, RuleSyntaxError, parse_rule
from .skill_files import find_skill

HANDLER_TYPES: Final = ("command", "http", "mcp_tool", "prompt", "agent")
ON_FAILURE: Final = ("continue", "block")
MANAGED_SETTINGS_ENV: Final = "HOOKCOURSE_MANAGED_SETTINGS"
"""Environment variable naming the managed-settings.json to read (``--managed-settings``)."""


class SettingsSource(StrEnum):
    """Where a settings file comes from."""

    USER = "user"
    PROJECT = "project"
    LOCAL = "local"
    FLAG = "flag"
    MANAGED = "managed"
    SKILL = "skill"
    """A launched skill's frontmatter ``hooks``, registered for the rest of the session."""


SHAPE_RULE: Final = "settings-shape"
"""The ``validate`` rule id of a malformed entry the settings reader drops."""
MANAGED_ONLY_RULE: Final = "managed-only-key"
"""The ``validate`` rule id of a key that has an effect only in managed settings."""


class SettingsWarning(InputError):
    """A settings entry that is dropped or has no effect, with the ``validate`` rule it breaks."""

    def __init__(
        self, where: str, problem: str, fix: str, path: JSONPath, rule: str = SHAPE_RULE
    ) -> None:
        super().__init__(where, problem, fix, path)
        self.rule = rule


# Highest precedence first: who decides disableAllHooks.
PRECEDENCE: Final = (
    SettingsSource.MANAGED,
    SettingsSource.FLAG,
    SettingsSource.LOCAL,
    SettingsSource.PROJECT,
    SettingsSource.USER,
    SettingsSource.SKILL,
)
STANDARD_SOURCES: Final = frozenset(
    {SettingsSource.USER, SettingsSource.PROJECT, SettingsSource.LOCAL}
)
"""The files ``--setting-sources`` chooses among; all three are read by default."""
JSONPath = tuple[str | int, ...]


@dataclass(frozen=True)
class Origin:
    """Where an entry was written: the file's source, its name, and the JSON path inside it."""

    source: SettingsSource
    file: str
    path: JSONPath

    def __str__(self) -> str:
        return f"{self.source} settings {self.file} {json_path(self.path)}"


@dataclass(frozen=True, kw_only=True)
class HandlerBase:
    """What every hook handler kind has: where it was written, its timeout, ``if``, status line.

    The kinds (``Handler``) add their own fields and say how they are described and
    deduplicated; the runner picks how to run one by its class.
    """

    origin: Origin
    timeout_s: float | None = None
    if_rule: PermissionRule | None = None
    status_message: str | None = None

    @property
    def is_managed(self) -> bool:
        return self.origin.source is SettingsSource.MANAGED

    @property
    def is_async(self) -> bool:
        """Whether it runs in the background (only a command handler can)."""
        return False

    @property
    def blocks_on_failure(self) -> bool:
        """``onFailure: "block"``: a failure (could not start, timeout, other exit, bad JSON)
        counts as exit 2; never for a handler running in the background."""
        return False

    @property
    def continue_on_block(self) -> bool:
        """A prompt handler's ``continueOnBlock``."""
        return False

    @property
    def named_by(self) -> str | None:
        """What Claude Code's messages name the handler by (``[<command>]: ...``), if anything."""
        return None

    def _condition(self) -> str | None:
        """``if`` as the last item of every ``dedupe_key`` (a release that ignored ``if``
        merged handlers differing only there: the planner drops it)."""
        return None if self.if_rule is None else str(self.if_rule)


@dataclass(frozen=True, kw_only=True)
class CommandHandler(HandlerBase):
    """``type: command``: a shell command (``command``), or a program and ``args`` (exec form)."""

    type: ClassVar[Literal["command"]] = "command"
    command: str
    args: tuple[str, ...] | None = None
    """The exec form's arguments; None for the shell form."""
    shell: str | None = None
    background: bool = False
    """``async`` or ``asyncRewake``."""
    on_failure: str = "continue"

    @property
    def is_async(self) -> bool:
        return self.background

    @property
    def blocks_on_failure(self) -> bool:
        return self.on_failure == "block" and not self.background

    @property
    def named_by(self) -> str:
        # 2.1.332 names an exec-form hook by command and args joined by one space, as
        # configured: no placeholder substituted, no quoting.
        return self.command if self.args is None else " ".join((self.command, *self.args))

    def dedupe_key(self) -> tuple[object, ...]:
        """Shell, command, args and ``if`` (2.1.332's key; the planner never merges async ones)."""
        return ("command", self.shell, self.command, self.args, self._condition())

    def describe(self) -> str:
        """A short label: what this handler runs."""
        if self.args is None:
            return f"command {quote(self.command)}"
        words = " ".join(quote(word) for word in (self.command, *self.args))
        return f"command (exec form) {words}"


@dataclass(frozen=True, kw_only=True)
class HttpHandler(HandlerBase):
    """``type: http``: the payload POSTed to ``url``, ``$VAR`` in headers for allowed names."""

    type: ClassVar[Literal["http"]] = "http"
    url: str
    headers: tuple[tuple[str, str], ...] = ()
    allowed_env_vars: tuple[str, ...] = ()
    on_failure: str = "continue"

    @property
    def blocks_on_failure(self) -> bool:
        return self.on_failure == "block"

    @property
    def named_by(self) -> str:
        return self.url

    def dedupe_key(self) -> tuple[object, ...]:
        """URL and ``if`` (2.1.332's key)."""
        return ("http", self.url, self._condition())

    def describe(self) -> str:
        """A short label: what this handler runs."""
        return f"http POST {self.url}"


@dataclass(frozen=True, kw_only=True)
class McpToolHandler(HandlerBase):
    """``type: mcp_tool``: a tool of a connected MCP server, called with ``input``."""

    type: ClassVar[Literal["mcp_tool"]] = "mcp_tool"
    server: str
    tool: str
    tool_input: str | None = None
    """The handler's ``input``, as JSON text."""
    on_failure: str = "continue"

    @property
    def blocks_on_failure(self) -> bool:
        return self.on_failure == "block"

    def dedupe_key(self) -> tuple[object, ...]:
        """Server, tool, input and ``if`` (2.1.332's key)."""
        return ("mcp_tool", self.server, self.tool, self.tool_input, self._condition())

    def describe(self) -> str:
        """A short label: what this handler runs."""
        return f"mcp_tool {self.server}/{self.tool}"


@dataclass(frozen=True, kw_only=True)
class EvaluatorHandler(HandlerBase):
    """``type: prompt`` or ``agent``: a model judges the payload against ``prompt``."""

    type: Literal["prompt", "agent"]
    prompt: str
    model: str | None = None
    prompt_continues: bool = False
    """A prompt handler's ``continueOnBlock`` (an agent handler has none)."""

    @property
    def continue_on_block(self) -> bool:
        return self.prompt_continues

    def dedupe_key(self) -> tuple[object, ...]:
        """Type, prompt and ``if`` (2.1.332's key)."""
        return (self.type, self.prompt, self._condition())

    def describe(self) -> str:
        """A short label: what this handler runs."""
        return f"{self.type} hook {quote(_shorten(self.prompt, 60))}"


Handler: TypeAlias = CommandHandler | HttpHandler | McpToolHandler | EvaluatorHandler
"""One validated hook handler: one class per kind."""


@dataclass(frozen=True)
class MatcherGroup:
    """One matcher group: the event it is under, its matcher (None = omitted), its handlers."""

    event: str
    matcher: str | None
    handlers: tuple[Handler, ...]
    origin: Origin


PERMISSION_BEHAVIOURS: Final = ("deny", "ask", "allow")
"""The lists under ``permissions``, in the order Claude Code consults them."""
PERMISSION_MODES: Final = ("default", "acceptEdits", "plan", "auto", "dontAsk", "bypassPermissions")
DEFAULT_MODE_ALIASES: Final = {"manual": "default", "delegate": "default"}
"""defaultMode values SchemaStore's schema also allows: "manual" is read as default (hooks
see ``permission_mode`` "default"); "delegate" (agent teams) is modelled as default too."""


@dataclass(frozen=True)
class PermissionEntry:
    """One rule under ``permissions.allow``, ``ask`` or ``deny``, and where it was written."""

    behaviour: str
    rule: PermissionRule
    origin: Origin


@dataclass(frozen=True)
class SettingsLayer:
    """What one settings file says about hooks."""

    source: SettingsSource
    file: str
    groups: tuple[MatcherGroup, ...] = ()
    disable_all_hooks: bool | None = None
    allow_managed_hooks_only: bool | None = None
    warnings: tuple[InputError, ...] = ()
    permissions: tuple[PermissionEntry, ...] = ()
    default_mode: str | None = None
    document: JSValue = None
    """The file's parsed JSON, as written (``validate`` reads what the layer dropped)."""
    env: tuple[tuple[str, str], ...] = ()
    """The file's ``env``: variables Claude Code sets for itself, so its hooks get them."""


@dataclass(frozen=True)
class Settings:
    """Every settings layer read, and the hooks that survive disableAllHooks and friends.

    ``permissions`` holds the rules of every layer (they add up, as hooks do);
    ``default_mode`` is ``permissions.defaultMode`` from the highest-precedence file.
    """

    layers: tuple[SettingsLayer, ...]
    groups: tuple[MatcherGroup, ...]
    notes: tuple[str, ...] = ()
    warnings: tuple[InputError, ...] = ()
    permissions: tuple[PermissionEntry, ...] = ()
    default_mode: str | None = None
    skipped: tuple[InputError, ...] = ()
    """Files that were not read at all (not JSON, or not an object), one warning each."""
    env: tuple[tuple[str, str], ...] = ()
    """Every file's ``env``, the higher-precedence file winning a name."""

    def groups_for(self, event: str) -> tuple[MatcherGroup, ...]:
        return tuple(group for group in self.groups if group.event == event)

    def setting(self, key: str) -> JSValue:
        """A top-level key as the highest-precedence file that sets it gives it (None: unset)."""
        by_precedence = sorted(self.layers, key=lambda layer: PRECEDENCE.index(layer.source))
        for layer in by_precedence:
            if isinstance(layer.document, dict) and key in layer.document:
                return layer.document[key]
        return None


def _shorten(text: str, limit: int) -> str:
    one_line = " ".join(text.split())
    return one_line if len(one_line) <= limit else one_line[: limit - 1] + "…"


# --- parsing one file (pure) -----------------------------------------------------------------


class _Reader:
    """Validates one parsed settings document and collects what it drops."""

    def __init__(
        self,
        source: SettingsSource,
        file: str,
        known_events: Collection[str],
        guard_events: Collection[str] = (),
    ) -> None:
        self.source = source
        self.file = file
        self.known_events = known_events
        self.guard_events = guard_events
        self.warnings: list[InputError] = []
        self.void: InputError | None = None
        """The first malformed entry under a guard event: it voids the file."""

    def guard_dropped(self, event: str, before: int) -> None:
        """Mark the file void when entries under a guard event were dropped since ``before``."""
        if self.void is None and event in self.guard_events and len(self.warnings) > before:
            self.void = self.warnings[before]

    def issue(self, path: JSONPath, problem: str, fix: str) -> InputError:
        return InputError(self.file, problem, fix, path)

    def warn(self, path: JSONPath, problem: str, fix: str, rule: str = SHAPE_RULE) -> None:
        self.warnings.append(SettingsWarning(self.file, problem, fix, path, rule))

    def origin(self, path: JSONPath) -> Origin:
        return Origin(self.source, self.file, path)

    def layer(self, document: JSValue) -> SettingsLayer:
        if not isinstance(document, dict):
            raise self.issue(
                (),
                f"the settings file holds {describe_value(document)}, not an object",
                'write an object such as {"hooks": {"PreToolUse": [...]}}',
            )
        disable = self.flag(document, "disableAllHooks")
        managed_only = self.flag(document, "allowManagedHooksOnly")
        if managed_only is not None and self.source is not SettingsSource.MANAGED:
            self.warn(
                ("allowManagedHooksOnly",),
                "allowManagedHooksOnly has an effect only in managed settings, so it is ignored",
                "move it to the managed-settings.json file",
                MANAGED_ONLY_RULE,
            )
            managed_only = None
        hooks = document.get("hooks", UNDEFINED)
        groups: list[MatcherGroup] = []
        if hooks is not UNDEFINED:
            if not isinstance(hooks, dict):
                raise self.issue(
                    ("hooks",),
                    f"hooks is {describe_value(hooks)}, not an object of event names",
                    'write "hooks": {"EventName": [{"matcher": "...", "hooks": [...]}]}',
                )
            for event, entries in hooks.items():
                before = len(self.warnings)
                groups.extend(self.event_groups(event, entries))
                self.guard_dropped(event, before)
        rules, mode = self.permissions(document)
        env = self.env(document)
        if self.void is not None:
            groups, rules, mode = self.voided(rules, mode)
            env = env if self.source is SettingsSource.MANAGED else ()
        return SettingsLayer(
            self.source,
            self.file,
            tuple(groups),
            disable,
            managed_only,
            tuple(self.warnings),
            rules,
            mode,
            document,
            env,
        )

    def env(self, document: Mapping[str, JSValue]) -> tuple[tuple[str, str], ...]:
        """The ``env`` object's string variables; anything else is dropped with a warning."""
        value = document.get("env", UNDEFINED)
        if value is UNDEFINED:
            return ()
        if not isinstance(value, dict):
            self.warn(
                ("env",),
                f"env is {describe_value(value)}, not an object; it is ignored",
                'write "env": {"NAME": "value"}',
            )
            return ()
        kept = []
        for name, text in value.items():
            if isinstance(text, str):
                kept.append((name, text))
            else:
                self.warn(
                    ("env", name),
                    f"env.{name} is {describe_value(text)}, not a string; it is ignored",
                    f'write "{name}": "..."',
                )
        return tuple(kept)

    def voided(
        self, rules: tuple[PermissionEntry, ...], mode: str | None
    ) -> tuple[list[MatcherGroup], tuple[PermissionEntry, ...], str | None]:
        """What is left of a file a malformed guard entry voids, with the warning saying so."""
        assert self.void is not None
        managed = self.source is SettingsSource.MANAGED
        effect = (
            "none of this managed file's hooks run (its other settings still apply)"
            if managed
            else "nothing in this file is applied: no hooks, no permission rules, no mode"
        )
        self.warn(
            self.void.path,
            f"a malformed {self.void.path[1] if len(self.void.path) > 1 else 'guard'} entry "
            f"may be what guards the permissions beside it, so {effect}",
            "fix or remove the entry (Claude Code 2.1.332 voids the file for it)",
        )
        return [], (rules if managed else ()), (mode if managed else None)

    def permissions(
        self, document: Mapping[str, JSValue]
    ) -> tuple[tuple[PermissionEntry, ...], str | None]:
        """The ``permissions`` rules and defaultMode; a malformed rule is dropped, warned."""
        if "permissions" not in document:
            return (), None
        value = document["permissions"]
        if not isinstance(value, dict):
            self.warn(
                ("permissions",),
                f"permissions is {describe_value(value)}, not an object; it is ignored",
                'write "permissions": {"deny": ["Bash(git push *)"]}',
            )
            return (), None
        entries: list[PermissionEntry] = []
        for behaviour in PERMISSION_BEHAVIOURS:
            if behaviour not in value:
                continue
            rules = value[behaviour]
            path: JSONPath = ("permissions", behaviour)
            if not isinstance(rules, list):
                self.warn(
                    path,
                    f"{behaviour} is {describe_value(rules)}, not a list",
                    f'write "{behaviour}": [...]',
                )
                continue
            for index, text in enumerate(rules):
                entry = self.permission_entry(behaviour, text, (*path, index))
                if entry is not None:
                    entries.append(entry)
        if "defaultMode" not in value:
            return tuple(entries), None
        mode = value["defaultMode"]
        if isinstance(mode, str):
            mode = DEFAULT_MODE_ALIASES.get(mode, mode)
        if mode not in PERMISSION_MODES:
            self.warn(
                ("permissions", "defaultMode"),
                f"defaultMode is {describe_value(mode)}, not a permission mode; it is ignored",
                "use one of " + ", ".join((*PERMISSION_MODES, *DEFAULT_MODE_ALIASES)),
            )
            return tuple(entries), None
        assert isinstance(mode, str)
        return tuple(entries), mode

    def permission_entry(
        self, behaviour: str, text: JSValue, path: JSONPath
    ) -> PermissionEntry | None:
        if not isinstance(text, str):
            self.warn(
                path,
                f"a permission rule is {describe_value(text)}, not a string; it is ignored",
                'write a rule such as "Bash(npm test)"',
            )
            return None
        try:
            rule = parse_rule(text)
        except RuleSyntaxError as error:
            self.warn(path, f"{error}; the rule is ignored", "write Tool or Tool(specifier)")
            return None
        return PermissionEntry(behaviour, rule, self.origin(path))

    def flag(self, document: Mapping[str, JSValue], key: str) -> bool | None:
        value = document.get(key, UNDEFINED)
        if value is UNDEFINED:
            return None
        if isinstance(value, bool):
            return value
        raise self.issue(
            (key,), f"{key} is {describe_value(value)}, not true or false", f'write "{key}": true'
        )

    def event_groups(self, event: str, entries: JSValue) -> Iterator[MatcherGroup]:
        path: JSONPath = ("hooks", event)
        if event not in self.known_events:
            close = difflib.get_close_matches(event, list(self.known_events), n=1)
            hint = f"did you mean {close[0]}?" if close else "see `hookcourse events`"
            self.warn(
                path,
                f"{quote(event)} is not a hook event, so its hooks never run",
                hint,
                "unknown-event",
            )
            return
        if not isinstance(entries, list):
            self.warn(
                path,
                f"{event} holds {describe_value(entries)}, "
                "not a list of matcher groups; it is ignored",
                f'write "{event}": [{{"matcher": "...", "hooks": [...]}}]',
            )
            return
        for index, entry in enumerate(entries):
            group = self.group(event, entry, (*path, index))
            if group is not None:
                yield group

    def group(self, event: str, entry: JSValue, path: JSONPath) -> MatcherGroup | None:
        if not isinstance(entry, dict):
            self.warn(
                path,
                f"a matcher group is {describe_value(entry)}, not an object; it is ignored",
                'write {"matcher": "...", "hooks": [{"type": "command", "command": "..."}]}',
            )
            return None
        matcher = entry.get("matcher", UNDEFINED)
        if matcher is not UNDEFINED and not isinstance(matcher, str):
            self.warn(
                (*path, "matcher"),
                f"the matcher is {describe_value(matcher)}, not a string; the group is ignored",
                'write a string such as "Bash" or "Edit|Write", or leave it out to match all',
            )
            return None
        handlers = entry.get("hooks", UNDEFINED)
        if not isinstance(handlers, list):
            self.warn(
                (*path, "hooks"),
                f"the group's hooks is {describe_value(handlers)}, not a list of handlers; "
                "the group is ignored",
                'write "hooks": [{"type": "command", "command": "..."}]',
            )
            return None
        parsed = [self.handler(item, (*path, "hooks", i)) for i, item in enumerate(handlers)]
        kept = tuple(handler for handler in parsed if handler is not None)
        return MatcherGroup(
            event, matcher if isinstance(matcher, str) else None, kept, self.origin(path)
        )

    def handler(self, item: JSValue, path: JSONPath) -> Handler | None:
        try:
            return self.checked_handler(item, path)
        except InputError as dropped:
            self.warnings.append(dropped)
            return None

    def checked_handler(self, item: JSValue, path: JSONPath) -> Handler:
        if not isinstance(item, dict):
            raise self.issue(
                path,
                f"a hook handler is {describe_value(item)}, not an object; it is ignored",
                'write {"type": "command", "command": "..."}',
            )
        kind = item.get("type", UNDEFINED)
        if kind not in HANDLER_TYPES:
            shown = quote(kind) if isinstance(kind, str) else describe_value(kind)
            raise self.issue(
                (*path, "type"),
                f"the handler type is {shown}; the handler is ignored",
                "set type to one of " + ", ".join(HANDLER_TYPES),
            )
        assert isinstance(kind, str)
        fields = _Fields(self, item, path)
        common: _Common = {
            "origin": self.origin(path),
            "timeout_s": fields.timeout(),
            "if_rule": fields.if_rule(),
            "status_message": fields.text("statusMessage"),
        }
        if kind == "command":
            return CommandHandler(
                command=fields.required("command"),
                args=fields.strings("args"),
                shell=fields.choice("shell", ("bash", "powershell")),
                background=bool(fields.boolean("async") or fields.boolean("asyncRewake")),
                on_failure=fields.choice("onFailure", ON_FAILURE) or "continue",
                **common,
            )
        if kind == "http":
            return HttpHandler(
                url=fields.url(),
                headers=fields.headers(),
                allowed_env_vars=fields.strings("allowedEnvVars") or (),
                on_failure=fields.choice("onFailure", ON_FAILURE) or "continue",
                **common,
            )
        if kind == "mcp_tool":
            given = item.get("input", UNDEFINED)
            # For mcp_tool, any onFailure other than "continue" reads as "block".
            on_failure = item.get("onFailure", "continue")
            return McpToolHandler(
                server=fields.required("server"),
                tool=fields.required("tool"),
                tool_input=None if given is UNDEFINED else jsjson.stringify(given),
                on_failure="continue" if on_failure == "continue" else "block",
                **common,
            )
        return EvaluatorHandler(
            type="agent" if kind == "agent" else "prompt",
            prompt=fields.required("prompt"),
            model=fields.text("model"),
            prompt_continues=bool(kind == "prompt" and fields.boolean("continueOnBlock")),
            **common,
        )


class _Common(TypedDict):
    """The fields every handler kind reads the same way."""

    origin: Origin
    timeout_s: float | None
    if_rule: PermissionRule | None
    status_message: str | None


class _Fields:
    """Typed access to one handler object's fields; a wrong field drops the handler."""

    def __init__(self, reader: _Reader, item: Mapping[str, JSValue], path: JSONPath) -> None:
        self.reader = reader
        self.item = item
        self.path = path

    def wrong(self, key: str, problem: str, fix: str) -> InputError:
        return self.reader.issue((*self.path, key), f"{problem}; the handler is ignored", fix)

    def text(self, key: str, *, required: bool = False) -> str | None:
        value = self.item.get(key, UNDEFINED)
        if value is UNDEFINED and not required:
            return None
        if not isinstance(value, str) or (required and value.strip() == ""):
            problem = f"{key} is {describe_value(value)}, not a non-empty string"
            raise self.wrong(key, problem, f"set {key}")
        return value

    def required(self, key: str) -> str:
        text = self.text(key, required=True)
        assert text is not None
        return text

    def boolean(self, key: str) -> bool | None:
        value = self.item.get(key, UNDEFINED)
        if value is UNDEFINED:
            return None
        if isinstance(value, bool):
            return value
        problem = f"{key} is {describe_value(value)}, not true or false"
        raise self.wrong(key, problem, f'write "{key}": true')

    def strings(self, key: str) -> tuple[str, ...] | None:
        value = self.item.get(key, UNDEFINED)
        if value is UNDEFINED:
            return None
        if not isinstance(value, list) or not all(isinstance(word, str) for word in value):
            raise self.wrong(
                key,
                f"{key} is {describe_value(value)}, not a list of strings",
                f'write "{key}": ["..."]',
            )
        return tuple(word for word in value if isinstance(word, str))

    def choice(self, key: str, allowed: Sequence[str]) -> str | None:
        value = self.text(key)
        if value is not None and value not in allowed:
            raise self.wrong(
                key, f"{key} is {quote(value)}", f"use one of {', '.join(allowed)} or leave it out"
            )
        return value

    def timeout(self) -> float | None:
        value = self.item.get("timeout", UNDEFINED)
        if value is UNDEFINED:
            return None
        seconds = value if is_js_number(value) else None
        if not isinstance(seconds, int | float) or not math.isfinite(seconds) or seconds <= 0:
            raise self.wrong(
                "timeout",
                f"timeout is {jsjson.stringify(value)}, not a positive number of seconds",
                'write seconds, such as "timeout": 30 (not milliseconds)',
            )
        return float(seconds)

    def if_rule(self) -> PermissionRule | None:
        text = self.text("if")
        if text is None:
            return None
        try:
            return parse_rule(text)
        except RuleSyntaxError as error:
            fix = 'use permission-rule syntax such as "Bash(git *)"'
            raise self.wrong("if", str(error), fix) from None

    def url(self) -> str:
        url = self.required("url")
        if not url.startswith(("http://", "https://")):
            raise self.wrong("url", f"url {quote(url)} is not http(s)", "write an http:// URL")
        return url

    def headers(self) -> tuple[tuple[str, str], ...]:
        value = self.item.get("headers", UNDEFINED)
        if value is UNDEFINED:
            return ()
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            raise self.wrong(
                "headers",
                f"headers is {describe_value(value)}, not an object of strings",
                'write "headers": {"Authorization": "Bearer $TOKEN"}',
            )
        return tuple((name, text) for name, text in value.items() if isinstance(text, str))


def parse_settings(
    text: str,
    source: SettingsSource,
    file: str,
    known_events: Collection[str],
    guard_events: Collection[str] = (),
) -> SettingsLayer:
    """Read one settings document; raises InputError when the file as a whole is unusable."""
    try:
        document = jsjson.parse(text)
    except jsjson.JSONSyntaxError as error:
        raise InputError(file, f"not valid JSON ({error})", json_syntax_fix(text)) from None
    return settings_layer(document, source, file, known_events, guard_events)


def settings_layer(
    document: JSValue,
    source: SettingsSource,
    file: str,
    known_events: Collection[str],
    guard_events: Collection[str] = (),
) -> SettingsLayer:
    """One parsed settings document as a layer; raises InputError when its top level is wrong.

    ``guard_events``: events under which a malformed entry voids the file.
    """
    return _Reader(source, file, known_events, guard_events).layer(document)


# --- merging (pure) --------------------------------------------------------------------------


def merge_layers(layers: Sequence[SettingsLayer]) -> Settings:
    """All groups from all layers, minus those disableAllHooks / allowManagedHooksOnly remove."""
    by_precedence = sorted(layers, key=lambda layer: PRECEDENCE.index(layer.source))
    deciding = next((ly for ly in by_precedence if ly.disable_all_hooks is not None), None)
    managed = [ly for ly in layers if ly.source is SettingsSource.MANAGED]
    managed_off = any(ly.disable_all_hooks for ly in managed)
    managed_only = any(ly.allow_managed_hooks_only for ly in managed)
    others_off = deciding is not None and bool(deciding.disable_all_hooks)
    notes: list[str] = []
    if others_off and deciding is not None:
        notes.append(
            f"disableAllHooks is true in {deciding.source} settings {deciding.file} "
            "(the highest-precedence file that sets it): "
            + ("no hook runs" if managed_off else "only managed hooks run")
        )
    elif deciding is not None and any(ly.disable_all_hooks for ly in layers):
        notes.append(
            f"disableAllHooks is false in {deciding.source} settings {deciding.file}, "
            "which outranks the files that set it to true"
        )
    if managed_only and not others_off:
        notes.append("allowManagedHooksOnly is true in managed settings: only managed hooks run")
    groups: list[MatcherGroup] = []
    for layer in layers:
        is_managed = layer.source is SettingsSource.MANAGED
        if is_managed and managed_off:
            continue
        if not is_managed and (others_off or managed_only):
            continue
        groups.extend(layer.groups)
    warnings = tuple(warning for layer in layers for warning in layer.warnings)
    permissions = tuple(entry for layer in layers for entry in layer.permissions)
    mode = next((ly.default_mode for ly in by_precedence if ly.default_mode is not None), None)
    env = {name: text for layer in reversed(by_precedence) for name, text in layer.env}
    return Settings(
        tuple(layers),
        tuple(groups),
        tuple(notes),
        warnings,
        permissions,
        mode,
        env=tuple(env.items()),
    )


# --- finding and reading the files (I/O) -----------------------------------------------------


@dataclass(frozen=True)
class SettingsPlaces:
    """Which settings files to read.

    ``extra`` holds ``--settings`` values, each a file path or an inline JSON object;
    ``sources`` limits which of user, project and local are read (``--setting-sources``).
    """

    project_dir: Path
    home: Path | None
    extra: tuple[str, ...] = ()
    managed: Path | None = None
    sources: frozenset[SettingsSource] = STANDARD_SOURCES
    skills: tuple[str, ...] = ()
    """Skills launched earlier in the session: their frontmatter hooks run too."""


def load_settings(
    places: SettingsPlaces, known_events: Collection[str], guard_events: Collection[str] = ()
) -> Settings:
    """Read every settings file that applies and merge them; raises InputError.

    A user, project or local file that is not JSON is skipped with a warning, as
    Claude Code 2.1.332 skips it; a ``--settings`` or managed one is an error.
    """
    layers: list[SettingsLayer] = []
    skipped: list[InputError] = []
    standard = [
        (SettingsSource.USER, places.home / ".claude" / "settings.json" if places.home else None),
        (SettingsSource.PROJECT, places.project_dir / ".claude" / "settings.json"),
        (SettingsSource.LOCAL, places.project_dir / ".claude" / "settings.local.json"),
    ]
    for source, path in standard:
        if (
            path is not None
            and source in places.sources
            and is_present(str(path), f"the {source} settings file")
        ):
            text = read_bounded(str(path), what=f"the {source} settings file").text
            try:
                document = jsjson.parse(text)
            except jsjson.JSONSyntaxError as error:
                skipped.append(
                    SettingsWarning(
                        str(path),
                        f"not valid JSON ({error}); Claude Code skips this file and reads the "
                        "others",
                        json_syntax_fix(text),
                        (),
                    )
                )
                continue
            try:
                layers.append(
                    settings_layer(document, source, str(path), known_events, guard_events)
                )
            except InputError as wrong:
                # Claude Code 2.1.332 skips a file whose top level has the wrong shape too.
                skipped.append(
                    SettingsWarning(
                        wrong.where,
                        f"{wrong.problem}; Claude Code skips this file and reads the others",
                        wrong.fix,
                        wrong.path,
                    )
                )
    for value in places.extra:
        if value.lstrip().startswith("{"):
            layers.append(
                parse_settings(
                    value,
                    SettingsSource.FLAG,
                    "--settings (inline JSON)",
                    known_events,
                    guard_events,
                )
            )
        else:
            layers.append(_read_file(Path(value), SettingsSource.FLAG, known_events, guard_events))
    if places.managed is not None:
        layers.append(
            _read_file(places.managed, SettingsSource.MANAGED, known_events, guard_events)
        )
    layers.extend(_skill_layers(places, known_events, guard_events))
    merged = merge_layers(layers)
    return replace(merged, warnings=(*skipped, *merged.warnings), skipped=tuple(skipped))


def _skill_layers(
    places: SettingsPlaces, known_events: Collection[str], guard_events: Collection[str]
) -> list[SettingsLayer]:
    """One layer per launched skill that declares hooks (a skill not found adds none)."""
    home = str(places.home) if places.home else os.path.expanduser("~")
    place = CallPlace(str(places.project_dir), str(places.project_dir), home)
    layers = []
    for name in dict.fromkeys(places.skills):
        skill = find_skill(place, name)
        if skill is None or skill.hooks is None:
            continue
        document: JSValue = {"hooks": skill.hooks}
        try:
            layers.append(
                settings_layer(
                    document, SettingsSource.SKILL, skill.path, known_events, guard_events
                )
            )
        except InputError:
            continue  # hooks that are not an object: the skill registers none
    return layers


def _read_file(
    path: Path,
    source: SettingsSource,
    known_events: Collection[str],
    guard_events: Collection[str],
) -> SettingsLayer:
    text = read_bounded(str(path), what=f"the {source} settings file").text
    return parse_settings(text, source, str(path), known_events, guard_events)


def folder_trusted(home: Path | None, project_dir: Path, trust_file: str) -> bool:
    """Whether ``~/.claude.json`` records the trust dialog accepted for the folder or a parent.

    ``projects[<dir>].hasTrustDialogAccepted``; an absent, unreadable or malformed file
    means not trusted, as for a folder Claude Code has never been opened in.
    """
    if home is None:
        return False
    path = home / trust_file
    try:
        if not path.is_file():
            return False
        document = jsjson.parse(read_bounded(str(path), what="the trust file").text)
    except (InputError, jsjson.JSONSyntaxError, OSError):
        return False
    projects = document.get("projects") if isinstance(document, dict) else None
    if not isinstance(projects, dict):
        return False
    folder = project_dir.resolve()
    for candidate in (folder, *folder.parents):
        entry = projects.get(str(candidate))
        if isinstance(entry, dict) and entry.get("hasTrustDialogAccepted") is True:
            return True
    return False
