"""Drive the course in Chromium as a learner would; print what the page showed, as JSON.

tests/ui/test_lab_in_browser.py runs this with a Python that has Playwright (the
project's environment does not need it):

    python browse_course.py OPENED CHROMIUM SHOTS MATCHER TOOL HOOK_OUTPUT

OPENED is the page JupyterLab handed the browser; the script lands on notebook 00,
opens notebook 01 (its outputs cleared in the learner's working copy), runs all its
cells, types MATCHER and TOOL into the matcher lab,
answers the first quiz wrongly and then rightly, restarts the kernel, and then, as a
learner coming back would, runs only the lab cell and only the exercise and check
cells (the check before its exercise first); last it opens notebook 03, types
HOOK_OUTPUT into the decide lab, saves, and reloads the page as a learner coming back.
Screenshots go to the folder SHOTS. On any failure it saves failure.png there,
prints one line on stderr and exits 1.
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from playwright.sync_api import Error, Locator, Page, expect, sync_playwright

# Debian's chromium in a container: no sandbox, no GPU, nothing fetched in the background.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
READY_MS = 60_000  # a readiness wait (kernel start, a cell's run), not a speed limit
NOTEBOOK = ".jp-NotebookPanel:not(.lm-mod-hidden)"
BROKEN_WIDGET = ("Loading widget", "Error displaying widget", "Traceback")


def wait_for_idle_kernel(page: Page) -> str:
    """Wait for the status bar to show a started kernel that is idle; return the bar's text."""
    status = page.locator("#jp-main-statusbar")
    idle = re.compile(r"Python 3 \(ipykernel\) \| Idle")
    # The kernel may turn busy again (a comm, the start-up hook) between the wait and a
    # second read, so the text returned is the very text that was seen idle.
    deadline = time.monotonic() + READY_MS / 1000
    while time.monotonic() < deadline:
        text = status.inner_text()
        if idle.search(text):
            return text
        page.wait_for_timeout(100)
    expect(status).to_contain_text(idle, timeout=1)  # fails with Playwright's own message
    return status.inner_text()


def current_tab(page: Page) -> str:
    return page.locator("#jp-main-dock-panel .lm-TabBar-tab.jp-mod-current").inner_text().strip()


def run_all_cells(page: Page) -> None:
    page.locator("li.lm-MenuBar-item", has_text="Run").click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    # Run All marks every queued cell [*]; it is done when none is left and the kernel idles.
    pending = page.locator(f"{NOTEBOOK} .jp-InputArea-prompt", has_text="[*]")
    expect(pending).to_have_count(0, timeout=READY_MS)
    wait_for_idle_kernel(page)


def shown_text(element: Locator) -> str:
    """The element's text as laid out on screen (table cells tab-separated)."""
    # innerText is empty while a cell is scrolled out of view (content-visibility: auto).
    element.scroll_into_view_if_needed()
    expect(element).to_have_text(re.compile(r"\S"), use_inner_text=True, timeout=READY_MS)
    return element.inner_text()


def control(lab: Locator, label: str, kind: str) -> Locator:
    box = lab.locator(f".widget-{kind}", has=lab.page.locator("label", has_text=label))
    return box.locator("input" if kind == "text" else kind)


def type_into(box: Locator, text: str) -> None:
    box.click()
    box.press("Control+a")
    box.press("Delete")
    box.press_sequentially(text, delay=20)


def restart_kernel(page: Page) -> None:
    page.locator("li.lm-MenuBar-item", has_text="Kernel").click()
    page.get_by_role("menuitem", name=re.compile(r"^Restart Kernel…")).first.click()
    page.locator(".jp-Dialog .jp-mod-accept").click()
    wait_for_idle_kernel(page)


def run_cell(cell: Locator) -> None:
    """Run one cell as a learner does: click into it, Shift+Enter, wait for its result."""
    cell.locator(".jp-InputArea-editor").click()
    cell.press("Shift+Enter")
    prompt = cell.locator(".jp-InputArea-prompt")
    expect(prompt).not_to_have_text(re.compile(r"\[\*\]|\[ \]"), timeout=READY_MS)


# A learner's wrong match_hook, on one line (the editor would indent a second one).
WRONG_MATCH_HOOK = 'def match_hook(matcher, tool_name): return tool_name in str(matcher).split("|")'


def replace_source(cell: Locator, text: str) -> None:
    """Replace a cell's source as a learner's paste would (no auto-closed brackets)."""
    editor = cell.locator(".jp-InputArea-editor .cm-content")
    editor.click()
    editor.press("Control+a")
    cell.page.keyboard.insert_text(text)


