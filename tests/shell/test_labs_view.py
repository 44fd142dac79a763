"""Where the learner's ``simple_commands`` (now a view over ``hookcourse.shell``) answers
differently from the tokenizer it replaced, and why the old answer was wrong for a POSIX
shell. Each row: the line, the old answer, the answer now, the reason."""

from __future__ import annotations

import pytest

from hookcourse.course.labs.shell_words import SUBSTITUTION, simple_commands

S = SUBSTITUTION

DIFFERENCES = [
    ("echo hi 2>&1", [["echo", "hi", "2>"], ["1"]], [["echo", "hi"]], "2>&1 is a redirection"),
    ("a &> f", [["a"], [">", "f"]], [["a"]], "&> is a redirection, not & then >"),
    ("git push -f >| log", [["git", "push", "-f", ">"], ["log"]], [["git", "push", "-f"]],
     ">| is a redirection, not a pipe"),
    ("git push -f > log", [["git", "push", "-f", ">", "log"]], [["git", "push", "-f"]],
     "a redirection and its target are not arguments"),
    ("echo $((1 + 2))", [["1", "+", "2"], ["echo", S]], [["echo", "$((1 + 2))"]],
     "$((...)) is arithmetic, not a command"),
    ("echo $(( $(date) ))", [["date"], [S], ["echo", S]], [["date"], ["echo", "$(( $(date) ))"]],
     "a substitution inside arithmetic runs; the arithmetic does not"),
    ("cat <<EOF\ngit push -f\nEOF\nls", [["cat", "<<EOF"], ["git", "push", "-f"], ["EOF"], ["ls"]],
     [["cat"], ["ls"]], "a here-document's body is data"),
    ("diff <(git show a) b", [["diff", "<"], ["git", "show", "a"], ["b"]],
     [["git", "show", "a"], ["diff", S, "b"]], "<(...) is a process substitution"),
    ("echo `echo \\`git push -f\\``", [["echo", "`git", "push", "-f`"], ["echo", S]],
     [["git", "push", "-f"], ["echo", S], ["echo", S]], "\\` nests a backquote"),
    ('echo "$(echo ")")"', [], [["echo", ")"], ["echo", S]],
     "quotes inside $(...) are its own, even within double quotes"),
    ("echo ${A:-$(git push -f)}", [["git", "push", "-f"], ["echo", "${A:-" + S + "}"]],
     [["git", "push", "-f"], ["echo", "${A:-$(git push -f)}"]],
     "${...} is one expansion, kept as written"),
    ('echo "a\\\nb"', [["echo", "a\nb"]], [["echo", "ab"]],
     "backslash-newline in double quotes is removed"),
    ("git push\r-f", [["git", "push", "-f"]], [["git", "push\r-f"]],
     "a carriage return is not a blank"),
]  # fmt: skip


@pytest.mark.parametrize(("line", "before", "now", "why"), DIFFERENCES)
def test_a_listed_difference(
    line: str, before: list[list[str]], now: list[list[str]], why: str
) -> None:
    assert simple_commands(line) == now, why
    assert now != before


def test_an_unclosed_here_document_still_runs_but_an_open_quote_does_not() -> None:
    assert simple_commands("cat <<EOF\ngit push -f") == [["cat"]]
    assert simple_commands("git push -f $(date") == []
