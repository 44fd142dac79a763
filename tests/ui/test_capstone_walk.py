"""The whole chapter in a real browser: a learner in the working copy pastes the teacher's
answer into each exercise of notebooks 01 to 07 and runs its check, restarts a kernel on
the way, then runs notebook 08 top to bottom; `my_hooks.py` holds what they pasted, the
loop runs, and `hookcourse test` passes on their own functions.

Needs Chromium and a Python with Playwright (see tests/ui/conftest.py); the browser is
driven by tests/ui/walk_capstone.py. About two minutes: one server, one browser, eight
kernels.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from hookcourse.course.checks.learner_module import read_sections
from hookcourse.course.teaching.notebook_files import course_notebooks, read_notebook, source
from hookcourse.course.teaching.solution_cells import (
    bound_before,
    exercise_cells,
    exercise_names,
    solution_cell,
)
from hookcourse.stages.registry import EXERCISES, STAGES, exercise_named, resolve

if TYPE_CHECKING:
    from conftest import Course

DRIVER = Path(__file__).with_name("walk_capstone.py")
# The guard's check words a pass its own way: nothing missed, no false alarm.
GUARD_HOLDS = "check_guard: is_force_push holds: 0 missed, 0 false alarms"


def teacher_answers(course: Path) -> list[dict[str, str]]:
    """Each exercise cell's text with the teacher's solution in it, in course order."""
    answers = []
    for path in course_notebooks(course):
        notebook = read_notebook(path)
        for index, name in exercise_cells(notebook, exercise_names()):
            starter = source(notebook["cells"][index])
            solution = resolve(exercise_named(name).solution)  # type: ignore[union-attr]
            text = solution_cell(starter, name, solution, bound_before(notebook, index))
            answers.append({"notebook": path.stem, "function": name, "text": text})
    return answers


@pytest.mark.slow
@pytest.mark.walk
def test_a_learner_walks_from_01_to_08_and_hookcourse_test_passes_on_their_code(
    browser_tools: tuple[str, str], course: Course, tmp_path: Path
) -> None:
    python, browser = browser_tools
    answers = teacher_answers(course.checkout / "notebooks")
    assert [a["function"] for a in answers] == [e.function for e in EXERCISES]
    answers_file = tmp_path / "answers.json"
    answers_file.write_text(json.dumps(answers), encoding="utf-8")
    run = subprocess.run(
        [python, str(DRIVER), course.base_url, browser, str(tmp_path), str(answers_file)],
        capture_output=True,
        text=True,
        timeout=600,  # a hang guard, far above a normal run
    )
    assert run.returncode == 0, run.stderr + course.log.read_text()
    (tmp_path / "seen.json").write_text(run.stdout, encoding="utf-8")  # kept for a look
    seen = json.loads(run.stdout)
    print(json.dumps(seen["steps"]))  # the times, for the report (pytest -s)

    # Every check of 01 to 07 passed on the pasted answer, 04's after a kernel restart.
    assert seen["restarted_in"] == "04_events"
    for answer in answers[:-1]:
        said = seen[f"{answer['notebook']} check"]
        assert re.match(rf"{answer['function']}: passed|{GUARD_HOLDS}", said), said
    # Notebook 08 ran top to bottom: no cell raised, none was left unrun.
    assert len(seen["08 prompts"]) == 10 and seen["08 unran"] == [], seen["08 prompts"]
    assert seen["08 tracebacks"] == []
    assert seen["08 mine"].startswith("from my_hooks.py: match_hook, merge_pre_tool_use")
    assert "not there yet" not in seen["08 mine"]
    assert seen["08 check"].startswith("run_hooks: passed"), seen["08 check"]
    assert "check_loop: 2 of 2 sessions as Claude Code ran them" in seen["08 check_loop"]
    assert seen["08 loop"].strip(), "the loop's transcripts are on the page"

    # my_hooks.py holds every function as the learner pasted it, not the course's copy.
    kept = read_sections((course.checkout / "my-notebooks" / "my_hooks.py").read_text("utf-8"))
    assert list(kept) == [e.function for e in EXERCISES]
    for answer in answers:
        assert "# BEGIN SOLUTION" in kept[answer["function"]]
    # hookcourse test, from the notebook, on the program made of the learner's module.
    tests = seen["08 program_tests"]
    for stage in STAGES:
        assert re.search(rf"^{re.escape(stage.slug)} · ", tests, re.MULTILINE), tests
    assert f"{len(STAGES)}/{len(STAGES)} stages passed" in tests, tests
    assert tests.rstrip().endswith("\n0")  # the exit status program_tests returned
