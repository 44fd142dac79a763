"""The JupyterLite site in a real browser, offline: scripts/lite.sh's output served on
127.0.0.1 by ``python -m http.server``, every other host unreachable.

Chromium opens the matcher notebook, runs it all, the learner types into the matcher
lab, runs the exercise check with a correct and then a wrong function, and the regex
corpus runs through the browser's own RegExp in the kernel. Any request that leaves
127.0.0.1 fails the test: the browser sends all of them to a recording proxy.
Needs the built site (scripts/lite.sh), Chromium and a Python with Playwright
(scripts/ui-prereqs.sh); tests/lite/browse_lite.py drives the browser.
"""

from __future__ import annotations

import base64
import json
import os
import socketserver
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hookcourse import browser
from hookcourse.course.checks.exercises import check_matcher
from hookcourse.course.checks.generators import SEED_ENV
from hookcourse.course.labs.guard import SEED_GUARD, bypass_scoreboard
from hookcourse.course.labs.guard_runs import try_guard
from hookcourse.course.labs.logic import matcher_readout
from hookcourse.course.teaching import progress, report_sources
from tests.support.ports import free_port

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DRIVER = HERE / "browse_lite.py"

# The learner's cells: found by what they contain, so edits to the notebook's prose keep
# the test valid.
EXERCISE_MARKER = "def match_hook("
CHECK_CALL = "check_matcher(match_hook)"
CORRECT = """import re
from hookcourse.js.regex import RegexEngine, regex_test
from hookcourse.js.values import js_to_string


def match_hook(matcher, tool_name):
    if matcher is None or matcher in ("", "*"):
        return True
    if re.fullmatch(r"[A-Za-z0-9_|]+", matcher):
        return tool_name in matcher.split("|")
    return regex_test(matcher, js_to_string(tool_name), RegexEngine.NODE)
"""
# Wrong: every matcher is one exact name (no lists, no regex, "*" matches only "*").
WRONG = """def match_hook(matcher, tool_name):
    return matcher is None or matcher == tool_name
"""
CORPUS_CELL = """import json
from pyodide.http import open_url

namespace = {{}}
exec(open_url("{url}/regex_answers.py").read(), namespace)
check = json.loads(open_url("{url}/regex-check.json").read())
got = namespace["regex_answers"](check["pairs"])
rows = zip(got["rows"], check["expected"], strict=True)
bad = [[check["pairs"][i // 2], i % 2] for i, (a, b) in enumerate(rows) if a != b]
print(f"{{got['backend']}}: {{len(bad)}} of {{len(got['rows'])}} answers differ {{bad[:5]}}")
"""


# The browser kernel inherits no environment: each notebook's kernel gets the seed the
# desktop side of the comparison uses, so both draw the same cases.
SEED = 2026
KERNEL_SETUP = f"import os; os.environ[{SEED_ENV!r}] = {str(SEED)!r}"

# Chromium's own services (sign-in, component updates, network time, autofill) live
# under these domains. A page's own request there would still fail the test: every
# request of the page and its workers is also checked by the driver's request list.
CHROMIUM_SERVICE_DOMAINS = ("google.com", "googleapis.com", "gvt1.com")


def chromium_service(host: str) -> bool:
    return any(host == domain or host.endswith("." + domain) for domain in CHROMIUM_SERVICE_DOMAINS)


def trap_host(line: str) -> str:
    """The host a proxy request line names: ``CONNECT host:443 ...`` or ``GET http://host/...``."""
    target = line.split(" ")[1] if " " in line else line
    return target.split("://")[-1].split("/")[0].split(":")[0]


# Notebook 00 runs two hook scripts and asks a shell; in the browser the scripts run in
# the kernel and the shell's rule is applied, and each cell prints what the desktop's real
# processes printed (the stored outputs), found by what the cell contains.
CONTRACT = "00_hook_contract.ipynb"
CONTRACT_PROCESS_CELLS = (
    "for event in (payload, force_push):",
    "goes_on = and_goes_on(code)",
    'run_hook_script("hooks/allow_tests.py", payload_text)',
)


