"""A frozen copy of the permission split as it was before it read through ``hookcourse.shell``.

Kept byte for byte (``split_command`` and its helpers, ``has_pipe``, ``command_words``,
``unsplittable_because``, ``simple_commands``, and the permission step's word reader
``_lex``, which uses ``permissions``' unchanged ``_expansion``) as the reference that
``test_permission_view.py`` compares the lexer-based view with. Do not change it: it is
what Claude Code 2.1.332's recorded answers were matched against.
"""

from __future__ import annotations

import re
import shlex
from typing import Final

from hookcourse.engine.permissions import _DESCRIPTOR, _REDIRECT, _expansion, _Word

_ASSIGNMENT: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


class _Unsplittable(Exception):
    """A command the splitter does not understand well enough to judge."""


def split_command(command: str, keep_assignments: bool = False) -> list[str]:
    """The simple commands of a shell command line, leading assignments dropped unless
    ``keep_assignments``. An arithmetic ``$((...))`` stays inside its word.

    Raises _Unsplittable for constructs a text split cannot judge safely.
    """
    parts: list[str] = []
    current: list[str] = []
    quote_char = ""
    i = 0
    while i < len(command):
        ch = command[i]
        pair = command[i : i + 2]
        if quote_char:
            if ch == "\\" and quote_char == '"':
                current.append(pair)
                i += 2
                continue
            if ch == quote_char:
                quote_char = ""
            elif quote_char == '"' and command.startswith("$((", i):
                end = _arithmetic_end(command, i)
                current.append(command[i:end])
                i = end
                continue
            elif quote_char == '"' and (ch == "`" or pair == "$("):
                raise _Unsplittable("a quoted command substitution")
            current.append(ch)
            i += 1
            continue
        if ch == "\\":
            current.append(pair)
            i += 2
            continue
        if ch in "'\"":
            quote_char = ch
        elif command.startswith("$((", i):
            end = _arithmetic_end(command, i)
            current.append(command[i:end])
            i = end
            continue
        elif ch == "`" or pair in ("$(", "<(", ">("):
            raise _Unsplittable("a command or process substitution")
        elif pair == "<<":
            raise _Unsplittable("a here-document")
        elif ch in "(){}" and not "".join(current).strip(" \t"):
            raise _Unsplittable("a subshell or command group")
        elif pair in ("&&", "||", "|&"):
            parts.append("".join(current))
            current = []
            i += 2
            continue
        elif ch in ";|\n" or (ch == "&" and not _is_redirect_ampersand(command, i)):
            parts.append("".join(current))
            current = []
            i += 1
            continue
        current.append(ch)
        i += 1
    if quote_char:
        raise _Unsplittable(f"an unclosed {quote_char} quote")
    parts.append("".join(current))
    if keep_assignments:
        return [simple for simple in (part.strip() for part in parts) if simple]
    return [simple for simple in map(_drop_assignments, parts) if simple]


def _arithmetic_end(command: str, start: int) -> int:
    """Index just after the ``$((...))`` starting at ``start``; raises _Unsplittable if open."""
    depth, i = 0, start + 1
    while i < len(command):
        if command[i] == "(":
            depth += 1
        elif command[i] == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise _Unsplittable("an unclosed $((")


def _is_redirect_ampersand(command: str, i: int) -> bool:
    """``2>&1``, ``>&2`` and ``&>file`` use ``&`` without ending a command."""
    return (i > 0 and command[i - 1] in "<>") or command[i + 1 : i + 2] == ">"


def _drop_assignments(simple: str) -> str:
    rest = simple.strip()
    while True:
        assignment = _ASSIGNMENT.match(rest)
        if assignment is None:
            return rest
        end = _word_end(rest, assignment.end())
        if end >= len(rest):
            return ""
        rest = rest[end:].lstrip()


def _word_end(text: str, start: int) -> int:
    """Index just after the shell word running from ``start`` (quotes kept together)."""
    i, quote_char = start, ""
    while i < len(text):
        ch = text[i]
        if quote_char:
            if ch == quote_char:
                quote_char = ""
            elif ch == "\\" and quote_char == '"':
                i += 1
        elif ch in "'\"":
            quote_char = ch
        elif ch == "\\":
            i += 1
        elif ch in " \t":
            return i
        i += 1
    return i


def simple_commands(command: str, keep_assignments: bool = False) -> list[str] | None:
    """The simple commands of ``command``, or None when it cannot be split safely."""
    try:
        return split_command(command, keep_assignments)
    except _Unsplittable:
        return None


def command_words(part: str) -> list[str] | None:
    """The words of one simple command (quotes removed, as ``sh`` reads them), or None when
    its quoting is unbalanced. ``simple_commands`` splits the line; this reads one part."""
    try:
        return shlex.split(part)
    except ValueError:
        return None


def has_pipe(command: str) -> bool:
    """``command`` has a pipe ``|`` outside quotes (not ``||``, nor the ``>|`` redirection)."""
    quote_char, i = "", 0
    while i < len(command):
        ch = command[i]
        if ch == "\\" and quote_char != "'":
            i += 2
            continue
        if quote_char:
            quote_char = "" if ch == quote_char else quote_char
        elif ch in "'\"":
            quote_char = ch
        elif ch == "|" and command[i + 1 : i + 2] == "|":
            i += 2
            continue
        elif ch == "|" and command[i - 1 : i] != ">":
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


def _lex(part: str, home: str) -> list[_Word] | None:
    """The words of one simple command, redirections marked; None when a quote is open."""
    words: list[_Word] = []
    text: list[str] = []
    started, expansion, quoted, redirect = False, "", False, ""
    i, quote_char = 0, ""
    while i <= len(part):
        ch = part[i] if i < len(part) else " "
        if quote_char and ch == quote_char:
            quote_char, i = "", i + 1
        elif quote_char == "'" or (quote_char == '"' and ch not in "$\\"):
            text.append(ch)
            i += 1
        elif ch == "\\" and i + 1 < len(part):
            text.append(part[i + 1])
            started, i = True, i + 2
        elif ch == "$":
            piece, kind, i = _expansion(part, i, home)
            text.append(piece)
            started, expansion = True, expansion or kind
            quoted = quoted or (kind == "variable" and quote_char == '"')
        elif ch in "'\"":
            quote_char, started, i = ch, True, i + 1
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
    return None if quote_char else words
