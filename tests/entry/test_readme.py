"""The README and the docs pages: short, linked, and their examples print what they show."""

from __future__ import annotations

import doctest
import re
import shlex
import subprocess
from pathlib import Path

from tests.support.paths import ROOT

README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [README, *DOCS]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_the_readme_is_a_front_page() -> None:
    """At most 250 lines: the rest lives in docs/, one page per audience."""
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 250


def test_every_docs_page_is_linked_from_the_readme() -> None:
    linked = {(README.parent / target).resolve() for target in _links(README)}
    assert [page.name for page in DOCS if page.resolve() not in linked] == []


def test_every_relative_link_names_a_file_that_exists() -> None:
    broken = [
        f"{page.relative_to(ROOT)} -> {target}"
        for page in PAGES
        for target in _links(page)
        if not (page.parent / target).exists()
    ]
    assert broken == []


def test_python_examples_print_what_the_pages_say() -> None:
    attempted_in_all = 0
    for page in PAGES:
        failures, attempted = doctest.testfile(str(page), module_relative=False)
        assert failures == 0, page.name
        attempted_in_all += attempted
    assert attempted_in_all > 10


def test_grader_examples_print_what_the_pages_show() -> None:
    examples = [example for page in PAGES for example in _grader_examples(page)]
    assert len(examples) >= 6
    for command, shown in examples:
        run = subprocess.run(
            shlex.split(command), cwd=ROOT, capture_output=True, text=True, check=False
        )
        assert (run.stdout + run.stderr).rstrip("\n") == shown, command


def _links(page: Path) -> list[str]:
    """The page's relative link targets (web addresses and anchors left out)."""
    text = page.read_text(encoding="utf-8")
    return [target for target in LINK.findall(text) if "://" not in target]


def _grader_examples(page: Path) -> list[tuple[str, str]]:
    """Each ``$ ./your_program.sh ...`` line of a page with the lines shown after it."""
    examples: list[tuple[str, str]] = []
    for block in page.read_text(encoding="utf-8").split("```console\n")[1:]:
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