def stored_text(notebook: Path, marker: str) -> str:
    """What the repository's notebook stores as the output of the cell holding ``marker``."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    (cell,) = [c for c in cells if c["cell_type"] == "code" and marker in "".join(c["source"])]
    return "".join("".join(o.get("text", "")) for o in cell["outputs"])


def built_site() -> Path:
    site = Path(os.environ.get("HOOKCOURSE_LITE_SITE") or ROOT / "build" / "lite" / "site")
    if not (site / "jupyter-lite.json").is_file():
        pytest.skip(f"no JupyterLite site at {site}; fix: run scripts/lite.sh")
    return site


class Trap(socketserver.ThreadingTCPServer):
    """A proxy that forwards nothing: it records each request's first line and hangs up."""

    daemon_threads = True

    def __init__(self) -> None:
        self.seen: list[str] = []
        super().__init__(("127.0.0.1", 0), self._Handler)

    class _Handler(socketserver.StreamRequestHandler):
        def handle(self) -> None:
            line = self.rfile.readline(4096).decode("latin-1").strip()
            self.server.seen.append(line)  # type: ignore[attr-defined]
            self.wfile.write(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")


@pytest.fixture(scope="module")
def trap() -> Iterator[Trap]:
    server = Trap()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def serve(folder: Path) -> tuple[str, subprocess.Popen[bytes]]:
    """``python -m http.server`` on 127.0.0.1 for ``folder``, as the README serves the site."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", "-b", "127.0.0.1", "-d", str(folder), str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return f"http://127.0.0.1:{port}", server


def served_folder(site: Path, tmp: Path, extra: dict[str, str]) -> Path:
    """The site's files (linked, not copied) plus ``extra`` files beside them."""
    folder = tmp / "served"
    folder.mkdir()
    for child in site.iterdir():
        (folder / child.name).symlink_to(child)
    for name, text in extra.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def drive(python: str, plan: dict[str, Any], tmp: Path, server: subprocess.Popen[bytes]) -> Any:
    """Run browse_lite.py on ``plan`` (then stop the site's server); what it saw."""
    (tmp / "plan.json").write_text(json.dumps(plan), encoding="utf-8")
    try:
        run = subprocess.run(
            [python, str(DRIVER), str(tmp / "plan.json")],
            capture_output=True,
            text=True,
            timeout=1200,  # a hang guard, far above a normal run
        )
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def as_function(source: str) -> Callable[..., object]:
    namespace: dict[str, Any] = {}
    exec(source, namespace)
    function: Callable[..., object] = namespace["match_hook"]
    return function


def test_the_matcher_notebook_works_offline_in_the_browser(
    tmp_path: Path,
    trap: Trap,
    browser_tools: tuple[str, str],
    corpus_pairs: list[list[str]],
    desktop_answers: dict[str, Any],
) -> None:
    site = built_site()
    python, chromium = browser_tools
    (notebook,) = sorted(path.name for path in (site / "files").glob("01_*.ipynb"))
    expected = desktop_answers["rows"]
    folder = served_folder(
        site,
        tmp_path,
        {
            "regex_answers.py": (HERE / "regex_answers.py").read_text(encoding="utf-8"),
            "regex-check.json": json.dumps({"pairs": corpus_pairs, "expected": expected}),
        },
    )
    url, server = serve(folder)
    shots = tmp_path / "shots"
    shots.mkdir()
    matcher, tool = "^Notebook", "NotebookEdit"
    plan = {
        "mode": "course",
        "url": url,
        "notebook": notebook,
        "chromium": chromium,
        "trap_port": trap.server_address[1],
        "shots": str(shots),
        "matcher": matcher,
        "tool": tool,
        "exercise_marker": EXERCISE_MARKER,
        "check_call": CHECK_CALL,
        "correct": CORRECT,
        "wrong": WRONG,
        "corpus_cell": CORPUS_CELL.format(url=url),
        "run_all": [],  # the tour (below) runs every notebook
        "kernel_setup": KERNEL_SETUP,
    }
    seen = drive(python, plan, tmp_path, server)

    # The trap also sees Chromium's own background calls, which no page can cause and
    # no flag fully stops; anything else off 127.0.0.1 (a CDN, PyPI) fails the test.
    assert [line for line in trap.seen if not chromium_service(trap_host(line))] == []
    off_host = [u for u in seen["requests"] if not u.startswith((f"{url}/", "data:", "blob:"))]
    assert off_host == []
    assert seen["broken"] == []
    assert seen["errors"] == []

    expected_readout = matcher_readout(matcher, tool)
    after = seen["readout_after"]
    assert after != seen["readout_before"]
    assert after.splitlines()[0] == expected_readout.headline
    for label, value in expected_readout.rows:
        assert f"{label}\t{value}" in after

    passed = check_matcher(as_function(CORRECT), seed=SEED)
    failed = check_matcher(as_function(WRONG), seed=SEED)
    assert passed.passed and not failed.passed
    assert seen["check_correct"].splitlines()[0] == passed.summary()
    assert seen["check_wrong"].splitlines()[0] == failed.summary()

    total = len(expected)
    assert seen["corpus"].strip() == f"browser RegExp: 0 of {total} answers differ []"

    # Every check was recorded in the browser's file store (Run All's, on the starter,
    # then the two above); the downloaded file is one the class report reads, naming the
    # learner by the file it was saved as.
    recorded = [progress.parse_line(line) for line in (seen["progress"] or "").splitlines()]
    assert [(run.task, run.passed, run.total) if run else None for run in recorded] == [
        ("match_hook", 0, len(passed.outcomes)),
        *[
            ("match_hook", sum(o.passed for o in run.outcomes), len(run.outcomes))
            for run in (passed, failed)
        ],
    ]
    downloaded = tmp_path / "ada.jsonl"
    downloaded.write_text(seen["progress"], encoding="utf-8")
    runs, warnings = report_sources.read_sources(report_sources.find_sources([str(downloaded)])[0])
    assert warnings == [] and {learner for learner, _ in runs} == {"ada"}


BYTES_FILE = "data/pre_tool_use.json"
BYTES_CODE = f"import base64; print(base64.b64encode(open({BYTES_FILE!r}, 'rb').read()).decode())"
# Notebook 07's hands-on cells, found by what they contain.
BUG_HUNT = 'try_guard(SEED_GUARD, ["git push origin main --force", "git push origin +main"])'
BYPASSES = "print(bypass_scoreboard(my_commands))"
# A returning learner's link.
RETURN_TO = "03_decide_modify_inject.ipynb"


def drive_site(
    tmp: Path, trap: Trap, browser_tools: tuple[str, str], **plan: Any
) -> tuple[list[str], Any]:
    """The built site served, browse_lite.py run on ``plan`` (its mode and what that
    mode reads) over every notebook of the site; the notebooks and what it saw."""
    site = built_site()
    python, chromium = browser_tools
    notebooks = sorted(path.name for path in (site / "files").glob("*.ipynb"))
    url, server = serve(site)
    shots = tmp / "shots"
    shots.mkdir()
    plan |= {"url": url, "chromium": chromium, "trap_port": trap.server_address[1]}
    plan |= {"shots": str(shots), "notebooks": notebooks}
    return notebooks, drive(python, plan, tmp, server)


def test_a_new_learner_follows_the_course_from_the_site_root(
    tmp_path: Path, trap: Trap, browser_tools: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fresh profile opens the site's root: notebook 00 alone, no outputs, the kernel
    reading the data file's own bytes; each Next link opens the next notebook with one
    kernel per open notebook, and each runs to the end; 07's bug hunt and bypasses get
    verdicts. Then, the page closed, a ``?path=`` link in the same profile opens only the
    notebook it names."""
    notebooks, seen = drive_site(
        tmp_path,
        trap,
        browser_tools,
        mode="tour",
        bytes_code=BYTES_CODE,
        read_cells=[BUG_HUNT, BYPASSES],
        first_cells=list(CONTRACT_PROCESS_CELLS),
        kernel_setup=KERNEL_SETUP,
        return_to=RETURN_TO,
    )

    assert [line for line in trap.seen if not chromium_service(trap_host(line))] == []
    assert seen["first_tabs"] == [notebooks[0]]  # the root page's link opens 00 alone
    assert seen["first_outputs"] == 0
    repository = (ROOT / "notebooks" / BYTES_FILE).read_bytes()
    assert base64.b64decode(seen["bytes"].strip()) == repository
    for step, opened in enumerate(seen["opened"]):
        assert opened["name"] == notebooks[step]
        assert opened["sessions"] == sorted(notebooks[: step + 1])
        assert opened["kernels"] == step + 1

    assert seen["not_run"] == dict.fromkeys(notebooks, 0)
    for name, errors in seen["errors"].items():
        assert [text for text in errors if not text.startswith("In the browser, ")] == [], name
    assert seen["errors"][CONTRACT] == []  # 00's hooks and shell run in the browser now
    for marker in CONTRACT_PROCESS_CELLS:
        shown = "".join(seen["first_cells"][marker])
        assert shown == stored_text(ROOT / "notebooks" / CONTRACT, marker), marker
    assert seen["errors"]["07_a_guard_that_holds.ipynb"] == []  # 07 needs no desktop now

    # Back in the same profile, whose saved layout has every notebook open: the link opens
    # only the notebook it names, with one kernel.
    back = seen["returning"]
    assert (back["tabs"], back["sessions"], back["kernels"]) == ([RETURN_TO], [RETURN_TO], 1)

    monkeypatch.setattr(browser, "IN_BROWSER", True)
    hunt = try_guard(SEED_GUARD, ["git push origin main --force", "git push origin +main"])
    outputs = seen["last_outputs"]
    # 07's bug hunt and scoreboard print their verdicts: print's own newline ends the text.
    assert outputs[BUG_HUNT] == [f"{hunt}\n"]
    assert outputs[BYPASSES] == [f"{bypass_scoreboard(['git  push --force'])}\n"]


EDIT = "# my note\n"


def test_a_learners_work_is_saved_kept_and_reset_as_the_readme_says(
    tmp_path: Path, trap: Trap, browser_tools: tuple[str, str]
) -> None:
    """Ctrl+S keeps an edit in the browser's storage across a reload; closing the tab
    shuts its kernel down; the file browser's Delete brings the course's copy back;
    Download and Clear Browser Data are in the menus the README names."""
    _, seen = drive_site(tmp_path, trap, browser_tools, mode="own_work", edit=EDIT)

    assert seen["reloaded"].startswith(EDIT.strip())
    assert seen["kernels_after_close"] == 0  # closing the tab shut its kernel down
    assert seen["after_delete"] == seen["served"]
    assert not seen["served"].startswith(EDIT)
    assert seen["listed_after_delete"] == 1
    assert {"Download", "Delete", "Clear Browser Data"} <= set(seen["file_menu"])
    assert {"Save All", "Download"} <= set(seen["file_menubar"])
    assert "Clear Browser Data" in seen["help_menubar"]
