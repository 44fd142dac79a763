"""Walk the course from notebook 01 to 08 in Chromium as a learner with the teacher's
answers at hand would; print what the page showed and how long each step took, as JSON.

tests/ui/test_capstone_walk.py runs this with a Python that has Playwright:

    python walk_capstone.py BASE_URL CHROMIUM SHOTS ANSWERS

ANSWERS is a JSON file: a list of {notebook, function, text}, the text of each exercise
cell with the teacher's solution in it, in course order. For each notebook the script
opens it, pastes the text into the exercise cell, runs that cell and then its check cell
(``check_...(function)``) and reads the check's report. In notebook 04 it restarts the
kernel between the exercise and the check and runs the exercise again, as a learner
coming back would. The last notebook (08) gets its exercise pasted first and is then run
top to bottom with Run All. On a failure it saves failure.png in SHOTS, prints one line
on stderr and exits 1.
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path
from typing import Any

from browse_course import (
    NOTEBOOK,
    READY_MS,
    drive,
    replace_source,
    restart_kernel,
    run_all_cells,
    run_cell,
    shown_text,
    wait_for_idle_kernel,
)
from playwright.sync_api import Locator, Page, expect

RESTART_IN = "04_events"  # the kernel restart comes in the middle of the walk


def output_of(cell: Locator) -> str:
    """The text of a cell's outputs, all of them, as the page lays it out."""
    outputs = cell.locator(".jp-OutputArea-output")
    expect(outputs.first).to_be_attached(timeout=READY_MS)
    return "\n".join(shown_text(output) for output in outputs.all())


def code_cell(page: Page, text: str) -> Locator:
    """The one code cell of the open notebook whose source contains ``text``."""
    cells = page.locator(f"{NOTEBOOK} .jp-CodeCell")
    return cells.filter(has=page.locator(".jp-InputArea", has_text=text))


def open_notebook(page: Page, base_url: str, notebook: str) -> None:
    page.goto(f"{base_url}/lab/tree/{notebook}.ipynb")
    expect(page.locator(NOTEBOOK)).to_have_count(1, timeout=READY_MS)
    wait_for_idle_kernel(page)


def walk(page: Page, base_url: str, shots: Path, answers: list[dict[str, str]]) -> dict[str, Any]:
    seen: dict[str, Any] = {"steps": []}

    def step(name: str, started: float, said: str) -> None:
        seen["steps"].append({"step": name, "seconds": round(time.monotonic() - started, 1)})
        seen[name] = said

    *earlier, last = answers
    for answer in earlier:
        notebook, function = answer["notebook"], answer["function"]
        started = time.monotonic()
        open_notebook(page, base_url, notebook)
        exercise = code_cell(page, f"def {function}(")
        check = code_cell(page, f"({function})").filter(has_text="check_")
        exercise.scroll_into_view_if_needed()
        replace_source(exercise, answer["text"])
        run_cell(exercise)
        if notebook == RESTART_IN:
            restart_kernel(page)
            seen["restarted_in"] = notebook
            run_cell(exercise)  # a restart forgets the function: the learner runs it again
        run_cell(check)
        step(f"{notebook} check", started, output_of(check))
        check.screenshot(path=shots / f"{notebook}_check.png")

    # Notebook 08: its exercise pasted, then the whole notebook run top to bottom.
    started = time.monotonic()
    open_notebook(page, base_url, last["notebook"])
    exercise = code_cell(page, f"def {last['function']}(")
    exercise.scroll_into_view_if_needed()
    replace_source(exercise, last["text"])
    run_all_cells(page)
    seen["steps"].append({"step": "08 run all", "seconds": round(time.monotonic() - started, 1)})
    for key, text in [
        ("08 mine", "mine("),
        ("08 check", "check_run_hooks(run_hooks)"),
        ("08 loop", "three_ways(ours"),
        ("08 check_loop", "check_loop(run_hooks"),
        ("08 program_tests", "program_tests("),
    ]:
        cell = code_cell(page, text)
        seen[key] = output_of(cell)
        cell.screenshot(path=shots / f"{key.replace(' ', '_')}.png")
    # Run All stops at a cell that raises: every code cell must show its count. Cells
    # scrolled out of view have no laid-out text, so their DOM text is read.
    prompts = page.locator(f"{NOTEBOOK} .jp-CodeCell .jp-InputArea-prompt").all_text_contents()
    seen["08 prompts"] = prompts
    seen["08 unran"] = [p for p in prompts if not re.fullmatch(r"\[\d+\]:", p.strip())]
    outputs = page.locator(f"{NOTEBOOK} .jp-OutputArea-output").all_text_contents()
    seen["08 tracebacks"] = [text[:300] for text in outputs if "Traceback" in text]
    return seen


def main(argv: list[str]) -> int:
    base_url, chromium, shots_dir, answers_file = argv
    shots = Path(shots_dir)
    answers = json.loads(Path(answers_file).read_text(encoding="utf-8"))
    return drive(chromium, shots, lambda page: walk(page, base_url, shots, answers))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
