"""The committed notebooks: what nbval needs, the course's shape, and cells a learner can trust.

The shape is the one every notebook author agreed on (issue 13): a ``# NN · Title`` cell with
``## Objectives`` and ``Time: about N minutes``; ``**Predict:**`` questions answered after the
revealing cell in ``<details><summary>Answer</summary>``; ``quiz(...)`` check questions;
``## Going further``, ``## Key points``, ``## Check your understanding``; a ``Next:`` link.
"""

from __future__ import annotations

import ast
import inspect
import json
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest

from hookcourse import solutions
from hookcourse.stages.registry import STAGES
from tests.support.paths import ROOT

FOLDER = ROOT / "notebooks"
NOTEBOOKS = sorted(FOLDER.glob("*.ipynb"))
# The course's order, fixed for everyone; a branch may hold only its first notebooks.
COURSE = (
    "00_hook_contract",
    "01_matcher",
    "02_exit_codes",
    "03_decide_modify_inject",
    "04_events",
    "05_several_hooks",
    "06_stop_loop",
    "07_a_guard_that_holds",
    "08_your_hooks_your_loop",
)
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
ANSWER = "<details><summary>Answer</summary>"
TITLE = re.compile(r"# (\d\d) · (\S.*)")
NEXT = re.compile(r"Next: \[(\d\d) · ([^\]]+)\]\((\d\d_\w+)\.ipynb\)")
NOT_VERBS = {"a", "an", "the", "this", "that", "it", "how", "what", "why", "when", "which"}


def read(path: Path) -> dict[str, Any]:
    notebook: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return notebook


def cells(path: Path) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = read(path)["cells"]
    return found


def code_cells(path: Path) -> list[dict[str, Any]]:
    return [cell for cell in cells(path) if cell["cell_type"] == "code"]


def source(cell: dict[str, Any]) -> str:
    text = cell["source"]
    return text if isinstance(text, str) else "".join(text)


def tags(cell: dict[str, Any]) -> list[str]:
    found: list[str] = cell.get("metadata", {}).get("tags", [])
    return found


def title(path: Path) -> tuple[str, str]:
    """(NN, Title) from the notebook's first line."""
    first = source(cells(path)[0]).splitlines()[0]
    match = TITLE.fullmatch(first)
    assert match, f"{path.name} must start with '# NN · Title', not {first!r}"
    return match[1], match[2]


def stored_text(cell: dict[str, Any]) -> str:
    parts = []
    for output in cell["outputs"]:
        if output["output_type"] == "stream":
            parts.append("".join(output["text"]))
        for value in output.get("data", {}).values():
            parts.append(value if isinstance(value, str) else json.dumps(value))
    return "\n".join(parts)


def bullets(text: str) -> list[str]:
    return [line[2:].strip() for line in text.splitlines() if line.startswith(("- ", "* "))]


def calls_named(tree: ast.AST, name: str) -> list[ast.Call]:
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name
    ]


