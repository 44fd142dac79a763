"""The handler ``if`` field: one permission rule, such as ``Bash(git *)`` or ``Edit(*.ts)``.

A rule is ``Tool`` or ``Tool(specifier)``; ``Tool(*)`` means the same as ``Tool``.
What the specifier is compared with depends on the tool:

* ``Bash`` / ``PowerShell``: the command, split into subcommands on ``&&``, ``||``,
  ``;``, ``|``, ``&`` and newlines outside quotes, leading ``VAR=value`` words
  dropped. The rule applies when any subcommand matches the whole specifier,
  where ``*`` is any run of characters. A trailing `` *`` also matches the bare
  word (``git *`` matches ``git`` but not ``gitk``); the legacy ``prefix:*``
  matches ``prefix`` alone or followed by a space. A command this module cannot
  split (substitutions, subshells, here-documents, open quotes) is best-effort:
  the hook runs.
* File tools: the path, gitignore-style. ``//abs/path`` is absolute, ``~/p`` is
  under the home directory, ``/p`` is under the project directory, ``p`` or
  ``./p`` with a ``/`` inside is under the current directory, and a pattern with
  no ``/`` (``*.ts``, ``.env``) matches a file or directory name at any depth.
  ``*`` stays within one directory, ``**`` crosses any number, and a pattern
  that matches a directory covers everything in it. ``Edit`` rules cover every
  tool that edits files and ``Read`` rules every tool that reads them.
* ``WebFetch(domain:host)``: the URL's host (``*.example.com`` covers subdomains).
* ``Agent(type)``: the subagent type; ``Skill(name)`` (or ``Skill(name:*)``): the skill.
* ``mcp__server`` (or ``mcp__server__*``) covers every tool of that MCP server.

Any other specifier cannot be checked here, so the hook runs (best-effort).

The Bash reading is a view over ``hookcourse.shell``'s quotes-only lexing
(docs/ARCHITECTURE.md, "One shell reader"): it splits a command as Claude Code's
permission rules do (``split_command``, ``simple_commands``; ``command_words`` for one
part's words) and gives up, as Claude Code does, on what a text split cannot judge.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final
from urllib.parse import urlsplit

from hookcourse.js.json import quote
from hookcourse.js.values import JSValue, js_trim
from hookcourse.shell import Quoting, arithmetic_end, lex

from .catalogue import permission_facts, tool_aliases

SHELL_TOOLS: Final = frozenset({"Bash", "PowerShell"})
# Edit rules apply to every built-in tool that edits files, Read rules to every one that
# reads them (the permissions reference); the field each tool keeps its path in differs.
RULE_TOOL_COVERS: Final[Mapping[str, frozenset[str]]] = {
    "Edit": frozenset({"Edit", "Write", "MultiEdit", "NotebookEdit"}),
    "Read": frozenset({"Read", "Grep", "Glob", "LS"}),
}
PATH_FIELDS: Final[Mapping[str, str]] = {
    "Read": "file_path",
    "Edit": "file_path",
    "Write": "file_path",
    "MultiEdit": "file_path",
    "NotebookEdit": "notebook_path",
    "Grep": "path",
    "Glob": "path",
    "LS": "path",
}

_RULE_SHAPE: Final = re.compile(r"\s*([^\s()]+)\s*(?:\((.*)\))?\s*", re.DOTALL)
ASSIGNMENT: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
"""A variable assignment at the start of a word (``LANG=C``), as ``sh`` reads one."""


class RuleSyntaxError(ValueError):
    """An ``if`` value that is not ``Tool`` or ``Tool(specifier)``."""


@dataclass(frozen=True)
class PermissionRule:
    """A parsed rule: the tool name, and the specifier (None when the rule is the bare tool)."""

    tool: str
    specifier: str | None

    def __str__(self) -> str:
        return self.tool if self.specifier is None else f"{self.tool}({self.specifier})"


@dataclass(frozen=True)
class RuleCheck:
    """Whether a rule lets the hook run for this tool call, and why, in one sentence."""

    applies: bool
    why: str
    certain: bool = True
    """False when the call could not be checked and ``applies`` is the best-effort answer."""


@dataclass(frozen=True)
class CallPlace:
    """Where a tool call happens: what relative path rules are resolved against."""

    project_dir: str
    cwd: str
    home: str
    added_dirs: tuple[str, ...] = ()
    """Working directories beside the project (``--add-dir``), absolute."""

    @property
    def working_dirs(self) -> tuple[str, ...]:
        """The session's working directories: the project first, then those added."""
        return (self.project_dir, *self.added_dirs)


