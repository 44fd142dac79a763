"""Notebook 08 in the JupyterLite site, as a learner who did notebooks 01 to 07 there.

browse_lite.py runs ``capstone(page, plan, shots)`` for a plan whose mode is
``capstone``. The kernel of ``plan["notebook"]`` first runs ``plan["seed"]``: each earlier
exercise cell, run as a cell of its own, its function kept in ``my_hooks.py`` by the
same call a check makes (the browser's file store); ``plan["checks"]``, if given, runs
next (the checks of functions it defines, their reports printed as JSON). Then, for each
text of ``plan["exercises"]`` in turn, the text goes into 08's exercise cell, the whole
notebook runs (Run All) and the outputs of the cells that matter are read; after the
first, ``timed`` runs the loop once more in the kernel and prints its seconds. With
``plan["come_back"]``, the kernel restarts and ``plan["after_restart"]`` runs, then
``plan["other_notebook"]`` opens in the same page and runs it too: ``my_hooks.py`` is
still there.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from browse_lite import (
    KERNEL_RUN_JS,
    NOTEBOOK,
    READY_JS,
    error_outputs,
    not_run,
    replace_source,
    run_all,
    wait_for_idle,
)
from playwright.sync_api import Page
from walk_capstone import code_cell, output_of

# What Kernel, Restart Kernel does once its dialog is accepted.
RESTART_JS = """async () => {
  await window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.restart();
}"""
READ: dict[str, str] = {
    "mine": "mine(",
    "check": "check_run_hooks(run_hooks)",
    "loop": "three_ways(ours",
    "check_loop": "check_loop(run_hooks",
    "program_tests": "program_tests(",
}
"""The cells whose outputs are read, by what their source holds."""


def open_in_site(page: Page, url: str, notebook: str) -> float:
    """Open ``notebook`` alone; seconds until its kernel answers."""
    start = time.monotonic()
    page.goto(f"{url}/lab/index.html?path={notebook}")
    wait_for_idle(page)
    page.wait_for_function(READY_JS, timeout=120_000)
    return time.monotonic() - start


def run_08(page: Page, text: str, shots: Path) -> dict[str, Any]:
    """The learner's ``text`` in 08's exercise cell, then Run All: what the cells showed."""
    seen: dict[str, Any] = {}
    shots.mkdir()
    exercise = code_cell(page, "def run_hooks(")
    exercise.scroll_into_view_if_needed()
    replace_source(page, exercise, text)
    started = time.monotonic()
    run_all(page)
    seen["run_all_s"] = round(time.monotonic() - started, 1)
    for key, marker in READ.items():
        cell = code_cell(page, marker)
        seen[key] = output_of(cell)
        cell.screenshot(path=shots / f"08_{key}.png")
    seen["errors"] = error_outputs(page)
    seen["not_run"] = not_run(page)
    seen["tracebacks"] = [
        text[:300]
        for text in page.locator(f"{NOTEBOOK} .jp-OutputArea-output").all_text_contents()
        if "Traceback" in text
    ]
    return seen


def capstone(page: Page, plan: dict[str, Any], shots: Path) -> dict[str, Any]:
    seen: dict[str, Any] = {"steps": {}}

    def step(name: str, started: float) -> None:
        seen["steps"][name] = round(time.monotonic() - started, 1)

    started = time.monotonic()
    open_in_site(page, plan["url"], plan["notebook"])
    step("open", started)
    started = time.monotonic()
    seen["seeded"] = page.evaluate(KERNEL_RUN_JS, plan["kernel_setup"] + "\n" + plan["seed"])
    step("seed", started)
    if plan.get("checks"):
        started = time.monotonic()
        seen["checks"] = page.evaluate(KERNEL_RUN_JS, plan["checks"])
        step("checks", started)
    seen["runs"] = []
    for number, exercise in enumerate(plan.get("exercises", [])):
        seen["runs"].append(run_08(page, exercise, shots / str(number)))
        if not number:
            started = time.monotonic()
            seen["timed"] = page.evaluate(KERNEL_RUN_JS, plan["timed"])
            step("timed", started)
    if plan.get("come_back"):
        started = time.monotonic()
        page.evaluate(RESTART_JS)
        wait_for_idle(page)
        page.wait_for_function(READY_JS, timeout=120_000)
        seen["after_restart"] = page.evaluate(KERNEL_RUN_JS, plan["after_restart"])
        step("restart", started)
        started = time.monotonic()
        open_in_site(page, plan["url"], plan["other_notebook"])
        seen["other_notebook"] = page.evaluate(KERNEL_RUN_JS, plan["after_restart"])
        step("other_notebook", started)
    return seen
