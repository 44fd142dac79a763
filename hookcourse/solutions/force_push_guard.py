"""The teacher's force-push guard: a PreToolUse hook script that reads the command as a shell would.

Run it as a hook (``python force_push_guard.py``, the pending tool call on stdin):
it exits 2 with a reason on stderr when the Bash command would force-push, else 0.

Where seed 002's guard searches the text for ``push --force``, this one splits the
command line into the simple commands the shell would run (quotes, ``&&``, ``;``,
``|``, newlines, ``$(...)``, comments), looks through wrappers (``command``, ``env``,
``sudo``, ``sh -c``, ``eval`` ...) and git's own options (``-C dir``), and then reads
``git push``'s arguments: ``-f`` alone or in a cluster, ``--force``,
``--force-with-lease``, or a ``+`` refspec. Standard library only.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator

SEPARATORS = ("&&", "||", ";;", ";", "|&", "|", "&", "\n", "(", ")")
SHELLS = {"sh", "bash", "zsh", "dash", "ksh"}
# Wrappers that run the rest of their words as a command, and their options that take a value.
WRAPPERS = {
    "command": set(),
    "exec": set(),
    "nohup": set(),
    "time": set(),
    "builtin": set(),
    "sudo": {"-u", "-g", "-h", "-p", "-C", "-U"},
    "env": {"-u", "-C", "-S"},
    "nice": {"-n"},
    "stdbuf": {"-i", "-o", "-e"},
    "xargs": {"-I", "-n", "-P", "-L", "-s", "-d", "-a", "-E"},
    "timeout": {"-s", "-k", "--signal", "--kill-after"},
    # Shell words that may precede a command: `if git push -f; then ...`, `{ ...; }`, `! ...`.
    **{
        keyword: set()
        for keyword in ("if", "then", "else", "elif", "do", "while", "until", "!", "{")
    },
}
TAKES_A_POSITIONAL = {"timeout"}  # timeout DURATION COMMAND
GIT_OPTIONS_WITH_VALUE = {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path"}
PUSH_OPTIONS_WITH_VALUE = {"-o", "--push-option", "--repo", "--receive-pack", "--exec"}


class Unbalanced(ValueError):
    """An unterminated quote or substitution: the shell refuses the line, so it runs nothing."""


def _read_until(text: str, start: int, closer: str) -> tuple[str, int]:
    """The text of ``$(...)`` or a backquote substitution from ``start`` to its closer."""
    depth, i = 0, start
    while i < len(text):
        char = text[i]
        if char == "\\":
            i += 2
            continue
        if closer == ")" and text.startswith("$(", i):
            depth, i = depth + 1, i + 2
            continue
        if char == closer:
            if depth == 0:
                return text[start:i], i + 1
            depth -= 1
        i += 1
    raise Unbalanced(closer)


def split_commands(text: str) -> Iterator[list[str]]:
    """The simple commands a shell would run from ``text``, as lists of words (quotes removed).

    Command substitutions are yielded too, since the shell runs them first.
    """
    words: list[str] = []
    word: list[str] | None = None  # None: between words
    i = 0
    while i < len(text):
        char = text[i]
        if char == "\\" and i + 1 < len(text):
            if text[i + 1] != "\n":  # a backslash-newline joins lines
                word = (word or []) + [text[i + 1]]
            i += 2
        elif char == "'":
            end = text.find("'", i + 1)
            if end < 0:
                raise Unbalanced("'")
            word = (word or []) + [text[i + 1 : end]]
            i = end + 1
        elif char == '"':
            i += 1
            chunk: list[str] = []
            while i < len(text) and text[i] != '"':
                if text[i] == "\\" and i + 1 < len(text) and text[i + 1] in '$`"\\\n':
                    chunk.append(text[i + 1])
                    i += 2
                elif text.startswith("$(", i) or text[i] == "`":
                    closer = ")" if text[i] == "$" else "`"
                    inner, i = _read_until(text, i + (2 if closer == ")" else 1), closer)
                    yield from split_commands(inner)
                    chunk.append("$SUBSTITUTION")
                else:
                    chunk.append(text[i])
                    i += 1
            if i >= len(text):
                raise Unbalanced('"')
            word = (word or []) + chunk
            i += 1
        elif text.startswith("$(", i) or char == "`":
            closer = ")" if char == "$" else "`"
            inner, i = _read_until(text, i + (2 if closer == ")" else 1), closer)
            yield from split_commands(inner)
            word = (word or []) + ["$SUBSTITUTION"]
        elif char == "#" and word is None:
            while i < len(text) and text[i] != "\n":  # a comment runs to the end of the line
                i += 1
        elif char in " \t\r":
            if word is not None:
                words.append("".join(word))
                word = None
            i += 1
        elif any(text.startswith(op, i) for op in SEPARATORS):
            if word is not None:
                words.append("".join(word))
                word = None
            if words:
                yield words
            words = []
            i += len(next(op for op in SEPARATORS if text.startswith(op, i)))
        else:
            word = (word or []) + [char]
            i += 1
    if word is not None:
        words.append("".join(word))
    if words:
        yield words


def _unwrap(words: list[str]) -> list[str]:
    """Drop leading ``NAME=value`` assignments and wrappers such as ``env X=1`` or ``sudo -u x``."""
    while words:
        first = words[0]
        if "=" in first and first.split("=", 1)[0].replace("_", "a").isalnum():
            words = words[1:]
            continue
        name = os.path.basename(first)
        if name not in WRAPPERS:
            return words
        rest = words[1:]
        while rest and (rest[0].startswith("-") or (name == "env" and "=" in rest[0])):
            takes_value = rest[0] in WRAPPERS[name]
            rest = rest[2:] if takes_value else rest[1:]
        words = rest[1:] if name in TAKES_A_POSITIONAL else rest
    return words


def force_reasons(command_line: str) -> list[str]:
    """Why ``command_line`` force-pushes (empty when it does not), one reason per finding."""
    try:
        commands = list(split_commands(command_line))
    except Unbalanced:
        return []  # the shell would refuse the line and run nothing
    reasons = []
    for words in commands:
        reasons += _command_reasons(_unwrap(words))
    return reasons


def is_force_push(command: str) -> bool:
    """True when the shell command would force-push (notebook 07's exercise)."""
    return bool(force_reasons(command))


def _command_reasons(words: list[str]) -> list[str]:
    if not words:
        return []
    name = os.path.basename(words[0])
    if name in SHELLS:
        for index, word in enumerate(words[1:], 1):
            if word.startswith("-") and not word.startswith("--") and "c" in word[1:]:
                return force_reasons(words[index + 1]) if index + 1 < len(words) else []
        return []
    if name == "eval":
        return force_reasons(" ".join(words[1:]))
    if name != "git":
        return []
    rest = words[1:]
    while rest and rest[0].startswith("-"):  # git's own options come before the subcommand
        rest = rest[2:] if rest[0] in GIT_OPTIONS_WITH_VALUE else rest[1:]
    if not rest or rest[0] != "push":
        return []
    return _push_reasons(rest[1:])


def _push_reasons(arguments: list[str]) -> list[str]:
    reasons = []
    options_done = False
    skip_next = False
    for argument in arguments:
        if skip_next:
            skip_next = False
        elif options_done or not argument.startswith("-"):
            if argument.startswith("+"):
                reasons.append(f"the refspec {argument} forces the update")
        elif argument == "--":
            options_done = True
        elif argument in ("--force", "--force-with-lease") or argument.startswith(
            "--force-with-lease="
        ):
            reasons.append(f"{argument} forces the push")
        elif argument in PUSH_OPTIONS_WITH_VALUE:
            skip_next = True
        elif not argument.startswith("--") and "f" in argument[1:].split("o", 1)[0]:
            reasons.append(f"{argument} holds -f")
    return reasons


def main() -> int:
    """Read the PreToolUse payload on stdin; exit 2 with a reason to block, 0 to allow."""
    try:
        payload = json.load(sys.stdin)
    except ValueError:
        return 0
    tool_input = payload.get("tool_input") if isinstance(payload, dict) else None
    command = tool_input.get("command") if isinstance(tool_input, dict) else None
    if not isinstance(command, str):
        return 0
    reasons = force_reasons(command)
    if reasons:
        print(f"Blocked: no force-push from Claude ({'; '.join(reasons)})", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
