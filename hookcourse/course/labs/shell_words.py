"""``simple_commands``: a command line split into the simple commands a shell would run.

Notebook 07 gives this to the learner, so that the guard they write reads words, not
text: quotes are removed, the line is split at ``&&``, ``||``, ``;``, ``|``, ``&``,
newlines and parentheses, ``$(...)`` and backquotes come out as commands of their own
(the shell runs them first), comments are dropped, and so are what precedes a command
in a shell's grammar: ``NAME=value`` assignments and keywords such as ``if`` or
``then``. What a command *runs* (``sudo``, ``sh -c``, ``git -C dir``) is left to the
guard. Standard library only, so a hook script can import it cheaply.

It is the course's own reader, not the engine's: Claude Code's permission-rule split
(``engine/permission_rule.py``) refuses a ``$(...)`` a guard must look inside, and the
lint's ``sh -c`` reader (``engine/lint/shell.py``) keeps quoting the learner does not need
(docs/ARCHITECTURE.md, "Three shell readers").
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

SEPARATORS: Final = ("&&", "||", ";;", ";", "|&", "|", "&", "\n", "(", ")")
# Words the shell reads as grammar when they come where a command would.
KEYWORDS: Final = frozenset(
    ("if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!", "{", "}")
)
SUBSTITUTION: Final = "$SUBSTITUTION"  # stands for a $(...) once its command is yielded


class Unbalanced(ValueError):
    """An unterminated quote or substitution: the shell refuses the line, so it runs nothing."""


def simple_commands(text: str) -> list[list[str]]:
    """The simple commands the shell would run from ``text``, each a list of words.

    ``simple_commands('FOO=1 git add . && echo "a b" # done')`` is
    ``[['git', 'add', '.'], ['echo', 'a b']]``. A line the shell would refuse (an
    unterminated quote) runs nothing, so it gives ``[]``.
    """
    try:
        return [words for words in map(_command_words, _split(text)) if words]
    except Unbalanced:
        return []


def _command_words(words: list[str]) -> list[str]:
    """Drop the keywords and ``NAME=value`` assignments in front of a command's name."""
    start = 0
    while start < len(words) and (words[start] in KEYWORDS or _assignment(words[start])):
        start += 1
    return words[start:]


def _assignment(word: str) -> bool:
    name, equals, _ = word.partition("=")
    return bool(equals) and name.replace("_", "a").isalnum() and not name[:1].isdigit()


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


def _split(text: str) -> Iterator[list[str]]:
    """Every simple command's words, substitutions first, before keywords are dropped."""
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
                    yield from _split(inner)
                    chunk.append(SUBSTITUTION)
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
            yield from _split(inner)
            word = (word or []) + [SUBSTITUTION]
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
