"""Drive the JupyterLite course in Chromium as a learner would; print what the page showed.

Run by tests/lite/test_lite_in_browser.py and benchmarks/lite_cold_start.py with a
Python that has Playwright (the project's environment does not need it):

    python browse_lite.py PLAN_JSON

PLAN_JSON names the site's URL, Chromium, a proxy that every non-loopback request
is sent to, a folder for screenshots, and what to do: ``course`` opens the
notebook and runs it whole, types into
the matcher lab, runs the exercise check with a correct and a wrong function, runs
the regex corpus in the kernel, then runs each notebook of ``run_all`` in full
(its error outputs, and how many code cells did not run); ``tour`` opens the site's root
as a new learner, asks notebook 00's kernel for the bytes of ``bytes_path``, follows
each notebook's Next link to the last one (the seconds until each is usable, the
notebooks open and the kernels running), running each to the end, then reads the
outputs of the cells that contain ``read_cells`` (wherever they are), and, the page closed,
follows a ``?path=`` link to ``return_to`` in the same profile
(what opened: its tabs, sessions and kernels); ``timing`` opens the site's root, runs
notebook 00's first cell and follows every Next link, with the phases of each kernel
start (from the requests that mark them) and the memory at the end, then again 15 and
30 s later; ``own_work``
edits notebook 00 and saves it (Ctrl+S), reloads the page, deletes the notebook in the
file browser, and reads the stored source each time and the menus' entries;
``parity`` is browse_parity.py's (every notebook's stored cells, then the checks on
learner attempts, in one kernel).
Before a notebook runs, its kernel runs ``kernel_setup`` (the test's seed, which a
browser kernel has no environment to inherit). Prints one JSON document; on failure
saves failure.png, prints one line on stderr and exits 1.
"""

from __future__ import annotations

import contextlib
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Error, Locator, Page, expect, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ui"))
from browse_course import (  # tests/ui is put on the path just above
    BROKEN_WIDGET,
    CHROMIUM_ARGS,
    NOTEBOOK,
    control,
    shown_text,
    type_into,
)

READY_MS = 120_000  # a readiness wait (Pyodide's start on a busy 2-core machine), no limit
IDLE = re.compile(r"Python \(Pyodide\) \| Idle")
PENDING = "[*]"


def wait_for_idle(page: Page) -> None:
    expect(page.locator("#jp-main-statusbar")).to_contain_text(IDLE, timeout=READY_MS)


def code_cells(page: Page) -> Locator:
    return page.locator(f"{NOTEBOOK} .jp-CodeCell")


def run_cell(page: Page, cell: Locator) -> Locator:
    """Run one cell (Shift+Enter in its editor); return its output area once it is done."""
    prompt = cell.locator(".jp-InputArea-prompt")
    before = prompt.inner_text()
    cell.locator(".cm-content").click()
    page.keyboard.press("Shift+Enter")
    # Each run takes the kernel's next execution count: done once the prompt shows a new one.
    expect(prompt).not_to_have_text(before, timeout=READY_MS)
    expect(prompt).not_to_have_text(re.compile(r"\[\*\]"), timeout=READY_MS)
    return cell.locator(".jp-OutputArea-output")


def replace_source(page: Page, cell: Locator, source: str) -> None:
    editor = cell.locator(".cm-content")
    editor.click()
    page.keyboard.press("Control+a")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(source)  # one insertion: the editor adds no indentation


def run_all(page: Page) -> None:
    page.locator("li.lm-MenuBar-item", has_text="Run").click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    pending = page.locator(f"{NOTEBOOK} .jp-InputArea-prompt", has_text=PENDING)
    expect(pending).to_have_count(0, timeout=READY_MS)
    wait_for_idle(page)


def open_notebook(page: Page, plan: dict[str, Any]) -> dict[str, float]:
    """Open the notebook cold; seconds until it shows, its kernel idles, its first cell ran."""
    start = time.monotonic()
    page.goto(f"{plan['url']}/lab/index.html?path={plan['notebook']}")
    expect(code_cells(page).first).to_be_visible(timeout=READY_MS)
    shown = time.monotonic() - start
    wait_for_idle(page)
    ready = time.monotonic() - start
    run_cell(page, code_cells(page).first)
    wait_for_idle(page)
    return {"shown_s": shown, "kernel_ready_s": ready, "first_cell_s": time.monotonic() - start}


