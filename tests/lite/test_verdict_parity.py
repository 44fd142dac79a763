"""Notebooks 00-07 give the same verdicts on the desktop and in the JupyterLite site.

One Chromium page opens the built site (served on 127.0.0.1, every other host
unreachable) and, in that notebook's Pyodide kernel:

1. runs every code cell of notebooks 00-07 as stored, top to bottom, each notebook
   after a ``%reset``; every cell's outputs must be the ones the repository stores
   (made by a desktop kernel, which nbval holds them to), except the quizzes' and labs'
   widgets (nbval does not compare those either) and the cells that need processes,
   which must say so in one paragraph and nothing else;
2. runs ``verdict_probe.py`` on a list of learner attempts: for each graded exercise
   of 01-07 (and 08's ``check_run_hooks``) the teacher's solution and every single-bug
   variant of tests/lessons/single_bug_variants.py, every option of every quiz of 00-07,
   the right and a wrong order of each Parsons problem, each faded step of 01-03 filled
   rightly and with its traps. The same file on the same attempts in a fresh desktop
   interpreter of the working copy must give the same verdict, summary, first hint and
   whole text for every attempt.

Needs the built site (scripts/lite.sh), Chromium and a Python with Playwright
(scripts/ui-prereqs.sh); tests/lite/browse_lite.py drives the browser (its parity mode,
tests/lite/browse_parity.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hookcourse.course.checks.check_report import MIME_TYPE
from hookcourse.course.labs.parsons import parsons
from hookcourse.course.labs.question import load_question
from hookcourse.stages.registry import EXERCISES
from tests.lessons.single_bug_variants import GATE_AND_GUARD, VARIANTS, Variant
from tests.lessons.test_faded_steps import FADED, SETUP, faded_cells, filled
from tests.lite.test_lite_in_browser import (
    KERNEL_SETUP,
    SEED,
    Trap,
    built_site,
    chromium_service,
    drive,
    serve,
    served_folder,
    trap,
    trap_host,
)

__all__ = ["trap"]  # the proxy fixture, shared with the other browser tests

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PROBE = HERE / "verdict_probe.py"
NOTEBOOKS = sorted((ROOT / "notebooks").glob("0[0-7]_*.ipynb"))
QUIZZES = sorted((ROOT / "hookcourse" / "data" / "quizzes").glob("0[0-7]_*.json"))
# 01-07's exercises, and 08's run_hooks (its loop in the browser is tested elsewhere).
GRADED = EXERCISES
# Cells that run real hook processes: in the browser they say so in one paragraph.
DESKTOP_ONLY = ("fire_commands(", "step_real_stop_hook(")
IN_THE_BROWSER = "In the browser, "
# A run that is not the desktop's process but the test it performs starts with this line.
SIMULATED = "(In the browser: "
SOLUTION = "the solution"
WIDGET = "application/vnd.jupyter.widget-view+json"
PROBE_CELL = """import json
from pyodide.http import open_url

probe = {{"__name__": "verdict_probe"}}
exec(open_url("{url}/verdict_probe.py").read(), probe)
print(json.dumps(probe["verdicts"](json.loads(open_url("{url}/attempts.json").read()))))
"""


# The guard's check runs each command through a real hook process on the desktop (about
# 10 s an attempt): the solution and one mistake here, every mistake in the walk test.
GUARD_IN_CI = (SOLUTION, "sh -c not looked into")


def check_attempts(guards: tuple[str, ...] | None = GUARD_IN_CI) -> list[dict[str, Any]]:
    """Each graded exercise's solution and single-bug variants, graded by its check (of the
    guard's, those named in ``guards``; None: all)."""
    attempts = []
    for exercise in GRADED:
        solution = Variant(exercise.function, SOLUTION, "", ())
        mistakes = [v for v in (*VARIANTS, *GATE_AND_GUARD) if v.function == exercise.function]
        for variant in (solution, *mistakes):
            if (
                exercise.check == "check_guard"
                and guards is not None
                and variant.name not in guards
            ):
                continue
            attempts.append(
                {
                    "id": f"{exercise.notebook} {exercise.check}: {variant.name}",
                    "kind": "check",
                    "check": exercise.check,
                    "function": exercise.function,
                    "source": variant.source(),
                    "seed": SEED,
                }
            )
    return attempts