def parse_rule(text: str) -> PermissionRule:
    """Parse ``Tool`` or ``Tool(specifier)``, a legacy tool name read as the current one;
    raises RuleSyntaxError on anything else."""
    shape = _RULE_SHAPE.fullmatch(text)
    if shape is None:
        raise RuleSyntaxError(
            f"{quote(text)} is not a permission rule; write Tool or Tool(specifier), "
            'such as "Bash(git *)" or "Edit(*.ts)"'
        )
    tool, specifier = shape.group(1), shape.group(2)
    if specifier is not None and specifier.strip() == "":
        raise RuleSyntaxError(
            f"{quote(text)} has empty parentheses; write {tool} alone to match every call"
        )
    if specifier is not None and specifier.strip() == "*":
        specifier = None
    # A legacy tool name is read as the current one (Task(Explore) is Agent(Explore)), as
    # 2.1.332's rule parser reads it.
    return PermissionRule(tool_aliases().get(tool, tool), specifier)


def check_rule(
    rule: PermissionRule,
    tool_name: str,
    tool_input: JSValue,
    place: CallPlace,
    *,
    every: bool = False,
    permission: bool = False,
) -> RuleCheck:
    """Does ``rule`` select this tool call, so that the hook with this ``if`` runs?

    ``every=True`` is how an allow rule reads a Bash command: every subcommand must
    match, and a command that cannot be split is not covered (deny and ask rules, and
    ``if``, need only one subcommand and cover what cannot be split). ``permission=True``
    is how the permission step reads a rule (as opposed to ``if``).
    """
    shown_rule = quote(str(rule))
    if not _covers_tool(rule.tool, tool_name, every, permission and rule.specifier is not None):
        return RuleCheck(False, f"{shown_rule} is about {rule.tool}, not {tool_name}")
    if rule.specifier is None:
        return RuleCheck(True, f"{shown_rule} covers every {tool_name} call")
    fields = tool_input if isinstance(tool_input, dict) else {}
    if rule.tool in SHELL_TOOLS:
        return _check_command(rule, shown_rule, fields.get("command"), every)
    if tool_name in PATH_FIELDS:
        field = PATH_FIELDS[tool_name]
        value = fields.get(field, place.cwd if field == "path" else None)
        return _check_path(rule.specifier, shown_rule, field, value, place)
    if rule.tool == "WebFetch" and rule.specifier.startswith("domain:"):
        return _check_domain(rule.specifier[len("domain:") :], shown_rule, fields.get("url"))
    if rule.tool == "Agent":
        return _check_literal(shown_rule, "subagent_type", rule.specifier, fields)
    if rule.tool == "Skill":
        # Skill(name) and the saved form Skill(name:*) name one skill.
        return _check_literal(shown_rule, "skill", rule.specifier.removesuffix(":*"), fields)
    return RuleCheck(
        True,
        f"{shown_rule}: a {rule.tool} specifier is not checked here, so the hook runs",
        certain=False,
    )


