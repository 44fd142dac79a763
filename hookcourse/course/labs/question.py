"""A multiple-choice check question and its feedback, as plain data (no widgets).

``hookcourse.course.labs.quiz`` wires a ``Question`` to radio buttons; this module
decides what each choice means and what the learner is told.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from hookcourse.course.checks.check_report import FAILING, PALETTE, PASSED

LETTERS: Final = "ABCD"
_CODE: Final = re.compile(r"`([^`]+)`")


def rich(text: str) -> str:
    """Text as HTML, with `backticked` spans shown as code."""
    return _CODE.sub(r"<code>\1</code>", html.escape(text))


@dataclass(frozen=True)
class Option:
    """One choice: what it says, why it is right or wrong, and whether it is the answer."""

    letter: str
    text: str
    why: str
    right: bool

    def label(self) -> str:
        """The choice as plain text, as a radio button shows it: ``B. Edit and Write only``."""
        text = _CODE.sub(r"\1", self.text)
        return f"{self.letter}. {text}"

    def html(self) -> str:
        """The choice as HTML, its code shown as code."""
        return f"{self.letter}. {rich(self.text)}"


@dataclass(frozen=True)
class Feedback:
    """What the learner sees after choosing: a verdict line and the reasons."""

    headline: str
    reasons: tuple[Option, ...] = ()
    right: bool | None = None  # None: nothing chosen yet

    def text(self) -> str:
        """Plain text, for printing and tests."""
        lines = [self.headline] + [f"  {option.label()}: {option.why}" for option in self.reasons]
        return "\n".join(lines)

    def html(self) -> str:
        """The same as an HTML fragment (green for right, red for wrong, plain before)."""
        colour = {None: "inherit", True: PALETTE[PASSED], False: PALETTE[FAILING]}[self.right]
        items = "".join(
            f"<li><b>{option.html()}</b>: {rich(option.why)}</li>" for option in self.reasons
        )
        listed = f"<ul style='margin:0.2em 0'>{items}</ul>" if items else ""
        return f"<div><b style='color:{colour}'>{html.escape(self.headline)}</b>{listed}</div>"


class QuestionError(ValueError):
    """A question written wrongly in a notebook (an author's mistake, not a learner's)."""


@dataclass(frozen=True)
class Question:
    """A question with 3 or 4 options, exactly one right, each with its reason."""

    prompt: str
    options: tuple[Option, ...]

    @classmethod
    def build(cls, prompt: str, options: Sequence[tuple[str, str]], answer: str) -> Question:
        """Check an author's question: 3 or 4 ``(text, why)`` pairs, ``answer`` a letter."""
        if not prompt.strip():
            raise QuestionError("the question is empty")
        if not 3 <= len(options) <= 4:
            raise QuestionError(f"a question has 3 or 4 options, this one has {len(options)}")
        letters = LETTERS[: len(options)]
        if answer not in letters:
            raise QuestionError(f"answer must be one of {', '.join(letters)}, got {answer!r}")
        built = []
        for letter, pair in zip(letters, options, strict=True):
            if len(pair) != 2 or not all(isinstance(part, str) and part.strip() for part in pair):
                raise QuestionError(f"option {letter} must be a (text, why) pair of non-empty text")
            built.append(Option(letter, pair[0], pair[1], letter == answer))
        if len({option.text for option in built}) != len(built):
            raise QuestionError("two options have the same text")
        return cls(prompt, tuple(built))

    def option(self, letter: str) -> Option:
        """The option with that letter (``KeyError`` names the letters there are)."""
        for option in self.options:
            if option.letter == letter:
                return option
        raise KeyError(f"no option {letter!r}; the options are {LETTERS[: len(self.options)]}")

    def feedback(self, letter: str | None) -> Feedback:
        """What choosing ``letter`` tells the learner; once right, every option's reason."""
        if letter is None:
            return Feedback("Choose an answer.")
        chosen = self.option(letter)
        if not chosen.right:
            return Feedback(f"{letter} is not it. Try again.", (chosen,), False)
        others = tuple(option for option in self.options if not option.right)
        return Feedback(f"{letter} is right.", (chosen, *others), True)

    def html(self) -> str:
        """The question as an HTML fragment (the options are the radio buttons below it)."""
        return f"<div style='margin-bottom:0.3em'><b>Check:</b> {rich(self.prompt)}</div>"

    def text(self) -> str:
        """The question and its options as plain text (what a front end without widgets shows)."""
        return "\n".join([self.prompt, *(f"  {o.label()}" for o in self.options)])


QUIZ_FOLDER: Final = "data/quizzes"


@cache
def quiz_files() -> dict[str, dict[str, Any]]:
    """Every quiz file's questions, by file name (``01_matcher.json``), read once."""
    folder = resources.files("hookcourse").joinpath(QUIZ_FOLDER)
    return {
        item.name: json.loads(item.read_text(encoding="utf-8"))
        for item in sorted(folder.iterdir(), key=lambda entry: entry.name)
        if item.name.endswith(".json")
    }


def load_question(quiz_id: str) -> Question:
    """The question ``quiz_id`` (``01-anchoring``), from the quiz file of its notebook."""
    number = quiz_id.split("-", 1)[0]
    for name, questions in quiz_files().items():
        if name.startswith(f"{number}_") and quiz_id in questions:
            entry = questions[quiz_id]
            try:
                options = [(option["text"], option["why"]) for option in entry["options"]]
                return Question.build(entry["question"], options, entry["answer"])
            except (KeyError, TypeError) as error:
                raise QuestionError(f"{name}: {quiz_id} lacks a field ({error})") from None
    known = ", ".join(qid for questions in quiz_files().values() for qid in questions)
    raise QuestionError(f"no quiz {quiz_id!r} in {QUIZ_FOLDER}; the quizzes are {known}")
