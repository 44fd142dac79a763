"""``quiz``: a multiple-choice check question in a notebook, every option saying why.

Usage, in a notebook cell::

    from hookcourse.course.labs.quiz import quiz

    quiz(
        "Which tools does the matcher `Edit|Write` fire on?",
        [
            ("Edit, Write and MultiEdit", "that is `re.search`'s reading; ..."),
            ("Edit and Write only", "`Edit|Write` is a list of exact names; ..."),
            ("No tool: it is not a valid name", "`|` is allowed in a name list; ..."),
        ],
        answer="B",
    )

``options`` holds 3 or 4 ``(text, why)`` pairs shown in order as A, B, C, D;
``why`` says why that choice is right or wrong (name the trap a wrong choice
falls into). ``answer`` is the right option's letter. Backticks mark code: the
question, the reasons and the feedback show it as code; radio labels drop the
backticks.
A badly written question raises ``QuestionError`` when the cell runs, so nbval
catches it.

The learner picks a radio button: a wrong choice shows its reason and leaves
the question open; the right one shows every option's reason. Drive it from
code (tests, a notebook's demonstration) with ``quiz(...).set(choice="B")``,
which returns the feedback as text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ipywidgets as widgets

from hookcourse.course.labs.question import Question
from hookcourse.course.labs.widgets import Lab


def quiz(question: str, options: Sequence[tuple[str, str]], answer: str) -> Lab:
    """A check question as a lab: radio buttons over ``options``, feedback below them."""
    built = Question.build(question, options, answer)
    choice: Any = widgets.RadioButtons(
        options=[(option.label(), option.letter) for option in built.options],
        value=None,
        layout=widgets.Layout(width="auto"),
    )
    return Lab("quiz", {"choice": choice}, lambda values: built.feedback(values["choice"]), built)
