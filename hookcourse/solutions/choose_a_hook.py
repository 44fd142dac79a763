"""Notebook 04: ``pick_hook``, seed 001's decision gate as two questions.

First: can a script decide (a rule), or does it take a model's judgement? Then: at
which point of Claude's work must the hook run? The answer is the pair
``(event, handler type)`` with the event spelled as the catalogue spells it.
"""

from __future__ import annotations

# When the hook must run, from the words the goal uses; the first that fits wins.
MOMENTS = [
    ("permission dialog", "PermissionRequest"),
    ("waiting for your permission", "Notification"),
    ("subagent", "SubagentStop"),
    ("before claude stops", "Stop"),
    ("compact", "PreCompact"),
    ("session ends", "SessionEnd"),
    ("notification", "Notification"),
    ("start of every session", "SessionStart"),
    ("session is resumed", "SessionStart"),
    ("prompt", "UserPromptSubmit"),
    ("fails", "PostToolUseFailure"),
    ("succeeded", "PostToolUse"),
    ("after claude edits", "PostToolUse"),
    ("before it runs", "PreToolUse"),
]
# Goals that need judgement: no script can say whether a task is really done.
JUDGEMENTS = ("judge whether", "ask a model", "check that a subagent")


def pick_hook(goal: str) -> tuple[str, str]:
    """(event, handler type) for an automation goal, e.g. ("PreToolUse", "command")."""
    text = goal.lower()
    event = next((event for words, event in MOMENTS if words in text), "PreToolUse")
    if any(words in text for words in JUDGEMENTS):
        return (event, "agent" if event == "SubagentStop" else "prompt")
    return (event, "command")
