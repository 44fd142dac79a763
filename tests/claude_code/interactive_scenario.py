"""Interactive scenarios: Claude Code's own interface in a pseudo-terminal, driven by steps.

A scenario with ``interactive`` (a list of steps) is run without ``-p``: the namespace
runner (``hookcourse/session/namespace.py``, the one way Claude Code is started) gives
it a pseudo-terminal and plays the steps (``hookcourse/session/terminal.py``). The
steps are the user's actions, which ``fire`` plays too, and waits, which only the
terminal needs:

- ``{"prompt": TEXT}``: the user types a prompt (the first is the scenario's
  ``prompt``, by which the mock finds the main conversation);
- ``{"answer": "yes" | "no", "feedback": TEXT, "notified": true}``: the user answers the
  next permission dialog ("Do you want to proceed?"): yes (Enter on option 1); no
  (Escape), or no with feedback (option "No", Tab to amend, the text, Enter);
  ``notified``: only once the Notification hook for the dialog has run (Claude Code
  sends it when a dialog has waited some seconds);
- ``{"command": "/compact" | "/clear" | "/exit" | "/model NAME" | "/add-dir DIR"}``: a
  slash command (``/add-dir`` answers its questions yes, for this session; ``/model``
  after a prompt confirms the switch; ``/exit`` waits for the exit, and with
  ``"worktree": "keep" | "remove"`` answers the question a ``--worktree`` session asks);
- ``{"write": PATH, "text": TEXT}``: the user changes a file outside Claude Code (an
  editor): a settings file fires ConfigChange, a watched one FileChanged;
- waits, for the terminal only: ``{"wait": TEXT}``, ``{"gone": TEXT}``,
  ``{"hook": EVENT, "count": N}``, ``{"key": NAME}`` (see ``terminal``).

The harness writes ``~/.claude.json`` so no first-run screen shows (onboarding done,
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

from hookcourse.session.script import Layout, substitute

READY = "? for shortcuts"
"""The footer of an idle interface: the first prompt is typed once it shows."""
DIALOG = "Do you want to proceed?"
MODEL_SWITCH_YES = {"Yes, switch to": "Yes, switch to"}
"""/model's question once the conversation has been sent ("Switch model?")."""
ADD_DIR_YES = {"Yes, add it": "Yes, add it", "Yes, for this session": "Yes, for this session"}
ADD_DIR_DONE = "as a working directory"
"""/add-dir's questions, as 2.1.332 asks them, one after the other: whether the folder is
trusted ("No, leave it out" first), then whether to add it to the workspace ("Yes, for
this session" first); the answer shows "Added DIR as a working directory"."""
WORKTREE_EXIT = "Exiting worktree session"
WORKTREE_ANSWERS = {"keep": "Keep worktree", "remove": "Remove worktree"}
"""/exit's question in a session started with ``--worktree`` (2.1.332), and its answers."""
START_S = 60.0
"""How long the interface may take to come up on a loaded machine."""
NOTIFIED_S = 30.0
"""How long a dialog waits for its Notification hook (about 6 s in 2.1.332)."""
TIMEOUT_S = 150.0
"""The whole run's bound."""
USER_ACTIONS = ("prompt", "answer", "command", "write")
"""The steps that are the user's (``fire`` plays them); the others are waits."""


def is_interactive(scenario: Mapping[str, Any]) -> bool:
    return scenario.get("interactive") is not None


def interactive_settings(scenario: Mapping[str, Any], layout: Layout) -> dict[str, Any]:
    """``--settings`` of an interactive run: the print-mode one, in the default mode."""
    settings = flag_settings(scenario, layout)
    permissions = settings.get("permissions")
    given = dict(permissions) if isinstance(permissions, dict) else {}
    return {**settings, "permissions": {"defaultMode": "default", **given}}


def lay_out_interactive(scenario: Mapping[str, Any], layout: Layout) -> None:
    """The scenario's files, and a ``~/.claude.json`` that skips every first-run screen."""
    lay_out(scenario, layout)
    state_path = layout.home / ".claude.json"
    state = json.loads(state_path.read_text(encoding="utf-8"))
    state["projects"][str(layout.project)] = {"hasTrustDialogAccepted": True}
    # The key's last 20 characters, as Claude Code stores an approved key.
    state["customApiKeyResponses"] = {"approved": [ORACLE_API_KEY[-20:]], "rejected": []}
    state_path.write_text(json.dumps(state), encoding="utf-8")


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


def terminal_steps(steps: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The user's actions as the terminal's keys and waits."""
    played: list[dict[str, Any]] = [{"wait": READY, "timeout": START_S}]
    # Whether the conversation has been sent to the model (since the start or /clear).
    warm = False
    for step in steps:
        if "prompt" in step:
            played.append({"type": step["prompt"]})
            warm = True
        elif "answer" in step:
            played.append({"wait": DIALOG})
            if step.get("notified"):
                played.append({"hook": "Notification", "timeout": NOTIFIED_S})
            played.extend(_answer(step))
            played.append({"gone": DIALOG})
        elif "command" in step:
            command = str(step["command"])
            played.append({"type": command})
            if command.startswith("/add-dir"):
                played.append({"pick": ADD_DIR_YES, "until": ADD_DIR_DONE})
            if command.startswith("/model") and warm:
                # Leaving a model whose cache is warm is confirmed in a dialog.
                played.append({"pick": MODEL_SWITCH_YES})
            if command == "/clear":
                warm = False
            if command == "/exit" and step.get("worktree"):
                played.append({"pick": {WORKTREE_EXIT: WORKTREE_ANSWERS[str(step["worktree"])]}})
            if command == "/exit":
                played.append({"exit": True})
        else:
            played.append(dict(step))
    return played


def _answer(step: Mapping[str, Any]) -> list[dict[str, Any]]:
    if step["answer"] == "yes":
        return [{"key": "enter"}]
    if not step.get("feedback"):
        return [{"key": "escape"}]
    # "No" is the last option; Tab opens a line for what to do instead.
    return [
        {"key": "up"},
        {"key": "tab"},
        {"type": str(step["feedback"]), "enter": False},
        {"key": "enter"},
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
