"""A newcomer's first minutes, in a real browser: `scripts/lab.sh` lands on notebook 00;
notebook 01's matcher lab, once run, answers what the learner types; its quiz says why
a wrong answer is wrong; after a kernel restart the widgets say "run this cell again",
the check run before its exercise says so in one line, the lab cell and the exercise's
check each work when run alone, and a reload shows the saved lab as "run this cell".

Needs Chromium and a Python that can import Playwright; the project's environment
needs neither, so the browser is driven by tests/ui/browse_course.py under that
Python. Without them the test is skipped, saying how to install them.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from hookcourse.course.checks.exercises import check_matcher
from hookcourse.course.checks.kernel_hook import missing_name
from hookcourse.course.labs.logic import decide_readout, matcher_readout
from hookcourse.course.labs.widgets import RESTART_NOTE, decide_lab, matcher_lab
from tests.support.paths import ROOT

DENY = '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}'
# The note's text, as the page shows it once ipywidgets marks a view disconnected.
RESTART_NOTE_TEXT = re.sub(r"<style>.*</style>|<[^>]+>", "", RESTART_NOTE)

if TYPE_CHECKING:
    from conftest import Course

DRIVER = Path(__file__).with_name("browse_course.py")
# The driver's wrong answer (tests/ui/browse_course.py, read as text: it imports Playwright).
WRONG_MATCH_HOOK = next(
    line.split(" = ", 1)[1].strip("'")
    for line in DRIVER.read_text(encoding="utf-8").splitlines()
    if line.startswith("WRONG_MATCH_HOOK = ")
)


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
    assert seen["outputs_before_run"] == 0
    assert seen["broken"] == []
    assert seen["views"] == 3  # the matcher lab and two quizzes

    assert seen["news_prompts"] == 0  # switched off by scripts/jupyter's overrides
    # Everything the learner ran and saved went to the working copy; the clone is clean.
    assert course.git("status", "--porcelain") == ""
    work = course.checkout / "my-notebooks"
    saved = [json.loads(path.read_text(encoding="utf-8")) for path in work.glob("*.ipynb")]
    assert any(cell.get("outputs") for notebook in saved for cell in notebook["cells"])

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
    matcher_notebook = json.loads((ROOT / "notebooks" / "01_matcher.ipynb").read_text("utf-8"))
    # The exercise is in the open notebook: its cell is named, not another notebook.
    assert seen["check_before_exercise"].strip() == missing_name("match_hook", matcher_notebook)
    assert seen["driven_before_lab"].strip() == missing_name("lab", matcher_notebook)
    assert seen["check_after_restart"].startswith("match_hook: not yet.")
    # The wrong answer's hint is on the page whole, and nothing is wider than its box.
    namespace: dict[str, Callable[[str, str], bool]] = {}
    exec(WRONG_MATCH_HOOK, namespace)
    hint = check_matcher(namespace["match_hook"]).hint()
    assert hint and len(hint) > 100
    assert " ".join(hint.split()) in " ".join(seen["wrong_check"].split())
    assert seen["wrong_check_overflow"] == []
    assert seen["broken_after_restart"] == []

    expected_decide = decide_readout(DENY, decide_lab().controls["input"].value)
    assert seen["decide_readout"].splitlines()[0] == expected_decide.headline == "allowed"
    for label, value in expected_decide.rows[2:]:  # why, Claude Code, format
        assert f"{label}\t{value}" in seen["decide_readout"]

    # Reloaded from the saved file: the lab's text, not a stale view.
    assert seen["after_reload"].startswith("[the decide lab: run this cell to use it]")
    assert seen["broken_after_reload"] == []