def answer_attempts() -> list[dict[str, Any]]:
    """Every option of every quiz; each Parsons problem in order, as shown, and half-given."""
    attempts: list[dict[str, Any]] = []
    for path in QUIZZES:
        for quiz_id in json.loads(path.read_text(encoding="utf-8")):
            for option in load_question(quiz_id).options:
                attempts.append(
                    {
                        "id": f"{path.stem[:2]} quiz {quiz_id}: {option.letter}",
                        "kind": "quiz",
                        "quiz": quiz_id,
                        "choice": option.letter,
                    }
                )
    for name in ("05-merge", "06-stop-loop"):
        puzzle = parsons(name)
        count = len(puzzle.steps)
        right = [puzzle.shown.index(step) + 1 for step in range(count)]
        for label, order in (
            ("in order", right),
            ("as shown", list(range(1, count + 1))),
            ("half", right[: count // 2]),
        ):
            attempts.append(
                {"id": f"{name[:2]} parsons {name}: {label}", "kind": "parsons", "puzzle": name}
                | {"order": order}
            )
    return attempts


def tryout_attempts() -> list[dict[str, Any]]:
    """Each faded step of 01-03 as given, filled in rightly, and with each of its traps."""
    attempts = []
    for stem, (name, right, traps) in FADED.items():
        function, calls = faded_cells(stem, name)
        fills = {"as given": function, "filled in": filled(function, right)}
        fills |= {trap: filled(function, answers) for trap, answers in traps.items()}
        for label, source in fills.items():
            attempts.append(
                {"id": f"{stem[:2]} faded {name}: {label}", "kind": "tryout"}
                | {"source": SETUP + source, "calls": calls}
            )
    return attempts


def on_the_desktop(attempts: list[dict[str, Any]], tmp: Path) -> dict[str, Any]:
    """verdict_probe.py in a fresh interpreter of the working copy, seed SEED."""
    (tmp / "attempts.json").write_text(json.dumps(attempts), encoding="utf-8")
    env = {**os.environ, "HOOKCOURSE_PROGRESS": "off", "HOOKCOURSE_SEED": str(SEED)}
    env["PYTHONPATH"] = str(ROOT)
    run = subprocess.run(
        [sys.executable, str(PROBE), str(tmp / "attempts.json")],
        capture_output=True,
        text=True,
        cwd=tmp,
        env=env,
        timeout=600,  # a hang guard
    )
    assert run.returncode == 0, run.stderr
    found: dict[str, Any] = json.loads(run.stdout)
    return found


def shown(outputs: list[dict[str, Any]]) -> list[tuple[str, Any]]:
    """A cell's outputs as the learner reads them: consecutive stream chunks joined, a
    check's report as its JSON, anything else as its plain text."""
    seen: list[tuple[str, Any]] = []
    for output in outputs:
        kind = output["output_type"]
        if kind == "stream":
            text = "".join(output["text"])
            if seen and seen[-1][0] == output["name"]:
                seen[-1] = (output["name"], seen[-1][1] + text)
            else:
                seen.append((output["name"], text))
        elif kind == "error":
            seen.append(("error", f"{output['ename']}: {output['evalue']}"))
        elif MIME_TYPE in output["data"]:
            seen.append(("check", output["data"][MIME_TYPE]))
        else:
            seen.append(("text", "".join(output["data"].get("text/plain", ""))))
    return seen


def stored_cells(notebook: Path) -> list[dict[str, Any]]:
    """The notebook's code cells as the repository stores them (source, outputs, tags)."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return [cell for cell in cells if cell["cell_type"] == "code"]


def source(cell: dict[str, Any]) -> str:
    return "".join(cell["source"])


# Where Pyodide's Python answers otherwise than the desktop's, re.search itself disagrees
# (Python 3.14 made \B match an empty string, as JavaScript's does): the case files'
# pairs that tell the two apart.
PYTHON_RE_PAIRS = (("\\B", ""),)
# The rows of check_matcher whose cases are sorted by what Python's re.search answers.
PYTHON_RE_ROWS = ("regex", "js-not-python")
MATCHER_CHECK = "01_matcher check_matcher: "


def python_re_attempts() -> list[dict[str, Any]]:
    return [
        {"id": f"python re {pattern!r} on {subject!r}", "kind": "python-re"}
        | {"pattern": pattern, "subject": subject}
        for pattern, subject in PYTHON_RE_PAIRS
    ]


def regex_error_attempts(corpus_pairs: list[list[str]]) -> list[dict[str, Any]]:
    """The regex corpus's patterns, each with the reason the learner is shown if invalid."""
    patterns = sorted({pattern for pattern, _ in corpus_pairs})
    return [
        {"id": f"01 regex_error: {len(patterns)} corpus patterns", "kind": "regex-errors"}
        | {"patterns": patterns}
    ]


def browse(
    tmp: Path,
    trap: Trap,
    browser_tools: tuple[str, str],
    attempts: list[dict[str, Any]],
    *,
    cells: bool,
) -> dict[str, Any]:
    """The built site served with the probe and ``attempts``; one page, one kernel: every
    notebook's stored cells (when ``cells``), then the probe. What browse_parity.py saw."""
    site = built_site()
    python, chromium = browser_tools
    served = {
        "verdict_probe.py": PROBE.read_text(encoding="utf-8"),
        "attempts.json": json.dumps(attempts),
    }
    url, server = serve(served_folder(site, tmp, served))
    notebooks = []
    for notebook in NOTEBOOKS if cells else []:
        code = [source(cell) for cell in stored_cells(site / "files" / notebook.name)]
        assert code == [source(cell) for cell in stored_cells(notebook)], notebook.name
        notebooks.append({"name": notebook.name, "cells": code})
    plan = {
        "url": url,
        "chromium": chromium,
        "trap_port": trap.server_address[1],
        "open": NOTEBOOKS[0].name,
        "kernel_setup": KERNEL_SETUP,
        "notebooks": notebooks,
        "probe": PROBE_CELL.format(url=url),
    }
    shots = tmp / "shots"
    shots.mkdir()
    seen: dict[str, Any] = drive(
        python, plan | {"mode": "parity", "shots": str(shots)}, tmp, server
    )
    (tmp / "seen.json").write_text(json.dumps(seen), encoding="utf-8")  # to read a failure by
    print(
        f"browser: kernel ready {seen['ready_s']:.1f} s, notebooks' cells {seen['cells_s']:.1f} s,"
        f" {len(attempts)} attempts {seen['probe_s']:.1f} s"
    )
    assert [line for line in trap.seen if not chromium_service(trap_host(line))] == []
    assert [u for u in seen["requests"] if not u.startswith((f"{url}/", "data:", "blob:"))] == []
    return seen


def without_nulls(found: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """A report's JSON without its null fields: the Pyodide kernel sends Python's None in
    display data as JavaScript's undefined, so the page's copy has no such key."""
    return [
        (kind, {k: v for k, v in value.items() if v is not None} if kind == "check" else value)
        for kind, value in found
    ]


def cells_differing(seen: dict[str, Any]) -> dict[tuple[str, int], Any]:
    """Each stored cell whose browser outputs are not the desktop's: (notebook, code cell
    number from 1) to what each showed. A cell needing processes must show one paragraph
    saying so; a simulated run, one line saying so and then the desktop's outputs."""
    differing: dict[tuple[str, int], Any] = {}
    for notebook in NOTEBOOKS:
        ran = seen["cells"][notebook.name]
        for number, (cell, browser) in enumerate(zip(stored_cells(notebook), ran, strict=True), 1):
            got, stored = without_nulls(shown(browser["outputs"])), shown(cell["outputs"])
            desktop = without_nulls(stored)
            if browser["status"] == "ok" and not any(kind == "error" for kind, _ in got):
                if any(marker in source(cell) for marker in DESKTOP_ONLY):
                    text = got[0][1] if len(got) == 1 else ""
                    if text.startswith(IN_THE_BROWSER) and "\n\n" not in text.strip():
                        continue
                elif any(WIDGET in output.get("data", {}) for output in browser["outputs"]):
                    continue  # a quiz or a lab: compared by its answers in the probe
                elif got == desktop:
                    continue
                elif got and desktop and got[0][0] == desktop[0][0] == "stdout":
                    note, _, rest = got[0][1].partition("\n")
                    if note.startswith(SIMULATED) and [("stdout", rest), *got[1:]] == desktop:
                        continue
            differing[(notebook.name, number)] = {"browser": got, "desktop": desktop}
    return differing


def matcher_text_apart_from_python_re(text: str) -> str:
    """check_matcher's text without what depends on the running Python's re: the pass
    count of the summary and the rows whose cases re.search sorts."""
    summary, *lines = text.splitlines()
    kept = [line for line in lines if line.split()[1:2] not in ([row] for row in PYTHON_RE_ROWS)]
    return "\n".join([summary.split(" cases pass")[-1], *kept])


def verdicts_differing(
    desktop: dict[str, Any], browser: dict[str, Any], attempts: list[dict[str, Any]]
) -> dict[str, Any]:
    """Each attempt whose result differs between the two, with both results. Where the
    two Pythons' re.search answer a pair of the case files otherwise, check_matcher's
    verdict, failing families and hint must still agree, and its text but for that."""
    assert set(browser) == set(desktop) == {attempt["id"] for attempt in attempts}
    pythons_differ = any(
        desktop[a["id"]]["answer"] != browser[a["id"]]["answer"]
        for a in attempts
        if a["kind"] == "python-re"
    )
    differing = {}
    for attempt in attempts:
        key = attempt["id"]
        mine, theirs = desktop[key], browser[key]
        if attempt["kind"] == "python-re" or mine == theirs:
            continue
        if pythons_differ and key.startswith(MATCHER_CHECK) and "raised" not in mine:
            same = ("state", "failing", "hint")
            if all(mine[f] == theirs.get(f) for f in same) and matcher_text_apart_from_python_re(
                mine["text"]
            ) == matcher_text_apart_from_python_re(theirs.get("text", "")):
                continue
        differing[key] = {"desktop": mine, "browser": theirs}
    return differing


def desktop_verdicts_are_the_lessons(
    desktop: dict[str, Any], attempts: list[dict[str, Any]]
) -> None:
    """The desktop's own results are the ones the lessons teach: no attempt raised, every
    solution passes and every single-bug variant fails (so the comparison compares verdicts)."""
    assert [key for key, found in desktop.items() if "raised" in found] == []
    checked = [a["id"] for a in attempts if a["kind"] == "check"]
    solutions = [key for key in checked if key.endswith(f": {SOLUTION}")]
    assert {desktop[key]["state"] for key in solutions} == {"passed"}
    assert {desktop[key]["state"] for key in checked if key not in solutions} == {"failing"}


def test_notebooks_00_to_07_run_and_give_the_same_verdicts_in_the_browser(
    tmp_path: Path, trap: Trap, browser_tools: tuple[str, str], corpus_pairs: list[list[str]]
) -> None:
    attempts = check_attempts() + answer_attempts() + tryout_attempts() + python_re_attempts()
    attempts += regex_error_attempts(corpus_pairs)
    desktop = on_the_desktop(attempts, tmp_path)
    desktop_verdicts_are_the_lessons(desktop, attempts)
    assert len([key for key in desktop if key.endswith(f": {SOLUTION}")]) == len(GRADED)
    seen = browse(tmp_path, trap, browser_tools, attempts, cells=True)

    assert cells_differing(seen) == {}
    assert verdicts_differing(desktop, json.loads(seen["probe"]), attempts) == {}


@pytest.mark.walk
def test_every_guard_mistake_gets_the_same_verdict_in_the_browser(
    tmp_path: Path, trap: Trap, browser_tools: tuple[str, str]
) -> None:
    """The guard's other single-bug variants: the desktop runs each command as a hook
    process, the browser asks the function (about a minute on the desktop side)."""
    attempts = [a for a in check_attempts(None) if a["check"] == "check_guard"]
    desktop = on_the_desktop(attempts, tmp_path)
    desktop_verdicts_are_the_lessons(desktop, attempts)
    seen = browse(tmp_path, trap, browser_tools, attempts, cells=False)
    assert verdicts_differing(desktop, json.loads(seen["probe"]), attempts) == {}
