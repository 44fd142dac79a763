"""The README's Python examples run and print what the README says they print."""

from __future__ import annotations

import doctest
import shlex
import subprocess

from tests.support.paths import ROOT

README = ROOT / "README.md"


def test_readme_examples() -> None:
    failures, attempted = doctest.testfile(str(README), module_relative=False)
    assert attempted > 10
    assert failures == 0


def _grader_examples() -> list[tuple[str, str]]:
    """Each ``$ ./your_program.sh ...`` line of the README with the lines shown after it."""
    examples: list[tuple[str, str]] = []
    for block in README.read_text(encoding="utf-8").split("```console\n")[1:]:
        lines = block.split("```")[0].splitlines()
        for index, line in enumerate(lines):
            if line.startswith("$ ./your_program.sh "):
                shown = []
                for after in lines[index + 1 :]:
                    if after.startswith("$ "):
                        break
                    shown.append(after)
                examples.append((line[2:], "\n".join(shown)))
    return examples


def test_readme_grader_examples_print_what_the_readme_shows() -> None:
    examples = _grader_examples()
    assert len(examples) >= 6
    for command, shown in examples:
        run = subprocess.run(
            shlex.split(command), cwd=README.parent, capture_output=True, text=True, check=False
        )
        assert (run.stdout + run.stderr).rstrip("\n") == shown, command
