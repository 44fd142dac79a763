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
from .permission_rule import PATH_FIELDS, SHELL_TOOLS, CallPlace, check_rule, simple_commands
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
    refusal: str | None = None
    """What the model gets in print mode when the call does not run (nobody to ask)."""

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
            "refusal": self.refusal,
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
    allows: list[PermissionEntry] = []
    for entry in entries:
        every = entry.behaviour == "allow"
        if every and not trusted and entry.origin.source is SettingsSource.PROJECT:
            considered.append(
                f"{_where(entry)}: not applied, the folder is not trusted "
                "(~/.claude.json has no hasTrustDialogAccepted for it)"
            )
            continue
        if every:
            allows.append(entry)
        check = check_rule(entry.rule, tool_name, tool_input, place, every=every, permission=True)
        # An allow rule must be sure; deny and ask rules cover what cannot be checked.
        if check.applies and (check.certain or not every):
            matching.setdefault(entry.behaviour, entry)
            considered.append(f"{_where(entry)}: {check.why}")
    found = tuple(considered)
    facts = permission_facts()

    def by_rule(behaviour: str, decision: str, effect: str, refusal: str | None) -> PermissionStep:
        entry = matching[behaviour]
        sentence = f"the {_where(entry)} {effect}"
        return PermissionStep(decision, sentence, mode, entry, found, refusal)

    def by(decision: str, sentence: str) -> PermissionStep:
        return PermissionStep(decision, sentence, mode, None, found)

    after = f" (the hook said {quote(hook_decision)})" if hook_decision else ""
    command = tool_input.get("command") if isinstance(tool_input, dict) else None
    if "deny" in matching:
        refusal = facts.refusal("deny_rule", tool=tool_name)
        if tool_name in SHELL_TOOLS and isinstance(command, str):
            refusal = facts.refusal("deny_rule_command", tool=tool_name, command=command)
        elif matching["deny"].rule.specifier is not None and tool_name in PATH_FIELDS:
            refusal = facts.refusal("deny_rule_path")
        return by_rule("deny", "deny", f"stops the call{after}: a hook cannot override it", refusal)
    if "ask" in matching:
        if mode == "dontAsk":
            refusal = facts.refusal("dont_ask", tool=tool_name)
            return by_rule("ask", "deny", "would prompt, and dontAsk mode denies instead", refusal)
        refusal = facts.refusal("tool", tool=tool_name)
        return by_rule("ask", "ask", f"still prompts the user{after}", refusal)
    if hook_decision == "ask":
        return by("ask", "the hook said ask: the user is prompted")
    if hook_decision == "allow":
        return by("allow", "the hook said allow: the call runs without a prompt")
    if hook_decision == "defer":
        return by("ask", "the hook deferred the call: it waits, and is checked again on resume")
    if "allow" in matching:
        return by_rule("allow", "allow", "lets the call run without a prompt", None)
    if tool_name == "Bash" and isinstance(command, str):
        return _bash_by_parts(command, allows, place, mode, found)
    return _by_mode(tool_name, tool_input, mode, found)


@dataclass(frozen=True)
class _Need:
    """Why one simple command needs approval: the refusal text, and whether it edits files
    inside the working directories (which acceptEdits allows)."""

    refusal: str
    edits: bool = False


def _inside(path: str, place: CallPlace) -> bool:
    roots = tuple(posixpath.normpath(root) for root in (place.project_dir, place.cwd))
    return any(path == root or path.startswith(root.rstrip("/") + "/") for root in roots)


def _need(part: str, place: CallPlace) -> _Need | None:
    """What one simple command needs: None when it only reads inside the working directories."""
    facts = permission_facts()
    generic = _Need(facts.refusal("command"))
    # Redirections into files, command substitutions and variables need approval;
    # duplicating a descriptor (2>&1, >&2) does not.
    if any(mark in _REDIRECT_DUP.sub("", part) for mark in (">", "<", "$", "`")):
        return generic
    try:
        words = shlex.split(part)
    except ValueError:
        return generic
    if not words:
        return None
    verb, arguments = words[0], [word for word in words[1:] if not word.startswith("-")]
    paths = [
        posixpath.normpath(posixpath.join(place.cwd, posixpath.expanduser(word)))
        for word in arguments
    ]
    if verb in facts.file_writing_commands and paths:
        if all(_inside(path, place) for path in paths):
            text = facts.refusal("writes_inside", verb=verb, path=paths[0], cwd=place.cwd)
            return _Need(text, edits=True)
        return generic
    if verb not in facts.read_only_commands:
        return generic
    named = [p for word, p in zip(arguments, paths, strict=True) if "/" in word or word[:1] == "~"]
    outside = [path for path in named if not _inside(path, place)]
    if not outside:
        return None
    if verb in facts.listing_commands:
        return _Need(facts.refusal("lists_outside", verb=verb, path=outside[0], cwd=place.cwd))
    return generic


