"""The class report's HTML page, opened in Chromium: three learners whose progress was
recorded by real check runs, plus a broken file, read back as the teacher sees them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hookcourse import solutions
from hookcourse.course.checks.exercises import check_apply, check_matcher
from hookcourse.course.teaching import progress, report

DRIVER = Path(__file__).with_name("read_report.py")


def starter(output: object, tool_input: object) -> object:
    raise NotImplementedError


@pytest.fixture
def klass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """ada solved the matcher, bob is stuck on it, cy has only the starter for apply."""
    runs = {
        "ada": [lambda: check_matcher(solutions.match_hook)],
        "bob": [
            lambda: check_matcher(lambda matcher, tool: matcher == tool),
            lambda: check_matcher(lambda matcher, tool: tool in str(matcher).split("|")),
        ],
        "cy": [lambda: check_apply(starter)],
    }
    monkeypatch.delenv(progress.SWITCH_ENV, raising=False)
    for learner, checks in runs.items():
        monkeypatch.setenv(progress.WORK_ENV, str(tmp_path / "class" / learner))
        monkeypatch.setenv(progress.LEARNER_ENV, learner)
        (tmp_path / "class" / learner).mkdir(parents=True)
        for check in checks:
            check()
    (tmp_path / "class" / "dee").mkdir()
    (tmp_path / "class" / "dee" / progress.FILE_NAME).write_bytes(b"\x00\xff broken")
    return tmp_path / "class"


def test_the_html_report_shows_each_learner_by_stage_in_a_real_browser(
    browser_tools: tuple[str, str], klass: Path, tmp_path: Path
) -> None:
    page = tmp_path / "class.html"
    made = subprocess.run(
        [sys.executable, "-m", "hookcourse", "workshop", "report", str(klass), "--html", str(page)],
        capture_output=True,
        text=True,
        timeout=120,
        env={k: v for k, v in os.environ.items() if k != progress.WORK_ENV},
    )
    assert made.returncode == 0, made.stderr
    python, chromium = browser_tools
    run = subprocess.run(
        [python, str(DRIVER), str(page), chromium, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout)

    assert seen["title"] == "hookcourse class report"
    header, *rows, done, minutes = seen["rows"]
    exercises = [c.label for c in report.course_columns() if c.key[1] != progress.PROGRAM_TASK]
    assert header == ["learner", "last activity", "idle", *exercises]
    shown = {row[0]: [cell.split("\n")[0] for cell in row[3:6]] for row in rows}
    total = len(check_matcher(solutions.match_hook).outcomes)
    bob = check_matcher(lambda matcher, tool: tool in str(matcher).split("|"))
    apply_total = len(check_apply(starter).outcomes)
    # Stuck learners first (bob tried twice), then the rest.
    assert list(shown) == ["bob", "cy", "ada"]
    assert shown == {
        "bob": [f"{sum(o.passed for o in bob.outcomes)}/{total}", "-", "-"],
        "cy": ["-", "-", f"0/{apply_total}"],
        "ada": [f"{total}/{total}", "-", "-"],
    }
    assert all(row[2] == "just now" for row in rows)
    assert done[:6] == ["done", "", "", "1/3", "0/3", "0/3"]
    # ada passed match_hook on her first run, seconds after her clock started.
    assert minutes[:6] == ["minutes", "", "", "0", "-", "-"]
    # Passed green, part-way yellow, nothing red (the page's own colours); each row's
    # first two cells are its last activity and idle time.
    width = len(exercises) + 2
    assert seen["colours"][2] == "rgb(255, 248, 197)"  # bob, match_hook
    assert seen["colours"][width + 4] == "rgb(255, 235, 233)"  # cy, apply_pre_tool_use
    assert seen["colours"][2 * width + 2] == "rgb(218, 251, 225)"  # ada, match_hook
    assert [line.split(":")[0] for line in seen["stuck"]] == [
        "bob at 01 match_hook",
        "cy at 03 apply_pre_tool_use",
    ]
    assert "after 2 runs" in seen["stuck"][0]
    assert seen["warnings"] == [
        f"{klass / 'dee' / progress.FILE_NAME}: cannot be read (not UTF-8 text); skipped"
    ]
    assert all(url.startswith("file://") for url in seen["requests"])  # self-contained
