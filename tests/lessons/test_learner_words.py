"""The words a learner reads: no project-internal words in any notebook, the course's own
words in a glossary the notebooks link, and notebooks 00-03 within the prose budget."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.support.prose import BUDGET, prose_words

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))
GLOSSARY = ROOT / "notebooks" / "glossary.md"
# Words of the project, not of the course: issue numbers, the test suite's names for the
# real-binary comparison, the seed documents by number, helpers' branches, test markers.
PROJECT_WORDS = re.compile(
    r"(?i)\bissue\s*#?\d+|(?<![\w&])#\d{2,}\b|\boracle\b|\bseed[- ]?0\d\d\b|\bnbval\b|"
    r"\bnbearly\b|\bnblate\b|\bruns?hooks\b|\bxfail\b"
)
# About 900 words of prose: markdown outside tables, checklists of graded rules,
# <details> answers and comments.
EARLY = [path for path in NOTEBOOKS if path.name[:2] in {"00", "01", "02", "03"}]


def cells(path: Path) -> list[dict[str, object]]:
    found: list[dict[str, object]] = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return found


def source(cell: dict[str, object]) -> str:
    text = cell["source"]
    return "".join(text) if isinstance(text, list) else str(text)


@pytest.mark.parametrize("path", [*NOTEBOOKS, GLOSSARY], ids=lambda path: path.stem)
def test_no_project_words_reach_the_learner(path: Path) -> None:
    if path.suffix == ".md":
        texts = [path.read_text(encoding="utf-8")]
    else:  # prose, code and stored outputs alike
        texts = [source(c) for c in cells(path)]
        texts += [json.dumps(c.get("outputs", []), ensure_ascii=False) for c in cells(path)]
    found = sorted({m.group(0) for text in texts for m in PROJECT_WORDS.finditer(text)})
    assert not found, f"{path.name} says {found}: say it in the course's words"


def test_the_glossary_defines_the_courses_own_words() -> None:
    text = GLOSSARY.read_text(encoding="utf-8")
    defined = {m.strip("*` ").lower() for m in re.findall(r"^\| \*\*(.+?)\*\*", text, re.M)}
    defined |= {
        word.strip("*` ").lower()
        for row in re.findall(r"^\| (.+?) \|", text, re.M)
        for word in row.split(",")
    }
    for word in ["stage", "seed", "undefined", "hookspecificoutput", "print mode", "case family"]:
        assert word in defined, f"the glossary lacks {word}"


def test_the_first_notebook_links_the_glossary_and_the_glossary_is_in_the_course() -> None:
    first = source(cells(NOTEBOOKS[0])[0])
    assert "](glossary.md)" in first


@pytest.mark.parametrize("path", EARLY, ids=lambda path: path.stem)
def test_the_prose_keeps_to_its_budget(path: Path) -> None:
    markdown = [source(cell) for cell in cells(path) if cell["cell_type"] == "markdown"]
    assert prose_words(markdown) <= BUDGET


@pytest.mark.parametrize("path", EARLY[1:], ids=lambda path: path.stem)
def test_an_earlier_trap_comes_back_as_a_review_question(path: Path) -> None:
    earlier = f"(from {int(path.name[:2]) - 1:02d})"
    review = [source(c) for c in cells(path) if earlier in source(c)]
    assert review and "<details>" in review[0], f"{path.name}: review a trap of {earlier}"


@pytest.mark.parametrize("path", EARLY, ids=lambda path: path.stem)
def test_objectives_and_time_open_and_every_prediction_has_a_hidden_answer(path: Path) -> None:
    found = cells(path)
    assert "## Objectives" in source(found[0]) and re.search(
        r"Time: about \d+ minutes", source(found[0])
    )
    texts = [(c["cell_type"], source(c)) for c in found]
    for index, (kind, text) in enumerate(texts):
        if kind == "markdown" and "**Predict:**" in text:
            later = [t for k, t in texts[index : index + 4] if k == "markdown"]
            assert any("<details>" in t for t in later), f"{path.name} cell {index}"
