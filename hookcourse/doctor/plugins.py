"""The plugins Claude Code 2.1.332 would load hooks from: the ones recorded in
``~/.claude/plugins/installed_plugins.json`` for this project, each with its ``hooks/hooks.json``
and the extra hook files its manifest names, and whether ``enabledPlugins`` turns it on.

Facts from 2.1.332's own schema: the registry maps ``plugin@marketplace`` to install records
(``scope``: managed, user, project or local; ``projectPath`` for project and local;
``installPath``); in settings, "only true turns on a marketplace plugin", with precedence
user < project < local < policy. A manifest naming the standard hooks/hooks.json loads it once.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from hookcourse.engine.catalogue import load_catalogue
from hookcourse.engine.settings import SettingsLayer, SettingsSource, settings_layer
from hookcourse.errors import InputError
from hookcourse.js.values import JSValue

from .findings import Finding, Reach
from .places import Machine, SettingsFile, read_document

REGISTRY: Final = Path(".claude") / "plugins" / "installed_plugins.json"
"""Below the user's home."""
PLUGIN_CAP: Final = 64
"""Install records looked at: a registry is a handful; a huge one is not read further."""
_ENABLING_ORDER: Final = (
    "user",
    "project",
    "local",
    "remote policy cache",
    "managed",
    "managed drop-in",
)
"""Settings scopes, least precedence first, as ``enabledPlugins`` merges them."""


@dataclass(frozen=True)
class Plugin:
    """One installed plugin for this project: its id, folder, hook files and whether it is on
    (and the settings file that decided, if any)."""

    plugin_id: str
    root: Path
    hook_files: tuple[Path, ...]
    enabled: bool
    decided_by: str | None


def installed_plugins(machine: Machine, files: list[SettingsFile]) -> list[Plugin]:
    """The plugins installed for this project (user and managed scope, or project and local
    scope recorded for this project's folder), most recently listed last."""
    registry = read_document(machine.home / REGISTRY)
    records = registry.get("plugins") if isinstance(registry, dict) else None
    if not isinstance(records, dict):
        return []
    found: list[Plugin] = []
    for plugin_id, entries in list(records.items())[:PLUGIN_CAP]:
        listed = entries if isinstance(entries, list) else [entries]
        roots = (_install_path(record, machine.project_dir) for record in listed[:PLUGIN_CAP])
        root = next((found_root for found_root in roots if found_root), None)
        if root is None:
            continue
        enabled, decided_by = _enabled(plugin_id, files)
        found.append(Plugin(plugin_id, root, _hook_files(root), enabled, decided_by))
    return found


def _install_path(record: JSValue, project_dir: Path) -> Path | None:
    """An install record's folder, when the record applies to this project."""
    if not isinstance(record, dict):
        return None
    scope, where, folder = (record.get(key) for key in ("scope", "projectPath", "installPath"))
    if not isinstance(folder, str) or not folder:
        return None
    if scope in ("project", "local"):
        if not isinstance(where, str) or not _same_folder(Path(where), project_dir):
            return None
    elif scope not in ("user", "managed", None):
        return None
    path = Path(folder)
    return path if path.is_absolute() and path.is_dir() else None


def _same_folder(one: Path, other: Path) -> bool:
    try:
        return one.resolve() == other.resolve()
    except (OSError, RuntimeError):
        return False


def _enabled(plugin_id: str, files: list[SettingsFile]) -> tuple[bool, str | None]:
    """Whether ``enabledPlugins`` leaves the plugin on, and the file whose value decided."""
    value: JSValue = None
    decided_by = None
    for file in sorted(files, key=lambda f: _ENABLING_ORDER.index(f.scope)):
        plugins = file.document.get("enabledPlugins") if isinstance(file.document, dict) else None
        if isinstance(plugins, dict) and plugin_id in plugins:
            value, decided_by = plugins[plugin_id], str(file.path)
    return value is True, decided_by


def _hook_files(root: Path) -> tuple[Path, ...]:
    """hooks/hooks.json, then each other file inside the plugin its manifest's ``hooks``
    names (each file once)."""
    folder = _resolved(root)
    standard = root / "hooks" / "hooks.json"
    found = [standard] if standard.is_file() else []
    seen = {_resolved(standard)}
    manifest = read_document(root / ".claude-plugin" / "plugin.json")
    named = manifest.get("hooks") if isinstance(manifest, dict) else None
    names = [named] if isinstance(named, str) else named if isinstance(named, list) else []
    for name in names[:PLUGIN_CAP]:
        path = _resolved(root / name) if isinstance(name, str) else None
        if path is None or folder is None or path in seen or not path.is_relative_to(folder):
            continue
        if path.is_file():
            seen.add(path)
            found.append(path)
    return tuple(found)


def _resolved(path: Path) -> Path | None:
    """The path with links followed; None for a loop of links or a name too long."""
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):
        return None


def plugin_root_of(file: str) -> Path | None:
    """The plugin folder a hook file belongs to (the folder holding .claude-plugin/)."""
    for folder in Path(file).parents:
        if (folder / ".claude-plugin").is_dir():
            return folder
    return None


def disabled(plugins: list[Plugin]) -> Iterator[Finding]:
    """Installed plugins with hooks that ``enabledPlugins`` leaves off."""
    for plugin in plugins:
        if plugin.enabled or not plugin.hook_files:
            continue
        where = plugin.decided_by or str(plugin.hook_files[0])
        yield Finding(
            "plugin-not-enabled",
            Reach.STOPS_ALL,
            f"the plugin {plugin.plugin_id} is installed but not enabled, so its hooks never run",
            f"{where}: $.enabledPlugins" if plugin.decided_by else where,
            "Claude Code turns a marketplace plugin on only where enabledPlugins holds true for "
            "its id, the highest-precedence settings file deciding (user < project < local < "
            "managed)"
            + (
                f"; here {plugin.decided_by} sets it to something other than true"
                if plugin.decided_by
                else "; no settings file names it"
            ),
            f'set "enabledPlugins": {{"{plugin.plugin_id}": true}} in ~/.claude/settings.json '
            "(or in .claude/settings.local.json when project settings turn it off)",
        )


def plugin_layers(plugins: list[Plugin]) -> list[SettingsLayer]:
    """The hooks of every enabled plugin, one layer a hook file (validate reports a file the
    reader refuses). Their source is the user's: no policy treats them as managed."""
    catalogue = load_catalogue()
    found: list[SettingsLayer] = []
    for plugin in plugins:
        if not plugin.enabled:
            continue
        for path in plugin.hook_files:
            document = read_document(path)
            if document is None:
                continue
            try:
                found.append(settings_layer(document, SettingsSource.USER, str(path), catalogue))
            except InputError:
                continue
    return found
