"""Teacher and student builds: the teacher's exercise cells hold the solutions between
BEGIN/END SOLUTION markers and every check passes (under nbval too); the student's
cells are the starters and every check says "not yet"."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hookcourse import solutions
from hookcourse.course.checks import exercises
from hookcourse.course.checks.check_report import MIME_TYPE
from hookcourse.course.teaching import notebook_files, solution_cells, workshop
from hookcourse.course.teaching.progress import MARKER
from hookcourse.course.teaching.server import WIDGET_VIEW
from hookcourse.errors import InputError
from hookcourse.stages.registry import EXERCISES, exercise_named
from tests.support.paths import ROOT


@pytest.fixture(scope="module")
def teacher(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("builds") / "teacher"
    built = workshop.build(target, teacher=True)
    workshop.execute_build(built)
    return target


@pytest.fixture(scope="module")
def student(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("builds") / "student"
    workshop.build(target, teacher=False)
    return target


def exercise_sources(folder: Path) -> dict[str, str]:
    found = {}
    for path in sorted(folder.glob("*.ipynb")):
        notebook = notebook_files.read_notebook(path)
        for index, name in solution_cells.exercise_cells(notebook, solution_cells.exercise_names()):
            found[name] = notebook_files.source(notebook["cells"][index])
    return found


def test_every_exercise_of_the_course_is_found() -> None:
    assert set(exercise_sources(ROOT / "notebooks")) == set(solution_cells.exercise_names())


def test_the_teacher_build_solves_each_exercise_between_the_markers(teacher: Path) -> None:
    starters = exercise_sources(ROOT / "notebooks")
    for name, text in exercise_sources(teacher).items():
        assert text.count(solution_cells.BEGIN) == text.count(solution_cells.END) == 1
        assert "NotImplementedError" not in text
        # The starter's signature and docstring stay as the learner saw them.
        starter = ast.parse(starters[name]).body[-1]
        solved = next(n for n in ast.parse(text).body if isinstance(n, ast.FunctionDef))
        assert isinstance(starter, ast.FunctionDef)
        assert ast.dump(starter.args) == ast.dump(solved.args)
        assert ast.get_docstring(starter) == ast.get_docstring(solved)


def test_every_check_in_the_teacher_build_passed(teacher: Path) -> None:
    """All eight exercises, read from the checks' report data in the outputs."""
    own = []
    for path in sorted(teacher.glob("*.ipynb")):
        reports = workshop.check_reports(notebook_files.read_notebook(path))
        own += [r for r in reports if r["subject"] == r["exercise"]]
    assert [r["exercise"] for r in own] == [e.function for e in EXERCISES]
    assert len(own) == 8 and all(r["passed"] for r in own), [r["summary"] for r in own]


def test_a_build_fails_naming_the_exercise_whose_check_did_not_pass() -> None:
    passed = {"exercise": "match_hook", "subject": "match_hook", "passed": True, "summary": "ok"}
    failed = {**passed, "exercise": "pick_hook", "subject": "pick_hook", "passed": False}
    failed["summary"] = "pick_hook: 9 of 10 goals right"
    script = {**failed, "exercise": "is_force_push", "subject": "no_force_push.py"}
    outputs = [{"data": {MIME_TYPE: report}} for report in (passed, failed, script)]
    notebook = {"cells": [{"cell_type": "code", "outputs": outputs}]}
    assert workshop.unpassed(notebook, ["match_hook", "pick_hook", "is_force_push"]) == [
        ("pick_hook", "9 of 10 goals right"),
        ("is_force_push", "its check printed no report"),  # a script's report is not its own
    ]
    # Text that merely looks like a pass counts for nothing: only the data does.
    text = {"output_type": "stream", "text": "pick_hook: passed, all 10 goals\n"}
    assert workshop.unpassed({"cells": [{"outputs": [text]}]}, ["pick_hook"]) == [
        ("pick_hook", "its check printed no report")
    ]


def test_the_teacher_build_stores_no_widget_view_or_widget_state(teacher: Path) -> None:
    # A stored view names a model that died with the build's kernel: the teacher who
    # opens the build reads the lab's "run this cell" text instead.
    for path in sorted(teacher.glob("*.ipynb")):
        notebook = notebook_files.read_notebook(path)
        assert "widgets" not in notebook["metadata"], path.name
        for cell in notebook["cells"]:
            for output in cell.get("outputs", []):
                assert WIDGET_VIEW not in output.get("data", {}), path.name


