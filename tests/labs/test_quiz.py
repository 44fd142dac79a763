"""The check-question widget, driven headlessly as a learner would click it."""

from __future__ import annotations

import pytest

from hookcourse.course.labs.question import Question, QuestionError
from hookcourse.course.labs.quiz import question_lab

OPTIONS = [
    ("Edit, Write and MultiEdit", "that is `re.search`'s reading: a regex alternation"),
    ("Edit and Write only", "`Edit|Write` is a list of exact names, compared with ==="),
    ("No tool at all", "`|` is allowed in a name list"),
]


def test_a_quiz_starts_unanswered_and_shows_its_question_first() -> None:
    check = question_lab(Question.build("Which tools does `Edit|Write` fire on?", OPTIONS, "B"))
    assert check.controls["choice"].value is None
    assert check.text() == "Choose an answer."
    question, radio, _feedback = check.view.children
    assert "<code>Edit|Write</code>" in question.value
    assert radio.options == (
        ("A. Edit, Write and MultiEdit", "A"),
        ("B. Edit and Write only", "B"),
        ("C. No tool at all", "C"),
    )


def test_a_wrong_choice_says_why_and_leaves_the_question_open() -> None:
    check = question_lab(Question.build("Which tools does `Edit|Write` fire on?", OPTIONS, "B"))
    text = check.set(choice="A")
    assert text.splitlines() == [
        "A is not it. Try again.",
        "  A. Edit, Write and MultiEdit: that is `re.search`'s reading: a regex alternation",
    ]
    assert "color:#b42318" in check.readout.value
    assert "Edit and Write only" not in text  # the answer is not given away


def test_the_right_choice_shows_every_options_reason() -> None:
    check = question_lab(Question.build("Which tools does `Edit|Write` fire on?", OPTIONS, "B"))
    check.set(choice="C")
    text = check.set(choice="B")
    assert text.splitlines()[0] == "B is right."
    for letter, (option, why) in zip("ABC", OPTIONS, strict=True):
        assert f"{letter}. {option}: {why}" in text
    assert "color:#1a7f37" in check.readout.value  # the one palette's green
    assert "<code>Edit|Write</code> is a list of exact names" in check.readout.value


def test_a_quiz_not_yet_run_reads_as_its_question_and_options() -> None:
    plain = question_lab(Question.build("Pick `one`", OPTIONS, "C"))._repr_mimebundle_()[
        "text/plain"
    ]
    assert plain.splitlines() == [
        "[the quiz: run this cell to use it]",
        "Pick `one`",
        "  A. Edit, Write and MultiEdit",
        "  B. Edit and Write only",
        "  C. No tool at all",
        "Choose an answer.",
    ]


def test_learner_text_is_escaped_in_the_page() -> None:
    check = question_lab(
        Question.build("Is <b> bold?", [("<i>", "a & b"), ("x", "y"), ("z", "w")], "A")
    )
    assert "Is &lt;b&gt; bold?" in check.view.children[0].value
    check.set(choice="A")
    assert "<b>A. &lt;i&gt;</b>: a &amp; b" in check.readout.value


@pytest.mark.parametrize(
    ("options", "answer", "problem"),
    [
        (OPTIONS[:2], "A", "3 or 4 options, this one has 2"),
        ([*OPTIONS, ("d", "e"), ("f", "g")], "A", "3 or 4 options, this one has 5"),
        (OPTIONS, "D", "answer must be one of A, B, C, got 'D'"),
        (OPTIONS, "b", "answer must be one of A, B, C, got 'b'"),
        ([OPTIONS[0], ("Edit and Write only", ""), OPTIONS[2]], "A", "option B must be"),
        ([OPTIONS[0], OPTIONS[0], OPTIONS[2]], "A", "two options have the same text"),
    ],
)
def test_a_badly_written_question_fails_when_its_cell_runs(
    options: list[tuple[str, str]], answer: str, problem: str
) -> None:
    with pytest.raises(QuestionError, match=problem.replace("(", r"\(")):
        Question.build("Q?", options, answer)


def test_an_unknown_letter_names_the_letters_there_are() -> None:
    with pytest.raises(KeyError, match="the options are ABC"):
        Question.build("Q?", OPTIONS, "A").feedback("D")
