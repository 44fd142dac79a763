"""Events that fire only under a condition: a hook can be right and still never run because
the session never meets it (print mode or interactive, a permission mode, a tool that
failed). From the hooks reference's table of when each event fires; each finding says what
to check, since doctor cannot see how the session was started.
"""

from __future__ import annotations

from typing import Final

from .findings import Finding, Reach

MODES: Final = ("interactive", "print")
"""How Claude Code was started: a terminal session, or ``claude -p``."""
_ONLY_WHEN: Final = {
    "Setup": (
        "Setup fires only with claude --init-only, or claude -p with --init or --maintenance",
        "start Claude Code with one of those flags, or move the hook to SessionStart",
        ("interactive",),
    ),
    "PermissionDenied": (
        "PermissionDenied fires only when auto mode's classifier denies a call (auto mode only)",
        "run in auto mode, or use PreToolUse to see every call",
        (),
    ),
    "PostToolUse": (
        "PostToolUse fires only after a tool call that succeeded; a call that failed (an MCP "
        "error, a command the tool reports as failed) fires PostToolUseFailure instead",
        "add the same hook under PostToolUseFailure to see the failed calls",
        (),
    ),
    "Stop": (
        "Stop fires when the main agent finishes responding, not when the user interrupts, and "
        "a turn ended by an API error fires StopFailure instead",
        "add a StopFailure hook for turns that end in an API error",
        (),
    ),
    "SubagentStart": (
        "SubagentStart fires only when a subagent is spawned through the Agent tool",
        "check that the session used the Agent tool",
        (),
    ),
    "SubagentStop": (
        "SubagentStop fires only when a subagent (Agent tool) finishes; the main agent fires Stop",
        "use Stop for the main agent",
        (),
    ),
    "WorktreeCreate": (
        "WorktreeCreate fires only when a worktree is created (--worktree, isolation: worktree, "
        "or a background session)",
        "start Claude Code with --worktree to see it",
        (),
    ),
    "TeammateIdle": (
        "TeammateIdle fires only for an agent-team teammate about to go idle",
        "check that the session runs an agent team",
        (),
    ),
    "FileChanged": (
        "FileChanged fires only for files being watched: the names in the matcher, or the "
        "watchPaths a SessionStart or CwdChanged hook returned, changed on disk (not by tools)",
        "name the file in the matcher (literal names split on |)",
        (),
    ),
    "PreCompact": (
        "PreCompact fires only when the conversation is compacted (/compact, or automatically)",
        "run /compact to see it",
        (),
    ),
    "Elicitation": (
        "Elicitation fires only when an MCP server asks the user for input during a tool call",
        "check that the MCP server sends elicitation requests",
        (),
    ),
}


def event_conditions(event: str, mode: str | None) -> list[Finding]:
    """The condition the event needs, as a note (or, when ``mode`` rules it out, as the
    cause)."""
    known = _ONLY_WHEN.get(event)
    if known is None:
        return []
    when, fix, never_in = known
    ruled_out = mode is not None and mode in never_in
    return [
        Finding(
            "event-not-in-mode" if ruled_out else "event-needs-condition",
            Reach.STOPS_ALL if ruled_out else Reach.NOTE,
            f"{event} does not fire in an {mode} session"
            if ruled_out
            else f"{event} fires only under a condition",
            event,
            when + ("" if ruled_out else ": check that the session met it"),
            fix,
        )
    ]


def trust_note(mode: str | None) -> list[Finding]:
    """In an interactive session, settings hooks wait for the folder's trust dialog."""
    if mode != "interactive":
        return []
    return [
        Finding(
            "workspace-trust",
            Reach.NOTE,
            "settings hooks wait for the workspace-trust dialog",
            "interactive session",
            "in an interactive session Claude Code holds back settings hooks, the user's too, "
            "until the trust dialog for this folder is accepted (claude -p treats the folder as "
            "trusted): check that the dialog was accepted when Claude Code started here",
            "start Claude Code in this folder and accept the trust dialog",
        )
    ]