def read_only_command(tool_input: JSValue, place: CallPlace) -> bool:
    """A Bash command made only of read-only commands that name no path outside the project."""
    command = tool_input.get("command") if isinstance(tool_input, dict) else None
    parts = simple_commands(command) if isinstance(command, str) else None
    return bool(parts) and all(_need(part, place) is None for part in parts or ())


def _bash_by_parts(
    command: str,
    allows: Sequence[PermissionEntry],
    place: CallPlace,
    mode: str,
    found: tuple[str, ...],
) -> PermissionStep:
    """A Bash command runs when every part is read-only or covered by an allow rule."""
    facts = permission_facts()
    parts = simple_commands(command)
    if not parts:
        needs = [_Need(facts.refusal("command"))]
        covering: list[PermissionEntry] = []
    else:
        needs, covering = [], []
        for part in parts:
            need = _need(part, place)
            if need is None:
                continue
            rule = next((e for e in allows if _covers_part(e, part, place)), None)
            if rule is None:
                needs.append(need)
            else:
                covering.append(rule)
    if not needs:
        if covering:
            entry = covering[0]
            sentence = f"every part is read-only or allowed: the {_where(entry)} lets it run"
            return PermissionStep("allow", sentence, mode, entry, found)
        sentence = "no rule matched; the command only reads, so it needs no approval"
        return PermissionStep("allow", sentence, mode, None, found)
    if mode == "acceptEdits" and all(need.edits for need in needs):
        sentence = "no rule matched; acceptEdits lets commands that edit files here run"
        return PermissionStep("allow", sentence, mode, None, found)
    return _by_mode("Bash", {}, mode, found, needs[0].refusal)


def _covers_part(entry: PermissionEntry, part: str, place: CallPlace) -> bool:
    check = check_rule(entry.rule, "Bash", {"command": part}, place, every=True)
    return check.applies and check.certain


def _by_mode(
    tool_name: str,
    tool_input: JSValue,
    mode: str,
    found: tuple[str, ...],
    refusal: str | None = None,
) -> PermissionStep:
    """No rule decided: the permission mode does, and ``refusal`` is what a refused call says."""
    facts = permission_facts()
    if refusal is None:
        path = tool_input.get("file_path") if isinstance(tool_input, dict) else None
        refusal = (
            facts.refusal("write_file", path=path)
            if tool_name in EDIT_TOOLS and isinstance(path, str)
            else facts.refusal("tool", tool=tool_name)
        )

    def step(decision: str, sentence: str, text: str | None = None) -> PermissionStep:
        return PermissionStep(decision, f"no rule matched; {sentence}", mode, None, found, text)

    if mode == "bypassPermissions":
        return step("allow", "bypassPermissions runs it")
    if tool_name in READ_ONLY_TOOLS:
        return step("allow", f"{tool_name} is read-only and needs no approval")
    if mode == "acceptEdits" and tool_name in EDIT_TOOLS:
        return step("allow", "acceptEdits lets edits run")
    if mode == "plan":
        path = tool_input.get("file_path") if isinstance(tool_input, dict) else None
        text = (
            facts.refusal("plan_write", path=path)
            if tool_name in EDIT_TOOLS and isinstance(path, str)
            else facts.refusal("plan", tool=tool_name)
        )
        return step("deny", "plan mode runs only read-only tools", text)
    if mode == "dontAsk":
        text = facts.refusal("dont_ask", tool=tool_name)
        return step("deny", "dontAsk mode denies what is not pre-approved", text)
    if mode == "auto":
        return step("classifier", "in auto mode a classifier decides (not modelled by hookcourse)")
    return step("ask", f"in {mode} mode the user is prompted", refusal)