def course(page: Page, plan: dict[str, Any], shots: Path) -> dict[str, Any]:
    seen: dict[str, Any] = open_notebook(page, plan)
    page.evaluate(KERNEL_RUN_JS, plan["kernel_setup"])
    run_all(page)
    page.screenshot(path=shots / "01_run_all.png", full_page=True)
    outputs = page.locator(f"{NOTEBOOK} .jp-OutputArea-output").all_text_contents()
    seen["broken"] = [text for text in outputs if any(mark in text for mark in BROKEN_WIDGET)]
    seen["errors"] = error_outputs(page)

    lab_cell = code_cells(page).filter(has_text="matcher_lab()")
    lab_cell.scroll_into_view_if_needed()
    lab = lab_cell.locator(".widget-vbox").first
    readout = lab.locator(".widget-html")
    seen["readout_before"] = shown_text(readout)
    type_into(control(lab, "matcher", "text"), plan["matcher"])
    type_into(control(lab, "tool_name", "text"), plan["tool"])
    expect(readout).to_contain_text(json.dumps(plan["tool"]), timeout=READY_MS)
    seen["readout_after"] = shown_text(readout)
    lab_cell.screenshot(path=shots / "02_matcher_lab_typed.png")

    exercise = code_cells(page).filter(has_text=plan["exercise_marker"])
    check = code_cells(page).filter(has_text=plan["check_call"])
    for name in ("correct", "wrong"):
        replace_source(page, exercise, plan[name])
        run_cell(page, exercise)
        seen[f"check_{name}"] = shown_text(run_cell(page, check).first)
        check.screenshot(path=shots / f"03_check_{name}.png")
    # What the file browser's Download gives for the progress the two checks recorded.
    seen["progress"] = page.evaluate(STORED_TEXT_JS, "progress.jsonl")

    # A scratch cell at the end: the regex corpus through this browser's RegExp.
    last = code_cells(page).last
    last.locator(".cm-content").click()
    page.keyboard.press("Escape")
    page.keyboard.press("b")
    scratch = code_cells(page).last
    replace_source(page, scratch, plan["corpus_cell"])
    seen["corpus"] = shown_text(run_cell(page, scratch).first)

    # The other notebooks, each run from top to bottom: what their error outputs say.
    seen["other_errors"] = {}
    seen["other_not_run"] = {}
    for name in plan["run_all"]:
        page.goto(f"{plan['url']}/lab/index.html?path={name}")
        wait_for_idle(page)
        page.evaluate(KERNEL_RUN_JS, plan["kernel_setup"])
        run_all(page)
        page.screenshot(path=shots / f"04_{name}.png", full_page=True)
        seen["other_errors"][name] = error_outputs(page)
        seen["other_not_run"][name] = not_run(page)
    return seen


KERNELS_JS = """async () => {
  const services = window.jupyterapp.serviceManager;
  await services.sessions.refreshRunning();
  await services.kernels.refreshRunning();
  return {
    sessions: [...services.sessions.running()].map((s) => s.path).sort(),
    kernels: [...services.kernels.running()].length,
  };
}"""
# The main area's tabs once the layout restorer is done (it reopens a saved layout's tabs).
TABS_JS = """async () => {
  await window.jupyterapp.restored;
  return [...window.jupyterapp.shell.widgets("main")].map((w) => w.context?.path ?? w.id);
}"""
READY_JS = """() => {
  const context = window.jupyterapp.shell.currentWidget?.sessionContext;
  const kernel = context?.session?.kernel;
  return Boolean(context?.isReady && kernel && kernel.status === "idle");
}"""
# Run code in the current notebook's kernel, outside its cells; its stdout as text.
KERNEL_RUN_JS = """async (code) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const future = kernel.requestExecute({ code, silent: false, store_history: false });
  let text = "";
  future.onIOPub = (msg) => {
    if (msg.header.msg_type === "stream") text += msg.content.text;
    if (msg.header.msg_type === "error") text += msg.content.ename + ": " + msg.content.evalue;
  };
  await future.done;
  return text;
}"""


def usable(page: Page, name: str, start: float) -> float:
    """Wait until notebook ``name`` is the current tab and its kernel idles; seconds since start."""
    tab = page.locator("#jp-main-dock-panel .lm-TabBar-tab.jp-mod-current")
    expect(tab).to_contain_text(name, timeout=READY_MS)
    expect(code_cells(page).first).to_be_visible(timeout=READY_MS)
    wait_for_idle(page)
    # The status bar can show Idle before the new notebook's kernel exists: usable is
    # that kernel answering.
    page.wait_for_function(READY_JS, timeout=READY_MS)
    return time.monotonic() - start


