"""One Chromium page on the JupyterLite site: every notebook's stored cells run in one
Pyodide kernel, then the checks on a list of learner attempts; print what came back.

Run by tests/lite/test_verdict_parity.py with a Python that has Playwright:

    python browse_parity.py PLAN_JSON

PLAN_JSON names the site's URL, Chromium, the recording proxy's port, the notebook to
open (``open``), the kernel's set-up code (the seed), ``notebooks`` (each a name and its
code cells' sources, run in order, the kernel's names cleared between notebooks) and
``probe`` (a cell that prints the attempts' verdicts as JSON). Prints one JSON document:
each notebook's cells' outputs, the probe's output, the seconds each part took and every
URL the page asked for. On failure prints one line on stderr and exits 1.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Error, Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from browse_lite import KERNEL_RUN_JS, offline_args, usable  # this folder, put on the path above

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


def main(argv: list[str]) -> int:
    plan = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    requests: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=plan["chromium"], args=offline_args(plan["trap_port"])
        )
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        context.on("request", lambda request: requests.append(request.url))
        try:
            seen = parity(context.new_page(), plan)
        except (Error, AssertionError) as error:
            first_line = str(error).strip().splitlines()[0]
            print(f"browse_parity.py: {first_line}", file=sys.stderr)
            return 1
        finally:
            browser.close()
    seen["requests"] = requests
    print(json.dumps(seen))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
