"""Which files Claude Code 2.1.332 reads for hooks on a machine, which look like hook files
but are never read, and the policy switches (``disableAllHooks``, ``allowManagedHooksOnly``)
wherever they are set, managed drop-ins and the remote policy cache included.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from hookcourse.engine.catalogue import load_catalogue
from hookcourse.engine.settings import (
    PRECEDENCE,
    SettingsLayer,
    SettingsSource,
    merge_layers,
    settings_layer,
)
from hookcourse.errors import InputError
from hookcourse.js import json as jsjson
from hookcourse.js.values import JSValue
from hookcourse.system.inputs import read_bounded

from .findings import Finding, Reach

MANAGED_DIR: Final = Path("/etc/claude-code")
"""Where Linux keeps managed settings (``managed-settings.json``, ``managed-settings.d/``)."""
FILE_CAP: Final = 4 * 1_048_576


@dataclass(frozen=True)
class Machine:
    """The folders a session would read: the project, the user's home, the managed folder,
    and the PATH its hooks get."""

    project_dir: Path
    home: Path
    managed_dir: Path = MANAGED_DIR
    hook_path: str = ""
    environment: frozenset[str] = frozenset()
    """Variables Claude Code's own environment holds, so its hooks inherit them."""


@dataclass(frozen=True)
class SettingsFile:
    """A settings file Claude Code reads, its scope, and its document (None: unreadable)."""

    path: Path
    scope: str
    managed: bool
    document: JSValue | None


def read_settings(machine: Machine) -> list[SettingsFile]:
    """Every settings file a session reads that exists, most precedence last."""
    home, project, managed = machine.home, machine.project_dir, machine.managed_dir
    places: list[tuple[Path, str, bool]] = [
        (home / ".claude" / "settings.json", "user", False),
        (project / ".claude" / "settings.json", "project", False),
        (project / ".claude" / "settings.local.json", "local", False),
        (home / ".claude" / "remote-settings.json", "remote policy cache", True),
        (managed / "managed-settings.json", "managed", True),
    ]
    drop_ins = managed / "managed-settings.d"
    if drop_ins.is_dir():
        places += [
            (path, "managed drop-in", True)
            for path in sorted(drop_ins.iterdir())
            if path.suffix == ".json" and not path.name.startswith(".")
        ]
    seen: set[Path] = set()
    found = []
    for path, scope, is_managed in places:
        if path.is_file() and path.resolve() not in seen:  # run in ~: one file, read once
            seen.add(path.resolve())
            found.append(SettingsFile(path, scope, is_managed, read_document(path)))
    return found


def read_document(path: Path) -> JSValue | None:
    """A JSON file's document; None when it is missing, too large or not JSON."""
    try:
        return jsjson.parse(read_bounded(str(path), FILE_CAP).text)
    except (InputError, jsjson.JSONSyntaxError):
        return None


def _looks_like_hooks(document: JSValue | None, events: frozenset[str]) -> bool:
    if not isinstance(document, dict):
        return False
    return "hooks" in document or any(key in events for key in document)


_NEVER_READ: Final = (
    (
        ".claude-plugin/hooks.json",
        "a plugin's hooks are read from hooks/hooks.json beside .claude-plugin/, never from a "
        "hooks.json inside it",
        "move it to hooks/hooks.json at the plugin's root",
    ),
    (
        ".claude/hooks/hooks.json",
        "Claude Code reads hooks from settings files (.claude/settings.json, "
        ".claude/settings.local.json, ~/.claude/settings.json) and from a plugin's "
        "hooks/hooks.json; a hooks.json under .claude/hooks/ is never read",
        'move its "hooks" object into .claude/settings.json',
    ),
    (
        ".claude/hooks.json",
        'hooks live in a settings file\'s "hooks" key; .claude/hooks.json is never read',
        'move its "hooks" object into .claude/settings.json',
    ),
    (
        ".claude/setting.json",
        "the file is named settings.json (plural); this name is never read",
        "rename it to .claude/settings.json",
    ),
    (
        "claude/settings.json",
        "the folder is .claude (with a dot); claude/ is never read",
        "move it to .claude/settings.json",
    ),
)


