"""The committed notebooks: what nbval needs, and no solutions in the learner's view."""

from __future__ import annotations

import inspect
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest

from hookcourse import solutions

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
IGNORE = "# NBVAL_IGNORE_OUTPUT"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def read(path: Path) -> dict[str, Any]:
    notebook: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return notebook


def code_cells(path: Path) -> list[dict[str, Any]]:
    return [cell for cell in read(path)["cells"] if cell["cell_type"] == "code"]


def source(cell: dict[str, Any]) -> str:
    text = cell["source"]
    return text if isinstance(text, str) else "".join(text)


def stored_text(cell: dict[str, Any]) -> str:
    parts = []
    for output in cell["outputs"]:
        if output["output_type"] == "stream":
            parts.append("".join(output["text"]))
        for value in output.get("data", {}).values():
            parts.append(value if isinstance(value, str) else json.dumps(value))
    return "\n".join(parts)


def test_the_course_has_its_notebooks_in_order() -> None:
    assert [path.name for path in NOTEBOOKS] == [
        "00_hook_contract.ipynb",
        "01_matcher_and_dispatch.ipynb",
        "02_decide_modify_inject.ipynb",
        "04_events.ipynb",
        "05_several_hooks.ipynb",
        "06_stop_loop.ipynb",
        "07_a_guard_that_holds.ipynb",
    ]


def test_every_notebook_uses_the_same_kernelspec() -> None:
    specs = {json.dumps(read(path)["metadata"]["kernelspec"], sort_keys=True) for path in NOTEBOOKS}
    assert specs == {
        '{"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}'
    }


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
def test_interactive_displays_are_ignored_by_nbval_and_asserted_beside(path: Path) -> None:
    cells = code_cells(path)
    for index, cell in enumerate(cells):
        shows_widget = any(WIDGET_VIEW in output.get("data", {}) for output in cell["outputs"])
        ignored = "nbval-ignore-output" in cell["metadata"].get("tags", [])
        assert shows_widget <= (source(cell).startswith(IGNORE) or ignored), source(cell)
        if shows_widget and "quiz(" not in source(cell):
            # What a learner sees before running the cell (and what GitHub shows).
            plain = "".join("".join(output["data"]["text/plain"]) for output in cell["outputs"])
            assert plain.startswith("[the "), source(cell)
            lab = next(line for line in source(cell).splitlines() if " = " in line).split(" = ")[0]
            beside = source(cells[index + 1])
            assert f"{lab}.set(" in beside and cells[index + 1]["outputs"]


def solution_lines() -> set[str]:
    """Lines of the solutions' bodies that carry logic (not comments, docstrings or `if`s)."""
    lines = set()
    for function in (
        solutions.match_hook,
        solutions.interpret_exit_code,
        solutions.apply_pre_tool_use,
        solutions.merge_pre_tool_use,
        solutions.run_stop_loop,
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


@pytest.mark.parametrize("path", NOTEBOOKS[1:], ids=lambda path: path.name)
def test_exercises_ship_unsolved_and_their_check_says_not_yet(path: Path) -> None:
    cells = code_cells(path)
    starters = [cell for cell in cells if "raise NotImplementedError" in source(cell)]
    checks = [
        cell
        for cell in cells
        if any(line.startswith("check_") for line in source(cell).splitlines())
    ]
    checks = [cell for cell in checks if "NotImplementedError" in stored_text(cell)]
    assert starters and len(starters) == len(checks)
    for cell in checks:
        assert ": not yet. Your" in stored_text(cell)
        assert "still raises NotImplementedError" in stored_text(cell)
