"""A newcomer's first minutes, in a real browser: `scripts/lab.sh` lands on notebook 00;
notebook 01's matcher lab, once run, answers what the learner types; its quiz says why
a wrong answer is wrong; after a kernel restart the widgets say "run this cell again",
and the lab cell and the exercise's check each work when run alone.

Needs Chromium and a Python that can import Playwright; the project's environment
needs neither, so the browser is driven by tests/ui/browse_course.py under that
Python. Without them the test is skipped, saying how to install them.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from hookcourse.course.labs.logic import decide_readout, matcher_readout
from hookcourse.course.labs.widgets import RESTART_NOTE, decide_lab, matcher_lab

DENY = '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}'
# The note's text, as the page shows it once ipywidgets marks a view disconnected.
RESTART_NOTE_TEXT = re.sub(r"<style>.*</style>|<[^>]+>", "", RESTART_NOTE)

if TYPE_CHECKING:
    from conftest import Course

DRIVER = Path(__file__).with_name("browse_course.py")
INSTALL = (
    "apt-get install -y chromium; python3 -m venv /tmp/uivenv && "
    "/tmp/uivenv/bin/pip install playwright; then run with "
    "HOOKCOURSE_UI_PYTHON=/tmp/uivenv/bin/python"
)


def playwright_python() -> str:
    """This Python if it has Playwright, else $HOOKCOURSE_UI_PYTHON if that one has it."""
    if importlib.util.find_spec("playwright") is not None:
        return sys.executable
    other = os.environ.get("HOOKCOURSE_UI_PYTHON", "")
    if not other:
        pytest.skip(f"Playwright is not importable and HOOKCOURSE_UI_PYTHON is unset; {INSTALL}")
    probe = subprocess.run([other, "-c", "import playwright"], capture_output=True, timeout=60)
    if probe.returncode != 0:
        pytest.skip(f"HOOKCOURSE_UI_PYTHON={other} cannot import playwright; {INSTALL}")
    return other


def chromium() -> str:
    """$HOOKCOURSE_CHROMIUM, else `chromium` on PATH (Debian's package)."""
    found = os.environ.get("HOOKCOURSE_CHROMIUM") or shutil.which("chromium")
    if not found:
        pytest.skip(f"no chromium on PATH and HOOKCOURSE_CHROMIUM is unset; {INSTALL}")
    return found


@pytest.fixture(scope="module")
def browser_tools() -> tuple[str, str]:
    """(a Python with Playwright, Chromium); module scope, so a skip comes before the server."""
    return playwright_python(), chromium()


def test_a_newcomer_lands_on_notebook_00_and_the_matcher_lab_answers_typing(
    browser_tools: tuple[str, str], course: Course, tmp_path: Path
) -> None:
    python, browser = browser_tools
    matcher, tool = "Edit | Write", "Write"
    run = subprocess.run(
        [python, str(DRIVER), course.opened, browser, str(tmp_path), matcher, tool, DENY],
        capture_output=True,
        text=True,
        timeout=240,  # a hang guard, far above a normal run
    )
    assert run.returncode == 0, run.stderr + course.log.read_text()
    seen = json.loads(run.stdout)

    assert seen["first_tab"] == "00_hook_contract.ipynb"
    assert "Python 3 (ipykernel) | Idle" in seen["first_status"]
    # Before its cell runs, the lab says so instead of showing a VBox(...) repr.
    assert seen["before_run"].splitlines()[0] == matcher_lab().placeholder().splitlines()[0]
    assert seen["broken"] == []
    assert seen["views"] == 3  # the matcher lab and two quizzes

    expected = matcher_readout(matcher, tool)
    after = seen["readout_after"]
    assert after != seen["readout_before"]
    assert after.splitlines()[0] == expected.headline
    for label, value in expected.rows:
        assert f"{label}\t{value}" in after
    assert "spaces\tthe spaces make this a regex" in after

    assert seen["quiz_wrong"].startswith("A is not it. Try again.")
    assert "B. " not in seen["quiz_wrong"]  # a wrong answer does not give the right one away
    assert seen["quiz_right"].startswith("B is right.")
    assert all(f"{letter}. " in seen["quiz_right"] for letter in "ABCD")

    assert seen["restart_note"] == RESTART_NOTE_TEXT
    assert seen["quiz_note_visible"]
    assert not seen["fresh_note_visible"]
    fresh = matcher_lab().set(tool="MultiEdit")  # a new lab starts from its defaults
    assert seen["fresh_readout"].splitlines()[0] == fresh.splitlines()[0]
    assert seen["check_after_restart"].startswith("match_hook: not yet.")

    expected_decide = decide_readout(DENY, decide_lab().controls["input"].value)
    assert seen["decide_readout"].splitlines()[0] == expected_decide.headline == "allowed"
    for label, value in expected_decide.rows[2:]:  # why, Claude Code, format
        assert f"{label}\t{value}" in seen["decide_readout"]
