"""What each rule is handed: a file, a document, a matcher group, a handler, or all layers,
with the place the file sits in (which project, which plugin, which kind of file)."""

from __future__ import annotations

import shlex
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import PurePath

from hookcourse.errors import InputError
from hookcourse.js.values import JSValue

from ..catalogue import EventSpec
from ..settings import CommandHandler, Handler, MatcherGroup, SettingsLayer, SettingsSource
from .registry import Hit, JSONPath


class FileKind(StrEnum):
    """Who reads the file, which decides what is shared and what a path is relative to."""

    PROJECT = "project settings"
    LOCAL = "local settings"
    USER = "user settings"
    MANAGED = "managed settings"
    PLUGIN = "plugin hooks"
    SKILL = "skill frontmatter"
    AGENT = "agent frontmatter"

    @property
    def frontmatter(self) -> bool:
        return self in (FileKind.SKILL, FileKind.AGENT)


@dataclass(frozen=True)
class FileFacts:
    """What the file system says about a script a hook runs."""

    exists: bool
    executable: bool
    text: str | None = None
    """The script's first ``SCRIPT_TEXT_BYTES`` bytes as text (bytes that are not UTF-8
    replaced), for the rules on what a script says; None when not read."""


@dataclass(frozen=True)
class FilePlace:
    """Where one settings file sits: its kind, its project, its plugin root, and how to look
    at the files a hook calls (None: checks that need files are not made)."""

    kind: FileKind
    project_dir: PurePath | None = None
    plugin_root: PurePath | None = None
    probe: Callable[[PurePath], FileFacts] | None = None


def kind_of(file: str, source: SettingsSource) -> FileKind:
    """The kind of a settings file, from its source and then its name."""
    if source is SettingsSource.MANAGED:
        return FileKind.MANAGED
    path = PurePath(file)
    if path.suffix == ".md":
        return FileKind.AGENT if "agents" in path.parts[:-1] else FileKind.SKILL
    if source is SettingsSource.USER:
        return FileKind.USER
    if source is SettingsSource.PROJECT:
        return FileKind.PROJECT
    if source is SettingsSource.LOCAL or path.name == "settings.local.json":
        return FileKind.LOCAL
    if path.name == "managed-settings.json":
        return FileKind.MANAGED
    if path.parent.name == ".claude" and path.name == "settings.json":
        return FileKind.PROJECT
    if path.name == "hooks.json" or (
        path.name == "plugin.json" and path.parent.name == ".claude-plugin"
    ):
        return FileKind.PLUGIN
    return FileKind.USER


@dataclass(frozen=True)
class FileSite:
    """A file as read: the problem that made it unusable, if any, under its rule id."""

    file: str
    rule: str | None
    problem: InputError | None


@dataclass(frozen=True)
class DocumentSite:
    """One parsed settings document; ``layer`` is None when the reader refused it
    (``fatal`` says why)."""

    file: str
    document: JSValue
    layer: SettingsLayer | None
    fatal: InputError | None
    place: FilePlace
    events: Mapping[str, EventSpec]


@dataclass(frozen=True)
class GroupSite:
    """One matcher group the reader kept, and the object as written."""

    file: str
    group: MatcherGroup
    spec: EventSpec
    raw: Mapping[str, JSValue]
    place: FilePlace

    def hit(self, key: str, message: str, fix: str) -> Hit:
        """A finding at the group's ``key`` (such as its matcher)."""
        return Hit((*self.group.origin.path, key), message, fix)


@dataclass(frozen=True)
class HandlerSite:
    """One handler the reader kept, its group, and the object as written."""

    file: str
    handler: Handler
    group: MatcherGroup
    spec: EventSpec
    raw: Mapping[str, JSValue]
    place: FilePlace
    document: JSValue

    def hit(self, key: str, message: str, fix: str) -> Hit:
        """A finding at the handler's ``key`` (such as its command)."""
        return Hit((*self.handler.origin.path, key), message, fix)

    @property
    def shell_command(self) -> str | None:
        """The shell-form command text, or None (exec form, PowerShell, not a command hook)."""
        handler = self.handler
        if not isinstance(handler, CommandHandler) or handler.shell == "powershell":
            return None
        return handler.command if handler.args is None else None

    @property
    def command_line(self) -> str | None:
        """The command as one shell line, exec form joined with its words quoted."""
        handler = self.handler
        if not isinstance(handler, CommandHandler) or handler.shell == "powershell":
            return None
        if handler.args is None:
            return handler.command
        if any(ch.isspace() for ch in handler.command):
            return None  # exec form names one program; a command line there is not ours to read
        return shlex.join([handler.command, *handler.args])


@dataclass(frozen=True)
class LayersSite:
    """Every file checked in one run, with their places."""

    layers: Sequence[SettingsLayer]
    places: Mapping[str, FilePlace]


def handlers_in(groups: Iterable[MatcherGroup]) -> Iterator[tuple[MatcherGroup, Handler]]:
    """Every handler the reader kept, with its group, in file order."""
    for group in groups:
        for handler in group.handlers:
            yield group, handler


@dataclass(frozen=True)
class Entry:
    """A matcher group (``handler`` None) or one of its handlers, and the object as written."""

    group: MatcherGroup
    handler: Handler | None
    raw: Mapping[str, JSValue]


def entries_in(groups: Iterable[MatcherGroup], document: JSValue) -> Iterator[Entry]:
    """Each group the reader kept, then each of its handlers, in file order."""
    for group in groups:
        yield Entry(group, None, object_at(document, group.origin.path))
        for handler in group.handlers:
            yield Entry(group, handler, object_at(document, handler.origin.path))


def value_at(document: JSValue, path: JSONPath) -> JSValue:
    """The value at ``path`` in a parsed document, or None when it is not there."""
    value = document
    for step in path:
        if isinstance(value, list) and isinstance(step, int) and 0 <= step < len(value):
            value = value[step]
            continue
        if isinstance(value, dict) and isinstance(step, str) and step in value:
            value = value[step]
            continue
        return None
    return value


def object_at(document: JSValue, path: JSONPath) -> Mapping[str, JSValue]:
    value = value_at(document, path)
    return value if isinstance(value, dict) else {}
