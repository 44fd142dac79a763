"""The learner's working copy: made from the course with outputs cleared, never
overwritten, topped up with what the course gains, and reset with a backup."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from hookcourse.course.teaching import notebook_files, progress, working_copy
from hookcourse.errors import InputError
from tests.support.paths import ROOT


def outputs(notebook: Path) -> int:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return sum(len(cell.get("outputs", [])) for cell in cells)


def test_first_start_copies_the_course_with_outputs_cleared(course: Path, tmp_path: Path) -> None:
    work = tmp_path / "my-notebooks"
    added = working_copy.prepare_work(course, work)
    assert sorted(added) == sorted(p.name for p in course.iterdir())
    for original in course.glob("*.ipynb"):
        copy = json.loads((work / original.name).read_text(encoding="utf-8"))
        assert outputs(work / original.name) == 0
        assert all(c.get("execution_count") is None for c in copy["cells"])
        assert "widgets" not in copy["metadata"]
        kept = json.loads(original.read_text(encoding="utf-8"))
        assert [notebook_files.source(c) for c in copy["cells"]] == [
            notebook_files.source(c) for c in kept["cells"]
        ]
    assert (work / "hooks" / "no_force_push.py").read_bytes() == (
        course / "hooks" / "no_force_push.py"
    ).read_bytes()
    assert (work / progress.MARKER).is_file()


def test_a_restart_keeps_the_learners_work_and_adds_what_is_new(
    course: Path, tmp_path: Path
) -> None:
    work = tmp_path / "my-notebooks"
    working_copy.prepare_work(course, work)
    mine = work / "00_hook_contract.ipynb"
    mine.write_text('{"cells": [], "metadata": {}, "mine": true}', encoding="utf-8")
    (course / "09_new.ipynb").write_text('{"cells": [], "metadata": {}}', encoding="utf-8")
    (course / "data" / "new.json").write_text("{}", encoding="utf-8")
    assert working_copy.prepare_work(course, work) == ["09_new.ipynb", "data/new.json"]
    assert json.loads(mine.read_text(encoding="utf-8"))["mine"] is True


def test_reset_restores_from_the_course_and_backs_up_the_learners_version(
    course: Path, tmp_path: Path
) -> None:
    work = tmp_path / "my-notebooks"
    working_copy.prepare_work(course, work)
    second = notebook_files.course_notebooks(course)[1]  # named by its number below
    mine = work / second.name
    mine.write_text('{"cells": [], "mine": true}', encoding="utf-8")
    now = datetime(2026, 12, 1, 9, 30, tzinfo=UTC)
    [done] = working_copy.reset([second.stem[:2]], course, work, now)
    assert done.notebook == mine
    assert done.backup == work / "backups" / f"{second.stem}.2026-12-01T09-30-00.ipynb"
    assert json.loads(done.backup.read_text(encoding="utf-8"))["mine"] is True
    restored = json.loads(mine.read_text(encoding="utf-8"))
    assert len(restored["cells"]) > 0 and outputs(mine) == 0


def test_two_resets_in_one_second_keep_both_backups(course: Path, tmp_path: Path) -> None:
    work = tmp_path / "my-notebooks"
    working_copy.prepare_work(course, work)
    now = datetime(2026, 12, 1, 9, 30, tzinfo=UTC)
    backups = []
    for attempt in ("first", "second"):
        (work / "00_hook_contract.ipynb").write_text(f'{{"cells": [], "{attempt}": 1}}')
        backups += [done.backup for done in working_copy.reset(["00"], course, work, now)]
    assert [path.name for path in backups if path] == [
        "00_hook_contract.2026-12-01T09-30-00.ipynb",
        "00_hook_contract.2026-12-01T09-30-00-2.ipynb",
    ]
    assert "first" in backups[0].read_text() and "second" in backups[1].read_text()


def test_an_untouched_notebook_is_restored_without_a_backup(course: Path, tmp_path: Path) -> None:
    work = tmp_path / "my-notebooks"
    working_copy.prepare_work(course, work)
    [done] = working_copy.reset(["00"], course, work)
    assert done.backup is None and not (work / "backups").exists()


def test_reset_of_a_notebook_the_learner_deleted_needs_no_backup(
    course: Path, tmp_path: Path
) -> None:
    work = tmp_path / "my-notebooks"
    working_copy.prepare_work(course, work)
    last = notebook_files.course_notebooks(course)[-1]  # named by its file name below
    (work / last.name).unlink()
    [done] = working_copy.reset([last.name], course, work)
    assert done.backup is None and done.notebook.is_file()


@pytest.mark.parametrize(
    ("name", "problem"),
    [("0", "matches several notebooks"), ("99", "is not a course notebook"), ("", "is not")],
)
def test_a_name_that_is_not_one_notebook_is_one_clear_error(
    course: Path, name: str, problem: str
) -> None:
    with pytest.raises(InputError) as raised:
        working_copy.resolve_notebook(name, course)
    line = str(raised.value)
    assert problem in line and "fix: name one of 00_hook_contract" in line
    assert "\n" not in line


def test_a_broken_course_notebook_is_named_not_a_traceback(course: Path, tmp_path: Path) -> None:
    (course / "00_hook_contract.ipynb").write_text("{not json", encoding="utf-8")
    with pytest.raises(InputError, match=r"00_hook_contract.ipynb: is not a notebook"):
        working_copy.prepare_work(course, tmp_path / "work")


def run_cli(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hookcourse", *arguments],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


def test_reset_needs_names_or_all_and_says_so_in_one_line() -> None:
    for arguments in (["reset"], ["reset", "--all", "01"]):
        done = run_cli(*arguments)
        assert done.returncode == 1
        assert done.stderr == (
            "hookcourse: reset: name the notebooks to restore, or --all; "
            "fix: e.g. hookcourse reset 01\n"
        )
