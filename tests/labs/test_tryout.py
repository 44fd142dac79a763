"""try_calls, the faded examples' runner: every outcome of a learner's function is a line."""

from __future__ import annotations

from hookcourse.course.checks.cases import same_json as same_value
from hookcourse.course.checks.check_report import FAILING, PALETTE
from hookcourse.course.checks.tryout import try_calls
from hookcourse.course.labs.events import try_goals


def test_a_function_with_blanks_shows_what_came_back_and_what_was_expected() -> None:
    def block_or_not(code: object) -> object:
        return {"block": ...}

    text = try_calls(block_or_not, [((2.0,), {"block": True})]).text()
    assert text.splitlines() == [
        "0 of 1 right: fill in the ... blanks, then run this cell again",
        "  ✗ block_or_not(2.0)  -> {'block': Ellipsis}, expected {'block': True}",
    ]


def test_while_a_blank_is_left_no_call_is_right_even_by_chance() -> None:
    def regex_branch(matcher: str, tool_name: object) -> object:
        subject = ...  # fill in
        engine = ...  # fill in
        return subject is engine and False

    def pick(goal: str) -> object:
        return (..., "command")  # a blank inside a constant tuple

    result = try_calls(regex_branch, [(("(?i)bash", "Bash"), False)])
    assert (result.blanks, result.right, result.report().state) == (2, 0, FAILING)
    assert try_calls(pick, [(("goal",), ("Stop", "command"))]).blanks == 1
    assert result.text().splitlines() == [
        "0 of 1 right: fill in the ... blanks, then run this cell again",
        "  ✗ regex_branch('(?i)bash', 'Bash')  -> False, while a blank is left",
    ]


def test_with_no_blank_left_a_wrong_line_is_named_not_the_blanks() -> None:
    text = try_calls(str.strip, [((" a ",), "a"), ((" b",), "x")]).text()
    assert text.splitlines()[0] == "1 of 2 right: fix what the ✗ lines show, then run both cells"


def test_a_function_from_another_cell_asks_for_both_cells() -> None:
    scope: dict[str, object] = {}
    exec(compile("def shout(text):\n    return ...\n", "<cell 1>", "exec"), scope)
    shout = scope["shout"]
    assert callable(shout)
    text = try_calls(shout, [(("a",), "A")]).text()
    assert text.splitlines()[0] == "0 of 1 right: fill in the ... blanks, then run both cells"


def test_a_raising_function_is_a_line_not_a_traceback() -> None:
    def broken(text: str) -> str:
        raise TypeError("unsupported operand")

    result = try_calls(broken, [(("a",), "a"), (("b",), "b")])
    assert result.right == 0
    assert result.lines[0] == "✗ broken('a') raised TypeError: unsupported operand"


def test_all_right_says_so() -> None:
    text = try_calls(str.strip, [((" a ",), "a")]).text()
    assert text.splitlines() == ["all 1 right", "  ✓ strip(' a ')  -> 'a'"]


def test_the_tryout_is_drawn_in_the_check_palette_without_check_json() -> None:
    tryout = try_calls(str.strip, [((" a ",), "a"), ((" b",), "x")])
    page = tryout._repr_html_()
    assert PALETTE[FAILING] in page and "strip(&#x27; b&#x27;)" in page
    assert not hasattr(tryout, "_repr_mimebundle_")  # not a check: builds never count it


def test_values_compare_as_javascript_sees_them() -> None:
    assert same_value(2, 2.0) and same_value({"a": [1, None]}, {"a": [1.0, None]})
    assert not same_value(True, 1) and not same_value(1, True) and not same_value(False, 0.0)
    assert not same_value({"a": 1}, {"a": 1, "b": 2}) and not same_value([1], [1, 1])
    assert not same_value("1", 1) and not same_value(None, "")


GOALS = (
    "tell Claude how to recover when a tool fails",
    "judge whether the task is really finished before Claude stops",
)


def test_try_goals_judges_a_pair_without_printing_the_gates_answer() -> None:
    def pick(goal: str) -> object:
        return {GOALS[0]: ("PostToolUse", "command"), GOALS[1]: ("Stop", "prompt")}[goal]

    result = try_goals(pick, GOALS)
    lines = result.text().splitlines()
    assert (result.right, lines[0]) == (
        1,
        "1 of 2 right: fix what the ✗ lines show, then run this cell again",
    )
    assert "PostToolUse does not fit this goal" in lines[1] and lines[2].endswith(": right")
    assert "PostToolUseFailure" not in result.text()  # the answer the learner must find


def test_try_goals_counts_nothing_while_a_blank_is_left_and_names_an_unknown_goal() -> None:
    def pick(goal: str) -> object:
        return ("Stop", ...)

    result = try_goals(pick, [GOALS[1], "no such goal"])
    assert (result.blanks, result.right) == (1, 0)
    assert result.text().splitlines()[2].endswith("no goal of the gate lab has these words")