def exercise_names() -> set[str]:
    """The functions the learner writes: those defined by cells tagged ``exercise``."""
    names = set()
    for path in NOTEBOOKS:
        for cell in code_cells(path):
            if "exercise" in tags(cell):
                tree = ast.parse(source(cell))
                names |= {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    return names


# -- the course as a whole ---------------------------------------------------------------------


def test_the_notebooks_are_the_course_in_order() -> None:
    names = [path.stem for path in NOTEBOOKS]
    assert names == [name for name in COURSE if name in names]
    assert names[:4] == list(COURSE[:4])


def test_every_notebook_uses_the_same_kernelspec() -> None:
    specs = {json.dumps(read(path)["metadata"]["kernelspec"], sort_keys=True) for path in NOTEBOOKS}
    assert specs == {
        '{"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}'
    }


# -- the shape every notebook shares -----------------------------------------------------------

Cells = list[dict[str, Any]]


def markdown(found: Cells) -> list[tuple[int, str]]:
    return [(i, source(cell)) for i, cell in enumerate(found) if cell["cell_type"] == "markdown"]


def section(found: Cells, heading: str) -> tuple[int, str] | None:
    """Where ``## heading`` opens and its text up to the next heading or the Next line."""
    starts = [i for i, text in markdown(found) if f"## {heading}" in text.splitlines()]
    if len(starts) != 1:
        return None
    text = source(found[starts[0]]).split(f"## {heading}", 1)[1]
    for cell in found[starts[0] + 1 :]:
        ends = re.match(r"#{1,2} |Next: |This is the last", source(cell))
        if cell["cell_type"] == "markdown" and ends:
            break
        text += "\n" + source(cell)
    return starts[0], text


def opening_problems(stem: str, found: Cells) -> list[str]:
    lines = source(found[0]).splitlines() if found else []
    match = TITLE.fullmatch(lines[0]) if lines else None
    if found[0]["cell_type"] != "markdown" or not match or not stem.startswith(f"{match[1]}_"):
        return ["the first cell must start with '# NN · Title', NN as in the file name"]
    opening = [text for _, text in markdown(found[:2]) if "## Objectives" in text.splitlines()]
    if not opening:
        return ["'## Objectives' must follow the title"]
    problems = []
    objectives = bullets(opening[0].split("## Objectives", 1)[1])
    if not 2 <= len(objectives) <= 4:
        problems.append(f"2 to 4 objectives, not {len(objectives)}")
    for objective in objectives:
        first = objective.split()[0]
        if not (first[0].isupper() and first.isalpha() and first.lower() not in NOT_VERBS):
            problems.append(f"objective {objective!r} should lead with a verb")
    if not re.search(r"^Time: about \d+ minutes", opening[0], re.MULTILINE):
        problems.append("no 'Time: about N minutes' line under the objectives")
    return problems


def prediction_problems(found: Cells) -> list[str]:
    predicts = [i for i, text in markdown(found) if "**Predict:**" in text]
    if not predicts:
        return ["no **Predict:** question"]
    problems = []
    for index, start in enumerate(predicts):
        end = predicts[index + 1] if index + 1 < len(predicts) else len(found)
        answers = [i for i, text in markdown(found[:end]) if i > start and ANSWER in text]
        if not answers or "</details>" not in source(found[answers[0]]).split(ANSWER, 1)[1]:
            problems.append(f"the prediction in cell {start} has no collapsed answer")
        elif all(cell["cell_type"] != "code" for cell in found[start + 1 : answers[0]]):
            problems.append(f"the answer in cell {answers[0]} comes before any cell runs")
    return problems


def quiz_problems(found: Cells) -> list[str]:
    quizzes = [
        source(cell)
        for cell in found
        if cell["cell_type"] == "code" and calls_named(ast.parse(source(cell)), "quiz")
    ]
    if not quizzes:
        return ["no quiz(...) check question"]
    imports = "from hookcourse.course.notebook import quiz"
    return [
        f"a quiz cell does not import quiz itself: {text}"
        for text in quizzes
        if imports not in text
    ]


def ending_problems(stem: str, found: Cells) -> list[str]:
    problems = []
    parts = {
        name: section(found, name)
        for name in ("Going further", "Key points", "Check your understanding")
    }
    for name, part in parts.items():
        if part is None:
            problems.append(f"needs exactly one '## {name}' heading")
    further, key, check = parts.values()
    if key is not None and not 3 <= len(bullets(key[1])) <= 5:
        problems.append("Key points needs 3 to 5 bullets")
    if check is not None:
        questions = re.findall(r"^\d+\. ", check[1], re.MULTILINE)
        answered = check[1].count(ANSWER) == check[1].count("</details>") == 2
        if len(questions) != 2 or not answered:
            problems.append(
                "Check your understanding needs two numbered questions, each answered in <details>"
            )
    if further is not None:
        later = {
            line
            for _, text in markdown(found[further[0] + 1 :])
            for line in text.splitlines()
            if line.startswith("## ")
        }
        if not later <= {"## Key points", "## Check your understanding"}:
            problems.append(
                f"Going further must be the last teaching section, not before {sorted(later)}"
            )
    return problems + next_problems(stem, found)


def next_problems(stem: str, found: Cells) -> list[str]:
    text = source(found[-1]).strip() if found[-1]["cell_type"] == "markdown" else ""
    position = COURSE.index(stem)
    if position == len(COURSE) - 1:
        return (
            []
            if text == "This is the last notebook."
            else ["must end: 'This is the last notebook.'"]
        )
    match = NEXT.match(text)
    if not match or match[3] != COURSE[position + 1] or not match[3].startswith(match[1]):
        return [f"must end with 'Next: [NN · Title]({COURSE[position + 1]}.ipynb)'"]
    following = FOLDER / f"{match[3]}.ipynb"
    # On a branch that holds only the first notebooks the next one may not be there yet.
    if following.exists() and title(following) != (match[1], match[2]):
        return [f"the Next link's title is not {following.name}'s: {title(following)}"]
    return []


def shape_problems(stem: str, found: Cells) -> list[str]:
    """Everything about a notebook's shape that differs from the agreed one."""
    return (
        opening_problems(stem, found)
        + prediction_problems(found)
        + quiz_problems(found)
        + ending_problems(stem, found)
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_every_notebook_has_the_courses_shape(path: Path) -> None:
    assert shape_problems(path.stem, cells(path)) == []


def without(found: Cells, text: str) -> Cells:
    """A copy of the cells with every cell containing ``text`` dropped."""
    return [cell for cell in found if text not in source(cell)]


def moved_before(found: Cells, text: str, anchor: str) -> Cells:
    """A copy with the cell containing ``text`` moved just before the one containing ``anchor``."""
    moving = next(cell for cell in found if text in source(cell))
    rest = [cell for cell in found if cell is not moving]
    at = next(i for i, cell in enumerate(rest) if anchor in source(cell))
    return [*rest[:at], moving, *rest[at:]]


def edited(found: Cells, old: str, new: str) -> Cells:
    return [dict(cell, source=source(cell).replace(old, new)) for cell in found]


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (
            lambda c: edited(c, "# 02 · Exit codes", "# Exit codes"),
            "must start with '# NN · Title'",
        ),
        (lambda c: edited(c, "# 02 · ", "# 03 · "), "NN as in the file name"),
        (lambda c: edited(c, "## Objectives", "## Goals"), "'## Objectives' must follow"),
        (lambda c: edited(c, "- Predict the verdict", "- The verdict"), "should lead with a verb"),
        (lambda c: edited(c, "Time: about 30", "About 30"), "no 'Time: about N minutes'"),
        (lambda c: edited(c, "**Predict:**", "Guess:"), "no **Predict:** question"),
        (lambda c: edited(c, ANSWER, "<details>"), "has no collapsed answer"),
        (lambda c: edited(c, "quiz(", "print("), "no quiz(...) check question"),
        (
            lambda c: edited(c, "from hookcourse.course.notebook import quiz", ""),
            "does not import quiz",
        ),
        (lambda c: without(c, "## Key points"), "needs exactly one '## Key points'"),
        (
            lambda c: edited(c, "- Exit 0 means", "- a\n- b\n- Exit 0 means"),
            "Key points needs 3 to 5 bullets",
        ),
        (lambda c: edited(c, "2. Why does exit 2", "Why does exit 2"), "two numbered questions"),
        (lambda c: without(c, "## Going further"), "needs exactly one '## Going further'"),
        (lambda c: moved_before(c, "## Going further", "## 6. From a worked"), "the last teaching"),
        (lambda c: c[:-1], "must end with 'Next: [NN · Title](03_decide_modify_inject.ipynb)'"),
        (lambda c: edited(c, "03 · Decide, modify, inject", "03 · Decide"), "title is not"),
    ],
)
def test_the_shape_test_names_what_is_missing(change: Any, problem: str) -> None:
    # Notebook 02 as committed, changed in one way a later edit might.
    found = change(cells(FOLDER / "02_exit_codes.ipynb"))
    problems = shape_problems("02_exit_codes", found)
    assert any(problem in line for line in problems), problems


