"""Notebooks 04-07 in the course's shape: a faded exercise before each graded one, a
check about every 15 minutes, the Stop loop's timeline explained, and prose that says
what its outputs show."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from hookcourse.course.labs.guard import BEYOND, load_corpus
from hookcourse.course.labs.stop_loop import MARKS, stop_readout

ROOT = Path(__file__).resolve().parents[2]
CHAPTER = ["04_events", "05_several_hooks", "06_stop_loop", "07_a_guard_that_holds"]


def cells(stem: str) -> list[dict[str, object]]:
    found: list[dict[str, object]] = json.loads(
        (ROOT / "notebooks" / f"{stem}.ipynb").read_text(encoding="utf-8")
    )["cells"]
    return found


def text(cell: dict[str, object]) -> str:
    source = cell["source"]
    return "".join(source) if isinstance(source, list) else str(source)


@pytest.mark.parametrize("stem", CHAPTER)
def test_a_faded_exercise_comes_before_the_graded_one(stem: str) -> None:
    found = cells(stem)
    code = [(i, text(c)) for i, c in enumerate(found) if c["cell_type"] == "code"]
    faded = [i for i, source in code if "try_calls(" in source]
    graded = [i for i, c in enumerate(found) if "exercise" in c.get("metadata", {}).get("tags", [])]  # type: ignore[union-attr]
    assert faded and graded and faded[0] < graded[0]
    blanks = [i for i, source in code if re.search(r"\.\.\..*# fill in", source)]
    assert blanks and blanks[0] < faded[0]


@pytest.mark.parametrize("stem", CHAPTER)
def test_a_check_about_every_fifteen_minutes(stem: str) -> None:
    found = cells(stem)
    minutes = int(re.search(r"Time: about (\d+) minutes", text(found[0]))[1])  # type: ignore[index]
    checks = sum(
        bool(re.search(r"\bquiz\(|try_calls\(|check_\w+\(", text(c)))
        for c in found
        if c["cell_type"] == "code"
    )
    quizzes = sum("quiz(" in text(c) for c in found if c["cell_type"] == "code")
    assert quizzes >= 2
    assert checks >= minutes / 15


def test_the_stop_timeline_has_a_legend_for_every_symbol_it_shows() -> None:
    answers = [
        (("2", "", "Run the tests."), ("0", "", "")),  # keep-going-once
        (("2", "", "x"), ("2", "", "x")),  # capped
        (("0", '{"continue": false, "stopReason": "budget"}', ""), ("0", "", "")),  # halted
    ]
    seen = set()
    for first, later in answers:
        rows = dict(stop_readout(first, later, "2").rows)
        symbols = set(re.findall(r"[■●▲▼]", rows["timeline"]))
        seen |= symbols
        for symbol in symbols:
            assert symbol in rows["legend"]
    assert seen == {symbol for symbol, _ in MARKS}


def test_the_guard_notebook_counts_what_its_output_shows() -> None:
    prose = "\n".join(
        text(c) for c in cells("07_a_guard_that_holds") if c["cell_type"] == "markdown"
    )
    assert "Two force-pushes got through" not in prose
    assert "56 commands" not in prose
    # The check's counts change with the drawn commands: the prose states none.
    assert not re.search(r"misses \d+ force-pushes|\b\d+ (times|commands)\b", prose)
    # The family the prose calls ungraded is the corpus's ungraded one, named (the drawn
    # families come after it, so it is not "the last").
    ungraded = [f.name for f in load_corpus() if f.expect == BEYOND]
    assert ungraded == ["beyond a string guard"]
    assert f'"{ungraded[0]}" is shown but not graded' in " ".join(prose.split())
