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

ROOT = Path(__file__).resolve().parents[2]
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


def section(path: Path, heading: str) -> tuple[int, str]:
    """The index of the markdown cell that opens ``## heading`` and the section's text."""
    found = cells(path)
    starts = [
        index
        for index, cell in enumerate(found)
        if cell["cell_type"] == "markdown" and f"## {heading}" in source(cell).splitlines()
    ]
    assert len(starts) == 1, f"{path.name} needs exactly one '## {heading}' heading"
    start = starts[0]
    text = source(found[start]).split(f"## {heading}", 1)[1]
    for cell in found[start + 1 :]:
        ends = re.match(r"#{1,2} |Next: |This is the last", source(cell))
        if cell["cell_type"] == "markdown" and ends:
            break
        text += "\n" + source(cell)
    return start, text


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


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_opens_with_title_objectives_and_time(path: Path) -> None:
    number, _ = title(path)
    assert path.name.startswith(f"{number}_")
    opening = [source(cell) for cell in cells(path)[:2] if cell["cell_type"] == "markdown"]
    with_objectives = [text for text in opening if "## Objectives" in text.splitlines()]
    assert with_objectives, f"{path.name}: '## Objectives' must follow the title"
    objectives = bullets(with_objectives[0].split("## Objectives", 1)[1])
    assert 2 <= len(objectives) <= 4, objectives
    for objective in objectives:
        first = objective.split()[0]
        assert first[0].isupper() and first.isalpha() and first.lower() not in NOT_VERBS, (
            f"{path.name}: objective {objective!r} should lead with a verb"
        )
    assert re.search(r"^Time: about \d+ minutes", with_objectives[0], re.MULTILINE)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_every_prediction_is_answered_after_the_cell_that_reveals_it(path: Path) -> None:
    found = cells(path)
    predicts = [i for i, cell in enumerate(found) if "**Predict:**" in source(cell)]
    assert predicts, f"{path.name} has no **Predict:** question"
    for index, start in enumerate(predicts):
        assert found[start]["cell_type"] == "markdown"
        end = predicts[index + 1] if index + 1 < len(predicts) else len(found)
        answers = [
            i
            for i in range(start + 1, end)
            if found[i]["cell_type"] == "markdown" and ANSWER in source(found[i])
        ]
        assert answers, f"{path.name}: the prediction in cell {start} has no collapsed answer"
        revealing = [i for i in range(start + 1, answers[0]) if found[i]["cell_type"] == "code"]
        assert revealing, f"{path.name}: the answer in cell {answers[0]} comes before any run"
        assert "</details>" in source(found[answers[0]]).split(ANSWER, 1)[1]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_has_a_quiz_that_imports_what_it_calls(path: Path) -> None:
    quizzes = [cell for cell in code_cells(path) if calls_named(ast.parse(source(cell)), "quiz")]
    assert quizzes, f"{path.name} has no quiz(...) check question"
    for cell in quizzes:
        assert "from hookcourse.course.labs.quiz import quiz" in source(cell)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_ends_with_going_further_key_points_checks_and_next(path: Path) -> None:
    further, _ = section(path, "Going further")
    key, key_text = section(path, "Key points")
    check, check_text = section(path, "Check your understanding")
    assert 3 <= len(bullets(key_text)) <= 5
    questions = re.findall(r"^\d+\. ", check_text, re.MULTILINE)
    assert len(questions) == 2 and check_text.count(ANSWER) == 2
    assert check_text.count("</details>") == 2
    # Going further is the last teaching section: nothing but the recap comes after it.
    later = [
        line
        for cell in cells(path)[further + 1 :]
        if cell["cell_type"] == "markdown"
        for line in source(cell).splitlines()
        if line.startswith("## ")
    ]
    assert set(later) <= {"## Key points", "## Check your understanding"}, later
    assert check > key or check > further


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_the_last_cell_links_the_next_notebook_or_says_it_is_last(path: Path) -> None:
    last = cells(path)[-1]
    assert last["cell_type"] == "markdown"
    text = source(last).strip()
    position = COURSE.index(path.stem)
    if position == len(COURSE) - 1:
        assert text == "This is the last notebook."
        return
    match = NEXT.match(text)
    assert match, f"{path.name} must end with 'Next: [NN · Title](NN_name.ipynb)'"
    number, shown, target = match.groups()
    assert target == COURSE[position + 1] and target.startswith(number)
    following = FOLDER / f"{target}.ipynb"
    if following.exists():  # on a branch that holds only the first notebooks it may not
        assert title(following) == (number, shown)


# -- cells a learner can trust -------------------------------------------------------------------


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_nbval_markers_are_cell_tags_not_comments(path: Path) -> None:
    for cell in code_cells(path):
        assert "NBVAL_" not in source(cell), source(cell)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_no_package_function_is_in_scope_under_an_exercises_name(path: Path) -> None:
    names = exercise_names()
    assert {"match_hook", "interpret_exit_code", "apply_pre_tool_use"} <= names
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
        shows_widget = any(WIDGET_VIEW in output.get("data", {}) for output in cell["outputs"])
        assert shows_widget == ("nbval-ignore-output" in tags(cell)), source(cell)
        if not shows_widget:
            continue
        # What a learner sees before running the cell (and what GitHub shows).
        plain = "".join("".join(output["data"]["text/plain"]) for output in cell["outputs"])
        assert plain.startswith("[the "), source(cell)
        lab = re.search(r"^(\w+) = \w+_lab\(", source(cell), re.MULTILINE)
        if lab:
            beside = source(found[index + 1])
            assert f"{lab[1]}.set(" in beside and found[index + 1]["outputs"]


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
