"""The user's actions in Claude Code's interactive interface, as a pseudo-terminal plays them.

One list of actions, the same for the engine (``loop``) and the real binary
(``terminal``, in the loopback-only namespace ``namespace`` makes):

- ``{"prompt": TEXT}``: the user types a prompt;
- ``{"answer": "yes" | "no", "feedback": TEXT, "notified": true}``: the user answers the
  next permission dialog ("Do you want to proceed?"): yes (Enter on option 1); no
  (Escape), or no with feedback (option "No", Tab to amend, the text, Enter);
  ``notified``: only once the Notification hook for the dialog has run (Claude Code
  sends it when a dialog has waited some seconds);
- ``{"command": "/compact" | "/clear" | "/exit" | "/model NAME" | "/add-dir DIR"}``: a
  slash command (``/add-dir`` answers its questions yes, for this session; ``/model``
  after a prompt confirms the switch; ``/exit`` waits for the exit, and with
  ``"worktree": "keep" | "remove"`` answers the question a ``--worktree`` session asks);
- ``{"write": PATH, "text": TEXT}``: the user changes a file outside Claude Code.

The oracle's scenarios add the terminal's own waits between them (``{"wait": TEXT}``,
``{"hook": EVENT}`` ...); a session script gives actions only, and ``session_steps``
adds the waits a person makes: the interface busy after a prompt, idle again before
the next action. ``first_run_done`` writes the ``~/.claude.json`` that skips every
first-run screen (onboarding, the folder's trust, the key's approval); the interactive
``--settings`` carry ``permissions.defaultMode: default`` (an interactive session starts
in auto mode, whose classifier is a model call the mock cannot stand in for).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

TRUSTED_PROJECT: Mapping[str, Any] = {
    "allowedTools": [],
    "history": [],
    "mcpContextUris": [],
    "mcpServers": {},
    "enabledMcpjsonServers": [],
    "disabledMcpjsonServers": [],
    "hasTrustDialogAccepted": True,
    "ignorePatterns": [],
    "projectOnboardingSeenCount": 0,
    "hasClaudeMdExternalIncludesApproved": False,
    "hasClaudeMdExternalIncludesWarningShown": False,
}
"""A trusted project's entry in ``~/.claude.json``: the fields Claude Code gives a new
project (read in 2.0.5's cli.js), trust accepted. Releases up to 2.0.5 did not start
when the entry held the trust alone (measured: every trusted scenario, 0 requests)."""
READY = "? for shortcuts"
"""The footer of an idle interface: the first prompt is typed once it shows."""
BUSY = "esc to interrupt"
"""The footer while the interface works on a prompt (the model, the hooks, the tools)."""
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
TURN_S = 60.0
"""How long a session script's prompt may keep the interface busy."""
BUSY_S = 10.0
"""How long the terminal looks for the busy footer after a prompt before it goes on."""
USER_ACTIONS = ("prompt", "answer", "command", "write")
"""The steps that are the user's (both engines play them); the others are waits."""
ANSWERS = ("yes", "no")
"""What the user may pick in a permission dialog."""
COMMANDS = ("/compact", "/clear", "/exit", "/model", "/add-dir")
"""The slash commands a script may type."""


def with_default_mode(settings: Mapping[str, Any]) -> dict[str, Any]:
    """An interactive run's ``--settings``: ``settings`` in the default permission mode
    (unless they name another), so permission dialogs show."""
    permissions = settings.get("permissions")
    given = dict(permissions) if isinstance(permissions, dict) else {}
    return {**settings, "permissions": {"defaultMode": "default", **given}}


def first_run_done(home: Path, project: Path, api_key: str) -> None:
    """Add to ``home``'s ``~/.claude.json`` what skips the first-run screens: onboarding
    done, ``project`` trusted, ``api_key`` approved (its last 20 characters, as Claude
    Code stores an approved key)."""
    path = home / ".claude.json"
    state = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    state["hasCompletedOnboarding"] = True
    state.setdefault("projects", {})[str(project)] = dict(TRUSTED_PROJECT)
    state["customApiKeyResponses"] = {"approved": [api_key[-20:]], "rejected": []}
    path.write_text(json.dumps(state), encoding="utf-8")


def terminal_steps(steps: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The user's actions (and any waits among them) as the terminal's keys and waits."""
    return [{"wait": READY, "timeout": START_S}, *(s for group in _grouped(steps) for s in group)]


def _grouped(steps: Iterable[Mapping[str, Any]]) -> list[list[dict[str, Any]]]:
    """Each of ``steps`` as its terminal steps."""
    groups: list[list[dict[str, Any]]] = []
    # Whether the conversation has been sent to the model (since the start or /clear).
    warm = False
    for step in steps:
        played: list[dict[str, Any]] = []
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
        groups.append(played)
    return groups


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


def _idle() -> list[dict[str, Any]]:
    """Until the interface is idle with an empty input: the busy footer gone, then the
    input cleared (a prompt a hook blocked is put back there), then the idle footer."""
    return [
        {"gone": BUSY, "timeout": TURN_S},
        {"key": "ctrl-u"},
        {"wait": READY, "timeout": TURN_S},
    ]


def session_steps(actions: Iterable[Mapping[str, Any]]) -> tuple[list[dict[str, Any]], list[int]]:
    """A session script's actions with the waits a person makes, as terminal steps, and
    the index of each action's first step: after a prompt (or a ``/compact``, which asks
    the model for a summary) the interface gets busy; each later action, and the end,
    waits until it is idle again (a dialog waits for itself)."""
    waited: list[dict[str, Any]] = []
    for action in actions:
        if "answer" not in action and waited:
            waited.extend(_idle())
        waited.append(dict(action))
        if "prompt" in action or str(action.get("command", "")).startswith("/compact"):
            # A prompt a UserPromptSubmit hook blocks never makes the interface busy.
            waited.append({"wait": BUSY, "timeout": BUSY_S, "optional": True})
    if waited and waited[-1].get("command") != "/exit":
        waited.extend(_idle())
    steps: list[dict[str, Any]] = [{"wait": READY, "timeout": START_S}]
    firsts: list[int] = []
    for item, group in zip(waited, _grouped(waited), strict=True):
        if any(key in item for key in USER_ACTIONS):
            firsts.append(len(steps))
        steps.extend(group)
    return steps, firsts
