"""Run real hook processes through the engine from a notebook, without Claude Code.

``fire_commands`` runs command hooks (exec form: an argv, no shell) on one event
and payload exactly as ``hookcourse fire`` does: the engine's runner (parallel,
with timeouts that kill the process group), its reading of each result, and
its merge. No settings file is read, so a learner's own ``~/.claude`` hooks
never run here.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from hookcourse.engine.catalogue import event_spec
from hookcourse.engine.outcome import DEFAULT_STOP_BLOCK_CAP, Outcome, merge_readings
from hookcourse.engine.reading import HookReading, read_hook_result
from hookcourse.engine.runner import Execution, Job, RunSetting, hook_exports, run_jobs
from hookcourse.engine.settings import Handler, Origin, SettingsSource
from hookcourse.js import json as jsjson
from hookcourse.js.values import JSValue

HOOK_TIMEOUT_S: Final = 10.0
_ORIGIN: Final = Origin(SettingsSource.PROJECT, "(the notebook)", ())


@dataclass(frozen=True)
class Fired:
    """Every hook's execution and reading, in the order they finished, and the outcome."""

    executions: tuple[Execution, ...]
    readings: tuple[HookReading, ...]
    outcome: Outcome


def command_handler(argv: Sequence[str]) -> Handler:
    """A command handler in exec form: ``argv[0]`` runs with the rest as its arguments."""
    return Handler(type="command", origin=_ORIGIN, command=argv[0], args=tuple(argv[1:]))


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
    spec = event_spec(event)
    full = {**payload, "hook_event_name": spec.name}
    placeholders, exports = hook_exports(cwd, full)
    setting = RunSetting(cwd, spec.name, dict(os.environ), placeholders, exports)
    jobs = [Job(command_handler(argv), timeout_s) for argv in commands]
    executions = sorted(
        run_jobs(jobs, jsjson.stringify(full), setting), key=lambda e: e.finish_index
    )
    readings = tuple(read_hook_result(spec, execution.run) for execution in executions)
    outcome = merge_readings(
        spec,
        readings,
        full,
        consecutive_stop_blocks=consecutive_stop_blocks,
        stop_block_cap=stop_block_cap,
    )
    return Fired(tuple(executions), readings, outcome)
