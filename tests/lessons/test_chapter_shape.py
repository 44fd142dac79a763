"""Notebooks 04-07 in the course's shape: a faded exercise before each graded one, a
check about every 15 minutes, the Stop loop's timeline explained, and prose that says
what its outputs show. They teach before they grade: every faded step fails on the trap
it teaches, no answer stands in plain sight under a try cell, each notebook asks for
predictions, a Parsons problem comes before the merge and the Stop loop, an earlier trap
comes back as a review question, 07 shows the corpus's families before its exercise,
and the prose keeps to its budget."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest

from hookcourse.course.labs.guard_corpus import BEYOND, load_corpus
from hookcourse.course.labs.parsons import _puzzles, parsons
from hookcourse.course.labs.stop_loop import MARKS, stop_readout
from tests.support.prose import BUDGET, prose_words

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
    faded = [i for i, source in code if re.search(r"\btry_(calls|goals)\(", source)]
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


def exercise_index(found: list[dict[str, Any]]) -> int:
    return next(i for i, c in enumerate(found) if "exercise" in c["metadata"].get("tags", []))


PLUS = 'plus_refspec = any(a.startswith("+") for a in arguments)'
LONG = 'long_force = any(a == "--force" or a.startswith("--force-with-lease") for a in arguments)'
# (notebook, faded function, its blanks as the trap fills them, as the lesson fills them)
FADED = [
    (
        "05_several_hooks",
        "strongest",
        ["return max(decided)"],
        ["return max((OLD.get(d, d) for d in decided), key=ORDER.index)"],
    ),
    ("06_stop_loop", "capped", ["return blocks_in_a_row >= cap"], ["return blocks_in_a_row > cap"]),
    (
        "07_a_guard_that_holds",
        "forces",
        ['long_force = "--force" in arguments or "--force-with-lease" in arguments', PLUS],
        [LONG, PLUS],
    ),
]


def _faded(stem: str, name: str) -> tuple[str, list[tuple[tuple[Any, ...], Any]]]:
    """The cell that defines ``name`` and the cases of the try cell that calls it."""
    found = cells(stem)
    source = next(text(c) for c in found if f"def {name}(" in text(c))
    call = next(
        node
        for c in found
        if "try_calls(" in text(c)
        for node in ast.walk(ast.parse(text(c)))
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "try_calls"
    )
    assert isinstance(call.args[0], ast.Name) and call.args[0].id == name
    return source, ast.literal_eval(call.args[1])


def _run(source: str, name: str, cases: list[tuple[tuple[Any, ...], Any]]) -> list[bool]:
    namespace: dict[str, Any] = {}
    exec(compile(source, name, "exec"), namespace)  # the notebook's own cell
    return [namespace[name](*arguments) == expected for arguments, expected in cases]


@pytest.mark.parametrize(("stem", "name", "trap", "right"), FADED, ids=[f[1] for f in FADED])
def test_every_faded_step_fails_on_its_trap(
    stem: str, name: str, trap: list[str], right: list[str]
) -> None:
    source, cases = _faded(stem, name)
    blank = re.compile(r"^(\s*)(\w+ = |return )\.\.\.  # fill in.*$", re.MULTILINE)

    def filled(lines: list[str]) -> str:
        by_head = {line.split(" ")[0]: line for line in lines}  # an assignment's name, or return
        done = blank.sub(lambda m: m[1] + by_head[m[2].split(" ")[0]], source)
        assert "# fill in" not in done
        return done

    assert all(_run(filled(right), name, cases)), f"{name}: the lesson's answer fails"
    assert not all(_run(filled(trap), name, cases)), f"{name}: the trap passes its own cases"


@pytest.mark.parametrize("stem", CHAPTER)
def test_no_answer_stands_under_a_try_cell(stem: str) -> None:
    found = cells(stem)
    for index, cell in enumerate(found):
        if cell["cell_type"] == "code" and "try_calls(" in text(cell):
            following = found[index + 1]
            assert following["cell_type"] == "markdown"
            first = text(following).lstrip()
            assert first.startswith(("<details>", "#")), f"{stem} cell {index + 1}: {first[:60]}"


@pytest.mark.parametrize("stem", CHAPTER)
def test_predictions_come_with_hidden_answers(stem: str) -> None:
    found = cells(stem)
    asks = [
        i for i, c in enumerate(found) if c["cell_type"] == "markdown" and "**Predict:**" in text(c)
    ]
    assert len(asks) >= 2, stem
    for index in asks:
        after = " ".join(text(c) for c in found[index + 1 : index + 6])
        assert "<details>" in after, f"{stem} cell {index}: no hidden answer after the prediction"


@pytest.mark.parametrize(
    ("stem", "puzzle"), [("05_several_hooks", "05-merge"), ("06_stop_loop", "06-stop-loop")]
)
def test_a_parsons_problem_comes_before_the_exercise(stem: str, puzzle: str) -> None:
    found = cells(stem)
    where = next(i for i, c in enumerate(found) if f'parsons("{puzzle}")' in text(c))
    assert where < exercise_index(found)
    # The stored output shows the shuffle, never the answer; the starter order is not right.
    shown = "".join(
        "".join(o["data"]["text/plain"]) if "data" in o else "".join(o.get("text", ""))
        for o in found[where]["outputs"]
    )
    assert shown.splitlines()[0].startswith(" 1  ")
    starter = next(text(c) for c in found[where + 1 :] if ".check(" in text(c))
    assert "right:" not in "".join(
        "".join(o.get("text", ""))
        for o in next(c for c in found[where + 1 :] if ".check(" in text(c))["outputs"]
    )
    assert ".check([])" in starter  # the learner's list starts empty: no order is suggested


@pytest.mark.parametrize("name", list(_puzzles()))
def test_a_parsons_puzzle_judges_an_order(name: str) -> None:
    puzzle = parsons(name)
    count = len(puzzle.steps)
    right = [puzzle.shown.index(step) + 1 for step in range(count)]
    assert right != list(range(1, count + 1))  # the shuffle is not the answer
    assert puzzle.check(right) == f"right: all {count} steps in order"
    swapped = right[:2][::-1] + right[2:]
    assert puzzle.check(swapped).startswith("step 1 is not")
    assert puzzle.steps[0].why in puzzle.check(swapped)
    one_placed = right[:1] + right[1:3][::-1] + right[3:]
    assert puzzle.check(one_placed).startswith("the first step is in place; step 2 is not")
    assert "missing" in puzzle.check(right[:-1]) and "twice" in puzzle.check(
        [*right[:-1], right[0]]
    )
    assert puzzle.check("1234").startswith("give a list of line numbers")
    assert puzzle.check([True] * count).startswith("give a list of line numbers")


@pytest.mark.parametrize("stem", CHAPTER[1:])
def test_an_earlier_trap_returns_as_a_review_question(stem: str) -> None:
    found = cells(stem)
    review = [
        i
        for i, c in enumerate(found)
        if c["cell_type"] == "markdown" and text(c).startswith("**Review (notebook 0")
    ]
    assert review and "quiz(" in text(found[review[0] + 1])


def test_the_guard_notebook_shows_every_family_before_its_exercise() -> None:
    found = cells("07_a_guard_that_holds")
    exercise = exercise_index(found)
    preview = next(i for i, c in enumerate(found) if "corpus_preview()" in text(c))
    scoreboard = next(i for i, c in enumerate(found) if "bypass_scoreboard(" in text(c))
    assert scoreboard < preview < exercise
    assert "simple_commands" in text(found[exercise])
    # Going further names what the corpus leaves out.
    further = next(text(c) for c in found if text(c).startswith("## Going further"))
    assert all(form in further for form in ("--mirror", "--delete", "remote.origin.push"))


@pytest.mark.parametrize("stem", [*CHAPTER, "08_your_hooks_your_loop"])
def test_the_prose_keeps_to_its_budget(stem: str) -> None:
    markdown = [text(cell) for cell in cells(stem) if cell["cell_type"] == "markdown"]
    assert prose_words(markdown) <= BUDGET
