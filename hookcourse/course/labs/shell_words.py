"""``simple_commands``: a command line split into the simple commands a shell would run.

Notebook 07 gives this to the learner, so that the guard they write reads words, not
text. It is a view over ``hookcourse.shell``'s lexer (docs/ARCHITECTURE.md, "One shell
reader") with this policy:

* every control operator splits (``&&``, ``||``, ``;``, ``;;``, ``|``, ``|&``, ``&``,
  newlines, ``(`` and ``)``); redirections (``> log``, ``2>&1``), comments and
  here-document bodies are not words of a command and are dropped;
* a ``$(...)``, backquote or ``<(...)`` comes out as commands of its own, before the
  command it sits in (the shell runs it first), and stands there as ``$SUBSTITUTION``;
  ``$((...))`` is arithmetic, not a command, and stays in its word as written;
* quotes are removed; ``NAME=value`` assignments and keywords such as ``if`` or ``then``
  in front of a command are dropped. What a command *runs* (``sudo``, ``sh -c``,
  ``git -C dir``) is left to the guard;
* a line the shell refuses (an unclosed quote or substitution) runs nothing: ``[]``.

Standard library only, so a hook script can import it cheaply.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from hookcourse.shell import Expansion, Operator, Redirection, Token, Word, lex

# Words the shell reads as grammar when they come where a command would.
KEYWORDS: Final = frozenset(
    ("if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!", "{", "}")
)
SUBSTITUTION: Final = "$SUBSTITUTION"  # stands for a $(...) once its command is yielded
_SUBSTITUTIONS: Final = frozenset(("command", "backquote", "process"))


def simple_commands(text: str) -> list[list[str]]:
    """The simple commands the shell would run from ``text``, each a list of words.

    ``simple_commands('FOO=1 git add . && echo "a b" # done')`` is
    ``[['git', 'add', '.'], ['echo', 'a b']]``. A line the shell would refuse (an
    unterminated quote) runs nothing, so it gives ``[]``.
    """
    reading = lex(text)
    # An unclosed here-document still runs (to the end of the text); nothing else does.
    if any(problem.what != "<<" for problem in reading.problems):
        return []
    return [words for words in map(_command_words, _commands(reading.tokens)) if words]


def _commands(tokens: tuple[Token, ...]) -> Iterator[list[str]]:
    """Every simple command's words, substitutions first, before keywords are dropped."""
    words: list[str] = []
    for token in tokens:
        if isinstance(token, Operator):
            if words:
                yield words
            words = []
        elif isinstance(token, Word):
            for expansion in token.expansions:
                yield from _run_first(expansion)
            words.append(_value(token))
        elif isinstance(token, Redirection) and token.target is not None:
            for expansion in token.target.expansions:
                yield from _run_first(expansion)
    if words:
        yield words


def _run_first(expansion: Expansion) -> Iterator[list[str]]:
    """The commands a substitution runs before the command it sits in."""
    if expansion.kind in _SUBSTITUTIONS:
        yield from _commands(expansion.tokens)
    for inner in expansion.inside:
        yield from _run_first(inner)


def _value(word: Word) -> str:
    """The word after quote removal, each substitution written ``$SUBSTITUTION``."""
    return "".join(
        SUBSTITUTION
        if piece.expansion is not None and piece.expansion.kind in _SUBSTITUTIONS
        else piece.value
        for piece in word.pieces
    )


def _command_words(words: list[str]) -> list[str]:
    """Drop the keywords and ``NAME=value`` assignments in front of a command's name."""
    start = 0
    while start < len(words) and (words[start] in KEYWORDS or _assignment(words[start])):
        start += 1
    return words[start:]


def _assignment(word: str) -> bool:
    name, equals, _ = word.partition("=")
    return bool(equals) and name.replace("_", "a").isalnum() and not name[:1].isdigit()
