"""Notebook 08 in the course's shape: a faded step and a Parsons problem before the graded
``run_hooks``, its prompt listing every rule the check grades, a check about every 15
minutes, and its loop cells telling the learner's bugs from the course's rules."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from hookcourse.session.learner import play, three_ways
from hookcourse.stages.registry import exercise_named
from hookcourse.stages.run_hooks.solution import run_hooks
from hookcourse.stages.stop_loop.solution import run_stop_loop

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "08_your_hooks_your_loop.ipynb"


def cells() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    return found


def text(cell: dict[str, Any]) -> str:
    return "".join(cell["source"])


def test_the_faded_step_and_the_parsons_problem_come_before_the_graded_function() -> None:
    found = cells()
    graded = next(i for i, c in enumerate(found) if "exercise" in c["metadata"].get("tags", []))
    faded = next(i for i, c in enumerate(found) if re.search(r"\.\.\..*# fill in", text(c)))
    parsons = next(i for i, c in enumerate(found) if "Put the steps in order" in text(c))
    assert faded < parsons < graded
    assert "try_calls(" in text(found[faded])


def test_the_prompt_lists_every_rule_the_check_grades() -> None:
    exercise = exercise_named("run_hooks")
    assert exercise is not None
    found = cells()
    graded = next(i for i, c in enumerate(found) if "exercise" in c["metadata"].get("tags", []))
    prompt = text(found[graded - 1])
    tags = re.findall(r"<!-- rule: ([\w-]+) -->", prompt)
    assert sorted(tags) == sorted(exercise.families)
    assert all(line.startswith("- **") for line in prompt.splitlines() if "<!-- rule:" in line)


def test_a_check_about_every_fifteen_minutes() -> None:
    found = cells()
    minutes = int(re.search(r"Time: about (\d+) minutes", text(found[0]))[1])  # type: ignore[index]
    code = [text(c) for c in found if c["cell_type"] == "code"]
    checks = sum(bool(re.search(r"\bquiz\(|try_calls\(|check_\w+\(", source)) for source in code)
    assert sum("quiz(" in source for source in code) >= 2
    assert checks >= minutes / 15


def test_the_loop_cells_agree_for_the_teacher_and_name_a_bug_as_the_learners() -> None:
    right = three_ways(play(run_hooks, run_stop_loop, "guard-retry"))
    assert right is not None
    assert right.explained() == [
        "your loop, the engine and Claude Code 2.1.332 agree on every request"
    ]

    def shouting(hooks: Any, tool: Any, results: Any) -> Any:
        run = run_hooks(hooks, tool, results)
        if run["pre"]["reason"]:
            run["pre"]["reason"] = run["pre"]["reason"].upper()
        return run

    wrong = three_ways(play(shouting, run_stop_loop, "guard-retry"))
    assert wrong is not None
    explained = wrong.explained()
    assert explained[0] == "≠ request 3: a bug in your loop (the engine and Claude Code agree here)"
    assert "BLOCKED: NO FORCE-PUSH FROM CLAUDE" in "\n".join(explained)
    assert len(wrong.text().splitlines()[0]) < 130  # three columns a notebook can show
    # Under the columns, the first difference uncut: the exact text the model reads.
    full = wrong.text().split("\n\n")[1].splitlines()
    assert full[0] == "request 3 is the first difference. In full:"
    assert full[1:3] == ["  your loop:", "    request 3: the model is shown"]
    assert "  Claude Code 2.1.332:" in full
    assert (
        "        PreToolUse:Bash hook error: [${CLAUDE_PROJECT_DIR}/.claude/hooks/"
        "no-force-push.sh]: Blocked: no force-push from Claude⏎"
    ) in full
    assert right.first_in_full([]) == []  # all three agree: nothing under the columns


def test_a_difference_that_carries_on_is_shown_once_as_the_first() -> None:
    import copy

    from hookcourse.session.learner import ThreeWays
    from hookcourse.session.recorded import load_recorded

    real = load_recorded("guard-retry")["transcript"]
    ours = copy.deepcopy(real)
    for round_ in ours["rounds"][2:4]:  # requests 3 and 4
        round_["shown"][0]["text"] = "something else"
    text = ThreeWays(ours, real, real).text()
    assert "request 3 is the first difference; the later ones follow from it. In full:" in text
    assert "        something else" in text


def test_a_request_asked_in_full_is_shown_uncut_once_per_distinct_column() -> None:
    shown = three_ways(play(run_hooks, run_stop_loop, "guard-retry"), in_full=3)
    assert shown is not None
    full = shown.text().split("\n\n")[1].splitlines()
    assert full[:2] == ["request 3 in full:", "  your loop and the course's engine:"]
    said = "PreToolUse:Bash hook error: [${CLAUDE_PROJECT_DIR}/.claude/hooks/no-force-push.sh]"
    assert sum(said in line for line in full) == 2  # ours and Claude Code's, each uncut
    assert "  Claude Code 2.1.332:" in full
