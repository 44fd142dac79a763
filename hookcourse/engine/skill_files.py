"""Skill files on disk: a skill's ``SKILL.md``, its frontmatter, hooks and inline commands.

2.1.332's print mode launches a skill without hooks with no rule, and asks (so refuses)
for one whose frontmatter has ``hooks`` unless an allow rule ``Skill(name)`` covers it.
A launched skill's frontmatter hooks are registered for the rest of the session, and each
`` !`command` `` in its body fires PreSkillShellCommand before it runs. Skills live in
``<root>/<name>/SKILL.md`` under the project and the home directory (the catalogue's
``permissions.skill_roots``). I/O at the edge; an unreadable file is no skill.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from hookcourse.js.values import JSValue

from .catalogue import permission_facts
from .frontmatter import split_frontmatter
from .permission_rule import CallPlace

MARKDOWN_CAP: Final = 1 << 20
"""Bytes of a skill, command or rules file read: frontmatter and body are far shorter."""
_INLINE_COMMAND: Final = re.compile(r"(?<![^\s(])!`([^`\n]+)`")
"""`` !`command` `` at the start of a line or after a space (2.1.332 skill preambles)."""


@dataclass(frozen=True)
class SkillFile:
    """One skill as its ``SKILL.md`` says."""

    name: str
    path: str
    source: str
    """``projectSettings`` or ``userSettings``: where Claude Code found it."""
    frontmatter: dict[str, JSValue]
    body: str

    @property
    def hooks(self) -> JSValue:
        """The frontmatter's ``hooks`` (a settings-shaped ``{event: [groups]}``), or None."""
        return self.frontmatter.get("hooks")

    def inline_commands(self) -> tuple[str, ...]:
        """The body's `` !`command` `` commands, in order."""
        return tuple(m.group(1).strip() for m in _INLINE_COMMAND.finditer(self.body))


def read_markdown(path: Path) -> str | None:
    """The first MARKDOWN_CAP bytes of ``path`` as text (None when it cannot be read)."""
    try:
        with path.open("rb") as handle:
            return handle.read(MARKDOWN_CAP).decode("utf-8", errors="replace")
    except OSError:
        return None


def find_skill(place: CallPlace, name: str) -> SkillFile | None:
    """The first ``SKILL.md`` called ``name`` (project, then home), or None."""
    if not name or "/" in name or name in (".", ".."):
        return None
    for base, source in ((place.project_dir, "projectSettings"), (place.home, "userSettings")):
        for root in permission_facts().skill_roots:
            path = Path(base, root, name, "SKILL.md")
            text = read_markdown(path)
            if text is None:
                continue
            frontmatter, body = split_frontmatter(text)
            return SkillFile(name, str(path), source, frontmatter, body)
    return None


def skill_has_hooks(place: CallPlace, name: str) -> bool:
    """The first ``SKILL.md`` called ``name`` (project, then home) declares ``hooks``."""
    skill = find_skill(place, name)
    return skill is not None and "hooks" in skill.frontmatter