def tour(page: Page, plan: dict[str, Any], shots: Path) -> dict[str, Any]:
    seen: dict[str, Any] = {"opened": [], "errors": {}, "not_run": {}, "last_outputs": {}}
    start = time.monotonic()
    page.goto(f"{plan['url']}/")
    first, *others = plan["notebooks"]
    seen["first_s"] = usable(page, first, start)
    seen["first_tabs"] = page.evaluate(TABS_JS)
    page.evaluate(KERNEL_RUN_JS, "pass")  # the kernel answers
    seen["first_outputs"] = page.locator(f"{NOTEBOOK} .jp-OutputArea-output").count()
    seen["bytes"] = page.evaluate(KERNEL_RUN_JS, plan["bytes_code"])
    page.screenshot(path=shots / "00_opened.png")
    seen["opened"].append({"name": first, "s": seen["first_s"], **page.evaluate(KERNELS_JS)})
    for name in [first, *others]:
        if name != first:
            link = page.locator(f"{NOTEBOOK} .jp-RenderedMarkdown a[href$='{name}']").last
            link.scroll_into_view_if_needed()
            start = time.monotonic()
            link.click()
            seconds = usable(page, name, start)
            seen["opened"].append({"name": name, "s": seconds, **page.evaluate(KERNELS_JS)})
        # Each notebook runs to the end; a part that needs processes says so in a paragraph.
        page.evaluate(KERNEL_RUN_JS, plan["kernel_setup"])
        run_all(page)
        seen["errors"][name] = error_outputs(page)
        seen["not_run"][name] = not_run(page)
        for marker in plan["read_cells"]:  # in whichever notebook holds the cell
            cell = code_cells(page).filter(has_text=marker)
            if cell.count():
                outputs = cell.first.locator(".jp-OutputArea-output").all()
                seen["last_outputs"][marker] = [shown_text(output) for output in outputs]
        if name == first:  # what the first notebook's process cells printed in the browser
            seen["first_cells"] = {
                marker: [
                    shown_text(output)
                    for output in code_cells(page)
                    .filter(has_text=marker)
                    .first.locator(".jp-OutputArea-output")
                    .all()
                ]
                for marker in plan.get("first_cells", [])
            }
    page.screenshot(path=shots / "07_ran.png", full_page=True)
    seen["returning"] = come_back(page, plan)
    return seen


def come_back(page: Page, plan: dict[str, Any]) -> dict[str, Any]:
    """Close the course's page, then follow a ``?path=`` link to ``return_to`` in the same
    profile (its storage holds the layout with every notebook open); what opened."""
    context = page.context
    page.close()
    page = context.new_page()
    name = plan["return_to"]
    start = time.monotonic()
    page.goto(f"{plan['url']}/lab/index.html?path={name}")
    seconds = usable(page, name, start)
    return {"s": seconds, "tabs": page.evaluate(TABS_JS), **page.evaluate(KERNELS_JS)}


# The first code cell's source as the browser's storage holds it.
STORED_FIRST_CODE_JS = """async (path) => {
  const model = await window.jupyterapp.serviceManager.contents.get(path, { content: true });
  const source = model.content.cells.find((cell) => cell.cell_type === "code").source;
  return Array.isArray(source) ? source.join("") : source;
}"""


# A text file as the browser's storage holds it (what Download saves); null if missing.
STORED_TEXT_JS = """async (path) => {
  try {
    const model = await window.jupyterapp.serviceManager.contents.get(
      path, { content: true, format: "text" });
    return model.content;
  } catch (error) {
    return null;
  }
}"""


def menu_labels(page: Page) -> list[str]:
    labels = page.locator(".lm-Menu-itemLabel").all_text_contents()
    page.keyboard.press("Escape")
    return [label for label in labels if label]


