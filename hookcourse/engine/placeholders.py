"""The path placeholders Claude Code pastes into a command hook's text before it runs.

``${CLAUDE_PROJECT_DIR}`` and its friends, written exactly so, are replaced as text
(2.1.332 §7a); any other ``${NAME}`` is left for the shell. The runner substitutes the
real folders; the lint substitutes ``$NAME`` to read the command as the shell will.
Pure.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

PLACEHOLDERS: Final = ("CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA")
_PLACEHOLDER: Final = re.compile(r"\$\{([A-Z_]+)\}")


def substitute(text: str, placeholders: Mapping[str, str]) -> str:
    """Replace ``${NAME}`` for the known placeholders; anything else is left as written."""
    return _PLACEHOLDER.sub(lambda m: placeholders.get(m.group(1), m.group(0)), text)
