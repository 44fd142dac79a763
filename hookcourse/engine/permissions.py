"""The permission step after PreToolUse hooks: ``permissions.deny``, ``ask`` and ``allow``.

Reference §8: hooks can tighten permissions but not loosen them. In order:

0. Before any hook runs (``refused_before_hooks``): a bare ``permissions.deny`` rule
   (``"Bash"``) removes the tool (the model is told there is no such tool); print mode
   does not offer Glob and Grep while it offers Bash; a deny rule on a file tool's path
   refuses the call in the tool's input check.
1. A hook that blocked (deny, exit 2) stopped the call before any rule is read,
   in every mode.
2. A matching **deny** rule stops the call, even after a hook said ``allow``.
3. A matching **ask** rule still prompts, even after a hook said ``allow``.
4. A hook's ``ask`` prompts; a hook's ``allow`` skips the prompt (not in plan mode:
   there the rules and the mode still decide, so a Write stays refused, 2.1.332).
5. A matching **allow** rule lets the call run without a prompt; a *project's*
   allow rules only once the folder is trusted (user, local and ``--settings``
   rules always; project deny and ask rules apply untrusted). An ``Edit`` allow
   rule does not cover ``Write``.
6. Otherwise the permission mode decides (``default`` prompts for tools that are
   not read-only, ``acceptEdits`` also lets edits run, ``plan`` runs only
   read-only tools, ``dontAsk`` denies what would prompt, ``bypassPermissions``
   runs everything, ``auto`` lets edits run as acceptEdits does and leaves the rest
   to a classifier hookcourse does not have).
   A Bash command made only of read-only commands (``echo``, ``ls`` inside the
   project, ...) needs no approval (``permissions.shell`` in the catalogue), an Agent
   call needs none (but in plan and auto mode), and a Skill call needs none unless the
   skill's frontmatter declares hooks.

The rules are those of every settings file plus claude's ``--allowedTools`` and
``--disallowedTools`` (``command_line_rules``), which hold whatever the folder's trust.

Deny and ask rules cover a Bash command when any subcommand matches; an allow rule
only when every subcommand does. In print mode (``claude -p``) nobody answers a
prompt, so ``ask`` refuses the call. Pure.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from typing import Any, Final, TypeVar

from hookcourse.errors import InputError, json_path
from hookcourse.js.json import quote
from hookcourse.js.values import JSValue
from hookcourse.shell import Quoting

from .catalogue import permission_facts
from .permission_rule import (
    ASSIGNMENT,
    PATH_FIELDS,
    SHELL_TOOLS,
    CallPlace,
    QuotesOnly,
    RuleSyntaxError,
    check_rule,
    command_words,
    has_pipe,
    parse_rule,
    path_matches,
    simple_commands,
    split_deny_list,
    split_rule_list,
    unsplittable_because,
)
from .settings import Origin, PermissionEntry, SettingsSource
from .versions import (
    allow_lifts_ask_rule,
    allow_lifts_deny_rule,
    answering,
    assignment_checked,
    auto_checks_outside,
    blocked_part_first,
    blocked_part_left_out,
    changer_known,
    check_made,
    first_path_named,
    flag_checked,
    input_read,
    legacy_check_text,
    missing_tool,
    part_braces_dropped,
    parts_spaced_singly,
    plan_checked,
    quoted_variable_checked,
    read_only_known,
    redirect_as_part,
    redirect_unchecked,
    refused_rule_note,
    skill_ask_text,
    variable_known,
    verb_check_text,
    whole_command_rule_note,
    write_blocked_text,
    write_need_read,
    writes_known,
)

_Text = TypeVar("_Text")
"""A word of a simple command, lexed (``_Word``) or as text."""
READ_ONLY_TOOLS: Final = frozenset({"Read", "Grep", "Glob", "LS", "NotebookRead"})
EDIT_TOOLS: Final = frozenset({"Edit", "Write", "MultiEdit", "NotebookEdit"})
SESSION_TOOLS: Final = frozenset(
    {"TaskCreate", "TaskGet", "TaskList", "TaskUpdate", "EnterWorktree"}
)
"""Tools that change the session's own state, its task list (offered in print mode with
CLAUDE_CODE_ENABLE_TODO_TOOLS=1) or its folder: they need no approval, in plan mode too
(2.1.332: tk-create-complete, wt-enter-tool, wt-enter-tool-plan)."""
SELF_APPROVED_TOOLS: Final = frozenset({"Agent"})
"""Tools whose own permission check allows every call, in every mode but those where the
auto-mode check decides (2.1.332: launching a subagent needs no rule; flag-agent-plan-mode)."""
CHECKED_MODES: Final = frozenset({"auto", "plan"})
"""The modes in which 2.1.332 leaves such a tool to the auto-mode safety check."""
EDITING_MODES: Final = frozenset({"acceptEdits", "auto"})
"""The modes that let edits run without asking: auto mode's check is not asked about an
edit acceptEdits would let run (2.1.285 to 2.1.301, whose sessions ran in auto mode
offline: x-permreq-deny-interrupt's Write ran while their Agent calls were refused)."""
SHELL_TOOL: Final = "Bash"
"""The tool whose ``find`` and ``grep`` stand in for Glob and Grep: print mode offers
those two only when Bash is removed (2.1.332, hidden-flag-disallowed-tools)."""
COMMAND_LINE_LISTS: Final = {"allow": "--allowedTools", "deny": "--disallowedTools"}
"""The flags of ``claude`` that add rules for the session, by the list they add to."""
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
    unjudged: bool = False
    """Refused because auto mode's safety check gave no verdict (print mode's plan mode
    refuses so what is not read-only, 2.1.332): PermissionDenied fires."""
    edits: bool = False
    """Allowed because the mode lets edits run (acceptEdits, auto)."""
    fallback: str | None = None
    """Auto mode: the refusal the call gets where auto mode falls back to asking (as in
    default mode) instead of its check (some releases, after refusals in a row)."""

    @property
    def stops(self) -> bool:
        return self.decision == STOPPED

    def to_json(self) -> dict[str, JSValue]:
        return {
            "decision": self.decision,
            "decidedBy": self.decided_by,
            "mode": self.mode,
            **_rule_json(self.rule),
            "matchingRules": list(self.considered),
            "refusal": self.refusal,
        }


def _rule_json(rule: PermissionEntry | None) -> dict[str, JSValue]:
    """The rule that decided, as ``fire --json`` shows it (all None when no rule did)."""
    return {
        "rule": None if rule is None else str(rule.rule),
        "ruleList": None if rule is None else rule.behaviour,
        "ruleFile": None if rule is None else rule.origin.file,
        "rulePath": None if rule is None else json_path(rule.origin.path),
    }


def command_line_rules(
    allowed: Sequence[str] = (), disallowed: Sequence[str] = ()
) -> tuple[PermissionEntry, ...]:
    """The rules ``--allowedTools`` and ``--disallowedTools`` add (comma or space separated,
    as Claude Code splits them). They hold for the session whatever the folder's trust.

    Raises InputError for a rule that is not ``Tool`` or ``Tool(specifier)``."""
    entries: list[PermissionEntry] = []
    for behaviour, values, split in (
        ("deny", disallowed, split_deny_list),
        ("allow", allowed, split_rule_list),
    ):
        flag = COMMAND_LINE_LISTS[behaviour]
        for index, text in enumerate(split(values)):
            # Claude Code reads Tool() as the bare tool, as it reads Tool(*).
            text = text[:-2] if text.endswith("()") else text
            if refused_rule_note(text) is not None:
                # fire --claude-version: a release that refused such a rule applied none
                # (measured on --allowed-tools "Bash(touch *)" before wildcard-rule-arrives).
                continue
            try:
                rule = parse_rule(text)
            except RuleSyntaxError as error:
                raise InputError(
                    flag, str(error), f'pass rules such as {flag} "Bash(git *)" Edit'
                ) from None
            entries.append(
                PermissionEntry(behaviour, rule, Origin(SettingsSource.FLAG, flag, (index,)))
            )
    return tuple(entries)


def _where(entry: PermissionEntry) -> str:
    origin = entry.origin
    if origin.file in COMMAND_LINE_LISTS.values():
        return f"{entry.behaviour} rule {quote(str(entry.rule))} given by {origin.file}"
    return (
        f"{entry.behaviour} rule {quote(str(entry.rule))} in {origin.source} settings "
        f"{origin.file} {json_path(origin.path)}"
    )


@dataclass(frozen=True)
class ToolRefusal:
    """A call refused before any PreToolUse hook runs: the tool is not offered, or its own
    input check refuses it (2.1.332)."""

    result: str
    """The tool_result the model gets."""
    why: str
    """One sentence naming what refused it."""
    rule: PermissionEntry | None = None

    def to_json(self) -> dict[str, JSValue]:
        return {"toolResult": self.result, "why": self.why, **_rule_json(self.rule)}


def refused_before_hooks(
    entries: Sequence[PermissionEntry],
    tool_name: str,
    tool_input: JSValue,
    place: CallPlace,
    read: frozenset[str] = frozenset(),
) -> ToolRefusal | None:
    """What refuses this call before the PreToolUse hooks, in 2.1.332's order: a bare deny
    rule removes the tool, print mode does not offer it, a path deny rule refuses a file
    tool in its input validation, and NotebookEdit refuses a notebook not in ``read``
    (the files the session has Read)."""
    missing = missing_tool(tool_name, tool_input)
    if missing is not None:
        # fire --claude-version: a release before the tool (or its input) arrived (measured).
        return ToolRefusal(*missing)
    facts = permission_facts()
    removed = _removed_tools(entries)
    if tool_name in removed:
        entry = removed[tool_name]
        text = facts.refusal("no_such_tool", tool=tool_name)
        return ToolRefusal(text, f"the {_where(entry)} removes the tool", entry)
    instead = facts.tools_not_offered.get(tool_name)
    if instead is not None and SHELL_TOOL not in removed:
        text = facts.refusal("not_offered", tool=tool_name, instead=instead)
        return ToolRefusal(text, f"print mode does not offer {tool_name} in Claude Code 2.1.332")
    for entry in entries if tool_name in PATH_FIELDS else ():
        if entry.behaviour != "deny" or entry.rule.specifier is None:
            continue
        check = check_rule(entry.rule, tool_name, tool_input, place, permission=True)
        if check.applies and check.certain:
            sentence = f"the {_where(entry)} refuses the path in {tool_name}'s input check"
            return ToolRefusal(facts.refusal("deny_rule_path"), sentence, entry)
    field = facts.read_first.get(tool_name)
    path = tool_input.get(field) if field and isinstance(tool_input, dict) else None
    if isinstance(path, str) and _absolute(path, place) not in {_absolute(p, place) for p in read}:
        sentence = f"{tool_name} refuses {path} in its input check: the session has not Read it"
        return ToolRefusal(facts.refusal("not_read"), sentence)
    return None


def _removed_tools(entries: Sequence[PermissionEntry]) -> dict[str, PermissionEntry]:
    """The tools bare deny rules remove, each with the first rule that removes it."""
    removed: dict[str, PermissionEntry] = {}
    for entry in entries:
        if entry.behaviour == "deny" and entry.rule.specifier is None:
            removed.setdefault(entry.rule.tool, entry)
    return removed


def permission_step(
    hook_decision: str | None,
    entries: Sequence[PermissionEntry],
    tool_name: str,
    tool_input: JSValue,
    place: CallPlace,
    mode: str,
    trusted: bool = True,
    skill_hooks: bool = False,
) -> PermissionStep:
    """Decide a call the hooks did not stop, as Claude Code does after PreToolUse.

    ``trusted``: the folder's trust dialog was accepted, so the project's allow rules apply.
    ``skill_hooks``: a Skill call's skill declares hooks in its frontmatter.
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
    if tool_name == "Bash" and isinstance(command, str) and "deny" not in matching:
        # A Read deny rule also covers the files a read-only command names (cat secrets/x).
        read_denied = _read_denied(command, entries, place)
        if read_denied is not None:
            matching["deny"] = read_denied
            considered.append(f"{_where(read_denied)}: covers a file the command reads")
            found = tuple(considered)
    if "deny" in matching and hook_decision == "allow" and allow_lifts_deny_rule():
        # fire --claude-version: a release where the hook's allow beat the rule (measured).
        return by("allow", "the hook said allow, which beat the deny rule in that release")
    if "deny" in matching:
        refusal = facts.refusal("deny_rule", tool=tool_name)
        if tool_name in SHELL_TOOLS and isinstance(command, str):
            refusal = facts.refusal("deny_rule_command", tool=tool_name, command=command)
        elif matching["deny"].rule.specifier is not None and tool_name in PATH_FIELDS:
            refusal = facts.refusal("deny_rule_path")
        return by_rule("deny", "deny", f"stops the call{after}: a hook cannot override it", refusal)
    if "ask" in matching and hook_decision == "allow" and allow_lifts_ask_rule():
        # fire --claude-version: a release where the hook's allow lifted the rule (measured).
        return by("allow", "the hook said allow, which lifted the ask rule in that release")
    if "ask" in matching:
        if mode == "dontAsk":
            refusal = facts.refusal("dont_ask", tool=tool_name)
            return by_rule("ask", "deny", "would prompt, and dontAsk mode denies instead", refusal)
        refusal = facts.refusal("tool", tool=tool_name)
        return by_rule("ask", "ask", f"still prompts the user{after}", refusal)
    if hook_decision == "ask":
        return by("ask", "the hook said ask: the user is prompted")
    if mode == "plan" and tool_name in EDIT_TOOLS:
        path = tool_input.get("file_path") if isinstance(tool_input, dict) else None
        if isinstance(path, str):
            # Neither a hook's allow nor an allow rule lets plan mode write (2.1.332).
            text = facts.refusal("plan_write", path=path)
            return PermissionStep("deny", "plan mode writes no file", mode, None, found, text)
    if hook_decision == "allow" and mode != "plan":
        return by("allow", "the hook said allow: the call runs without a prompt")
    if hook_decision == "defer":
        return by("ask", "the hook deferred the call: it waits, and is checked again on resume")
    if "allow" in matching:
        outside = _outside_part(command, place) if tool_name == "Bash" else None
        if outside is not None and matching["allow"].rule.specifier is not None:
            return PermissionStep(
                "deny", "a path outside the working directories", mode, None, found, outside
            )
        if outside is not None and mode == "auto" and auto_checks_outside():
            # A rule for the whole tool leaves a path outside them to auto mode's check
            # (2.1.332: x-cd-parent-allowed-tools-auto).
            return _by_mode(tool_name, tool_input, mode, found, outside)
        blocked = _blocked_write(command, place) if tool_name == "Bash" else None
        if blocked is not None:
            return PermissionStep(
                "deny", "a file write the release refused", mode, None, found, blocked
            )
        return by_rule("allow", "allow", "lets the call run without a prompt", None)
    if tool_name == "Bash" and isinstance(command, str):
        return _bash_by_parts(command, allows, place, mode, found)
    if tool_name in SELF_APPROVED_TOOLS and mode not in CHECKED_MODES:
        return by("allow", f"no rule matched; {tool_name} needs no approval")
    skill = tool_input.get("skill") if isinstance(tool_input, dict) else None
    if tool_name == "Skill" and isinstance(skill, str):
        # An older release answered as asked before every skill (fire --claude-version).
        asked = skill_ask_text(skill)
        if asked is not None:
            return _by_mode(tool_name, tool_input, mode, found, asked)
    if tool_name == "Skill" and not skill_hooks:
        return by("allow", "no rule matched; a skill without hooks launches with no approval")
    if tool_name == "Skill" and isinstance(skill, str):
        return _by_mode(tool_name, tool_input, mode, found, facts.refusal("skill", skill=skill))
    return _by_mode(tool_name, tool_input, mode, found)


@dataclass(frozen=True)
class _Need:
    """Why one simple command needs approval: the refusal text, and whether it edits files
    inside the working directories (which acceptEdits allows)."""

    refusal: str
    edits: bool = False
    generic: bool = False
    """The plain "requires approval" text, which a compound command words its own way."""
    outside: bool = False
    """A path outside the working directories: only a rule for the whole tool allows it."""
    plain_when_editing: bool = False
    """A write inside the working directories by a command acceptEdits does not let run:
    in acceptEdits and auto mode it needs approval as any command."""
    first: bool = False
    """A check on what the command holds (a variable, a flag that runs code): its text wins
    over any other part's, as 2.1.332 checks these before it weighs the parts."""
    subject: str = ""
    """A command writing a file inside them: ``<verb> in '<path>'`` (an older release
    answered as refused it even where an allow rule covered it)."""
    shown: str = ""
    """How a compound's refusal names this part, when not as written: an older release
    named an output redirection's file as a part of its own (``npm test, out.txt``)."""
    blocked_as: str = ""
    """``outside`` (a path read or entered outside the working directories), ``write`` or
    ``redirect`` (a write inside them an older release refused as blocked): a part some
    releases let win over the other parts of a compound command."""


@dataclass(frozen=True)
class _Word:
    """One shell word: its text with quotes removed and ``$HOME`` filled in."""

    text: str
    redirect: str = ""
    """``<`` or ``>`` when the word is the file of a redirection."""
    expansion: str = ""
    """``variable``, ``braced_variable`` or ``arithmetic`` when the word holds one that
    cannot be filled in before the command runs (``unfilled``: a known variable the release
    answered as did not fill in yet)."""
    quoted: bool = False


@dataclass(frozen=True)
class _Part:
    """What one simple command needs, and the files it reads (for Read deny rules)."""

    need: _Need | None
    reads: tuple[str, ...] = ()


@cache
def _shell() -> Mapping[str, Any]:
    return permission_facts().shell


def _inside(path: str, place: CallPlace) -> bool:
    roots = tuple(posixpath.normpath(root) for root in (*place.working_dirs, place.cwd))
    return any(path == root or path.startswith(root.rstrip("/") + "/") for root in roots)


def _shown_dirs(place: CallPlace) -> str:
    """The working directories as a refusal names them (the project first)."""
    return "', '".join(place.working_dirs)


def _absolute(word: str, place: CallPlace) -> str:
    if word == "~" or word.startswith("~/"):
        word = place.home + word[1:]
    return posixpath.normpath(posixpath.join(place.cwd, word))


_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9?#@*$!-]")
_REDIRECT: Final = re.compile(r"(\d*)(&?[<>]{1,2}[&|]?)")
_DESCRIPTOR: Final = re.compile(r"\s*(\d+|-)(?=\s|$)")


def _expansion(part: str, i: int, home: str) -> tuple[str, str, int]:
    """The ``$`` at ``i``: its text (a known variable filled in), the kind of expansion
    that cannot be filled in (``""`` if none), and the index after it."""
    if part.startswith("$((", i):
        end = part.find("))", i)
        end = len(part) if end < 0 else end + 2
        return part[i:end], "arithmetic", end
    if part.startswith("${", i):
        return "$", "braced_variable", i + 1
    name = _NAME.match(part, i + 1)
    if name is None:
        return "$", "", i + 1
    if name.group() in _shell()["known_variables"]:
        # An older release answered as did not fill it in yet (fire --claude-version).
        known = variable_known(name.group())
        return (home, "", name.end()) if known else (part[i : name.end()], "unfilled", name.end())
    return part[i : name.end()], "variable", name.end()


def _lex(part: str, home: str) -> list[_Word] | None:
    """The words of one simple command, redirections marked; None when a quote is open.

    A view over ``hookcourse.shell``'s quoting (quotes and backslashes only) that reads
    as the permission step does: in double quotes a backslash drops before any
    character, ``$((`` runs to the first ``))``, ``${`` keeps its brace as text, and
    ``<``, ``>`` or ``&`` outside quotes starts a redirection.
    """
    words: list[_Word] = []
    text: list[str] = []
    started, expansion, quoted, redirect = False, "", False, ""
    reading, i = QuotesOnly(part), 0
    while i <= len(part):
        ch = part[i] if i < len(part) else " "
        quoting = reading.quoting(i) if i < len(part) else Quoting.NONE
        if i < len(part) and ch != "\\" and reading.mark(i):  # a quote mark
            started, i = True, i + 1
        elif quoting is Quoting.SINGLE or (quoting is Quoting.DOUBLE and ch not in "$\\"):
            text.append(ch)
            i += 1
        elif ch == "\\" and i + 1 < len(part):
            text.append(part[i + 1])
            started, i = True, i + 2
        elif ch == "$":
            piece, kind, end = _expansion(part, i, home)
            if kind == "arithmetic":  # what it skipped is not quoting: read on as before it
                reading.jump(end, quoting)
            text.append(piece)
            started, expansion, i = True, expansion or kind, end
            quoted = quoted or (kind in ("variable", "unfilled") and quoting is Quoting.DOUBLE)
        elif ch in " \t" or (ch in "<>&" and _REDIRECT.match(part, i)):
            operator = _REDIRECT.match(part, i) if ch != " " else None
            # The digits of 2> name a descriptor, not a word.
            if started and not (operator and "".join(text).isdigit() and not quoted):
                words.append(_Word("".join(text), redirect, expansion, quoted))
                redirect = ""
            text.clear()
            started, expansion, quoted = False, "", False
            if operator is None:
                i += 1
                continue
            i, redirect = operator.end(), "<" if "<" in operator.group(2) else ">"
            descriptor = _DESCRIPTOR.match(part, i) if operator.group(2).endswith("&") else None
            if descriptor is not None:
                # 2>&1, >&2: a descriptor, not a file.
                i, redirect = descriptor.end(), ""
        else:
            text.append(ch)
            started, i = True, i + 1
    return None if reading.open_quote() is not Quoting.NONE else words


_BRACED: Final = re.compile(r"\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)\}")


def _shown_part(part: str) -> str:
    """One simple command as a compound's refusal names it: its redirections (``> out.txt``,
    ``2>&1``) left out, the rest as written (an older release: each run of blanks outside
    quotes as one space, ``${NAME}`` as ``$NAME``)."""
    reading, kept, i = QuotesOnly(part), list[str](), 0
    singly, unbraced = parts_spaced_singly(), part_braces_dropped()
    while i < len(part):
        ch = part[i]
        plain = reading.quoting(i) is Quoting.NONE and not reading.escaped(i)
        if singly and plain and ch in " \t" and kept[-1:] == [" "]:
            i += 1
            continue
        if singly and plain and ch == "\t":
            ch = " "
        braced = (
            _BRACED.match(part, i)
            if unbraced and reading.quoting(i) is not Quoting.SINGLE
            else None
        )
        if braced is not None:
            kept.append(f"${braced['name']}")
            i = braced.end()
            continue
        starts = ch in "<>&" or (ch.isdigit() and (i == 0 or part[i - 1] in " \t"))
        operator = _REDIRECT.match(part, i) if plain and starts else None
        if operator is None:
            kept.append(ch)
            i += 1
            continue
        i = operator.end()
        descriptor = _DESCRIPTOR.match(part, i) if operator.group(2).endswith("&") else None
        if descriptor is not None:
            i = descriptor.end()
            continue
        while i < len(part) and part[i] in " \t":
            i += 1
        while i < len(part) and not (part[i] in " \t" and reading.quoting(i) is Quoting.NONE):
            i += 1
    return "".join(kept).strip()


def _flag_blocked(flag: str, patterns: Sequence[str]) -> bool:
    return any(
        flag.startswith(pattern[:-1]) if pattern.endswith("*") else flag == pattern
        for pattern in patterns
    )


def _paths(verb: str, arguments: Sequence[str], place: CallPlace) -> list[str]:
    """The files a command names, as absolute paths."""
    return [_absolute(word, place) for word in _path_words(verb, arguments)]


def _path_words(verb: str, arguments: Sequence[str]) -> list[str]:
    """The files a command names: its arguments that are not flags (nor its pattern)."""
    positional: list[str] = []
    skip_next, patterns_given = False, False
    for word in arguments:
        if skip_next:
            skip_next = False
        elif word in ("-e", "--regexp"):
            skip_next, patterns_given = True, True
        elif not word.startswith("-") or word == "-":
            positional.append(word)
    if verb in _shell()["pattern_first"] and not patterns_given:
        positional = positional[1:]
    return [word for word in positional if word != "-"]


def _write_need(subject: str, path: str, place: CallPlace) -> _Need:
    facts = permission_facts()
    if _inside(path, place):
        return _Need(
            facts.refusal("write_inside", subject=subject, cwd=_shown_dirs(place)), edits=True
        )
    cwd = _shown_dirs(place)
    # An older release answered as refused it as blocked (fire --claude-version); its
    # output redirections for a shorter span than its commands' writes.
    which = "outside.redirect" if subject.startswith("Output redirection") else "outside"
    blocked = write_blocked_text(subject, cwd, which)
    return _Need(blocked or facts.refusal("write_outside", subject=subject, cwd=cwd))


def _release_write(subject: str, path: str, place: CallPlace, generic: _Need) -> _Need:
    """``_write_need``, as the release answered as (fire --claude-version) refused a write
    inside the working directories: as any command needing approval, or as blocked."""
    need = _write_need(subject, path, place)
    if not need.edits:
        return need
    if not write_need_read():
        # A command with a check of its own was refused in its words (sed, 2.0.55).
        checked = verb_check_text(subject.partition(" ")[0])
        if checked is not None:
            return _Need(checked, edits=True)
        return replace(generic, edits=True)  # acceptEdits let it run all the same (2.0.72)
    blocked = write_blocked_text(subject, _shown_dirs(place), "uncovered")
    if blocked is None:
        return replace(need, subject=subject)
    blocked_as = "redirect" if subject.startswith("Output redirection") else "write"
    return replace(need, subject=subject, refusal=blocked, blocked_as=blocked_as)


def _examine(part: str, place: CallPlace, compound: bool = False) -> _Part:
    """What one simple command (of a ``compound`` command) needs (None: it only reads
    inside the working directories)."""
    facts, shell = permission_facts(), _shell()
    generic = _Need(facts.refusal("command"), generic=True)
    words = _lex(part, place.home) or []
    # A variable some tools read (LANG=C ls) leaves the command judged as its name alone.
    words = words[_assignments_before(words, lambda word: "" if word.redirect else word.text) :]
    if not words or words[0].redirect or ASSIGNMENT.match(words[0].text):
        return _Part(generic)
    arguments = [word for word in words if not word.redirect]
    verb, rest = arguments[0].text, [word.text for word in arguments[1:]]
    for word in arguments:
        if word.quoted and word.expansion == "variable" and not quoted_variable_checked(verb):
            continue  # an older release answered as read it as text (fire --claude-version)
        if word.expansion and not (word.expansion == "arithmetic" and verb in shell["output_only"]):
            name = "braced_variable" if word.expansion == "braced_variable" else "variable"
            if word.expansion == "unfilled":
                # Not filled in yet: a variable, or inside double quotes quoted text.
                name = "quoted_text" if word.quoted else "variable"
            # An older release answered as had no such check (fire --claude-version).
            return _Part(_Need(facts.refusal(name), first=True) if check_made(name) else generic)
    reads: list[str] = []
    for word in words:
        if not word.redirect:
            continue
        path = _absolute(word.text, place)
        if word.redirect == ">" and word.text not in shell["silent_targets"]:
            # An older release answered as named the file as a part of its own, or let the
            # redirection through unchecked (fire --claude-version).
            if redirect_as_part():
                own = _verb_need(verb, rest, place, []) or not read_only_known(verb, compound)
                return _Part(
                    replace(generic, shown=f"{_shown_part(part)}, " * bool(own) + word.text)
                )
            where = "inside" if _inside(path, place) else "outside"
            if redirect_unchecked(where + ".compound" * compound):
                continue
            return _Part(_release_write(f"Output redirection to '{path}'", path, place, generic))
        if word.redirect == "<" and not _inside(path, place):
            subject, verb_phrase = f"Input redirection from '{path}'", shell["input_redirect_verb"]
            text = facts.refusal(
                "read_outside", subject=subject, verb=verb_phrase, cwd=_shown_dirs(place)
            )
            return _Part(_Need(text))
        if word.redirect == "<" and input_read():
            reads.append(path)  # an older release answered as did not count it (--claude-version)
    return _Part(_verb_need(verb, rest, place, reads), tuple(reads))


def _verb_need(verb: str, rest: list[str], place: CallPlace, reads: list[str]) -> _Need | None:
    """The need of ``verb rest`` by the catalogue's lists (``permissions.shell``)."""
    facts, shell = permission_facts(), _shell()
    generic = _Need(facts.refusal("command"), generic=True)
    if " ".join([verb, *rest]) in shell["exact"]:
        return None
    if verb in shell["no_arguments"]:
        return generic if rest else None
    if verb in shell["subcommands"] or verb in shell["flags_only_subcommands"]:
        named = any(
            rest[: len(sub.split())] == sub.split() for sub in shell["subcommands"].get(verb, ())
        )
        bare = (
            bool(rest)
            and rest[0] in shell["flags_only_subcommands"].get(verb, ())
            and all(word.startswith("-") for word in rest[1:])
        )
        return None if named or bare else generic
    flags = [word for word in rest if word.startswith("-")]
    # An older release answered as may not have judged the command as writing yet.
    writing = (verb in shell["file_writing"] and writes_known(verb)) or any(
        _flag_blocked(flag, shell["writing_flags"].get(verb, ())) for flag in flags
    )
    paths = _paths(verb, rest, place)
    if verb in shell["file_writing"] and not writing:
        # An older release answered as did not judge it as writing: it needed approval as
        # any command, and acceptEdits let its own commands run all the same (2.0.72).
        inside = bool(paths) and all(_inside(path, place) for path in paths)
        return replace(generic, edits=inside and verb in shell["accept_edits_verbs"])
    if writing:
        if not paths:
            return generic
        outside = [path for path in paths if not _inside(path, place)]
        # An older release answered as named the first path (fire --claude-version).
        path = paths[0] if first_path_named() else (outside or paths)[0]
        need = _release_write(f"{verb} in '{path}'", path, place, generic)
        if need.edits and verb not in shell["accept_edits_verbs"]:
            # acceptEdits lets the write through, not the command (tee, 2.1.332).
            return replace(need, edits=False, plain_when_editing=True)
        return need
    if verb not in shell["any_arguments"] and verb not in shell["checked_flags"]:
        return generic
    # An older release answered as may not have checked the flag yet (fire --claude-version).
    checked = shell["checked_flags"].get(verb, ())
    blocked = next((f for f in flags if _flag_blocked(f, checked) and flag_checked(verb, f)), None)
    if blocked is not None:
        refusal = shell["flag_refusals"].get(verb, "command")
        if not check_made(refusal):
            return generic  # an older release answered as had no such check
        text = facts.refusal(refusal, verb=verb, flag=blocked)
        return _Need(text, generic=refusal == "command", first=refusal != "command")
    if any(word in shell["unparsed_operators"].get(verb, ()) for word in rest):
        if not check_made("parse_error"):
            return None  # an older release answered as judged it by the word lists alone
        return _Need(facts.refusal("parse_error"), first=True)
    if verb in shell["path_verbs"]:
        reads.extend(paths)
        outside = [path for path in paths if not _inside(path, place)]
        if outside:
            subject, phrase = f"{verb} in '{outside[0]}'", shell["path_verbs"][verb]
            text = facts.refusal(
                "read_outside", subject=subject, verb=phrase, cwd=_shown_dirs(place)
            )
            return _Need(text, outside=True, blocked_as="outside")
    return None


def _unsplittable_need(command: str) -> _Need:
    facts = permission_facts()
    why = unsplittable_because(command) or ""
    if why == "a quoted command substitution":
        return _Need(facts.refusal("quoted_text"))
    if why == "a command or process substitution" and ("$(" in command or "`" in command):
        return _Need(facts.refusal("nested_command"))
    return _Need(facts.refusal("command"), generic=True)


LEGACY_CONSTRUCTS: Final = (
    "backticks",
    "command_substitution",
    "braced_variable",
    "input_redirection",
    "output_redirection",
    "path_variable",
    "quoted_redirection",
)
"""What releases before 2.1.89 looked for in a Bash command's text before judging its
parts, each refused in words of its own: backticks, ``$(`` (``$((`` too), ``${``, a
``<`` or ``>`` redirection, a variable in a path argument (``cat "$FOO/x"``), a ``<`` or
``>`` inside quotes (``echo "a > b"``, refused as any command needing approval). The order
they are tried in here is this list's (no recorded command holds two)."""


def legacy_constructs(command: str, home: str = "~") -> tuple[str, ...]:
    """The ``LEGACY_CONSTRUCTS`` that ``command`` holds, in that order, each with
    ``.compound`` when it has several simple commands (a release may check a compound's
    text later than a lone command's)."""
    reading, found = QuotesOnly(command), set()
    for i, ch in enumerate(command):
        if ch in "<>" and reading.quoting(i) is not Quoting.NONE:
            found.add("quoted_redirection")
        if reading.quoting(i) is Quoting.SINGLE or reading.escaped(i):
            continue
        if ch == "`":
            found.add("backticks")
        elif command.startswith("$(", i):
            found.add("command_substitution")
        elif command.startswith("${", i):
            found.add("braced_variable")
    shell = _shell()
    parts = simple_commands(_substitutions_blanked(command), keep_assignments=True) or []
    for part in parts:
        words = _lex(part, home) or []
        if any(word.redirect == "<" for word in words):
            found.add("input_redirection")
        if any(w.redirect == ">" and w.text not in shell["silent_targets"] for w in words):
            found.add("output_redirection")
        arguments = [word for word in words if not word.redirect]
        if arguments and arguments[0].text in shell["path_verbs"]:  # a variable, braced too
            held = {w.text for w in arguments[1:] if w.expansion.endswith(("variable", "unfilled"))}
            named = _path_words(arguments[0].text, [word.text for word in arguments[1:]])
            found.update(["path_variable"] if held.intersection(named) else [])
    compound = ".compound" if len(parts) > 1 else ""
    return tuple(name + compound for name in LEGACY_CONSTRUCTS if name in found)


def _substitutions_blanked(command: str) -> str:
    """``command`` with each command substitution (backticks, ``$(...)``) outside single
    quotes written as one word of ``x`` as long as it: what is left splits into its simple
    commands, each at the same place as in ``command``."""
    reading, kept, i = QuotesOnly(command), list[str](), 0
    while i < len(command):
        live = reading.quoting(i) is not Quoting.SINGLE and not reading.escaped(i)
        start = i
        if live and command[i] == "`":
            end = command.find("`", i + 1)
            i = len(command) if end < 0 else end + 1
        elif live and command.startswith("$(", i) and not command.startswith("$((", i):
            depth, i = 1, i + 2
            while i < len(command) and depth:
                depth += {"(": 1, ")": -1}.get(command[i], 0)
                i += 1
        else:
            kept.append(command[i])
            i += 1
            continue
        kept.append("x" * (i - start))
    return "".join(kept)


def _parts_around_substitutions(
    command: str, place: CallPlace
) -> tuple[tuple[str, _Part], ...] | None:
    """The simple commands of a command holding a command substitution, as written, each
    with what it needs (one holding a substitution: approval, as any command); None when
    it does not split so."""
    blanked = _substitutions_blanked(command)
    split = simple_commands(blanked, keep_assignments=True)
    if not split or blanked == command:
        return None
    generic = _Part(_Need(permission_facts().refusal("command"), generic=True))
    found, at = [], 0
    for piece in split:
        start = blanked.find(piece, at)
        if start < 0:
            return None
        at = start + len(piece)
        written = command[start:at]
        found.append((written, generic if written != piece else _examine(written, place, True)))
    return tuple(found)


def _legacy_need(command: str, place: CallPlace) -> _Need | None:
    """The refusal of an older release that checked ``command``'s text for a construct
    (``legacy_constructs``, the first it checked) before judging its parts; None for the
    newest."""
    if answering() is None:
        return None  # no window holds for the newest: skip reading the text on every call
    texts = (legacy_check_text(found) for found in legacy_constructs(command, place.home))
    text = next((text for text in texts if text is not None), None)
    return None if text is None else _Need(text, first=True)


def _verb(part: str) -> str:
    """The command word of a simple command, past the assignments ``_safe_assignment``
    takes ("" when it has none)."""
    words = _words(part)
    return words[_assignments_before(words, lambda word: word)] if words else ""


@lru_cache(maxsize=16)
def _words(part: str) -> tuple[str, ...]:
    return tuple(command_words(part) or ())


def _assignments_before(words: Sequence[_Text], text: Callable[[_Text], str]) -> int:
    """How many of ``words`` (their ``text``, "" for one that is no assignment) are
    assignments ``_safe_assignment`` takes before the command's name (never the last)."""
    if len(words) < 2 or not ASSIGNMENT.match(text(words[0])):
        return 0
    # What the release answered as checked, looked up once for the whole run of them.
    checked = {what: assignment_checked(what) for what in ("name", "path", "locale")}
    count = 0
    while count < len(words) - 1 and _safe_assignment(text(words[count]), checked):
        count += 1
    return count


@cache
def _value_pattern(key: str) -> re.Pattern[str]:
    """One of the catalogue's ``safe_assignments`` patterns for a value: ECMAScript ones
    Python reads alike (``\\w`` kept to ASCII; the locale one case-blind, as 2.1.332's)."""
    return re.compile(_shell()["safe_assignments"][key], re.ASCII | re.IGNORECASE)


def _safe_assignment(word: str, checked: Mapping[str, bool | None]) -> bool:
    """Whether an assignment before a command's name (quotes removed) leaves the command
    judged as its name alone: a variable of the catalogue's ``safe_assignments`` (a locale
    one given a locale), its value not like a path; ``checked``: ``assignment_checked`` of
    each of those checks, for the release answered as."""
    if not ASSIGNMENT.match(word) or checked["name"] is None:
        return False  # not an assignment, or an older release that read none
    name, _, value = word.partition("=")
    safe = _shell()["safe_assignments"]
    # An older release answered as checked less of it (fire --claude-version).
    if not checked["name"]:
        return True
    if name not in safe["names"]:
        return False
    if _value_pattern("path_like").search(value) and checked["path"]:
        return False
    if name not in safe["locale_names"] or not checked["locale"]:
        return True
    return _value_pattern("locale_value").match(value) is not None or (
        value == "" and name in safe["empty_allowed"]
    )


def _parts(command: str, place: CallPlace) -> tuple[tuple[str, _Part], ...] | None:
    """Each simple command of ``command`` and what it needs (asked twice per call)."""
    parts = simple_commands(command, keep_assignments=True)
    if parts is None:
        return None
    return tuple((part, _examine(part, place, len(parts) > 1)) for part in parts)


def read_only_command(tool_input: JSValue, place: CallPlace) -> bool:
    """A Bash command made only of read-only commands that name no path outside the project."""
    return _every_part(tool_input, place, lambda need: need is None)


def concurrency_safe(tool_name: str, tool_input: JSValue, place: CallPlace) -> bool:
    """Whether a call may run beside its neighbours in the turn: a read-only tool, or a
    Bash command of read-only commands wherever their paths lie. The calls of a run of
    such are checked at once, so that their runs land before their refusals (auto mode's
    streak of refusals: hidden-readonly-mix-2, 2.1.286)."""
    if tool_name in READ_ONLY_TOOLS:
        return True
    return tool_name == "Bash" and _every_part(
        tool_input, place, lambda need: need is None or need.outside
    )


def _every_part(
    tool_input: JSValue, place: CallPlace, kept: Callable[[_Need | None], bool]
) -> bool:
    """Whether a Bash input's command splits into parts and ``kept`` takes every part's need."""
    command = tool_input.get("command") if isinstance(tool_input, dict) else None
    parts = _parts(command, place) if isinstance(command, str) else None
    return bool(parts) and all(kept(examined.need) for _, examined in parts or ())


def path_blocked(command: str, place: CallPlace) -> bool:
    """Whether a Bash command is refused for a path outside the working directories (the
    one part needing approval names one): a block, not an ask."""
    need = _weigh(command, (), place).need
    return need is not None and need.outside


def _outside_part(command: object, place: CallPlace) -> str | None:
    """The refusal of the first part of a Bash command that names a path outside the
    working directories (a ``cd /tmp``), else None."""
    parts = _parts(command, place) if isinstance(command, str) else None
    needs = [examined.need for _, examined in parts or () if examined.need is not None]
    return next((need.refusal for need in needs if need.outside), None)


def _blocked_in_release(need: _Need, place: CallPlace) -> str | None:
    """The refusal an older release answered as (fire --claude-version) gave a part writing
    a file inside the working directories that an allow rule covers (None: none)."""
    if not need.subject:
        return None
    return write_blocked_text(need.subject, _shown_dirs(place), "covered")


def _blocked_write(command: object, place: CallPlace) -> str | None:
    """``_blocked_in_release`` of the first part of a Bash command it refuses."""
    parts = _parts(command, place) if isinstance(command, str) else None
    found = (_blocked_in_release(e.need, place) for _, e in parts or () if e.need is not None)
    return next((text for text in found if text is not None), None)


def _read_denied(
    command: str, entries: Sequence[PermissionEntry], place: CallPlace
) -> PermissionEntry | None:
    """The Read deny rule covering a file a read-only part of ``command`` names."""
    reads = [path for _, examined in _parts(command, place) or () for path in examined.reads]
    for entry in entries:
        rule = entry.rule
        if (
            entry.behaviour == "deny"
            and rule.tool == "Read"
            and rule.specifier is not None
            and any(path_matches(rule.specifier, path, place) for path in reads)
        ):
            return entry
    return None


def _bash_by_parts(
    command: str,
    allows: Sequence[PermissionEntry],
    place: CallPlace,
    mode: str,
    found: tuple[str, ...],
) -> PermissionStep:
    """A Bash command runs when every part is read-only or covered by an allow rule."""
    # Only a release answered as that matched rules against the whole command looks.
    note = whole_command_rule_note()
    named = (e for e in allows if e.rule.tool == "Bash" and e.rule.specifier == command.strip())
    whole = None if note is None else next(named, None)
    if whole is not None:
        # fire --claude-version: measured on an allow rule naming a compound command.
        sentence = f"the {_where(whole)} names the whole command: {note}"
        return PermissionStep("allow", sentence, mode, whole, found)
    weighed = _weigh(command, allows, place, mode)
    need, covering = weighed.need, weighed.covering
    if need is None:
        if covering:
            entry = covering[0]
            sentence = f"every part is read-only or allowed: the {_where(entry)} lets it run"
            return PermissionStep("allow", sentence, mode, entry, found)
        sentence = "no rule matched; the command only reads, so it needs no approval"
        return PermissionStep("allow", sentence, mode, None, found)
    if mode in EDITING_MODES and need.edits:
        sentence = f"no rule matched; {mode} lets commands that edit files here run"
        return PermissionStep("allow", sentence, mode, None, found, edits=True)
    return _by_mode("Bash", {}, mode, found, need.refusal)


@dataclass(frozen=True)
class _Weighed:
    """What a Bash command needs as a whole once its parts are weighed."""

    need: _Need | None
    """The need whose text a refused call gets (None: every part runs)."""
    covering: tuple[PermissionEntry, ...]
    """The allow rules that let parts needing approval run."""


def _weigh(
    command: str, allows: Sequence[PermissionEntry], place: CallPlace, mode: str = "default"
) -> _Weighed:
    """The parts' needs weighed as 2.1.332 does: a check on what the command holds first,
    then several directory changes, then the parts still needing approval: one keeps its
    own text (a plain one, or any in a pipeline, worded as a compound's part), several are
    named together. An older release that checked the command's text first
    (``_legacy_need``) refused it so unless allow rules let every part run."""
    weighed = _weighed_parts(command, allows, place, mode)
    legacy = _legacy_need(command, place)
    if legacy is not None and (weighed.need is not None or not weighed.covering):
        return _Weighed(legacy, weighed.covering)
    return weighed


def _weighed_parts(
    command: str, allows: Sequence[PermissionEntry], place: CallPlace, mode: str
) -> _Weighed:
    facts = permission_facts()
    parts = _parts(command, place)
    if parts is None and not check_made("nested_command"):
        # An older release answered as split it around its substitutions all the same.
        parts = _parts_around_substitutions(command, place)
    if not parts:
        return _Weighed(_unsplittable_need(command), ())
    owed: list[tuple[str, _Need]] = []
    covering: list[PermissionEntry] = []
    for part, examined in parts:
        if examined.need is None and not read_only_known(_verb(part), len(parts) > 1):
            # An older release answered as needed approval for it all the same.
            examined = replace(examined, need=_Need(facts.refusal("command"), generic=True))
        if examined.need is None:
            continue
        rule = next((e for e in allows if _covers_part(e, part, place)), None)
        if rule is not None and examined.need.outside and rule.rule.specifier is not None:
            rule = None  # Bash(cd:*) does not let cd leave the working directories
        blocked = _blocked_in_release(examined.need, place) if rule is not None else None
        if blocked is not None:
            owed.append((part, _Need(blocked, first=True)))
        elif rule is not None:
            covering.append(rule)
        elif examined.need.plain_when_editing and mode in EDITING_MODES:
            owed.append((part, _Need(facts.refusal("command"), generic=True)))
        else:
            owed.append((part, examined.need))
    first = next((need for _, need in owed if need.first), None)
    # An older release answered as may not have counted every changer (fire --claude-version).
    changers = [verb for verb in _shell()["directory_changers"] if changer_known(verb)]
    if first is None and sum(_verb(part) in changers for part, _ in parts) > 1:
        first = _Need(facts.refusal("several_directory_changes"))
    if first is None and not has_pipe(command):
        # An older release answered as let a part refused for its path win (fire
        # --claude-version); in a pipeline every release lists it with the others.
        kinds = (need for _, need in owed if need.blocked_as)
        first = next((need for need in kinds if blocked_part_first(need.blocked_as)), None)
    if first is not None or not owed:
        return _Weighed(first, tuple(covering))
    # An older release answered as left a part refused for its path alone (what it runs
    # only reads) out of the listing (fire --claude-version).
    listed = [(part, need) for part, need in owed if not _left_out(part, need, place)]
    owed = listed or owed
    named = [need.shown or _shown_part(part) for part, need in owed]
    if len(owed) > 1 or ", " in named[0]:
        edits = all(need.edits for _, need in owed)
        text = facts.refusal("compound_parts", parts=", ".join(named))
        return _Weighed(_Need(text, edits=edits, generic=True), tuple(covering))
    part, need = owed[0]
    if (need.generic or has_pipe(command)) and (len(parts) > 1 or need.shown):
        text = facts.refusal("compound", part=named[0])
        need = _Need(text, edits=need.edits, generic=True)
    return _Weighed(need, tuple(covering))


def _left_out(part: str, need: _Need, place: CallPlace) -> bool:
    """Whether the release answered as left ``part``, refused for its path alone, out of a
    compound command's listing (``blocked_part_left_out``)."""
    if not need.blocked_as or not blocked_part_left_out(need.blocked_as):
        return False
    examined = _examine(_shown_part(part), place, True)
    return examined.need is None and read_only_known(_verb(part), True)


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
    if tool_name in SESSION_TOOLS:
        return step("allow", f"{tool_name} changes only the session's state: no approval")
    if mode in EDITING_MODES and tool_name in EDIT_TOOLS:
        return replace(step("allow", f"{mode} lets edits run"), edits=True)
    if mode == "plan":
        path = tool_input.get("file_path") if isinstance(tool_input, dict) else None
        if tool_name in EDIT_TOOLS and isinstance(path, str):
            text = facts.refusal("plan_write", path=path)
            return step("deny", "plan mode runs only read-only tools", text)
        if not plan_checked():
            # fire --claude-version: a release whose plan mode asked as default mode does.
            return step("ask", "in plan mode the user is prompted (that release's way)", refusal)
        refused = step(
            "deny", "plan mode runs only read-only tools", facts.refusal("plan", tool=tool_name)
        )
        # The check that would judge the call gave no verdict (pd-plan-no-verdict).
        return replace(refused, unjudged=True)
    if mode == "dontAsk":
        text = facts.refusal("dont_ask", tool=tool_name)
        return step("deny", "dontAsk mode denies what is not pre-approved", text)
    if mode == "auto":
        decided = step(
            "classifier", "in auto mode a classifier decides (not modelled by hookcourse)"
        )
        return replace(decided, fallback=refusal)
    return step("ask", f"in {mode} mode the user is prompted", refusal)
