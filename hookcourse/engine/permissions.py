"""The permission step after PreToolUse hooks: ``permissions.deny``, ``ask`` and ``allow``.

Reference §8: hooks can tighten permissions but not loosen them. In order:

0. A bare ``permissions.deny`` rule (``"Bash"``) removes the tool before any hook
   runs: the model is told there is no such tool (``tool_removed``).
1. A hook that blocked (deny, exit 2) stopped the call before any rule is read,
   in every mode.
2. A matching **deny** rule stops the call, even after a hook said ``allow``.
3. A matching **ask** rule still prompts, even after a hook said ``allow``.
4. A hook's ``ask`` prompts; a hook's ``allow`` skips the prompt.
5. A matching **allow** rule lets the call run without a prompt; a *project's*
   allow rules only once the folder is trusted (user, local and ``--settings``
   rules always; project deny and ask rules apply untrusted). An ``Edit`` allow
   rule does not cover ``Write``.
6. Otherwise the permission mode decides (``default`` prompts for tools that are
   not read-only, ``acceptEdits`` also lets edits run, ``plan`` runs only
   read-only tools, ``dontAsk`` denies what would prompt, ``bypassPermissions``
   runs everything, ``auto`` leaves it to a classifier hookcourse does not have).
   A Bash command made only of read-only commands (``echo``, ``ls`` inside the
   project, ...) needs no approval.

Deny and ask rules cover a Bash command when any subcommand matches; an allow rule
only when every subcommand does. In print mode (``claude -p``) nobody answers a
prompt, so ``ask`` refuses the call. Pure.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from hookcourse.errors import json_path
from hookcourse.js.json import quote
from hookcourse.js.values import JSValue

from .catalogue import permission_facts
from .permission_rule import CallPlace, check_rule, simple_commands
from .settings import PermissionEntry, SettingsSource

_REDIRECT_DUP: Final = re.compile(r"\d?>&\d")
READ_ONLY_TOOLS: Final = frozenset({"Read", "Grep", "Glob", "LS", "NotebookRead"})
EDIT_TOOLS: Final = frozenset({"Edit", "Write", "MultiEdit", "NotebookEdit"})
STOPPED: Final = "deny"


@dataclass(frozen=True)
class PermissionStep:
    """What the permission step decided for a call the hooks let through, and what decided it."""

    decision: str
    """``allow`` (runs), ``ask`` (the user is prompted first), ``deny`` (stopped) or
    ``classifier`` (auto mode: a model decides, not modelled here)."""
    decided_by: str
    """One sentence naming the rule, hook or mode that decided."""
    mode: str
    rule: PermissionEntry | None = None
    considered: tuple[str, ...] = ()
    """Every rule that matched the call, one line each."""

    @property
    def stops(self) -> bool:
        return self.decision == STOPPED

    def to_json(self) -> dict[str, JSValue]:
        rule = self.rule
        return {
            "decision": self.decision,
            "decidedBy": self.decided_by,
            "mode": self.mode,
            "rule": None if rule is None else str(rule.rule),
            "ruleList": None if rule is None else rule.behaviour,
            "ruleFile": None if rule is None else rule.origin.file,
            "rulePath": None if rule is None else json_path(rule.origin.path),
            "matchingRules": list(self.considered),
        }


def _where(entry: PermissionEntry) -> str:
    origin = entry.origin
    return (
        f"{entry.behaviour} rule {quote(str(entry.rule))} in {origin.source} settings "
        f"{origin.file} {json_path(origin.path)}"
    )


def tool_removed(entries: Sequence[PermissionEntry], tool_name: str) -> PermissionEntry | None:
    """The bare deny rule (``"Bash"``) that takes ``tool_name`` away before any hook runs."""
    for entry in entries:
        rule = entry.rule
        if entry.behaviour == "deny" and rule.specifier is None and rule.tool == tool_name:
            return entry
    return None


def permission_step(
    hook_decision: str | None,
    entries: Sequence[PermissionEntry],
    tool_name: str,
    tool_input: JSValue,
    place: CallPlace,
    mode: str,
    trusted: bool = True,
) -> PermissionStep:
    """Decide a call the hooks did not stop, as Claude Code does after PreToolUse.

    ``trusted``: the folder's trust dialog was accepted, so the project's allow rules apply.
    """
    matching: dict[str, PermissionEntry] = {}
    considered: list[str] = []
    for entry in entries:
        every = entry.behaviour == "allow"
        check = check_rule(entry.rule, tool_name, tool_input, place, every=every)
        # An allow rule must be sure; deny and ask rules cover what cannot be checked.
        if check.applies and (check.certain or not every):
            if every and not trusted and entry.origin.source is SettingsSource.PROJECT:
                considered.append(
                    f"{_where(entry)}: not applied, the folder is not trusted "
                    "(~/.claude.json has no hasTrustDialogAccepted for it)"
                )
                continue
            matching.setdefault(entry.behaviour, entry)
            considered.append(f"{_where(entry)}: {check.why}")
    found = tuple(considered)

    def by_rule(behaviour: str, decision: str, effect: str) -> PermissionStep:
        entry = matching[behaviour]
        return PermissionStep(decision, f"the {_where(entry)} {effect}", mode, entry, found)

    def by(decision: str, sentence: str) -> PermissionStep:
        return PermissionStep(decision, sentence, mode, None, found)

    after = f" (the hook said {quote(hook_decision)})" if hook_decision else ""
    if "deny" in matching:
        return by_rule("deny", "deny", f"stops the call{after}: a hook cannot override it")
    if "ask" in matching:
        if mode == "dontAsk":
            return by_rule("ask", "deny", "would prompt, and dontAsk mode denies instead")
        return by_rule("ask", "ask", f"still prompts the user{after}")
    if hook_decision == "ask":
        return by("ask", "the hook said ask: the user is prompted")
    if hook_decision == "allow":
        return by("allow", "the hook said allow: the call runs without a prompt")
    if hook_decision == "defer":
        return by("ask", "the hook deferred the call: it waits, and is checked again on resume")
    if "allow" in matching:
        return by_rule("allow", "allow", "lets the call run without a prompt")
    return _by_mode(tool_name, tool_input, place, mode, found)


def read_only_command(tool_input: JSValue, place: CallPlace) -> bool:
    """A Bash command made only of read-only commands that name no path outside the project."""
    command = tool_input.get("command") if isinstance(tool_input, dict) else None
    if not isinstance(command, str):
        return False
    parts = simple_commands(command)
    if not parts:
        return False
    allowed = permission_facts().read_only_commands
    roots = tuple(posixpath.normpath(root) for root in (place.project_dir, place.cwd))
    for part in parts:
        # Redirections into files, command substitutions and variables need approval;
        # duplicating a descriptor (2>&1, >&2) does not.
        if any(mark in _REDIRECT_DUP.sub("", part) for mark in (">", "<", "$", "`")):
            return False
        try:
            words = shlex.split(part)
        except ValueError:
            return False
        if not words or words[0] not in allowed:
            return False
        for word in words[1:]:
            if word.startswith("-") or ("/" not in word and not word.startswith("~")):
                continue
            path = posixpath.normpath(posixpath.join(place.cwd, posixpath.expanduser(word)))
            if not any(path == root or path.startswith(root + "/") for root in roots):
                return False
    return True


def _by_mode(
    tool_name: str, tool_input: JSValue, place: CallPlace, mode: str, found: tuple[str, ...]
) -> PermissionStep:
    read_only = tool_name in READ_ONLY_TOOLS
    if tool_name == "Bash" and read_only_command(tool_input, place):
        return PermissionStep(
            "allow",
            "no rule matched; the command only reads, so it needs no approval",
            mode,
            None,
            found,
        )
    edits = tool_name in EDIT_TOOLS
    if mode == "bypassPermissions":
        return PermissionStep(
            "allow", "no rule matched; bypassPermissions runs it", mode, None, found
        )
    if read_only:
        return PermissionStep(
            "allow",
            f"no rule matched; {tool_name} is read-only and needs no approval",
            mode,
            None,
            found,
        )
    if mode == "acceptEdits" and edits:
        return PermissionStep(
            "allow", "no rule matched; acceptEdits lets edits run", mode, None, found
        )
    if mode == "plan":
        return PermissionStep(
            "deny", "no rule matched; plan mode runs only read-only tools", mode, None, found
        )
    if mode == "dontAsk":
        return PermissionStep(
            "deny",
            "no rule matched; dontAsk mode denies what is not pre-approved",
            mode,
            None,
            found,
        )
    if mode == "auto":
        return PermissionStep(
            "classifier",
            "no rule matched; in auto mode a classifier decides (not modelled by hookcourse)",
            mode,
            None,
            found,
        )
    return PermissionStep(
        "ask", f"no rule matched; in {mode} mode the user is prompted", mode, None, found
    )
