"""The tokenizer notebook 07 gives the learner: the simple commands a shell would run."""

from __future__ import annotations

import pytest

from hookcourse.course.labs.shell_words import SUBSTITUTION, simple_commands


@pytest.mark.parametrize(
    ("line", "commands"),
    [
        (
            'git add . && git commit -m "no push -f" # later',
            [["git", "add", "."], ["git", "commit", "-m", "no push -f"]],
        ),
        ("git status\ngit push -f", [["git", "status"], ["git", "push", "-f"]]),
        (
            "if git diff --quiet; then git push -f; fi",
            [["git", "diff", "--quiet"], ["git", "push", "-f"]],
        ),
        ("FOO=1 BAR='a b' git push", [["git", "push"]]),
        ("(cd shop && git push -f)", [["cd", "shop"], ["git", "push", "-f"]]),
        ('echo "$(git push --force)"', [["git", "push", "--force"], ["echo", SUBSTITUTION]]),
        (
            "echo main | xargs git push -f origin",
            [["echo", "main"], ["xargs", "git", "push", "-f", "origin"]],
        ),
        ("nohup git push &", [["nohup", "git", "push"]]),
        ("git push origin main  # never --force", [["git", "push", "origin", "main"]]),
        ("git 'pu'sh", [["git", "push"]]),
        ('echo "unterminated', []),
        ("", []),
    ],
)
def test_simple_commands(line: str, commands: list[list[str]]) -> None:
    assert simple_commands(line) == commands


def test_a_keyword_counts_only_where_a_command_starts() -> None:
    assert simple_commands("echo if then fi") == [["echo", "if", "then", "fi"]]
    assert simple_commands("git commit -m x=1") == [["git", "commit", "-m", "x=1"]]