def never_read(machine: Machine, events: frozenset[str]) -> Iterator[Finding]:
    """Files that look like hook files where Claude Code never reads any."""
    for root, label in ((machine.project_dir, ""), (machine.home, "~/")):
        for relative, why, fix in _NEVER_READ:
            path = root / relative
            if path.is_file() and _looks_like_hooks(read_document(path), events):
                yield Finding(
                    "file-never-read",
                    Reach.STOPS_ALL,
                    f"{label}{relative} holds hooks that are never loaded",
                    str(path),
                    why,
                    fix,
                )
    config = machine.home / ".claude.json"
    if config.is_file() and _looks_like_hooks(read_document(config), events):
        yield Finding(
            "file-never-read",
            Reach.STOPS_ALL,
            "~/.claude.json holds hooks that are never loaded",
            f"{config}: $.hooks",
            "~/.claude.json is Claude Code's own state (trust, projects, MCP servers), not a "
            "settings file, so hooks there are never read",
            'move the "hooks" object into ~/.claude/settings.json',
        )
    plugin_hooks = machine.project_dir / "hooks" / "hooks.json"
    manifest = machine.project_dir / ".claude-plugin"
    if plugin_hooks.is_file() and not manifest.is_dir():
        yield Finding(
            "file-never-read",
            Reach.STOPS_ALL,
            "hooks/hooks.json is read only from an installed plugin",
            str(plugin_hooks),
            "this folder is no plugin (it has no .claude-plugin/plugin.json), so Claude Code "
            "reads no hooks/hooks.json here",
            'for this project, move its "hooks" object into .claude/settings.json',
        )


_SOURCES: Final = {
    "user": SettingsSource.USER,
    "project": SettingsSource.PROJECT,
    "local": SettingsSource.LOCAL,
}


def layers(files: list[SettingsFile]) -> list[SettingsLayer]:
    """The engine's layer of every readable file; a managed drop-in or the remote policy
    cache is a managed layer (validate reports a file the reader refuses)."""
    catalogue = load_catalogue()
    found: list[SettingsLayer] = []
    for file in files:
        if file.document is None:
            continue
        source = _SOURCES.get(file.scope, SettingsSource.MANAGED)
        try:
            found.append(settings_layer(file.document, source, str(file.path), catalogue))
        except InputError:
            continue
    return found


def policy(read: list[SettingsLayer]) -> Iterator[Finding]:
    """What ``disableAllHooks`` and ``allowManagedHooksOnly`` leave of the hooks, as the
    engine merges the layers, with the file that decided it."""
    merged = merge_layers(read)
    dropped = [ly for ly in read if ly.groups and not set(ly.groups) <= set(merged.groups)]
    if not dropped:
        return
    by_precedence = sorted(read, key=lambda layer: PRECEDENCE.index(layer.source))
    off = next((ly for ly in by_precedence if ly.disable_all_hooks is not None), None)
    only = next(
        (ly for ly in read if ly.source is SettingsSource.MANAGED and ly.allow_managed_hooks_only),
        None,
    )
    if off is not None and off.disable_all_hooks:
        decider, key = off, "disableAllHooks"
    elif only is not None:
        decider, key = only, "allowManagedHooksOnly"
    else:
        return
    lost = ", ".join(f"{ly.source} settings {ly.file}" for ly in dropped)
    managed = decider.source is SettingsSource.MANAGED
    yield Finding(
        "disable-all-hooks" if key == "disableAllHooks" else "managed-hooks-only",
        Reach.STOPS_ALL,
        f"{key} is true in {decider.source} settings, so these hooks never run: {lost}",
        f"{decider.file}: $.{key}",
        "; ".join(merged.notes),
        "ask whoever manages this machine's policy (managed settings, a drop-in in "
        "managed-settings.d/ or the remote policy cache); no user or project file can undo it"
        if managed
        else f"remove {key} from {decider.file}, or set it false in a file of higher precedence "
        "(local over project over user)",
    )


def hook_path(explicit: str | None) -> str:
    """The PATH hooks get: given, else this process's own."""
    return explicit if explicit is not None else os.environ.get("PATH", "")