def _covers_tool(
    rule_tool: str, tool_name: str, allow: bool = False, path_rule: bool = False
) -> bool:
    # The permission step reads a path rule for a file edit under Edit only (2.1.332):
    # Edit(path) covers Write, Write(path) covers nothing, allow or deny
    # (b-perm-write-path-rule, b-perm-edit-rule-on-write-path, b-perm-deny-write-path);
    # an ``if`` reads Write(path) as written (b-if-write-path).
    if path_rule and tool_name in RULE_TOOL_COVERS["Edit"]:
        return rule_tool == "Edit"
    # An allow rule covers fewer tools: in 2.1.332 a bare Edit allow rule does not cover
    # Write.
    covers = permission_facts().allow_rule_covers if allow else RULE_TOOL_COVERS
    if rule_tool == tool_name or tool_name in covers.get(rule_tool, ()):
        return True
    # mcp__server and mcp__server__* name every tool of one MCP server.
    server = rule_tool.removesuffix("__*")
    return (
        server.startswith("mcp__")
        and server.count("__") == 1
        and (tool_name.startswith(server + "__"))
    )


# --- Bash and PowerShell -----------------------------------------------------------------


class _Unsplittable(Exception):
    """A command the splitter does not understand well enough to judge."""


class QuotesOnly:
    """The quotes-only reading of ``command``, lexed a stretch at a time, each stretch
    ending just past the next ``$((``: after a jump over an arithmetic expansion the
    reading starts again from its end, quoted as before it, and re-reading only a
    stretch keeps that linear."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.jump(0, Quoting.NONE)

    def jump(self, start: int, within: Quoting) -> None:
        """Read on from ``start`` as if ``within`` were open there."""
        candidate = self.command.find("$((", start)
        self.offset, self.end = start, len(self.command) if candidate < 0 else candidate + 3
        self.reading = lex(self.command[start : self.end], quotes_only=True, within=within)

    def _at(self, i: int) -> int:
        while i >= self.end and self.end < len(self.command):
            self.jump(self.end, self.open_quote())
        return i - self.offset

    def quoting(self, i: int) -> Quoting:
        """The quotes character ``i`` sits in."""
        at = self._at(i)  # first: it may read the next stretch
        return self.reading.quoting[at]

    def escaped(self, i: int) -> bool:
        """A backslash escapes character ``i``, or it is that backslash."""
        at = self._at(i)  # first: it may read the next stretch
        return at in self.reading.escaped

    def mark(self, i: int) -> bool:
        """Character ``i`` is a quote mark or an escaping backslash."""
        at = self._at(i)  # first: it may read the next stretch
        return at in self.reading.marks

    def open_quote(self) -> Quoting:
        """The quote left open at the end of what has been read (NONE when none is)."""
        what = self.reading.problems[-1].what if self.reading.problems else ""
        return {"'": Quoting.SINGLE, '"': Quoting.DOUBLE}.get(what, Quoting.NONE)


def split_command(command: str, keep_assignments: bool = False) -> list[str]:
    """The simple commands of a shell command line, leading assignments dropped unless
    ``keep_assignments``; raises _Unsplittable (see ``_split``)."""
    parts, why = _split(command, keep_assignments)
    if why is not None:
        raise _Unsplittable(why)
    return list(parts)


@lru_cache(maxsize=256)
def _split(command: str, keep_assignments: bool) -> tuple[tuple[str, ...], str | None]:
    """``split_command``'s answer, kept: a permission step checks one command against
    every rule. The reason it cannot be split is the second item."""
    try:
        return tuple(_split_command(command, keep_assignments)), None
    except _Unsplittable as why:
        return (), str(why)


def _split_command(command: str, keep_assignments: bool = False) -> list[str]:
    """The simple commands of a shell command line, leading assignments dropped unless
    ``keep_assignments``. An arithmetic ``$((...))`` stays inside its word.

    The reading is Claude Code's, over ``hookcourse.shell``'s quoting (quotes and
    backslashes only): it splits at ``&&``, ``||``, ``|&``, ``;``, ``|``, ``&`` (not the
    one of ``2>&1``, ``>&2`` or ``&>``) and newlines, even the ``|`` of ``>|``; a ``(``,
    ``)``, ``{`` or ``}`` where a command starts, and a substitution, ``<<`` or open
    quote anywhere, raise _Unsplittable. ``#`` starts no comment, and nothing inside a
    ``$((...))`` counts (it runs to where its parentheses balance).
    """
    parts: list[str] = []
    start = i = 0
    reading = QuotesOnly(command)
    while i < len(command):
        ch, pair = command[i], command[i : i + 2]
        quoting = reading.quoting(i)
        if reading.escaped(i) or quoting is Quoting.SINGLE or ch == '"':
            i += 1
            continue
        if command.startswith("$((", i):
            end = arithmetic_end(command, i)
            if end is None:
                raise _Unsplittable("an unclosed $((")
            reading.jump(end, quoting)
            i = end
            continue
        if quoting is Quoting.DOUBLE:
            if ch == "`" or pair == "$(":
                raise _Unsplittable("a quoted command substitution")
        elif ch == "`" or pair in ("$(", "<(", ">("):
            raise _Unsplittable("a command or process substitution")
        elif pair == "<<":
            raise _Unsplittable("a here-document")
        elif ch in "(){}" and not command[start:i].strip(" \t"):
            raise _Unsplittable("a subshell or command group")
        elif (
            pair in ("&&", "||", "|&")
            or ch in ";|\n"
            or (ch == "&" and not _redirect_ampersand(command, i))
        ):
            parts.append(command[start:i])
            i = start = i + (2 if pair in ("&&", "||", "|&") else 1)
            continue
        i += 1
    if reading.open_quote() is not Quoting.NONE:
        raise _Unsplittable(f"an unclosed {reading.open_quote()} quote")
    parts.append(command[start:])
    if keep_assignments:
        return [simple for simple in (part.strip() for part in parts) if simple]
    return [simple for simple in map(_drop_assignments, parts) if simple]


def _redirect_ampersand(command: str, i: int) -> bool:
    """``2>&1``, ``>&2`` and ``&>file`` use ``&`` without ending a command."""
    return (i > 0 and command[i - 1] in "<>") or command[i + 1 : i + 2] == ">"


def _drop_assignments(simple: str) -> str:
    rest = simple.strip()
    reading = lex(rest, quotes_only=True)  # once: each word ends at a blank outside quotes
    start = 0
    while (assignment := ASSIGNMENT.match(rest, start)) is not None:
        end = assignment.end()
        while end < len(rest) and not (rest[end] in " \t" and reading.plain(end)):
            end += 1
        if end >= len(rest):
            return ""
        start = len(rest) - len(rest[end:].lstrip())
    return rest[start:]


def command_matches(specifier: str, simple: str) -> bool:
    """Does one simple command match a Bash specifier as a whole? Linear in their lengths.

    ``*`` is any run of characters (``\\*`` a literal star); a trailing `` *`` also
    matches the bare command; the legacy ``prefix:*`` matches ``prefix`` alone or
    followed by a space. No regex: a pattern with many stars cannot backtrack.
    """
    if specifier.endswith(":*") and "*" not in specifier[:-2]:
        prefix = specifier[:-2]
        return simple == prefix or simple.startswith(prefix + " ")
    if specifier.endswith(" *") and not specifier.endswith("\\ *"):
        pieces = _literal_pieces(specifier[:-2])
        return _wildcard(pieces, simple) or _wildcard([*pieces[:-1], pieces[-1] + " ", ""], simple)
    return _wildcard(_literal_pieces(specifier), simple)


def _literal_pieces(body: str) -> list[str]:
    """The literal text between the unescaped stars of ``body`` (``a*b`` -> ``["a", "b"]``)."""
    pieces = [""]
    i = 0
    while i < len(body):
        if body.startswith("\\*", i):
            pieces[-1] += "*"
            i += 2
        elif body[i] == "*":
            pieces.append("")
            i += 1
        else:
            pieces[-1] += body[i]
            i += 1
    return pieces


def _wildcard(pieces: list[str], text: str) -> bool:
    """Whether ``text`` is ``pieces`` joined by runs of any characters.

    The first piece anchors the start and the last the end; each middle piece is taken
    at its leftmost place, which is never worse for the pieces after it.
    """
    if len(pieces) == 1:
        return text == pieces[0]
    first, *middle, last = pieces
    if len(first) + len(last) > len(text) or not text.startswith(first):
        return False
    if not text.endswith(last):
        return False
    position, end = len(first), len(text) - len(last)
    for piece in middle:
        found = text.find(piece, position, end)
        if found < 0:
            return False
        position = found + len(piece)
    return True


def _check_command(
    rule: PermissionRule, shown_rule: str, command: object, every: bool
) -> RuleCheck:
    if not isinstance(command, str):
        return RuleCheck(
            True, f"{shown_rule}: the call has no command string, so the hook runs", certain=False
        )
    try:
        simple_commands = split_command(command)
    except _Unsplittable as why:
        if every:
            return RuleCheck(False, f"{shown_rule}: the command holds {why}, so it is not covered")
        return RuleCheck(
            True,
            f"{shown_rule}: the command holds {why} and cannot be split, so the hook runs",
            certain=False,
        )
    assert rule.specifier is not None
    matching = [simple for simple in simple_commands if command_matches(rule.specifier, simple)]
    listed = ", ".join(quote(simple) for simple in simple_commands) or "nothing"
    if every:
        covered = bool(simple_commands) and len(matching) == len(simple_commands)
        verb = "matches every one" if covered else "does not match every one"
        return RuleCheck(covered, f"{shown_rule} {verb} of the subcommands: {listed}")
    if matching:
        return RuleCheck(True, f"{shown_rule} matches the subcommand {quote(matching[0])}")
    return RuleCheck(False, f"{shown_rule} matches none of the subcommands: {listed}")


# --- file paths ----------------------------------------------------------------------------


def path_pattern_root(pattern: str, place: CallPlace) -> tuple[str | None, str]:
    """Split a path rule into the directory it is anchored at (None: any depth) and the glob."""
    if pattern.startswith("//"):
        return "/", pattern[2:]
    if pattern.startswith("~/"):
        return place.home, pattern[2:]
    if pattern.startswith("/"):
        return place.project_dir, pattern[1:]
    if pattern.startswith("./"):
        return place.cwd, pattern[2:]
    if "/" in pattern.rstrip("/"):
        return place.cwd, pattern
    return None, pattern.rstrip("/")


def glob_regex(glob: str) -> re.Pattern[str]:
    """A gitignore glob as a regex over a ``/``-separated relative path."""
    pieces: list[str] = []
    i = 0
    while i < len(glob):
        if glob.startswith("**/", i):
            pieces.append("(?:[^/]*/)*")
            i += 3
        elif glob.startswith("**", i):
            pieces.append(".*")
            i += 2
        elif glob[i] == "*":
            pieces.append("[^/]*")
            i += 1
        elif glob[i] == "?":
            pieces.append("[^/]")
            i += 1
        elif glob[i] == "[" and "]" in glob[i + 2 :]:
            end = glob.index("]", i + 2)
            body = glob[i + 1 : end]
            negated = body[:1] in ("!", "^")
            inner = re.escape(body[1:] if negated else body).replace("\\-", "-")
            pieces.append(f"[{'^' if negated else ''}{inner}]")
            i = end + 1
        elif glob[i] == "\\" and i + 1 < len(glob):
            pieces.append(re.escape(glob[i + 1]))
            i += 2
        else:
            pieces.append(re.escape(glob[i]))
            i += 1
    return re.compile("".join(pieces), re.DOTALL)


def path_matches(specifier: str, path: str, place: CallPlace) -> bool:
    """Does the gitignore-style ``specifier`` cover ``path`` (itself or a directory above it)?"""
    absolute = posixpath.normpath(posixpath.join(place.cwd, path))
    root, glob = path_pattern_root(specifier, place)
    pattern = glob_regex(glob.rstrip("/"))
    if root is None:
        names = [name for name in absolute.split("/") if name]
        return any(pattern.fullmatch(name) for name in names)
    root = posixpath.normpath(root)
    relative = posixpath.relpath(absolute, root)
    if relative == ".." or relative.startswith("../"):
        return False
    steps = relative.split("/")
    return any(pattern.fullmatch("/".join(steps[:n])) for n in range(1, len(steps) + 1))


def _check_path(
    specifier: str, shown_rule: str, field: str, value: object, place: CallPlace
) -> RuleCheck:
    if not isinstance(value, str) or value == "":
        return RuleCheck(
            True, f"{shown_rule}: the call has no {field} string, so the hook runs", certain=False
        )
    if path_matches(specifier, value, place):
        return RuleCheck(True, f"{shown_rule} covers {field} {quote(value)}")
    return RuleCheck(False, f"{shown_rule} does not cover {field} {quote(value)}")


def _check_domain(domain: str, shown_rule: str, url: object) -> RuleCheck:
    host = urlsplit(url).hostname if isinstance(url, str) else None
    if host is None:
        return RuleCheck(
            True, f"{shown_rule}: the call has no URL with a host, so the hook runs", certain=False
        )
    wanted = domain.lower()
    covered = host == wanted or (
        wanted.startswith("*.") and host.endswith(wanted[1:]) and host != wanted[2:]
    )
    verb = "covers" if covered else "does not cover"
    return RuleCheck(covered, f"{shown_rule} {verb} the host {quote(host)}")


def _check_literal(
    shown_rule: str, field: str, wanted: str, fields: Mapping[str, JSValue]
) -> RuleCheck:
    value = fields.get(field)
    if not isinstance(value, str):
        return RuleCheck(
            True, f"{shown_rule}: the call has no {field} string, so the hook runs", certain=False
        )
    verb = "matches" if value == wanted else "does not match"
    return RuleCheck(value == wanted, f"{shown_rule} {verb} {field} {quote(value)}")


def simple_commands(command: str, keep_assignments: bool = False) -> list[str] | None:
    """The simple commands of ``command``, or None when it cannot be split safely."""
    try:
        return split_command(command, keep_assignments)
    except _Unsplittable:
        return None


def command_words(part: str) -> list[str] | None:
    """The words of one simple command (quotes removed, as ``sh`` reads them), or None when
    its quoting is unbalanced. ``simple_commands`` splits the line; this reads one part.

    The reading is Python's ``shlex.split``'s, over ``hookcourse.shell``'s quoting: words
    end only at blanks, spaces, tabs, carriage returns and newlines (an operator is part of
    its word), a backslash in double quotes is dropped only before ``"`` or ``\\``, and a
    trailing lone backslash is unbalanced.
    """
    reading = lex(part, quotes_only=True)
    last = len(part) - 1
    if reading.problems or (part.endswith("\\") and last not in reading.escaped):
        return None
    found: list[str] = []
    word: list[str] | None = None
    for i, ch in enumerate(part):
        if ch in " \t\r\n" and reading.plain(i):
            if word is not None:
                found.append("".join(word))
            word = None
            continue
        word = [] if word is None else word
        kept_backslash = reading.quoting[i] is Quoting.DOUBLE and part[i + 1 : i + 2] not in '"\\'
        if i not in reading.marks or (ch == "\\" and kept_backslash):
            word.append(ch)
    if word is not None:
        found.append("".join(word))
    return found


@lru_cache(maxsize=256)
def has_pipe(command: str) -> bool:
    """``command`` has a pipe ``|`` outside quotes (not ``||``, nor the ``>|`` redirection)."""
    reading = lex(command, quotes_only=True)
    i = 0
    while i < len(command):
        if command[i] == "|" and reading.plain(i):
            if command[i + 1 : i + 2] == "|":
                i += 2
                continue
            if command[i - 1 : i] != ">":
                return True
        i += 1
    return False


def unsplittable_because(command: str) -> str | None:
    """What keeps ``command`` from being split (``a command or process substitution``,
    ``a quoted command substitution``, ...), or None when it splits."""
    try:
        split_command(command)
    except _Unsplittable as why:
        return str(why)
    return None


# --- rule lists on the command line (--allowedTools, --disallowedTools) ------------------


def split_rule_list(values: Sequence[str]) -> list[str]:
    """The rules of ``--allowedTools`` values, as 2.1.332 splits them: on commas and spaces
    outside parentheses (``"Bash(git *) Edit,Read"`` is three rules), each trimmed as
    JavaScript trims.

    The first ``)`` closes a parenthesis whatever opened before it, as in Claude Code.
    """
    rules: list[str] = []
    for value in values:
        current, inside = "", False
        for ch in value:
            if ch in "()":
                inside = ch == "("
                current += ch
            elif ch in ", " and not inside:
                rules.append(js_trim(current))
                current = ""
            elif current or js_trim(ch):
                current += ch
        rules.append(js_trim(current))
    return [rule for rule in rules if rule]


def split_deny_list(values: Sequence[str]) -> list[str]:
    """The rules of ``--disallowedTools`` values: ``split_rule_list``'s, and also each rule
    whose parentheses nest (``Bash(echo (a) b)``) read whole, so that a deny covers what
    either reading names (2.1.332); no rule twice."""
    plain = split_rule_list(values)
    known = set(plain)
    whole: list[str] = []
    for value in values:
        for piece in _nested_pieces(value):
            shape = _call_shape(piece)
            if (
                shape is not None
                and shape[0]
                and re.search(r"\)[ ,]", shape[1])
                and not re.match(r"[\s\ufeff./~\\]*!", shape[1])
                and split_rule_list([piece])[0] in known
            ):
                whole.append(piece)
    return list(dict.fromkeys([*plain, *whole]))


def _nested_pieces(value: str) -> list[str]:
    """``value`` split on commas and spaces outside nested parentheses (a backslash escapes
    the next character); a piece with a stray ``)`` is dropped."""
    pieces: list[str] = []
    start, depth, stray, i = 0, 0, False, 0
    while i <= len(value):
        ch = value[i] if i < len(value) else ""
        if ch == "\\":
            i += 1
        elif ch == "(":
            depth += 1
        elif ch == ")":
            stray = stray or depth == 0
            depth = max(depth - 1, 0)
        elif i == len(value) or (depth == 0 and ch in ", "):
            if depth == 0 and not stray:
                pieces.append(value[start:i].strip())
            start, stray = i + 1, False
        i += 1
    return pieces


def _unescaped(text: str, char: str, last: bool = False) -> int:
    """The index of the first (or last) ``char`` not escaped by a backslash, else -1."""
    indexes = range(len(text) - 1, -1, -1) if last else range(len(text))
    for i in indexes:
        if text[i] == char and (len(text[:i]) - len(text[:i].rstrip("\\"))) % 2 == 0:
            return i
    return -1


def _call_shape(text: str) -> tuple[str, str] | None:
    """``Tool(content)`` as its tool name and content; None for a bare or malformed rule."""
    opening, closing = _unescaped(text, "("), _unescaped(text, ")", last=True)
    if opening == -1 or closing <= opening or closing != len(text) - 1:
        return None
    tool = text[:opening]
    return None if re.search(r"[()]", tool) else (tool, text[opening + 1 : closing])
