"""One shell reader: only ``hookcourse/shell.py`` tracks shell quoting.

Every other module that reads shell text is a view over its ``lex`` (docs/ARCHITECTURE.md,
"One shell reader"). Held by two checks over the package's source: no ``shlex.split`` or
``shlex.shlex`` (quoting with ``shlex.quote`` and ``shlex.join`` writes, so it is
fine), and no loop that compares a character with a quote mark, the heart of a quote
state machine.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.support.paths import ROOT

PACKAGE = ROOT / "hookcourse"
LEXER = PACKAGE / "shell.py"
NOT_SHELL = {
    PACKAGE / "engine" / "frontmatter.py": "a skill file's YAML front matter, not shell",
}


def shlex_readers(tree: ast.AST) -> Iterator[int]:
    """Lines that call ``shlex.split`` or ``shlex.shlex``, or import them by name."""
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "shlex"
            and node.attr in ("split", "shlex")
        ):
            yield node.lineno
        if (
            isinstance(node, ast.ImportFrom)
            and node.module == "shlex"
            and any(alias.name in ("split", "shlex") for alias in node.names)
        ):
            yield node.lineno


def quote_machines(tree: ast.AST) -> Iterator[int]:
    """Lines, inside a loop, that compare with a short string holding a single quote."""
    for loop in ast.walk(tree):
        if isinstance(loop, ast.For | ast.While):
            for node in ast.walk(loop):
                if isinstance(node, ast.Compare) and any(
                    isinstance(side, ast.Constant)
                    and isinstance(side.value, str)
                    and "'" in side.value
                    and len(side.value) <= 4
                    for side in (node.left, *node.comparators)
                ):
                    yield node.lineno


def readers_outside_the_lexer() -> list[str]:
    found: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == LEXER or path in NOT_SHELL or "data" in path.relative_to(PACKAGE).parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        shown = path.relative_to(ROOT)
        found += [f"{shown}:{line}: shlex reads shell text" for line in shlex_readers(tree)]
        found += [
            f"{shown}:{line}: a loop tracks shell quotes" for line in set(quote_machines(tree))
        ]
    return sorted(found)


def test_only_the_lexer_reads_shell_quoting() -> None:
    found = readers_outside_the_lexer()
    assert not found, f"{found[0]}; read it through hookcourse.shell.lex (or split) instead" + (
        f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    )


def test_the_checks_see_a_quote_state_machine_and_shlex() -> None:
    sample = ast.parse(
        "import shlex\n"
        "def f(text):\n"
        "    inside = ''\n"
        "    for ch in text:\n"
        '        if ch in "\'\\"":\n'
        "            inside = ch\n"
        "    return shlex.split(text)\n"
    )
    assert list(quote_machines(sample)) == [5]
    assert list(shlex_readers(sample)) == [7]


def test_the_exceptions_are_real_files() -> None:
    assert all(Path(path).is_file() for path in NOT_SHELL)
    assert LEXER.is_file()