def overflowing(element: Locator) -> list[str]:
    """The text of every element inside ``element`` that is wider than its box (its text
    cut off or scrolled), and of any that reaches past ``element``'s right edge."""
    found: list[str] = element.evaluate(
        """(root) => {
          const right = root.getBoundingClientRect().right + 1;
          const wide = [];
          for (const el of root.querySelectorAll('*')) {
            const clipped = getComputedStyle(el).overflowX !== 'visible';
            const cut = clipped && el.scrollWidth > el.clientWidth + 1;
            const past = el.getBoundingClientRect().right > right;
            if (cut || past) wide.push(el.textContent.slice(0, 80));
          }
          return wide;
        }"""
    )
    return found


def choose(quiz: Locator, letter: str) -> str:
    """Click a quiz option by its letter; the feedback the learner then reads."""
    quiz.locator("label", has_text=re.compile(f"^{letter}\\. ")).click()
    feedback = quiz.locator(".widget-html").last
    expect(feedback).to_contain_text(f"{letter} is", timeout=READY_MS)
    return shown_text(feedback)


def browse(
    page: Page, opened: str, shots: Path, matcher: str, tool: str, hook_output: str
) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    page.goto(opened)
    expect(page.locator(NOTEBOOK)).to_have_count(1, timeout=READY_MS)
    seen["first_tab"] = current_tab(page)
    seen["first_status"] = wait_for_idle_kernel(page)
    page.screenshot(path=shots / "00_opened.png")

    origin = urlparse(page.url)
    page.goto(f"{origin.scheme}://{origin.netloc}/lab/tree/01_matcher.ipynb")
    wait_for_idle_kernel(page)
    cells = page.locator(f"{NOTEBOOK} .jp-CodeCell")
    # By its source: the line a cell run out of order prints names this cell too.
    lab_cell = cells.filter(has=page.locator(".jp-InputArea", has_text="lab = matcher_lab()"))
    lab_cell.scroll_into_view_if_needed()  # the notebook is rendered down to the lab
    # The working copy opens with outputs cleared: nothing is revealed before it runs.
    seen["outputs_before_run"] = page.locator(f"{NOTEBOOK} .jp-OutputArea-output").count()

    run_all_cells(page)
    ran = re.compile(r"\[\d+\]")
    expect(lab_cell.locator(".jp-InputArea-prompt")).to_have_text(ran, timeout=READY_MS)
    outputs = page.locator(f"{NOTEBOOK} .jp-OutputArea-output").all_text_contents()
    seen["broken"] = [text for text in outputs if any(mark in text for mark in BROKEN_WIDGET)]
    seen["views"] = page.locator(f"{NOTEBOOK} .jp-OutputArea-output .widget-vbox").count()

    lab_cell.scroll_into_view_if_needed()
    lab = lab_cell.locator(".widget-vbox").first
    readout = lab.locator(".widget-html")
    seen["readout_before"] = shown_text(readout)
    type_into(control(lab, "matcher", "text"), matcher)
    type_into(control(lab, "tool_name", "text"), tool)
    # The kernel answers each keystroke; wait for the last one's answer to be shown.
    expect(readout).to_contain_text(json.dumps(tool), timeout=READY_MS)
    seen["readout_after"] = shown_text(readout)
    lab_cell.screenshot(path=shots / "01_matcher_lab_typed.png")

    quiz = cells.filter(has_text="quiz(").first.locator(".widget-vbox").first
    quiz.scroll_into_view_if_needed()
    seen["quiz_wrong"] = choose(quiz, "A")
    seen["quiz_right"] = choose(quiz, "B")
    quiz.screenshot(path=shots / "01_quiz_answered.png")

    # A kernel restart: every widget loses its kernel and must say so, not go stale.
    restart_kernel(page)
    note = lab.locator(".hookcourse-restart")
    expect(note).to_be_visible(timeout=READY_MS)
    seen["restart_note"] = note.inner_text()
    seen["quiz_note_visible"] = quiz.locator(".hookcourse-restart").is_visible()
    lab_cell.screenshot(path=shots / "01_matcher_lab_after_restart.png")

    # Run out of order after the restart: the cell that drives the lab, before the lab's
    # own cell, says in one line which cell to run first.
    driven = cells.filter(has_text="print(lab.reset(")
    run_cell(driven)
    seen["driven_before_lab"] = shown_text(driven.locator(".jp-OutputArea-output").first)

    # Coming back after the restart, the learner runs the lab cell alone: it imports what
    # it uses, so the new lab answers typing.
    run_cell(lab_cell)
    fresh = lab_cell.locator(".widget-vbox").first
    seen["fresh_note_visible"] = fresh.locator(".hookcourse-restart").is_visible()
    type_into(control(fresh, "tool_name", "text"), "MultiEdit")
    expect(fresh.locator(".widget-html")).to_contain_text('"MultiEdit"', timeout=READY_MS)
    seen["fresh_readout"] = shown_text(fresh.locator(".widget-html"))

    # The exercise and its check, run alone after the restart, out of order with the rest:
    # the check first says in one line that its exercise cell must run first.
    # By their source, not their text: the check's own answer names `def match_hook(`.
    exercise = cells.filter(has=page.locator(".jp-InputArea", has_text="def match_hook("))
    check = cells.filter(has=page.locator(".jp-InputArea", has_text="check_matcher(match_hook)"))
    run_cell(check)
    seen["check_before_exercise"] = shown_text(check.locator(".jp-OutputArea-output").first)
    run_cell(exercise)
    run_cell(check)
    seen["check_after_restart"] = shown_text(check.locator(".jp-OutputArea-output").first)
    check.screenshot(path=shots / "01_check_after_restart.png")

    # A wrong answer typed into the exercise: its check's hint is shown whole, wrapped
    # inside the page's width, never cut off.
    replace_source(exercise, WRONG_MATCH_HOOK)
    run_cell(exercise)
    run_cell(check)
    report = check.locator(".jp-OutputArea-output").first
    expect(report).to_contain_text("hint", timeout=READY_MS)
    seen["wrong_check"] = shown_text(report)
    seen["wrong_check_overflow"] = overflowing(report)
    check.screenshot(path=shots / "01_wrong_answer_hint.png")
    # After the restart and all this, no output anywhere says a widget is broken.
    outputs = page.locator(f"{NOTEBOOK} .jp-OutputArea-output").all_text_contents()
    seen["broken_after_restart"] = [t for t in outputs if any(m in t for m in BROKEN_WIDGET)]

    # Notebook 03's decide lab, its cell run alone first thing: Claude Code's own format.
    page.goto(f"{origin.scheme}://{origin.netloc}/lab/tree/03_decide_modify_inject.ipynb")
    wait_for_idle_kernel(page)
    decide_cell = page.locator(f"{NOTEBOOK} .jp-CodeCell").filter(has_text="lab = decide_lab()")
    run_cell(decide_cell)
    decide = decide_cell.locator(".widget-vbox").first
    type_into(control(decide, "hook stdout", "textarea"), hook_output)
    decide_readout = decide.locator(".widget-html")
    expect(decide_readout).to_contain_text("denies the call", timeout=READY_MS)
    seen["decide_readout"] = shown_text(decide_readout)
    decide_cell.screenshot(path=shots / "03_decide_lab_deny.png")
    # Save as a learner does; the saved file lands in the working copy, not the course.
    page.locator(f"{NOTEBOOK} .jp-Toolbar [data-command='docmanager:save']").click()
    dirty = page.locator("#jp-main-dock-panel .lm-TabBar-tab.jp-mod-current.jp-mod-dirty")
    expect(dirty).to_have_count(0, timeout=READY_MS)
    seen["news_prompts"] = page.get_by_text("official Jupyter news").count()

    # A learner who comes back: the page reloads from the saved file, whose widget views
    # were dropped on save, so the lab's cell reads "run this cell", not "model not found".
    page.reload()
    wait_for_idle_kernel(page)
    decide_cell = page.locator(f"{NOTEBOOK} .jp-CodeCell").filter(has_text="lab = decide_lab()")
    decide_cell.scroll_into_view_if_needed()
    placeholder = decide_cell.locator(".jp-OutputArea-output").first
    seen["after_reload"] = shown_text(placeholder)
    outputs = page.locator(f"{NOTEBOOK} .jp-OutputArea-output").all_text_contents()
    seen["broken_after_reload"] = [t for t in outputs if any(m in t for m in BROKEN_WIDGET)]
    decide_cell.screenshot(path=shots / "03_after_reload.png")
    return seen


def drive(chromium: str, shots: Path, look: Callable[[Page], dict[str, Any]]) -> int:
    """Open Chromium, let ``look`` use a page, print what it returns as JSON; on a failure
    save failure.png in ``shots``, print one line on stderr and return 1."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        try:
            seen = look(page)
        except (Error, AssertionError) as error:
            page.screenshot(path=shots / "failure.png")
            first_line = str(error).strip().splitlines()[0]
            script = Path(sys.argv[0]).name
            print(f"{script}: {first_line} (see {shots / 'failure.png'})", file=sys.stderr)
            return 1
        finally:
            browser.close()
    print(json.dumps(seen))
    return 0


def main(argv: list[str]) -> int:
    opened, chromium, shots_dir, matcher, tool, hook_output = argv
    shots = Path(shots_dir)
    return drive(
        chromium, shots, lambda page: browse(page, opened, shots, matcher, tool, hook_output)
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
