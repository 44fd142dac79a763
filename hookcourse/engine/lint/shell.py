"""How ``sh -c`` reads a shell-form hook command: quoting, variables, and the script it runs.

Enough of POSIX shell syntax for lint rules, no more: quotes and backslashes, variable
references, and the words of the first simple commands (split at ``;``, ``&&``, ``||``,
``|`` and newlines). Anything it cannot be sure of (command substitution, other variables,
globs) makes it answer None rather than guess. Pure.

Not ``permission_rule.split_command`` (Claude Code's reading for permission rules, which
gives up on substitutions where Claude Code does) nor the course's
``labs/shell_words.py`` (the learner's tokenizer): this one keeps each word's quoting and
variables, which the lint's findings are about (docs/ARCHITECTURE.md, "Three shell readers").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from itertools import pairwise
from typing import Final

from ..placeholders import PLACEHOLDERS, substitute

_VARIABLE: Final = re.compile(
    r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(?=[}:#%/-])|([A-Za-z_][A-Za-z0-9_]*))"
)
_AS_VARIABLES: Final = {name: "$" + name for name in (*PLACEHOLDERS, "HOME")}
"""``${NAME}`` read as ``$NAME``: the placeholders (pasted as text) and ``${HOME}``."""
_ASSIGNMENT: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_OPERATORS: Final = frozenset(";&|\n()<>`")
_WORD_LIMIT: Final = 24
_CHARACTER_LIMIT: Final = 600
"""The script a hook runs is named in its first words; inline programs can be long."""
_DRIVE: Final = re.compile(r"[A-Za-z]:[\\/]")
_VERSIONED: Final = re.compile(r"(python|pypy)[0-9.]*|node[0-9]*")
_INLINE_CODE: Final = frozenset({"-c", "-m", "-e", "-p", "--eval", "--print", "-"})
_OPTIONS_WITH_VALUE: Final = frozenset(
    {"--with", "--project", "--directory", "--python", "-p", "--from", "--env-file", "-r"}
)


class Quoting(StrEnum):
    NONE = ""
    SINGLE = "'"
    DOUBLE = '"'


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
    """The quoting each character of ``command`` sits in (a quote itself counts as inside)."""
    states: list[Quoting] = []
    state = Quoting.NONE
    escaped = False
    for ch in command:
        if escaped:
            states.append(state)
            escaped = False
            continue
        if state is Quoting.SINGLE:
            states.append(state)
            if ch == "'":
                state = Quoting.NONE
            continue
        if ch == "\\":
            escaped = True
            states.append(state)
            continue
        if ch == '"':
            states.append(Quoting.DOUBLE)
            state = Quoting.NONE if state is Quoting.DOUBLE else Quoting.DOUBLE
            continue
        if ch == "'" and state is Quoting.NONE:
            state = Quoting.SINGLE
        states.append(state)
    return states


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
    """The words of the first ``limit`` simple commands (placeholders and ``${HOME}``
    written ``$NAME`` unless ``as_variables`` is False)."""
    text = substitute(command, _AS_VARIABLES) if as_variables else command
    commands: list[list[Word]] = []
    words: list[Word] = []
    value: list[str] = []
    opaque = False
    started = False
    state = Quoting.NONE
    i = 0

    def end_word() -> None:
        nonlocal value, opaque, started
        if started:
            words.append(Word("".join(value), opaque))
        value, opaque, started = [], False, False

    counted = 0  # words of the finished commands: past a few dozen nothing more is needed
    end = min(len(text), _CHARACTER_LIMIT)
    while i < end and len(commands) < limit and counted + len(words) < _WORD_LIMIT:
        ch = text[i]
        if state is Quoting.SINGLE:
            if ch == "'":
                state = Quoting.NONE
            else:
                value.append(ch)
        elif ch == "\\" and i + 1 < len(text):
            value.append(text[i + 1])
            started = True
            i += 1
        elif ch == '"':
            state = Quoting.NONE if state is Quoting.DOUBLE else Quoting.DOUBLE
            started = True
        elif state is Quoting.DOUBLE:
            opaque = opaque or _opaque_at(text, i)
            value.append(ch)
        elif ch == "'":
            state = Quoting.SINGLE
            started = True
        elif ch in " \t":
            end_word()
        elif ch in _OPERATORS:
            end_word()
            if words:
                commands.append(words)
                counted += len(words)
            words = []
            if ch in "<>":  # a redirection's target is not a command word
                i = _skip_redirect(text, i)
        else:
            opaque = opaque or _opaque_at(text, i) or ch in "*?["
            value.append(ch)
            started = True
        i += 1
    opaque = opaque or i < len(text)  # a word cut at a limit is not known whole
    end_word()
    if words and len(commands) < limit:
        commands.append(words)
    return commands


def _opaque_at(text: str, i: int) -> bool:
    if text[i] != "$":
        return False
    match = _VARIABLE.match(text, i)
    if match is None:
        return True  # $( ... ), $$, $1 and friends
    if match.group(1) is not None:
        return True  # ${NAME:-word} and friends: the value depends on what is set
    return match.group(2) not in (*PLACEHOLDERS, "HOME")


def _skip_redirect(text: str, i: int) -> int:
    """Index of the last character of a redirection such as ``> /dev/null`` or ``2>&1``."""
    j = i + 1
    while j < len(text) and text[j] in ">&":
        j += 1
    while j < len(text) and text[j] in " \t":
        j += 1
    while j < len(text) and text[j] not in " \t;&|\n":
        j += 1
    return j - 1


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
