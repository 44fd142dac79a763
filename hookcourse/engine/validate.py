"""``hookcourse validate``: lint hook settings without running anything.

Each finding names the file, the JSON path, a severity, a rule id, what happens in Claude
Code and how to fix it. The rules are one registry (``lint.RULES``), each resting on a line
of the reference. ``fire`` runs the same rules and shows the findings as warnings.
This module is the file edge: it reads the files, works out where each sits (project,
plugin root, managed or not) and returns a ``Report``; the CLI prints it.
"""

from __future__ import annotations

import os
import re
import stat
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePath
from typing import Final

from hookcourse.errors import InputError, json_path, json_syntax_fix
from hookcourse.js import json as jsjson
from hookcourse.js.values import JSValue
from hookcourse.system.inputs import read_bounded

from .catalogue import load_catalogue
from .frontmatter import FrontmatterError, frontmatter
from .lint import (
    RULES,
    FileFacts,
    FileKind,
    FilePlace,
    Finding,
    Rule,
    Severity,
    kind_of,
    lint_file_problem,
    lint_layers,
    lint_unusable_document,
)
from .lint.json_lines import json_path_lines
from .lint.registry import table
from .settings import SettingsLayer, SettingsSource, settings_layer

__all__ = [
    "RULES",
    "Finding",
    "Report",
    "Severity",
    "ValidateOptions",
    "default_files",
    "fire_findings",
    "lint_layers",
    "validate_files",
]


SETTINGS_CAP_BYTES: Final = 4 * 1_048_576
"""The largest file validate reads: real settings files are kilobytes, and past this the
rules would take minutes (a bound, not a Claude Code limit)."""


@dataclass(frozen=True)
class ValidateOptions:
    """Where the files' scripts live, whether the files are managed, which rules run."""

    project_dir: Path | None = None
    """Default: the project each settings file belongs to (the folder holding .claude)."""
    plugin_root: Path | None = None
    """Default: for a plugin's hooks/hooks.json, the folder holding hooks/."""
    managed: bool = False
    rules: Mapping[str, Rule] | None = None


@dataclass(frozen=True)
class Report:
    """What one validate run found, and the text of each file read (for line numbers)."""

    files: tuple[str, ...]
    findings: tuple[Finding, ...]
    texts: Mapping[str, str] = field(default_factory=dict)

    def count(self, severity: Severity) -> int:
        return sum(1 for finding in self.findings if finding.severity is severity)

    def per_rule(self) -> list[tuple[str, int]]:
        """(rule id, findings) for every rule that found something, in registry order."""
        counts = Counter(finding.rule for finding in self.findings)
        return [(entry.id, counts[entry.id]) for entry in table() if counts[entry.id]]

    def highest(self) -> Severity | None:
        ranked = sorted((f.severity for f in self.findings), key=lambda s: s.rank)
        return ranked[-1] if ranked else None

    def line_of(self, finding: Finding) -> int | None:
        """The line the finding's JSON path starts on, when its file was read."""
        text = self.texts.get(finding.file)
        if text is None:
            return None
        return _lines(text).get(json_path(finding.path))


@lru_cache(maxsize=64)
def _lines(text: str) -> dict[str, int]:
    return json_path_lines(text)


def default_files(project_dir: Path) -> list[Path]:
    """The project's settings files that exist, a plugin's hooks/hooks.json, and the skills
    and agents of either whose frontmatter declares hooks."""
    candidates = [
        project_dir / ".claude" / "settings.json",
        project_dir / ".claude" / "settings.local.json",
        project_dir / "hooks" / "hooks.json",
    ]
    found = [path for path in candidates if path.is_file()]
    roots = [project_dir / ".claude"]
    if (project_dir / ".claude-plugin").is_dir() or (project_dir / "hooks").is_dir():
        roots.append(project_dir)
    for root in roots:
        for pattern in ("skills/*/SKILL.md", "agents/*.md"):
            found += sorted(path for path in root.glob(pattern) if _declares_hooks(path))
    return found


def _declares_hooks(path: Path) -> bool:
    try:
        return _HOOKS_KEY.search(read_bounded(str(path), SETTINGS_CAP_BYTES).text) is not None
    except InputError:
        return True  # validate then reports why it cannot be read


_HOOKS_KEY: Final = re.compile(r"^hooks\s*:", re.MULTILINE)


SCRIPT_TEXT_BYTES: Final = 65_536
"""How much of a hook's script the script rules read: its shebang, exits and prints."""


