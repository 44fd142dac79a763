"""Interactive scenarios: Claude Code's own interface in a pseudo-terminal, driven by steps.

A scenario with ``interactive`` (a list of steps) is run without ``-p``: the namespace
runner (``hookcourse/session/namespace.py``, the one way Claude Code is started) gives
it a pseudo-terminal and plays the steps (``hookcourse/session/terminal.py``). The
steps are the user's actions, which ``fire`` plays too, and waits, which only the
terminal needs:

- the user's actions, as ``hookcourse/session/interactive.py`` lists them: ``prompt``
  (the first is the scenario's ``prompt``, by which the mock finds the main
  conversation), ``answer`` (the next permission dialog), ``command`` (a slash
  command), ``write`` (a file changed outside Claude Code);
- waits, for the terminal only: ``{"wait": TEXT}``, ``{"gone": TEXT}``,
  ``{"hook": EVENT, "count": N}``, ``{"key": NAME}`` (see ``terminal``).

The actions and the steps they become live in ``hookcourse/session/interactive.py``
(``hookcourse session --real`` plays a session script's actions the same way). The
harness writes ``~/.claude.json`` so no first-run screen shows (onboarding done,
the project trusted, the dummy API key approved) and adds ``permissions.defaultMode:
default`` to ``--settings`` (an interactive session starts in auto mode, whose
classifier is a model call the mock cannot stand in for): permission dialogs show.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from oracle_scenario import (
    ORACLE_API_KEY,
    flag_settings,
    lay_out,
    run_spec,
    write_spec,
)

from hookcourse.session.interactive import first_run_done, terminal_steps, with_default_mode
from hookcourse.session.script import Layout, substitute

TIMEOUT_S = 150.0
"""The whole run's bound."""


def is_interactive(scenario: Mapping[str, Any]) -> bool:
    return scenario.get("interactive") is not None


def interactive_settings(scenario: Mapping[str, Any], layout: Layout) -> dict[str, Any]:
    """``--settings`` of an interactive run: the print-mode one, in the default mode."""
    return with_default_mode(flag_settings(scenario, layout))


def lay_out_interactive(scenario: Mapping[str, Any], layout: Layout) -> None:
    """The scenario's files, and a ``~/.claude.json`` that skips every first-run screen."""
    lay_out(scenario, layout)
    first_run_done(layout.home, layout.project, ORACLE_API_KEY)


def claude_argv(binary: str, scenario: Mapping[str, Any], layout: Layout) -> list[str]:
    """The command line of one interactive run (no ``-p``: the interface)."""
    return [
        binary,
        "--debug-file",
        str(layout.root / "debug.log"),
        "--settings",
        json.dumps(interactive_settings(scenario, layout)),
        *substitute(scenario.get("flags", []), layout),
    ]


def run_interactive(
    binary: str, scenario: Mapping[str, Any], layout: Layout, timeout: float = TIMEOUT_S
) -> dict[str, Any]:
    """Run the scenario once on a pseudo-terminal in a loopback-only namespace; the
    runner's status (``exit``, or ``stuck`` with the step that waited in vain)."""
    steps = terminal_steps(substitute(scenario["interactive"], layout))
    spec_path = write_spec(
        scenario,
        layout,
        claude_argv(binary, scenario, layout),
        timeout,
        interactive=steps,
        screen=str(layout.root / "screen.txt"),
        dumps=str(layout.dumps),
    )
    return run_spec(spec_path, layout, timeout)


def screen(layout: Layout) -> str:
    """The screen as last drawn."""
    path = Path(layout.root / "screen.txt")
    return path.read_text(encoding="utf-8") if path.exists() else ""