def own_work(page: Page, plan: dict[str, Any]) -> dict[str, Any]:
    """What the README tells a learner about their work: an edit saved with Ctrl+S, the
    page reloaded, the tab closed (its kernel with it), the file browser's Delete on the
    notebook, and the menus' entries."""
    name = plan["notebooks"][0]
    start = time.monotonic()
    page.goto(f"{plan['url']}/")
    usable(page, name, start)
    seen: dict[str, Any] = {"served": page.evaluate(STORED_FIRST_CODE_JS, name)}
    code_cells(page).first.locator(".cm-content").click()
    page.keyboard.press("Control+Home")
    page.keyboard.insert_text(plan["edit"])
    page.keyboard.press("Control+s")
    edited = json.dumps(plan["edit"])
    saved = f"(path) => ({STORED_FIRST_CODE_JS})(path).then((s) => s.startsWith({edited}))"
    page.wait_for_function(saved, arg=name, timeout=READY_MS)
    page.reload()
    usable(page, name, time.monotonic())
    seen["reloaded"] = code_cells(page).first.locator(".cm-content").inner_text()
    page.evaluate("() => window.jupyterapp.commands.execute('application:close-all')")
    expect(page.locator(NOTEBOOK)).to_have_count(0, timeout=READY_MS)
    seen["kernels_after_close"] = page.evaluate(KERNELS_JS)["kernels"]
    listed = page.locator(".jp-DirListing-item", has_text=name).first
    listed.click(button="right")
    seen["file_menu"] = [
        label for label in page.locator(".lm-Menu-itemLabel").all_text_contents() if label
    ]
    page.locator(".lm-Menu-item", has_text="Delete").first.click()
    page.locator(".jp-Dialog").get_by_role("button", name="Delete").click()
    expect(page.locator(".jp-Dialog")).to_have_count(0, timeout=READY_MS)
    # The dialog closes before the browser's storage has dropped the copy: wait for the
    # course's copy to be served again (a hang guard, not a timing), then read it.
    restored = f"(path) => ({STORED_FIRST_CODE_JS})(path).then((s) => !s.startsWith({edited}))"
    with contextlib.suppress(Error):
        page.wait_for_function(restored, arg=name, timeout=READY_MS)
    seen["after_delete"] = page.evaluate(STORED_FIRST_CODE_JS, name)
    seen["listed_after_delete"] = page.locator(".jp-DirListing-item", has_text=name).count()
    for menu in ("File", "Help"):
        page.locator("li.lm-MenuBar-item", has_text=menu).click()
        seen[f"{menu.lower()}_menubar"] = menu_labels(page)
    return seen


def chromium_memory_mb(root_pid: int) -> float:
    """The proportional set size of Chromium process ``root_pid`` and all its children."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    total_kb, todo = 0, [root_pid]
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        try:
            rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
        except OSError:
            continue
        total_kb += sum(
            int(line.split()[1]) for line in rollup.splitlines() if line.startswith("Pss:")
        )
    return total_kb / 1024


# Seconds after the last notebook is usable at which the timing mode reads the memory again.
SETTLE_S = (15, 30)

# Requests that mark a kernel's start: Pyodide's loader (the kernel's worker has
# started), then the locked wheels it loads with itself.
PYODIDE_LOADER = "/static/pyodide/pyodide.mjs"
WHEEL = ".whl"


class RequestClock:
    """When each request of the page and its workers started and finished (monotonic)."""

    def __init__(self) -> None:
        self.started: list[tuple[float, str]] = []
        self.finished: list[tuple[float, str]] = []

    def phases(self, start: float, usable_s: float) -> dict[str, float]:
        """One kernel start after ``start``, in seconds: the page until Pyodide's loader is
        asked for, Pyodide's own start until its first wheel is asked for, the wheels'
        fetching, then unpacking and IPython's imports until the kernel answers (empty
        when the requests that mark them were not seen)."""
        loaders = [t for t, url in self.started if t >= start and url.endswith(PYODIDE_LOADER)]
        if not loaders:
            return {}
        loader = min(loaders)
        asked = [t for t, url in self.started if t >= loader and url.endswith(WHEEL)]
        got = [t for t, url in self.finished if t >= loader and url.endswith(WHEEL)]
        if not asked or not got:
            return {"page_s": loader - start}
        return {
            "page_s": loader - start,
            "pyodide_s": min(asked) - loader,
            "wheels_s": max(got) - min(asked),
            "kernel_s": start + usable_s - max(got),
        }


def timing(
    page: Page, plan: dict[str, Any], browser_pid: int, clock: RequestClock
) -> dict[str, Any]:
    """The site's root to a usable notebook 00 (its first cell run too), then each Next
    link in turn to the last notebook; each start's phases; the browser's memory with
    every notebook open."""
    first, *others = plan["notebooks"]
    start = time.monotonic()
    page.goto(f"{plan['url']}/")
    seen: dict[str, Any] = {"first_s": usable(page, first, start)}
    seen["first_phases"] = clock.phases(start, seen["first_s"])
    begun = time.monotonic()
    run_cell(page, code_cells(page).first)
    seen["first_cell_s"] = time.monotonic() - begun
    seen["next"] = []
    for name in others:
        link = page.locator(f"{NOTEBOOK} .jp-RenderedMarkdown a[href$='{name}']").last
        link.scroll_into_view_if_needed()
        start = time.monotonic()
        link.click()
        seconds = usable(page, name, start)
        seen["next"].append({"name": name, "s": seconds, **clock.phases(start, seconds)})
    seen["kernels"] = page.evaluate(KERNELS_JS)["kernels"]
    seen["memory_mb"] = chromium_memory_mb(browser_pid)
    # What the browser keeps while the learner reads: each kernel's start leaves garbage
    # (the fetched wheels, its imports' scratch) that its worker frees within seconds.
    opened = time.monotonic()
    for after_s in SETTLE_S:
        time.sleep(max(0.0, opened + after_s - time.monotonic()))
        seen[f"memory_{after_s}s_mb"] = chromium_memory_mb(browser_pid)
    return seen


def _browser_pid(before: set[int]) -> int:
    """The Chromium process Playwright just started: the new one with no --type."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) not in before:
            try:
                argv = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if (
                argv
                and argv[0].endswith(b"chromium")
                and not any(a.startswith(b"--type=") for a in argv)
            ):
                return int(entry.name)
    return 0


