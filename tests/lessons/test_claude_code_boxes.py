"""Course vs Claude Code, one device everywhere they differ, and every notebook statement
about Claude Code tied to the real binary.

The convention (every notebook follows it):
- a markdown cell that mentions Claude Code carries ``<!-- claude-code: ID ... -->``, and
  each ID is a scenario of tests/claude_code/corpus/ (run against the real Claude Code
  2.1.332 by the differential suite) or a recording under hookcourse/data/sessions/;
- where the course's rule and Claude Code's differ, a box: a two-column table headed
  ``| The course's grader | Claude Code 2.1.332 |``, after a prediction question, with
  the real behaviour in a ``<details>`` block and such a tag.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))
RECORDINGS = ROOT / "hookcourse" / "data" / "sessions"
TAG = re.compile(r"<!--\s*claude-code:\s*([^>]*?)\s*-->")
BOX_HEADER = re.compile(r"^\|\s*The course's grader\s*\|\s*Claude Code 2\.1\.332\s*\|\s*$", re.M)
PREDICT = re.compile(r"\*\*Predict:?\*\*")


def scenario_ids() -> set[str]:
    sys.path.insert(0, str(ROOT / "tests" / "claude_code"))
    try:
        from oracle_scenario import load_corpus
    finally:
        sys.path.remove(str(ROOT / "tests" / "claude_code"))
    return set(load_corpus())


def recording_names() -> set[str]:
    return {path.stem for path in RECORDINGS.glob("*.json") if path.stem != "index"}


KNOWN = scenario_ids() | recording_names()


def markdown(path: Path) -> list[tuple[int, str]]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [
        (index, "".join(cell["source"]))
        for index, cell in enumerate(cells)
        if cell["cell_type"] == "markdown"
    ]


def tags(text: str) -> list[str]:
    return [name for found in TAG.findall(text) for name in found.split()]


def test_the_known_ids_are_the_corpus_and_the_recordings() -> None:
    assert len(KNOWN) > 400
    assert {"pre-exit1", "match-list-spaces", "decide-modify-inject"} <= KNOWN


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_every_tag_names_a_real_claude_code_scenario_or_recording(path: Path) -> None:
    unknown = [
        (index, name) for index, text in markdown(path) for name in tags(text) if name not in KNOWN
    ]
    assert not unknown, f"{path.name}: (cell, id) names no scenario or recording: {unknown}"
    for index, text in markdown(path):
        for found in TAG.findall(text):
            assert found.split(), f"{path.name} cell {index}: an empty claude-code tag"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_every_cell_that_says_what_claude_code_does_is_tied_to_the_real_binary(
    path: Path,
) -> None:
    untied = [
        index
        for index, text in markdown(path)
        if "Claude Code" in TAG.sub("", text) and not tags(text)
    ]
    assert not untied, (
        f"{path.name}: markdown cells {untied} speak of Claude Code without a "
        "<!-- claude-code: SCENARIO --> tag"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_every_course_vs_claude_code_box_predicts_reveals_and_cites(path: Path) -> None:
    cells = markdown(path)
    for position, (index, text) in enumerate(cells):
        header = BOX_HEADER.search(text)
        if header is None:
            continue
        before = text[: header.start()]
        previous = cells[position - 1][1] if position else ""
        assert PREDICT.search(before) or PREDICT.search(previous), (
            f"{path.name} cell {index}: ask a **Predict:** question before the box"
        )
        after = text[header.end() :]
        assert re.search(r"<details>.*?</details>", after, re.S), (
            f"{path.name} cell {index}: reveal the real behaviour in a <details> block"
        )
        assert tags(text), f"{path.name} cell {index}: tag the box with its evidence"
        rows = [line for line in after.splitlines() if line.startswith("|")][1:]
        assert rows and all(line.count(" | ") >= 1 for line in rows)


# The differences the course's notebooks 00-03 teach, each in a box.
BOXES = {
    "01_matcher": ["`Edit \\| Write`", "`Edit, Write`"],
    "02_exit_codes": ["No stderr output", "exit 1"],
    "03_decide_modify_inject": ["hookSpecificOutput", '"reason": null', "top-level `updatedInput`"],
}


@pytest.mark.parametrize("stem", sorted(BOXES))
def test_each_difference_of_the_first_notebooks_has_its_box(stem: str) -> None:
    boxes = [
        text
        for _, text in markdown(ROOT / "notebooks" / f"{stem}.ipynb")
        if BOX_HEADER.search(text)
    ]
    assert boxes, f"{stem}: no course-vs-Claude-Code box"
    for difference in BOXES[stem]:
        assert any(difference in box for box in boxes), f"{stem}: no box row for {difference}"


def objectives(stem: str) -> str:
    first = markdown(ROOT / "notebooks" / f"{stem}.ipynb")[0][1]
    return first.split("## Objectives", 1)[1]


def test_objectives_name_both_readings_where_they_differ() -> None:
    # The learner's finding: 01 said `Edit | Write` does not fire on `Write` as a fact.
    for stem in BOXES:
        said = objectives(stem)
        assert "the course's grader" in said and "Claude Code 2.1.332" in said, stem
    assert "does not fire on `Write`" not in objectives("01_matcher")
