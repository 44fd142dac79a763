"""Every rule a check grades is in its exercise's prompt: a checklist the hints refer to.

Each graded exercise's notebook lists, in markdown before the exercise cell, every rule
its check can hint at, one bullet line each, ending with ``<!-- rule: KEY -->``; KEY is
one of the exercise's hint keys (its families and the mistakes its diagnosis names,
``hookcourse.course.checks.diagnosis.hint_keys``). Every tag names a real key.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

import pytest

from hookcourse.course.checks.diagnosis import hint_keys
from hookcourse.stages.registry import EXERCISES, Exercise
from tests.support.paths import NOTEBOOKS

TAG: Final = re.compile(r"<!--\s*rule:\s*([^\s>]+)\s*-->")
ITEM: Final = re.compile(r"^\s*[-*] ")
ENDS_WITH_TAG: Final = re.compile(r"<!--\s*rule:\s*[^\s>]+\s*-->\s*$")


def cells(notebook: str) -> list[dict[str, Any]]:
    path = NOTEBOOKS / f"{notebook}.ipynb"
    found: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return found


def source(cell: dict[str, Any]) -> str:
    text = cell["source"]
    return text if isinstance(text, str) else "".join(text)


def exercise_cell(exercise: Exercise) -> int:
    """The index of the code cell the learner writes ``exercise.function`` in."""
    found = [
        index
        for index, cell in enumerate(cells(exercise.notebook))
        if cell["cell_type"] == "code"
        and "exercise" in cell.get("metadata", {}).get("tags", [])
        and f"def {exercise.function}(" in source(cell)
    ]
    assert len(found) == 1, f"{exercise.notebook}: one exercise cell defines {exercise.function}"
    return found[0]


def tags_before(exercise: Exercise) -> list[str]:
    """Every rule tag in the markdown cells above the exercise cell."""
    above = cells(exercise.notebook)[: exercise_cell(exercise)]
    return [
        key
        for cell in above
        if cell["cell_type"] == "markdown"
        for key in TAG.findall(source(cell))
    ]


def tagged_lines_outside_items(markdown: str) -> list[str]:
    """Lines holding a rule tag that is not at the end of a bullet item (an item's line or
    an indented line continuing it)."""
    wrong = []
    in_item = False
    for line in markdown.splitlines():
        if ITEM.match(line):
            in_item = True
        elif not line.strip() or not line.startswith((" ", "\t")):
            in_item = False
        if TAG.search(line) and not (in_item and ENDS_WITH_TAG.search(line)):
            wrong.append(line)
    return wrong


GRADED = [e for e in EXERCISES if (NOTEBOOKS / f"{e.notebook}.ipynb").is_file()]


def test_every_exercise_has_its_notebook() -> None:
    assert [e.function for e in GRADED] == [e.function for e in EXERCISES]


@pytest.mark.parametrize("exercise", GRADED, ids=lambda e: f"{e.notebook}:{e.function}")
def test_every_hint_key_has_a_rule_in_the_prompt(exercise: Exercise) -> None:
    tagged = set(tags_before(exercise))
    missing = [key for key in hint_keys(exercise.function) if key not in tagged]
    assert missing == [], (
        f"{exercise.notebook}: before the {exercise.function} cell, add a checklist bullet "
        f"ending with <!-- rule: KEY --> for each of {missing}"
    )


@pytest.mark.parametrize("notebook", sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb")))
def test_every_rule_tag_names_a_key_and_ends_a_bullet(notebook: str) -> None:
    keys = {key for e in EXERCISES if e.notebook == notebook for key in hint_keys(e.function)}
    for index, cell in enumerate(cells(notebook)):
        text = source(cell)
        for key in TAG.findall(text):
            assert cell["cell_type"] == "markdown", f"{notebook} cell {index}: a tag in code"
            assert key in keys, f"{notebook} cell {index}: no hint key {key!r} here"
        for line in tagged_lines_outside_items(text):
            raise AssertionError(f"{notebook} cell {index}: not the end of a bullet: {line!r}")


def test_the_tag_pattern_reads_the_convention() -> None:
    line = "- **Trim as JavaScript does**: `js_trim`, not `str.strip()` <!-- rule: js-trim -->"
    assert TAG.findall(line) == ["js-trim"]
    assert tagged_lines_outside_items(line) == []
    wrapped = (
        "- **Trim as JavaScript does**: `js_trim`,\n  not `str.strip()` <!-- rule: js-trim -->"
    )
    assert tagged_lines_outside_items(wrapped) == []
    for wrong in (
        "Trim as JavaScript does <!-- rule: js-trim -->",
        "- Trim <!-- rule: js-trim --> as JavaScript does",
        "- Trim\n\n  as JavaScript does <!-- rule: js-trim -->",
    ):
        assert tagged_lines_outside_items(wrong) != [], wrong
