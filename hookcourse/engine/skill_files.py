"""Skill files on disk: does a skill's ``SKILL.md`` frontmatter declare hooks?

2.1.332's print mode launches a skill without hooks with no rule, and asks (so refuses)
for one whose frontmatter has ``hooks`` unless an allow rule ``Skill(name)`` covers it.
Skills live in ``<root>/<name>/SKILL.md`` under the project and the home directory (the
catalogue's ``permissions.skill_roots``). I/O at the edge; unreadable files count as
having no hooks.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

from .catalogue import permission_facts
from .permission_rule import CallPlace

_HOOKS_KEY: Final = re.compile(r"hooks\s*:")


def skill_has_hooks(place: CallPlace, name: str) -> bool:
    """The first ``SKILL.md`` called ``name`` (project, then home) declares ``hooks``."""
    if not name or "/" in name or name in (".", ".."):
        return False
    for base in (place.project_dir, place.home):
        for root in permission_facts().skill_roots:
            path = Path(base, root, name, "SKILL.md")
            try:
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            return _frontmatter_has_hooks(text)
    return False


def _frontmatter_has_hooks(text: str) -> bool:
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or lines[0].strip() != "---":
        return False
    for line in lines[1:]:
        if line.strip() == "---":
            return False
        if _HOOKS_KEY.match(line):
            return True
    return False
