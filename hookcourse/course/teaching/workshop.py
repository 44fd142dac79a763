"""The course in a workshop: teacher and student builds of the tracked notebooks.

The teacher build writes each exercise's solution into its cell (``solution_cells.py``)
and executes every notebook, then refuses a build where a check did not pass; the student
build is the course with outputs cleared. The learner's own copy is ``working_copy.py``'s.
Only executing needs the lab tools installed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hookcourse.course.checks.check_report import reports_in
from hookcourse.course.teaching.notebook_files import (
    COURSE,
    Notebook,
    cleared,
    course_notebooks,
    read_notebook,
    source,
    write_notebook,
)
from hookcourse.course.teaching.solution_cells import (
    bound_before,
    exercise_cells,
    exercise_names,
    solution_cell,
    teachers_solution,
)
from hookcourse.course.teaching.working_copy import LEFTOVERS, copy_item, mark_work
from hookcourse.errors import InputError

# -- teacher and student builds ------------------------------------------------------------------


@dataclass(frozen=True)
class Built:
    """One notebook of a build and the exercise functions in it."""

    notebook: Path
    exercises: tuple[str, ...]


def _fresh_folder(target: Path) -> None:
    if target.exists() and any(target.iterdir()):
        raise InputError(
            str(target), "already exists and is not empty", "name a new folder, or remove it first"
        )
    target.mkdir(parents=True, exist_ok=True)


def _set_source(cell: dict[str, Any], text: str) -> None:
    cell["source"] = text.splitlines(keepends=True)


def build(target: Path, teacher: bool, course: Path = COURSE) -> list[Built]:
    """Write the course into ``target``: every notebook with outputs cleared, its data and
    hook scripts alongside, and for the teacher every exercise cell solved with the
    registry's solution. The student build is marked as a working copy, so the checks
    its learners run record their progress there.

    The teacher build still has to be executed (``execute_build``) for its outputs.
    """
    notebooks = course_notebooks(course)
    _fresh_folder(target)
    built = []
    for path in notebooks:
        notebook = cleared(read_notebook(path))
        found = list(exercise_cells(notebook, exercise_names()))
        for index, name in found if teacher else []:
            cell = notebook["cells"][index]
            before = bound_before(notebook, index)
            solved = solution_cell(source(cell), name, teachers_solution(name, path, index), before)
            _set_source(cell, solved)
        write_notebook(target / path.name, notebook)
        built.append(Built(target / path.name, tuple(name for _, name in found)))
    for item in sorted(course.iterdir()):
        if item.suffix != ".ipynb" and item.name not in LEFTOVERS:
            copy_item(item, target / item.name)
    if not teacher:
        mark_work(target)
    return built


def check_reports(notebook: Notebook) -> list[dict[str, Any]]:
    """Every check report a notebook's outputs carry (the checks' data, not their text)."""
    return [found for cell in notebook["cells"] for found in reports_in(cell.get("outputs", []))]


def unpassed(notebook: Notebook, exercises: Iterable[str]) -> list[tuple[str, str]]:
    """(exercise, why) for each exercise whose own check did not pass in these outputs;
    ``why`` is the check's summary without the exercise's name in front."""
    reports = check_reports(notebook)
    missing = []
    for name in exercises:
        own = [r for r in reports if r.get("exercise") == name and r.get("subject") == name]
        if not own:
            missing.append((name, "its check printed no report"))
        elif not all(r.get("passed") is True for r in own):
            said = str(next(r for r in own if not r.get("passed"))["summary"])
            missing.append((name, said.removeprefix(f"{name}: ")))
    return missing


def execute_build(built: Iterable[Built], timeout: int = 300) -> None:
    """Execute each notebook in its folder and store its outputs (without widget views,
    which would outlive their kernel); then insist that every exercise's check passed,
    naming every notebook and exercise that did not, after running them all."""
    try:
        import nbclient
        import nbformat
    except ImportError:
        raise InputError(
            "workshop build --teacher",
            "the lab tools (nbclient) are not installed",
            "run scripts/bootstrap.sh lab, then .venv/bin/hookcourse",
        ) from None
    from hookcourse.course.teaching.server import without_widget_views

    notebooks = list(built)
    problems: list[str] = []
    failed_names: list[str] = []
    for item in notebooks:
        # nbformat's readers carry no type hints.
        text = item.notebook.read_text(encoding="utf-8")
        notebook = nbformat.reads(text, as_version=4)  # type: ignore[no-untyped-call]
        client = nbclient.NotebookClient(
            notebook,
            timeout=timeout,
            kernel_name="python3",
            # ipykernel warns on every start that TCP is unencrypted: noise on one machine.
            extra_arguments=["--IPKernelApp.log_level=ERROR"],
            resources={"metadata": {"path": str(item.notebook.parent)}},
        )
        try:
            client.execute()
        except Exception as error:  # a cell's error, a timeout, a kernel that died
            # A cell's error carries its name and value (its text is a coloured traceback).
            ename, evalue = getattr(error, "ename", None), getattr(error, "evalue", None)
            said = f"{ename}: {evalue}" if ename else str(error).strip() or type(error).__name__
            problems.append(
                f"{item.notebook.name} did not run to the end ({said.splitlines()[-1]})"
            )
            failed_names += item.exercises
            continue
        without_widget_views(notebook)
        write_notebook(item.notebook, notebook)
        for name, why in unpassed(notebook, item.exercises):
            problems.append(f"{item.notebook.name}: the check of {name} did not pass ({why})")
            failed_names.append(name)
    if problems:
        where = str(notebooks[0].notebook.parent)
        names = ", ".join(dict.fromkeys(failed_names))
        fix = f"fix {names} in hookcourse/solutions/" if names else "fix the notebook"
        raise InputError(where, "; ".join(problems), fix)
