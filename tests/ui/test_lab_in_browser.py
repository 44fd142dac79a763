"""A newcomer's first minutes, in a real browser: `scripts/lab.sh` lands on notebook 00,
and notebook 01's matcher lab, once run, answers what the learner types.

Needs Chromium and a Python that can import Playwright; the project's environment
needs neither, so the browser is driven by tests/ui/browse_course.py under that
Python. Without them the test is skipped, saying how to install them.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from hookcourse.course.labs.logic import matcher_readout

if TYPE_CHECKING:
    from conftest import Course

DRIVER = Path(__file__).with_name("browse_course.py")


def test_a_newcomer_lands_on_notebook_00_and_the_matcher_lab_answers_typing(
    browser_tools: tuple[str, str], course: Course, tmp_path: Path
) -> None:
    python, browser = browser_tools
    matcher, tool = "Edit.*", "NotebookEdit"
    run = subprocess.run(
        [python, str(DRIVER), course.opened, browser, str(tmp_path), matcher, tool],
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
    assert seen["views"] == 2  # the matcher lab and the exit-code lab

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
