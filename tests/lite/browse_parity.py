"""browse_lite.py's ``parity`` mode: one page on the JupyterLite site, every notebook's
stored cells run in one Pyodide kernel, then the checks on a list of learner attempts.

Run by tests/lite/test_verdict_parity.py (``python browse_lite.py PLAN_JSON``). Its
plan names, beside what browse_lite.py reads, the notebook to open (``open``), the
kernel's set-up code (the seed), ``notebooks`` (each a name and its code cells'
sources, run in order, the kernel's names cleared between notebooks) and ``probe`` (a
cell that prints the attempts' verdicts as JSON). What it returns: each notebook's
cells' outputs, the probe's output and the seconds each part took.
"""

from __future__ import annotations

import time
from typing import Any

from browse_lite import KERNEL_RUN_JS, usable  # beside this file, which browse_lite.py runs
from playwright.sync_api import Page

# Each cell through the notebook's kernel, one after the other, as Run All sends them:
# its reply's status and its outputs as the notebook would store them.
RUN_CELLS_JS = """async (cells) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const ran = [];
  for (const code of cells) {
    let outputs = [];
    const future = kernel.requestExecute({ code, silent: false, store_history: true });
    future.onIOPub = (msg) => {
      const type = msg.header.msg_type;
      const content = msg.content;
      if (type === "stream") {
        outputs.push({ output_type: type, name: content.name, text: content.text });
      } else if (type === "execute_result" || type === "display_data") {
        outputs.push({ output_type: type, data: content.data });
      } else if (type === "error") {
        outputs.push({ output_type: type, ename: content.ename, evalue: content.evalue });
      } else if (type === "clear_output") {
        outputs = [];
      }
    };
    const reply = await future.done;
    ran.push({ status: reply.content.status, outputs });
  }
  return ran;
}"""
RESET = "%reset -f"  # the next notebook starts with none of the last one's names


def parity(page: Page, plan: dict[str, Any]) -> dict[str, Any]:
    start = time.monotonic()
    page.goto(f"{plan['url']}/lab/index.html?path={plan['open']}")
    seen: dict[str, Any] = {"ready_s": usable(page, plan["open"], start), "cells": {}}
    page.evaluate(KERNEL_RUN_JS, plan["kernel_setup"])
    begun = time.monotonic()
    for notebook in plan["notebooks"]:
        page.evaluate(KERNEL_RUN_JS, RESET)
        seen["cells"][notebook["name"]] = page.evaluate(RUN_CELLS_JS, notebook["cells"])
    seen["cells_s"] = time.monotonic() - begun
    page.evaluate(KERNEL_RUN_JS, RESET)
    begun = time.monotonic()
    seen["probe"] = page.evaluate(KERNEL_RUN_JS, plan["probe"])
    seen["probe_s"] = time.monotonic() - begun
    return seen
