"""``quiz``: a multiple-choice check question in a notebook, every option saying why.

Usage, in a notebook cell::

    from hookcourse.course.labs.quiz import quiz

    quiz("01-anchoring")

The question lives in package data, ``hookcourse/data/quizzes/<notebook>.json``, keyed
by its id (which starts with the notebook's number), so the learner's source shows no
answer::

    {"01-anchoring": {"question": "Which tools does `Edit|Write` fire on?",
                      "options": [{"text": "...", "why": "..."}, ...],
                      "answer": "B"}}

``options`` holds 3 or 4 choices shown in order as A, B, C, D; ``why`` says why that
choice is right or wrong (name the trap a wrong choice falls into); ``answer`` is the
right option's letter. Backticks mark code: the question, the reasons and the feedback
show it as code; radio labels drop the backticks. A badly written question, or an id
that is not there, raises ``QuestionError`` when the cell runs, so nbval catches it.

The learner picks a radio button: a wrong choice shows its reason and leaves the
question open; the right one shows every option's reason. Drive it from code (tests)
with ``quiz(...).set(choice="B")``, which returns the feedback as text.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from hookcourse.course.labs.question import Question, load_question
from hookcourse.course.labs.widgets import Lab


def question_lab(built: Question) -> Lab:
    """A check question as a lab: radio buttons over its options, feedback below them."""
    choice: Any = widgets.RadioButtons(
        options=[(option.label(), option.letter) for option in built.options],
        value=None,
        layout=widgets.Layout(width="auto"),
    )
    return Lab("quiz", {"choice": choice}, lambda values: built.feedback(values["choice"]), built)


def quiz(quiz_id: str) -> Lab:
    """The check question ``quiz_id`` from the course's quiz files, as a lab."""
    return question_lab(load_question(quiz_id))
