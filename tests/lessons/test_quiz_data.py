"""Quizzes as data: every quiz cell names a question in hookcourse/data/quizzes/, every
question is well written, and no notebook's source gives an answer away."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from hookcourse.course.labs.question import QuestionError, load_question, quiz_files
from hookcourse.course.labs.quiz import quiz

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def code_cells(path: Path) -> list[str]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]


def quiz_calls(source: str) -> list[ast.Call]:
    return [
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "quiz"
    ]


def cited_ids() -> dict[str, str]:
    """Quiz id -> the notebook whose cell shows it."""
    found = {}
    for path in NOTEBOOKS:
        for source in code_cells(path):
            for call in quiz_calls(source):
                assert len(call.args) == 1 and not call.keywords, f"{path.name}: {source}"
                [argument] = call.args
                assert isinstance(argument, ast.Constant) and isinstance(argument.value, str)
                found[argument.value] = path.stem
    return found


def test_every_quiz_cell_names_a_question_of_its_own_notebooks_file() -> None:
    cited = cited_ids()
    assert len(cited) >= 12
    for quiz_id, notebook in cited.items():
        assert quiz_id.startswith(notebook[:2] + "-")
        assert quiz_id in quiz_files()[f"{notebook}.json"]
        assert load_question(quiz_id).prompt


def test_every_question_in_the_files_is_shown_once_and_says_why_for_every_option() -> None:
    cited = cited_ids()
    every = [qid for questions in quiz_files().values() for qid in questions]
    assert sorted(every) == sorted(cited)  # no unused question, no id twice
    for quiz_id in every:
        question = load_question(quiz_id)
        assert 3 <= len(question.options) <= 4
        assert sum(option.right for option in question.options) == 1
        for option in question.options:
            assert option.why.strip() and option.text.strip()


def test_no_notebook_source_holds_an_answer_or_a_rationale() -> None:
    for path in NOTEBOOKS:
        source = "\n".join(code_cells(path))
        assert "answer=" not in source, path.name
        for questions in quiz_files().values():
            for entry in questions.values():
                for option in entry["options"]:
                    assert option["why"] not in source, (path.name, option["why"])


def test_a_quiz_shows_its_question_and_judges_a_choice() -> None:
    lab = quiz("01-anchoring")
    question = load_question("01-anchoring")
    right = next(option.letter for option in question.options if option.right)
    wrong = next(option.letter for option in question.options if not option.right)
    assert "Edit.*" in lab.view.children[0].value
    assert lab.set(choice=wrong).startswith(f"{wrong} is not it.")
    assert lab.set(choice=right).startswith(f"{right} is right.")


@pytest.mark.parametrize("quiz_id", ["01-nothing", "99-anchoring", "", "anchoring"])
def test_an_unknown_id_names_the_quizzes_there_are(quiz_id: str) -> None:
    with pytest.raises(QuestionError, match="the quizzes are 00-exit-1, "):
        quiz(quiz_id)
