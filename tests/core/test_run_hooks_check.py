"""check_run_hooks: the teacher's run_hooks passes, as a learner would type it; each
mistake the stage page names fails in its own family; the course's own is refused."""

from __future__ import annotations

import inspect
import types
from typing import Any

import pytest

from hookcourse.course.checks.check_result import CheckResult
from hookcourse.course.checks.exercises import check_run_hooks
from hookcourse.course.teaching import solution_cells
from hookcourse.stages.matcher_and_dispatch import solution as matcher_solution
from hookcourse.stages.merge_decisions import solution as merge_solution
from hookcourse.stages.run_hooks import solution
from hookcourse.stages.run_hooks.reference import run_hooks as course_run_hooks
from tests.labs.test_merge_stop_exercises import typed_in_a_cell

SEED = 4242

# (the line of solution.py, the mistake, the family whose cases catch it)
MISTAKES = {
    "every listed command runs": (
        "if command not in ran:  # identical commands run once",
        "if True:",
        "run-once",
    ),
    "only deny stops the tool": (
        'if merged["decision"] not in (None, "allow"):',
        'if merged["decision"] == "deny":',
        "ask-or-defer",
    ),
    "the block's reason trimmed": (
        "feedback.append(reason)  # as written, not trimmed",
        "feedback.append(reason.strip())",
        "post-block-reason",
    ),
    "every handler looked up": (
        '        if not match_hook(group.get("matcher"), tool_name):\n            continue\n',
        "",
        "only-matching-run",
    ),
    "post null when nothing matched after the tool": (
        "    post = {\n",
        '    if not post_ran:\n        return {"pre": pre, "tool": ran, "post": None}\n'
        "    post = {\n",
        "no-post-hooks",
    ),
}


def typed(source: str) -> Any:
    """``run_hooks`` of ``source`` (solution.py, maybe with a mistake) as if typed into a
    notebook cell, with the learner's own match_hook and merge_pre_tool_use."""
    scope: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(source, "<cell>", "exec"), scope)  # the course's own source
    scope["match_hook"] = typed_in_a_cell(matcher_solution.match_hook)
    scope["merge_pre_tool_use"] = typed_in_a_cell(merge_solution.merge_pre_tool_use)
    function: types.FunctionType = scope["run_hooks"]
    return function


SOURCE = inspect.getsource(solution)


def checked(fn: Any) -> CheckResult:
    """``check_run_hooks(fn)`` on the same drawn cases every run."""
    result = check_run_hooks(fn, seed=SEED)
    assert isinstance(result, CheckResult)
    return result


def failing(result: CheckResult) -> list[str]:
    return list(result.report().failing)


def test_the_teachers_solution_passes_as_typed() -> None:
    result = checked(typed(SOURCE))
    assert result.all_pass, result.report().summary
    assert result.seed == SEED and any(o.case.drawn for o in result.outcomes)


def test_the_teachers_solution_passes_as_it_is() -> None:
    assert checked(solution.run_hooks).all_pass


@pytest.mark.parametrize("mistake", list(MISTAKES))
def test_each_mistake_fails_in_its_family(mistake: str) -> None:
    right, wrong, family = MISTAKES[mistake]
    assert SOURCE.count(right) == 1, right
    result = checked(typed(SOURCE.replace(right, wrong)))
    assert not result.all_pass
    assert family in failing(result), failing(result)
    assert result.hint() is not None


def test_the_course_function_is_refused() -> None:
    result = checked(course_run_hooks)
    assert result.refusal is not None and "course's own" in result.refusal


def test_the_teacher_build_keeps_the_parts_the_cell_binds() -> None:
    """Notebook 08's cell binds the learner's match_hook and merge_pre_tool_use; the
    teacher build must not import the course's over them (the check would refuse it)."""
    cell = (
        'match_hook, merge_pre_tool_use = mine("match_hook", "merge_pre_tool_use")\n\n\n'
        "def run_hooks(hooks, tool, results):\n"
        '    """One tool call."""\n'
        "    raise NotImplementedError\n"
    )
    text = solution_cells.solution_cell(cell, "run_hooks", solution.run_hooks)
    compile(text, "<cell>", "exec")
    assert "def handlers_that_run(" in text and "NotImplementedError" not in text
    assert "import match_hook" not in text and "import merge_pre_tool_use" not in text
