"""``CLAUDE_ENV_FILE`` lines are read by the shell lexer, as the ``sh`` that sources them
reads them. Differences from the ``shlex`` reading before it, each one POSIX's answer."""

from __future__ import annotations

from hookcourse.engine.env_file import parse_exports


def test_a_line_with_a_second_command_is_not_a_plain_export() -> None:
    """Before: ``C`` was taken as ``'z;'`` and the line also kept apart."""
    writes = parse_exports("export C='z'; rm x\n")
    assert (writes.variables, writes.other_lines) == ((), ("export C='z'; rm x",))


def test_double_quotes_unescape_a_dollar_and_a_hash_inside_a_word_is_text() -> None:
    """Before: ``\\$`` kept its backslash, and ``#`` in a word started a comment."""
    writes = parse_exports('export A="a\\$b" B=c#d # note\n')
    assert writes.variables == (("A", "a$b"), ("B", "c#d"))
