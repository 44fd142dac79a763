"""The permission view over ``hookcourse.shell`` answers exactly as the splitter before it.

``reference_permission_split.py`` is a frozen copy of the permission split as it was
before it read through the lexer (its own quote state machine, ``shlex`` for words). Every
command line below (thousands built from shell-significant fragments, every command
string of the Claude Code corpus and of the force-push guard's corpus) must give the same
``split_command`` (both assignment readings), the same refusal, ``has_pipe``,
``command_words`` and the permission step's ``_lex`` answers from both.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

from hookcourse.course.labs.guard_corpus import CORPUS
from hookcourse.engine import permission_rule as view
from hookcourse.engine import permissions
from tests.shell import reference_permission_split as reference
from tests.support.paths import ROOT

FRAGMENTS = (
    "git", "push", " ", " ", "\t", "x", "a b", "'", "'", '"', '"', "\\", "\\\"", "\\'",
    "$(", ")", "`", "$((", "))", "(", "{", "}", "<<", "<<<", "EOF", "<(", ">(", "&&", "||",
    "|", "|&", "&", ";", ";;", "\n", "2>&1", "&>", ">|", ">", "<", ">&2", "FOO=1 ", "A=\"x y\" ",
    "B='z' ", "=", "#", "$", "${A}", "$HOME", "--force", "-f", "*", "\r", "\\\n", "1",
    "~/x", "$1", "$?", "${A:-b}", "<&", "0<", "-", "2>", "3>&-",
)  # fmt: skip


def generated(count: int, seed: int = 28) -> Iterator[str]:
    """``count`` command lines of 1 to 12 fragments, the same every run."""
    draw = random.Random(seed)
    for _ in range(count):
        yield "".join(draw.choice(FRAGMENTS) for _ in range(draw.randint(1, 12)))


def _commands_in(value: object) -> Iterator[str]:
    """Every string under a ``command`` key, and every string of a list under one."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "command" and isinstance(item, str):
                yield item
            yield from _commands_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from _commands_in(item)


def corpus_commands() -> list[str]:
    found: list[str] = []
    for path in sorted((ROOT / "tests" / "claude_code" / "corpus").glob("*.json")):
        found += _commands_in(json.loads(path.read_text(encoding="utf-8")))
    guard = json.loads(CORPUS.read_text(encoding="utf-8"))
    found += _strings(guard)
    return sorted(set(found))


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def answers(module: object, command: str) -> tuple[object, ...]:
    """Everything the permission reading says about ``command``."""
    split = module.simple_commands  # type: ignore[attr-defined]
    words = module.command_words  # type: ignore[attr-defined]
    lexed = reference._lex if module is reference else permissions._lex
    parts = split(command) or []
    return (
        split(command),
        split(command, keep_assignments=True),
        module.unsplittable_because(command),  # type: ignore[attr-defined]
        module.has_pipe(command),  # type: ignore[attr-defined]
        words(command),
        [words(part) for part in parts],
        [lexed(part, "/home/me") for part in [command, *parts]],
    )


def differences(commands: list[str]) -> list[str]:
    return [
        repr(command)
        for command in commands
        if answers(view, command) != answers(reference, command)
    ]


def test_the_corpora_are_large_enough_to_mean_something() -> None:
    assert len(corpus_commands()) > 200


def test_every_corpus_command_reads_as_before() -> None:
    assert differences(corpus_commands()) == []


@pytest.mark.slow  # a few seconds: 2,500 lines through two readers (the --quick loop skips it)
@pytest.mark.parametrize("seed", [332])
def test_generated_command_lines_read_as_before(seed: int) -> None:
    found = differences(list(generated(2500, seed)))
    assert found == [], f"{len(found)} differ, first: {found[:5]}"


def test_a_difference_would_be_seen() -> None:
    """The comparison is not vacuous: a splitter that ignores quotes differs from it."""
    assert answers(view, 'echo "a; b"') != answers(view, "echo a; b")


def test_the_split_lexes_each_character_about_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Jumps over ``$((...))`` re-read only the next stretch, and assignments are read
    once per part, so a long hostile command costs linear work, not quadratic."""
    lexed: list[int] = []
    real_lex = view.lex

    def counting_lex(text: str, **options: object) -> object:
        lexed.append(len(text))
        return real_lex(text, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(view, "lex", counting_lex)
    for command in ("echo " + '$(("1"))' * 300, "A=1 " * 300 + "ls", "echo '$((' " * 300):
        lexed.clear()
        view._split.cache_clear()
        view.simple_commands(command)
        assert sum(lexed) <= 3 * len(command), command[:20]
