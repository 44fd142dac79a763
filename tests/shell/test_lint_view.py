"""Where the lint's reading of a hook command (now a view over ``hookcourse.shell``)
answers differently from the reader it replaced, and why the old answer was wrong for a
POSIX shell. Over every hook command of the repository's corpora these are the only
kinds of difference (measured when the view landed)."""

from __future__ import annotations

import pytest

from hookcourse.engine.lint.shell import Quoting, quoting_at, simple_commands

WORDS = [
    ("echo $(date)", [[("echo", False), ("$", True)], [("date", False)]],
     [[("echo", False), ("$(date)", True)]], "$( is a substitution, not a $ and a ("),
    ("echo `date`", [[("echo", False)], [("date", False)]], [[("echo", False), ("`date`", True)]],
     "a backquote is a substitution inside the word"),
    ("echo $((1 + 2))",
     [[("echo", False), ("$", True)], [("1", False), ("+", False), ("2", False)]],
     [[("echo", False), ("$((1 + 2))", True)]], "$((...)) is one arithmetic word"),
    ("echo hi 2>&1", [[("echo", False), ("hi", False), ("2", False)]],
     [[("echo", False), ("hi", False)]], "the 2 of 2>&1 names a descriptor"),
    ("python3 x.py > log -v", [[("python3", False), ("x.py", False)], [("-v", False)]],
     [[("python3", False), ("x.py", False), ("-v", False)]],
     "a redirection does not end a command"),
    ("python3 x.py # run it", [[("python3", False), ("x.py", False), ("#", False), ("run", False),
     ("it", False)]], [[("python3", False), ("x.py", False)]], "# starts a comment"),
    ('& "$env:D\\.claude\\x.ps1"', [[("$env:D.claudex.ps1", True)]],
     [[("$env:D\\.claude\\x.ps1", True)]], "in double quotes \\. keeps its backslash"),
]  # fmt: skip


@pytest.mark.parametrize(("command", "before", "now", "why"), WORDS)
def test_a_listed_difference_in_words(
    command: str, before: list[list[tuple[str, bool]]], now: list[list[tuple[str, bool]]], why: str
) -> None:
    got = [[(word.value, word.opaque) for word in words] for words in simple_commands(command)]
    assert got == now, why
    assert now != before


def test_a_substitution_inside_double_quotes_has_quoting_of_its_own() -> None:
    """Before, every character between the double quotes read as double-quoted."""
    command = "cp \"$(jq -r '.path')\" /tmp"
    shown = "".join(quoting.value or "." for quoting in quoting_at(command))
    assert shown == "...\"\"\"......'''''''\"\"....."
    assert quoting_at(command)[command.index("jq")] is Quoting.NONE
