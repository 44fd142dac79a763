"""Run real hook processes through the engine from a notebook, without Claude Code.

``fire_commands`` runs command hooks (exec form: an argv, no shell) on one event
and payload exactly as ``hookcourse fire`` does, through the engine's one entry
(``hookcourse.engine.api.fire_handlers``): the same runner (parallel, with
timeouts that kill the process group), reading of each result, and merge. No
settings file is read, so a learner's own ``~/.claude`` hooks never run here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from hookcourse.engine.api import (
    DEFAULT_STOP_BLOCK_CAP,
    Fired,
    Handler,
    exec_handler,
    fire_handlers,
)
from hookcourse.js.values import JSValue

HOOK_TIMEOUT_S: Final = 10.0

__all__ = ["HOOK_TIMEOUT_S", "Fired", "command_handler", "fire_commands"]


def command_handler(argv: Sequence[str]) -> Handler:
    """A command handler in exec form: ``argv[0]`` runs with the rest as its arguments."""
    return exec_handler(argv)


def fire_commands(
    event: str,
    commands: Sequence[Sequence[str]],
    payload: Mapping[str, JSValue],
    cwd: str,
    *,
    consecutive_stop_blocks: int = 0,
    stop_block_cap: int = DEFAULT_STOP_BLOCK_CAP,
    timeout_s: float = HOOK_TIMEOUT_S,
) -> Fired:
    """Run ``commands`` as real processes on ``payload`` and merge them as ``event`` does."""
    return fire_handlers(
        event,
        [command_handler(argv) for argv in commands],
        payload,
        cwd,
        timeout_s=timeout_s,
        consecutive_stop_blocks=consecutive_stop_blocks,
        stop_block_cap=stop_block_cap,
    )
