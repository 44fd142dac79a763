"""Progress in the browser course: each check records a line in the browser's file store
(``/drive`` in the kernel), and the file a learner downloads from there is one the class
report reads. The kernel side is simulated here (``IN_BROWSER`` and the drive folder);
tests/lite/test_lite_in_browser.py records and downloads it in Chromium."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookcourse import browser, solutions
from hookcourse.course.checks.exercises import check_exit_code, check_matcher
from hookcourse.course.teaching import progress, report, report_sources


@pytest.fixture
def drive(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The kernel's view of the browser's file store, and no working-copy setting."""
    folder = tmp_path / "drive"
    folder.mkdir()
    for name in (progress.WORK_ENV, progress.LEARNER_ENV, progress.HUB_USER_ENV):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv(progress.SWITCH_ENV, raising=False)
    monkeypatch.setattr(browser, "IN_BROWSER", True)
    monkeypatch.setattr(progress, "BROWSER_DRIVE", folder)
    monkeypatch.chdir(folder)
    return folder


def test_checks_in_the_browser_record_in_its_file_store_without_a_user(drive: Path) -> None:
    assert progress.work_folder() == drive
    assert progress.learner_name() is None  # Pyodide's "web_user" names nobody
    check_matcher(lambda matcher, tool: matcher == tool)
    check_exit_code(solutions.interpret_exit_code)
    text = (drive / progress.FILE_NAME).read_text(encoding="utf-8")
    runs = [progress.parse_line(line) for line in text.splitlines()]
    assert [run.task if run else None for run in runs] == ["match_hook", "interpret_exit_code"]
    assert all(run is not None and run.learner is None for run in runs)


def test_the_downloaded_file_is_one_the_class_report_reads(drive: Path, tmp_path: Path) -> None:
    check_exit_code(solutions.interpret_exit_code)
    check_matcher(lambda matcher, tool: matcher == tool)
    # The teacher collects each learner's download as <name>.jsonl, or in <name>/.
    class_folder = tmp_path / "class"
    (class_folder / "ada").mkdir(parents=True)
    downloaded = (drive / progress.FILE_NAME).read_bytes()
    (class_folder / "ada" / progress.FILE_NAME).write_bytes(downloaded)
    (class_folder / "grace.jsonl").write_bytes(downloaded)
    sources, warnings = report_sources.find_sources(
        [str(class_folder / "ada"), str(class_folder / "grace.jsonl")]
    )
    runs, problems = report_sources.read_sources(sources)
    assert warnings == problems == []
    made = report.ClassReport.build(runs, [])
    assert sorted(made.learners) == ["ada", "grace"]
    exit_codes = next(c for c in made.columns if c.key[1] == "interpret_exit_code")
    assert made.done(exit_codes) == 2


def test_outside_the_browser_the_drive_is_never_used(
    drive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(browser, "IN_BROWSER", False)
    assert progress.work_folder() is None
