"""What a hook's command and script say before they run: a placeholder written without its
``$`` (the shell reads the bare word as a folder), and a Stop hook that can block but never
reads ``stop_hook_active`` (it re-blocks until Claude Code's cap ends the turn).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Final

from hookcourse.engine.settings import CommandHandler, SettingsLayer
from hookcourse.errors import InputError, json_path
from hookcourse.system.inputs import read_bounded

from .findings import Finding, Reach

_BARE_PLACEHOLDER: Final = re.compile(
    r"(?<![$\w{:%])(CLAUDE_PLUGIN_ROOT|CLAUDE_PLUGIN_DATA|CLAUDE_PROJECT_DIR|PLUGIN_ROOT|PROJECT_DIR)/"
)
_BLOCKS: Final = re.compile(r"""["']?decision["']?\s*[:=]\s*["']block["']|\bexit\s+2\b|exit\(2\)""")
SCRIPT_CAP: Final = 1_048_576
STOP_EVENTS: Final = ("Stop", "SubagentStop")
ScriptFinder = Callable[[SettingsLayer, CommandHandler], Path | None]
"""The script file a layer's command runs, where it can be placed."""


def bare_placeholders(read: list[SettingsLayer]) -> Iterator[Finding]:
    """Commands that name a placeholder's folder without the ``$`` that expands it."""
    for layer in read:
        for group in layer.groups:
            for handler in group.handlers:
                if not isinstance(handler, CommandHandler):
                    continue
                words = " ".join((handler.command, *(handler.args or ())))
                bare = _BARE_PLACEHOLDER.search(words)
                if bare is None:
                    continue
                name = bare.group(1)
                meant = "CLAUDE_PLUGIN_ROOT" if "PLUGIN" in name else "CLAUDE_PROJECT_DIR"
                yield Finding(
                    "placeholder-without-dollar",
                    Reach.STOPS_HOOK,
                    f"the command writes {name}/ without a $",
                    f"{layer.file}: {json_path(handler.origin.path)}.command",
                    f"without $ neither Claude Code nor the shell replaces {name}: it is a folder "
                    f"named {name} below the hook's current folder, which does not exist, so the "
                    "script is not found and the hook does nothing",
                    f'write "${{{meant}}}/" in its place',
                )


def stop_loops(read: list[SettingsLayer], script_of: ScriptFinder) -> Iterator[Finding]:
    """Stop and SubagentStop hooks whose script can block yet never reads stop_hook_active."""
    for layer in read:
        for group in layer.groups:
            if group.event not in STOP_EVENTS:
                continue
            for handler in group.handlers:
                if not isinstance(handler, CommandHandler):
                    continue
                script = script_of(layer, handler)
                text = _text(script) if script is not None else None
                if text is None or not _BLOCKS.search(text) or "stop_hook_active" in text:
                    continue
                assert script is not None
                yield Finding(
                    "stop-hook-ignores-active",
                    Reach.CHANGES,
                    f"{script.name} can block {group.event} and nowhere mentions stop_hook_active",
                    f"{layer.file}: {json_path(handler.origin.path)}.command",
                    f"after a block Claude Code runs {group.event} again with stop_hook_active "
                    "true; a hook that blocks again each time keeps the turn going until Claude "
                    "Code overrides it after 8 blocks in a row (CLAUDE_CODE_STOP_HOOK_BLOCK_CAP); "
                    "check that the hook lets Claude stop when the flag is true",
                    "read stop_hook_active from the input and exit 0 without blocking when it is "
                    "true",
                )


def _text(script: Path) -> str | None:
    """The script's text, if it is a readable file of modest size."""
    try:
        if not script.is_file():
            return None
        return read_bounded(str(script), SCRIPT_CAP, what="the hook script").text
    except (InputError, OSError):
        return None