def write_cells(path: Path, *cells: str) -> workshop.Built:
    notebook = {
        "cells": [
            {
                "cell_type": "code",
                "id": f"c{i}",
                "metadata": {},
                "source": text,
                "outputs": [],
                "execution_count": None,
            }
            for i, text in enumerate(cells)
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    notebook_files.write_notebook(path, notebook)
    return workshop.Built(path, ("pick_hook",) if "pick_hook" in cells[0] else ())


def test_a_teacher_build_runs_every_notebook_and_names_each_check_that_did_not_pass(
    tmp_path: Path,
) -> None:
    built = [
        write_cells(tmp_path / "02.ipynb", "raise ValueError('a broken cell')"),
        write_cells(
            tmp_path / "04.ipynb",
            "def pick_hook(goal):\n    return ('Stop', 'command')",
            "from hookcourse.course.labs.events import check_gate\ncheck_gate(pick_hook)",
        ),
    ]
    with pytest.raises(InputError) as raised:
        workshop.execute_build(built)
    # The broken notebook does not stop the build: the next one still runs.
    assert str(raised.value) == (
        f"{tmp_path}: 02.ipynb did not run to the end (ValueError: a broken cell); "
        "04.ipynb: the check of pick_hook did not pass (0 of 10 goals right); "
        "fix: fix pick_hook in hookcourse/solutions/"
    )


def test_a_constant_over_several_lines_is_indented_inside_the_solution() -> None:
    notebook = notebook_files.read_notebook(ROOT / "notebooks" / "04_events.ipynb")
    [(index, name)] = solution_cells.exercise_cells(notebook, ["pick_hook"])
    text = solution_cells.solution_cell(
        notebook_files.source(notebook["cells"][index]), name, solutions.pick_hook
    )
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("    MOMENTS = ["))
    end = lines.index("    ]", start)
    assert all(line.startswith("        (") for line in lines[start + 1 : end]), lines[start:end]


def test_nbval_passes_the_teacher_build(teacher: Path) -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-o",
            "addopts=",
            "--nbval",
            "--nbval-current-env",
            "--rootdir",
            str(teacher),
            str(teacher),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=teacher,
        env={k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")},
    )
    assert run.returncode == 0, run.stdout[-3000:]
    assert " passed" in run.stdout and "failed" not in run.stdout


def test_the_student_build_is_the_starters_with_outputs_cleared(student: Path) -> None:
    assert exercise_sources(student) == exercise_sources(ROOT / "notebooks")
    for path in student.glob("*.ipynb"):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        assert all(cell.get("outputs", []) == [] for cell in cells)
    assert (student / "hooks" / "no_force_push.py").is_file()
    assert (student / MARKER).is_file()  # a working copy: its learners' checks are recorded


def test_every_check_in_the_student_build_says_not_yet(student: Path) -> None:
    # Each exercise cell run as the kernel would, then its check (no kernel needed here).
    for name, text in exercise_sources(student).items():
        namespace: dict[str, object] = {}
        exec(compile(text, f"<{name} starter>", "exec"), namespace)
        function = namespace[name]
        assert callable(function)
        result = getattr(exercises, exercise_named(name).check)(function)
        assert result.report().state == "not-yet", result
        assert result.summary().startswith(f"{name}: not yet."), result


def test_a_build_never_writes_into_a_folder_that_holds_files(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(InputError, match="already exists and is not empty"):
        workshop.build(tmp_path, teacher=False)


STARTER = '''from hookcourse.js.regex import regex_test


def match_hook(matcher, tool_name):
    """Doc."""
    raise NotImplementedError
'''


def test_a_solution_brings_the_module_names_the_cell_does_not_import() -> None:
    text = solution_cells.solution_cell(STARTER, "match_hook", solutions.match_hook)
    region = text[text.index(solution_cells.BEGIN) : text.index(solution_cells.END)]
    # regex_test comes from the cell; re, NAME_LIST and the others from the solution module.
    assert "    import re\n" in region and "    NAME_LIST = re.compile(" in region
    assert "import regex_test" not in region and "import js_to_string" in region
    namespace: dict[str, object] = {}
    exec(compile(text, "<cell>", "exec"), namespace)
    solved = namespace["match_hook"]
    assert callable(solved)
    assert solved("Edit|Write", "Write") is True and solved("Edit|Write", "MultiEdit") is False


def test_a_solution_with_other_parameters_is_refused_with_the_fix() -> None:
    starter = STARTER.replace("(matcher, tool_name)", "(pattern, tool)")
    with pytest.raises(InputError) as raised:
        solution_cells.solution_cell(starter, "match_hook", solutions.match_hook)
    assert "the starter takes (pattern, tool) but the solution takes (matcher, tool_name)" in str(
        raised.value
    )


def test_a_tagged_cell_is_the_exercise_even_when_another_defines_the_name() -> None:
    notebook = {
        "cells": [
            {"cell_type": "code", "metadata": {}, "source": "def match_hook(m, t):\n    pass\n"},
            {"cell_type": "code", "metadata": {"tags": ["exercise"]}, "source": STARTER},
        ]
    }
    assert list(solution_cells.exercise_cells(notebook, ["match_hook"])) == [(1, "match_hook")]