def test_an_answer_before_its_revealing_cell_is_caught() -> None:
    found = cells(FOLDER / "02_exit_codes.ipynb")
    start = next(i for i, cell in enumerate(found) if "**Predict:**" in source(cell))
    reordered = [*found[: start + 1], found[start + 2], found[start + 1], *found[start + 3 :]]
    assert any("comes before any cell runs" in line for line in prediction_problems(reordered))


# -- cells a learner can trust -------------------------------------------------------------------


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_nbval_markers_are_cell_tags_not_comments(path: Path) -> None:
    for cell in code_cells(path):
        assert "NBVAL_" not in source(cell), source(cell)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_no_package_function_is_in_scope_under_an_exercises_name(path: Path) -> None:
    names = exercise_names()
    assert {exercise.function for stage in STAGES for exercise in stage.exercises} <= names
    for cell in code_cells(path):
        for node in ast.walk(ast.parse(source(cell))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                bound = {alias.asname or alias.name.split(".")[0] for alias in node.names}
                assert not bound & names, f"{path.name} imports {bound & names}: {source(cell)}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_exercise_cells_define_only_the_learners_function_and_ship_unsolved(path: Path) -> None:
    found = code_cells(path)
    for index, cell in enumerate(found):
        if "exercise" not in tags(cell):
            assert "raise NotImplementedError" not in source(cell), source(cell)
            continue
        tree = ast.parse(source(cell))
        kinds = {type(node) for node in tree.body}
        assert kinds <= {ast.Import, ast.ImportFrom, ast.FunctionDef}, source(cell)
        assert len([node for node in tree.body if isinstance(node, ast.FunctionDef)]) == 1
        assert "raise NotImplementedError" in source(cell)
        check = found[index + 1]
        assert re.search(r"^check_\w+\(", source(check), re.MULTILINE), source(check)
        assert ": not yet. Your function still raises NotImplementedError" in stored_text(check)


@pytest.mark.parametrize(
    "exercise",
    [exercise for stage in STAGES for exercise in stage.exercises],
    ids=lambda exercise: exercise.function,
)
def test_each_registered_exercise_is_written_in_its_notebook(exercise: Any) -> None:
    path = FOLDER / f"{exercise.notebook}.ipynb"
    found = code_cells(path)
    starters = [
        index
        for index, cell in enumerate(found)
        if "exercise" in tags(cell) and f"def {exercise.function}(" in source(cell)
    ]
    assert len(starters) == 1, f"{path.name} has no exercise cell defining {exercise.function}"
    check = source(found[starters[0] + 1])
    assert f"import {exercise.check}" in check and f"{exercise.check}({exercise.function})" in check


def self_contained_runs(path: Path) -> list[tuple[str, ...]]:
    """Sources a learner may run right after a kernel restart, each group in one namespace:
    an exercise cell then its check, a quiz, a lab."""
    found = code_cells(path)
    groups: list[tuple[str, ...]] = []
    for index, cell in enumerate(found):
        text = source(cell)
        if "exercise" in tags(cell):
            groups.append((text, source(found[index + 1])))
        elif "quiz(" in text or re.search(r"^\w+ = \w+_lab\(", text, re.MULTILINE):
            groups.append((text,))
    return groups


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_checks_quizzes_and_labs_run_after_a_kernel_restart(path: Path) -> None:
    groups = self_contained_runs(path)
    assert groups
    for group in groups:
        namespace: dict[str, object] = {}
        for text in group:
            exec(compile(text, path.name, "exec"), namespace)
        if len(group) == 2:  # a check after its exercise: "not yet", never a pass or a crash
            check = ast.parse(group[1]).body[-1]
            assert isinstance(check, ast.Expr)
            result = eval(compile(ast.Expression(check.value), path.name, "eval"), namespace)
            assert result.not_yet, group


# -- what nbval needs ----------------------------------------------------------------------------


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_outputs_are_stored_from_one_top_to_bottom_run(path: Path) -> None:
    # nbval skips the comparison for a cell whose execution_count is None.
    counts = [cell["execution_count"] for cell in code_cells(path)]
    assert counts == list(range(1, len(counts) + 1))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_no_stored_errors_and_nothing_machine_specific(path: Path) -> None:
    for cell in code_cells(path):
        assert all(output["output_type"] != "error" for output in cell["outputs"])
        text = stored_text(cell)
        # This checkout's path, a temporary folder's, or an object's address would differ next run.
        for unstable in (str(ROOT), f"{tempfile.gettempdir()}/tmp", " at 0x"):
            assert unstable not in text, source(cell)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_interactive_displays_are_ignored_by_nbval_and_labs_asserted_beside(path: Path) -> None:
    found = code_cells(path)
    for index, cell in enumerate(found):
        # Views are not stored (they go stale with their kernel): a widget's output is
        # its text, what a learner sees before running the cell (and what GitHub shows).
        assert not any(WIDGET_VIEW in output.get("data", {}) for output in cell["outputs"])
        plain = "".join(
            "".join(output.get("data", {}).get("text/plain", "")) for output in cell["outputs"]
        )
        shows_widget = plain.startswith("[the ")
        assert shows_widget == ("nbval-ignore-output" in tags(cell)), source(cell)
        if not shows_widget:
            continue
        lab = re.search(r"^(\w+) = \w+_lab\(", source(cell), re.MULTILINE)
        if lab:
            beside = source(found[index + 1])
            # A demonstration resets the lab first: it shows what its prose says
            # whatever the learner typed into the lab above.
            assert f"{lab[1]}.reset(" in beside and found[index + 1]["outputs"]


def solution_lines() -> set[str]:
    """Lines of the solutions' bodies that carry logic (not comments, docstrings or `if`s)."""
    lines = set()
    for function in (
        solutions.match_hook,
        solutions.interpret_exit_code,
        solutions.apply_pre_tool_use,
    ):
        for line in inspect.getsource(function).splitlines()[1:]:
            text = line.strip()
            if len(text) > 20 and not text.startswith(('"""', "#", "def ", "if ")):
                lines.add(text)
    return lines


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_no_solution_code_in_learner_cells(path: Path) -> None:
    assert len(solution_lines()) >= 6
    for cell in code_cells(path):
        text = source(cell)
        assert "hookcourse.solutions" not in text and "from hookcourse import solutions" not in text
        for line in solution_lines():
            assert line not in text, f"{path.name} shows solution code: {line}"