def probe_file(path: PurePath) -> FileFacts:
    """Whether a script exists (as a file), has an executable bit, and its first bytes."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return FileFacts(False, False)
    if not stat.S_ISREG(mode):
        # something is there (a folder, a FIFO): neither "missing" nor "chmod +x" is the cause
        return FileFacts(True, True)
    try:
        with open(path, "rb") as script:  # a regular file: no FIFO can hold the read
            head = script.read(SCRIPT_TEXT_BYTES)
    except OSError:
        head = None
    text = None if head is None else head.decode("utf-8", errors="replace")
    return FileFacts(True, bool(mode & 0o111), text)


def place_of(path: Path, options: ValidateOptions) -> FilePlace:
    """Where a settings file sits: its kind, project and plugin root."""
    source = SettingsSource.MANAGED if options.managed else SettingsSource.FLAG
    kind = kind_of(str(path), source)
    absolute = Path(os.path.abspath(path))
    project = options.project_dir
    plugin = options.plugin_root
    if project is None and absolute.parent.name == ".claude":
        project = absolute.parent.parent
    if plugin is None and kind is FileKind.PLUGIN and absolute.parent.name == "hooks":
        plugin = absolute.parent.parent
    if plugin is None and kind is FileKind.PLUGIN and absolute.parent.name == ".claude-plugin":
        plugin = absolute.parent.parent  # a manifest's inline "hooks"
    if kind.frontmatter:
        # .claude/skills/x/SKILL.md belongs to the project; <plugin>/skills/x/SKILL.md
        # (or agents/x.md) to the plugin holding skills/ or agents/
        folders = absolute.parents
        home = next((p for p in folders if p.name in ("skills", "agents", "commands")), None)
        if home is not None and home.parent.name == ".claude":
            if home.parent.parent != Path.home():  # ~/.claude/skills: the user's own
                project = project or home.parent.parent
        elif home is not None and plugin is None and options.project_dir is None:
            plugin = home.parent
    return FilePlace(kind, project, plugin, probe_file)


def _frontmatter_problem(name: str, error: FrontmatterError) -> tuple[str, InputError]:
    if error.unsupported:
        fix = f"check the hooks by hand, or write line {error.line} in plain YAML"
        return "frontmatter-not-checked", InputError(name, f"hooks not checked ({error})", fix)
    fix = f"fix line {error.line}: key: value lines, - items, spaces (no tabs), closing ---"
    return "frontmatter-syntax", InputError(name, f"the frontmatter cannot be read ({error})", fix)


def frontmatter_hooks(text: str) -> JSValue:
    """A skill's or agent's frontmatter ``hooks`` as a settings document (its other keys,
    name and description, are the skill's own)."""
    data = frontmatter(text)
    if isinstance(data, dict) and "hooks" in data:
        return {"hooks": data["hooks"]}
    return {}


def fire_findings(
    layers: Sequence[SettingsLayer], project_dir: Path, plugin_root: str | None
) -> list[Finding]:
    """What ``fire`` warns about: the same rules on the layers it read, the scripts looked
    for in its project and plugin root (notes about scripts out of reach left out)."""
    root = Path(plugin_root) if plugin_root else None
    places = {
        layer.file: FilePlace(kind_of(layer.file, layer.source), project_dir, root, probe_file)
        for layer in layers
    }
    rules = {name: entry for name, entry in RULES.items() if entry.severity is not Severity.INFO}
    return lint_layers(layers, places, rules)


def validate_files(files: Sequence[Path], options: ValidateOptions | None = None) -> Report:
    """Read and lint ``files``; a file that cannot be read or parsed is a finding too."""
    chosen = options or ValidateOptions()
    events = load_catalogue().keys()
    source = SettingsSource.MANAGED if chosen.managed else SettingsSource.FLAG
    layers: list[SettingsLayer] = []
    places: dict[str, FilePlace] = {}
    findings: list[Finding] = []
    texts: dict[str, str] = {}
    for path in files:
        name = str(path)
        try:
            what = "the file" if path.suffix == ".md" else "the settings file"
            text = read_bounded(name, SETTINGS_CAP_BYTES, what=what).text
        except InputError as error:
            findings.extend(lint_file_problem(name, "unreadable", error, chosen.rules))
            continue
        if path.suffix == ".md":
            try:
                document = frontmatter_hooks(text)
            except FrontmatterError as error:
                if _HOOKS_KEY.search(text) is None:
                    continue  # no hooks to judge, whatever else the frontmatter holds
                findings.extend(
                    lint_file_problem(name, *_frontmatter_problem(name, error), chosen.rules)
                )
                continue
        else:
            try:
                document = jsjson.parse(text)
            except jsjson.JSONSyntaxError as error:
                problem = InputError(name, f"not valid JSON ({error})", json_syntax_fix(text))
                findings.extend(lint_file_problem(name, "json-syntax", problem, chosen.rules))
                continue
            texts[name] = text
        place = place_of(path, chosen)
        places[name] = place
        try:
            layers.append(settings_layer(document, source, name, events))
        except InputError as error:
            findings.extend(lint_unusable_document(name, document, error, place, chosen.rules))
    findings.extend(lint_layers(layers, places, chosen.rules))
    return Report(tuple(str(path) for path in files), tuple(findings), texts)
