"""A learner who comes back: saved notebooks hold no stale widget views, a check cell run
before its exercise cell says so in one line, and a long hint is shown whole."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import nbclient
import nbformat
import pytest

from hookcourse.course.checks.exercises import check_matcher
from hookcourse.course.checks.kernel_hook import (
    defining_line,
    missing_cells,
    missing_exercise,
    missing_name,
)
from hookcourse.course.teaching import server
from hookcourse.stages.registry import EXERCISES

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def outputs(notebook: dict[str, Any]) -> list[dict[str, Any]]:
    return [o for c in notebook["cells"] if c["cell_type"] == "code" for o in c["outputs"]]


def test_the_stored_notebooks_hold_no_widget_view_or_widget_state() -> None:
    for path in NOTEBOOKS:
        notebook = json.loads(path.read_text(encoding="utf-8"))
        assert "widgets" not in notebook["metadata"], path.name
        for output in outputs(notebook):
            assert server.WIDGET_VIEW not in output.get("data", {}), path.name


def a_saved_lab() -> dict[str, Any]:
    view = {server.WIDGET_VIEW: {"model_id": "0d1e", "version_major": 2, "version_minor": 0}}
    return {
        "metadata": {"widgets": {"application/vnd.jupyter.widget-state+json": {"state": {}}}},
        "cells": [
            {
                "id": "c1",
                "cell_type": "code",
                "outputs": [
                    {"output_type": "display_data", "data": {**view, "text/plain": "[the lab…]"}},
                    {"output_type": "display_data", "data": dict(view)},
                    {"output_type": "stream", "name": "stdout", "text": "kept\n"},
                ],
            },
            {"id": "m1", "cell_type": "markdown", "source": "text"},
        ],
    }


def test_a_view_gives_way_to_its_text_or_a_run_this_cell_line() -> None:
    notebook = a_saved_lab()
    assert server.without_widget_views(notebook)
    lab, bare, stream = notebook["cells"][0]["outputs"]
    assert lab["data"] == {"text/plain": "[the lab…]"}
    assert bare["data"] == {"text/plain": server.RUN_AGAIN}
    assert stream["text"] == "kept\n"
    assert "widgets" not in notebook["metadata"]
    assert not server.without_widget_views(notebook)  # nothing left to drop


def test_the_server_extension_saves_notebooks_without_views(tmp_path: Path) -> None:
    from jupyter_server.services.contents.filemanager import FileContentsManager

    class Server:
        contents_manager = FileContentsManager(root_dir=str(tmp_path))
        root_dir = str(tmp_path)
        log = logging.getLogger("test")

    server._load_jupyter_server_extension(Server())
    content = nbformat.from_dict({**a_saved_lab(), "nbformat": 4, "nbformat_minor": 5})
    for cell in content.cells:
        cell.setdefault("metadata", {})
        if cell.cell_type == "code":
            cell.update(source="lab", execution_count=1)
    Server.contents_manager.save({"type": "notebook", "content": content}, "saved.ipynb")
    saved = json.loads((tmp_path / "saved.ipynb").read_text(encoding="utf-8"))
    assert "widgets" not in saved["metadata"]
    assert all(server.WIDGET_VIEW not in o.get("data", {}) for o in outputs(saved))
    assert not (tmp_path / "my-notebooks").exists()  # a working copy only on a hub


def test_a_check_before_its_exercise_is_one_line_other_name_errors_a_traceback() -> None:
    cells = [
        "from hookcourse.course.notebook import check_merge\n\ncheck_merge(merge_pre_tool_use)",
        "print(undefined_thing)",
    ]
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(text) for text in cells]
    nbclient.NotebookClient(notebook, kernel_name="python3", allow_errors=True).execute()
    first, second = (cell.outputs for cell in notebook.cells)
    [error] = first
    assert error.ename == "NameError"
    assert len(error.traceback) == 1
    assert missing_exercise("merge_pre_tool_use") in error.traceback[0]
    assert "05_several_hooks" in error.traceback[0]
    assert len(second[0].traceback) > 1  # IPython's own traceback


def test_every_exercise_name_has_its_line_and_others_none() -> None:
    for exercise in EXERCISES:
        said = missing_exercise(exercise.function)
        assert said is not None and exercise.notebook in said
    assert missing_exercise("json") is None


def test_a_long_hint_is_shown_whole_and_wraps() -> None:
    report = check_matcher(lambda matcher, tool_name: tool_name in str(matcher).split("|"))
    hint = report.hint()
    assert hint is not None
    page = report._repr_html_()
    assert hint.replace('"', "&quot;").replace("'", "&#x27;") in page
    assert "white-space:pre-wrap" in page


def course_notebook(stem: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(
        (ROOT / "notebooks" / f"{stem}.ipynb").read_text(encoding="utf-8")
    )
    return loaded


def test_a_name_another_cell_defines_is_found_in_that_cell() -> None:
    several = course_notebook("05_several_hooks")
    assert defining_line(several, "merge") == "merge = merge_lab(hooks=2)"
    assert defining_line(course_notebook("00_hook_contract"), "lab") == "lab = answer_lab()"
    assert defining_line(several, "quiz") == "from hookcourse.course.notebook import quiz"
    assert defining_line(several, "no_such_name") is None
    # The cell that is running does not count: its own later line is its own business.
    own = {"cells": [{"cell_type": "code", "source": "print(x)\nx = 1"}]}
    assert defining_line(own, "x", running="print(x)\nx = 1") is None
    assert missing_name("merge", several) == (
        "merge is not defined yet (after a restart the kernel forgets it): run the cell "
        "with `merge = merge_lab(hooks=2)` first, then this cell again."
    )


def test_the_server_starts_kernels_with_the_hook_unless_the_learner_has_a_startup_file() -> None:
    environ: dict[str, str] = {}
    assert server.start_kernels_with_the_name_hook(environ)
    assert Path(environ["PYTHONSTARTUP"]).is_file()
    mine = {"PYTHONSTARTUP": "/home/ada/.pythonrc"}
    assert not server.start_kernels_with_the_name_hook(mine)
    assert mine == {"PYTHONSTARTUP": "/home/ada/.pythonrc"}


def test_a_driven_cell_run_first_after_a_restart_is_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # As the course's server starts a kernel for notebook 05: the session's notebook and
    # the startup file in its environment, and no course import before this cell.
    monkeypatch.setenv("JPY_SESSION_NAME", str(ROOT / "notebooks" / "05_several_hooks.ipynb"))
    monkeypatch.setenv("PYTHONSTARTUP", "")  # set below, put back after the test
    assert server.start_kernels_with_the_name_hook()
    cells = ['print(merge.reset(code2="1"))', "print(undefined_thing)", "print(dir())"]
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(text) for text in cells]
    nbclient.NotebookClient(notebook, kernel_name="python3", allow_errors=True).execute()
    driven, other, names = (cell.outputs for cell in notebook.cells)
    [error] = driven
    assert error.ename == "NameError" and len(error.traceback) == 1
    assert missing_name("merge", course_notebook("05_several_hooks")) in error.traceback[0]
    assert len(other[0].traceback) > 1  # a name no cell defines: IPython's own traceback
    assert "hookcourse" not in names[0].text  # the startup file left no name behind


def test_a_cell_run_out_of_order_names_every_cell_it_needs_at_once() -> None:
    # Notebook 00's cell that runs the allow hook and drives the answer lab, run first
    # after a restart: one try names all three cells, top to bottom, with what they define.
    contract = course_notebook("00_hook_contract")
    running = next(
        text
        for text in ("".join(c["source"]) for c in contract["cells"] if c["cell_type"] == "code")
        if 'run_hook_script("hooks/allow_tests.py"' in text
    )
    said = missing_cells("run_hook_script", contract, running, {"get_ipython"})
    assert said is not None
    assert said.startswith("run_hook_script, payload_text, jsjson, lab and Path are not defined")
    assert "run these 3 cells first, top to bottom" in said
    order = [
        "`from hookcourse.course.notebook import run_hook_script`",
        '`payload_text = Path("data/pre_tool_use.json")',
        "`lab = answer_lab()`",
    ]
    assert [said.index(line) for line in order] == sorted(said.index(line) for line in order)
    # What the kernel still has is not asked for again.
    kept = {"json", "Path", "jsjson", "run_hook_script", "payload_text"}
    assert missing_cells("lab", contract, running, kept) == missing_name("lab", contract)
    # A name no cell defines is left to IPython's own traceback.
    assert missing_cells("nowhere", contract, "print(nowhere)") is None
