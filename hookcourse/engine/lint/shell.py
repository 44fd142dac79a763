"""How ``sh -c`` reads a shell-form hook command: quoting, variables, and the script it runs.

A view over ``hookcourse.shell``'s lexer (docs/ARCHITECTURE.md, "One shell reader") for
lint rules, with this policy: each character's quoting and each ``$NAME`` are as the
shell reads them (a ``$NAME`` written in single quotes is reported too: it will not
expand); the words of the first simple commands are split at every control operator,
with redirections and comments left out; a word holding what we cannot resolve (command
substitution, arithmetic, a variable other than the path placeholders, an unquoted glob,
a word cut at a limit) is opaque, so a rule answers None rather than guess. Pure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from itertools import pairwise
from typing import Final

from hookcourse.shell import Piece, lex
from hookcourse.shell import Quoting as Quoting  # the lint rules and doctor name it here
from hookcourse.shell import Word as ShellWord
from hookcourse.shell import words as shell_words

from ..placeholders import PLACEHOLDERS, substitute

_VARIABLE: Final = re.compile(
    r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(?=[}:#%/-])|([A-Za-z_][A-Za-z0-9_]*))"
)
_AS_VARIABLES: Final = {name: "$" + name for name in (*PLACEHOLDERS, "HOME")}
"""``${NAME}`` read as ``$NAME``: the placeholders (pasted as text) and ``${HOME}``."""
_ASSIGNMENT: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_WORD_LIMIT: Final = 24
_CHARACTER_LIMIT: Final = 600
"""The script a hook runs is named in its first words; inline programs can be long."""
_DRIVE: Final = re.compile(r"[A-Za-z]:[\\/]")
_VERSIONED: Final = re.compile(r"(python|pypy)[0-9.]*|node[0-9]*")
_INLINE_CODE: Final = frozenset({"-c", "-m", "-e", "-p", "--eval", "--print", "-"})
_OPTIONS_WITH_VALUE: Final = frozenset(
    {"--with", "--project", "--directory", "--python", "-p", "--from", "--env-file", "-r"}
)


@dataclass(frozen=True)
class VariableUse:
    """One ``$NAME`` or ``${NAME}`` in a command, and the quotes around it."""

    name: str
    braced: bool
    """Written ``${NAME...}``."""
    substituted: bool
    """Written exactly ``${NAME}``: Claude Code pastes a placeholder in this form as text."""
    quoting: Quoting
    assigned: bool
    """Right after ``NAME=`` (an assignment's value is not split into words)."""
    defaulted: bool = False
    """Written ``${NAME:-word}`` (or ``-``, ``:=``, ``=``): unset, it gives the word."""


def quoting_at(command: str) -> list[Quoting]:
    """The quoting each character of ``command`` sits in (a quote itself counts as inside;
    a ``$(...)`` inside double quotes has quoting of its own)."""
    return list(lex(command).quoting)


@lru_cache(maxsize=4096)
def variable_uses(command: str) -> tuple[VariableUse, ...]:
    """Every variable reference, with its quoting (an escaped ``\\$`` is not one)."""
    states = quoting_at(command)
    uses: list[VariableUse] = []
    for match in _VARIABLE.finditer(command):
        start = match.start()
        if start > 0 and command[start - 1] == "\\":
            continue
        name = match.group(1) or match.group(2)
        before = command[:start]
        word_start = max(before.rfind(" "), before.rfind("\t"), before.rfind(";")) + 1
        assigned = _ASSIGNMENT.fullmatch(before[word_start:]) is not None
        braced = match.group(1) is not None
        exact = braced and command.startswith("}", match.end())
        defaulted = braced and command.startswith((":-", ":=", "-", "="), match.end())
        uses.append(VariableUse(name, braced, exact, states[start], assigned, defaulted))
    return tuple(uses)


@dataclass(frozen=True)
class Word:
    """One shell word: its text with quotes removed, and whether it holds what we cannot
    resolve (a variable other than the path placeholders, ``$(...)``, or a glob)."""

    value: str
    opaque: bool


def simple_commands(command: str, limit: int = 3, as_variables: bool = True) -> list[list[Word]]:
    """The words of the first ``limit`` simple commands, at most a couple of dozen words in
    all (placeholders and ``${HOME}`` written ``$NAME`` unless ``as_variables`` is False)."""
    text = substitute(command, _AS_VARIABLES) if as_variables else command
    shown = text[:_CHARACTER_LIMIT]
    commands: list[list[Word]] = []
    counted = 0  # past a few dozen words nothing more is needed
    for words in shell_words(lex(shown).tokens)[:limit]:
        taken = words[: max(_WORD_LIMIT - counted, 0)]
        counted += len(taken)
        if taken:
            commands.append([_lint_word(word, len(shown) < len(text)) for word in taken])
    return commands


def _lint_word(word: ShellWord, text_cut: bool) -> Word:
    """``word``'s value, opaque when it holds what a rule cannot resolve."""
    opaque = (text_cut and word.end >= _CHARACTER_LIMIT) or any(
        _opaque(piece) for piece in word.pieces
    )
    return Word(word.value, opaque)


def _opaque(piece: Piece) -> bool:
    expansion = piece.expansion
    if expansion is None:
        unquoted = piece.quoting is Quoting.NONE and not piece.escaped
        return unquoted and any(glob in piece.value for glob in "*?[")
    return expansion.kind != "variable" or expansion.name not in (*PLACEHOLDERS, "HOME")


class Base(StrEnum):
    """What a script path is relative to."""

    PROJECT = "project"
    PLUGIN = "plugin"
    PLUGIN_DATA = "plugin data"
    HOME = "home"
    ABSOLUTE = "absolute"
    RELATIVE = "relative"


@dataclass(frozen=True)
class ScriptCall:
    """The script a command runs: through a program (``python3 x.py``) or directly."""

    path: str
    """As the shell sees it after quote removal, placeholders written ``$NAME``."""
    program: str | None
    """The interpreter's name, or None when the script is run directly (needs +x)."""
    base: Base
    rest: str
    """The path below its base (the whole path for absolute and relative ones)."""
    after_cd: bool
    """The command first changes directory, so a relative path is read from there."""
    cd_base: Base | None = None
    """Where that cd goes when it is a base itself (``cd "$CLAUDE_PROJECT_DIR"``)."""


SHELLS: Final = frozenset({"sh", "bash", "zsh", "dash", "ksh"})
_SHELL_FLAG: Final = re.compile(r"-[a-z]*c[a-z]*")


_MAYBE_WRAPPER: Final = re.compile(r"(?:^|[\s/])(?:ba|z|da|k)?sh\s+(?:-\w+\s+)*-\w*c")
"""A cheap test that a command may be a wrapper, before it is read word by word."""


@lru_cache(maxsize=4096)
def wrapped_script(command: str) -> str | None:
    """The script of a ``bash -c '...'`` wrapper (any POSIX shell, flags such as ``-lc``)
    as the inner shell reads it, or None when the command is no such wrapper."""
    if _MAYBE_WRAPPER.search(command[:_CHARACTER_LIMIT]) is None:
        return None
    commands = simple_commands(command, limit=1, as_variables=False)
    if not commands:
        return None
    words = commands[0]
    while words and (_ASSIGNMENT.match(words[0].value) or words[0].value in ("exec", "env")):
        words = words[1:]
    if not words or words[0].value.rsplit("/", 1)[-1] not in SHELLS:
        return None
    for flag, script in pairwise(words[1:]):
        if not flag.value.startswith("-"):
            return None
        if _SHELL_FLAG.fullmatch(flag.value):
            return script.value
    return None


@lru_cache(maxsize=4096)
def script_call(
    command: str, extensions: tuple[str, ...], programs: frozenset[str]
) -> ScriptCall | None:
    """The script the first command of ``command`` runs, or None when it runs none we can
    name (a program on PATH, inline code, or words we cannot resolve)."""
    inner = wrapped_script(command)
    if inner is not None:
        return script_call(inner, extensions, programs)
    commands = simple_commands(command)
    after_cd = False
    cd_base: Base | None = None
    if commands and commands[0] and commands[0][0].value in ("cd", "pushd"):
        after_cd = True
        goes_to = commands[0][1:2]
        if goes_to and not goes_to[0].opaque:
            base, rest = _base(goes_to[0].value)
            cd_base = base if base is not Base.RELATIVE and not rest.strip("/") else None
        commands = commands[1:]
    if not commands:
        return None
    words = _program_words(commands[0], programs)
    if not words or words[0].opaque:
        return None
    head = words[0].value
    name = head.rsplit("/", 1)[-1]
    program = _program_name(name, programs)
    if program is not None:
        target = _script_argument(words[1:])
        if target is None or target.opaque:
            return None
        path = target.value
        if not path.endswith(extensions) and "/" not in path:
            return None
    elif "/" in head:
        path = head
    else:
        return None
    base, rest = _base(path)
    if base is Base.RELATIVE and program is not None and not path.endswith(extensions):
        return None
    return ScriptCall(path, program, base, rest, after_cd, cd_base)


def _program_name(name: str, programs: frozenset[str]) -> str | None:
    if name in programs:
        return name
    if _VERSIONED.fullmatch(name):
        return "python3" if name.startswith(("python", "pypy")) else "node"
    return None


def _program_words(words: list[Word], programs: frozenset[str]) -> list[Word]:
    """The words from the program on: assignments, ``exec``, ``env`` and ``uv run`` skipped."""
    rest = list(words)
    while rest and (_ASSIGNMENT.match(rest[0].value) or rest[0].value in ("exec", "env")):
        rest = rest[1:]
    if (
        len(rest) >= 2
        and rest[0].value in ("uv", "bun", "pnpm", "npx")
        and rest[1].value
        in (
            "run",
            "exec",
            "tsx",
        )
    ):
        runner_is_tsx = rest[1].value == "tsx"
        rest = rest[2:]
        while rest and rest[0].value.startswith("-"):
            takes_value = rest[0].value in _OPTIONS_WITH_VALUE
            rest = rest[2:] if takes_value else rest[1:]
        if runner_is_tsx:
            rest = [Word("tsx", False), *rest]
        elif rest and _program_name(rest[0].value, programs) is None:
            if not rest[0].value.endswith((".py", ".ts", ".js", ".mjs", ".sh")):
                return []
            rest = [Word("python3" if rest[0].value.endswith(".py") else "bun", False), *rest]
    return rest


def _script_argument(words: list[Word]) -> Word | None:
    for word in words:
        if word.value in _INLINE_CODE:
            return None
        if not word.value.startswith("-"):
            return word
    return None


def _base(path: str) -> tuple[Base, str]:
    for name, base in (
        ("$CLAUDE_PROJECT_DIR", Base.PROJECT),
        ("$CLAUDE_PLUGIN_ROOT", Base.PLUGIN),
        ("$CLAUDE_PLUGIN_DATA", Base.PLUGIN_DATA),
        ("$HOME", Base.HOME),
        ("~", Base.HOME),
    ):
        if path == name or path.startswith(name + "/"):
            return base, path[len(name) :].lstrip("/")
    if path.startswith("/") or _DRIVE.match(path):
        return Base.ABSOLUTE, path
    return Base.RELATIVE, path