def error_outputs(page: Page) -> list[str]:
    """The text of every stderr and error output in the open notebook."""
    errors = page.locator(f"{NOTEBOOK} [data-mime-type='application/vnd.jupyter.stderr']")
    return errors.all_text_contents()


def not_run(page: Page) -> int:
    """How many code cells of the open notebook show no execution count: Run All stopped."""
    prompts = code_cells(page).locator(".jp-InputArea-prompt").all_text_contents()
    return sum(1 for prompt in prompts if not any(c.isdigit() for c in prompt))


def main(argv: list[str]) -> int:
    plan = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    shots = Path(plan["shots"])
    args = [
        *CHROMIUM_ARGS,
        # Every request that is not to loopback goes to the test's recording proxy,
        # and no other host name resolves.
        f"--proxy-server=http://127.0.0.1:{plan['trap_port']}",
        # Chromium's own services (sign-in, autofill, updates) would call home as well.
        "--disable-features=AutofillServerCommunication,OptimizationHints,MediaRouter,"
        "Translate,SafeBrowsing,InterestFeedContentSuggestions,CertificateTransparencyComponentUpdater,"
        "NetworkTimeServiceQuerying",
        "--disable-client-side-phishing-detection",
        "--disable-default-apps",
        "--disable-domain-reliability",
        "--disable-extensions",
        "--no-pings",
        "--no-service-autorun",
        "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
    ]
    requests: list[str] = []
    clock = RequestClock()
    with sync_playwright() as playwright:
        before = {int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit()}
        browser = playwright.chromium.launch(executable_path=plan["chromium"], args=args)
        browser_pid = _browser_pid(before)
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        context.on("request", lambda request: requests.append(request.url))
        context.on("request", lambda r: clock.started.append((time.monotonic(), r.url)))
        context.on("requestfinished", lambda r: clock.finished.append((time.monotonic(), r.url)))
        page = context.new_page()
        try:
            if plan["mode"] == "parity":
                from browse_parity import parity  # beside this file; imports it

                seen: dict[str, Any] = parity(page, plan)
            elif plan["mode"] == "tour":
                seen = tour(page, plan, shots)
            elif plan["mode"] == "own_work":
                seen = own_work(page, plan)
            elif plan["mode"] == "timing":
                seen = timing(page, plan, browser_pid, clock)
            elif plan["mode"] == "capstone":
                from walk_capstone_lite import capstone  # beside this file; imports it

                seen = capstone(page, plan, shots)
            else:
                seen = course(page, plan, shots)
        except (Error, AssertionError) as error:
            if context.pages:  # the tour closes its first page on the way
                context.pages[-1].screenshot(path=shots / "failure.png")
            first_line = str(error).strip().splitlines()[0]
            print(f"browse_lite.py: {first_line} (see {shots / 'failure.png'})", file=sys.stderr)
            return 1
        finally:
            browser.close()
    seen["requests"] = requests
    print(json.dumps(seen))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
