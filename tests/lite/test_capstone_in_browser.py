"""Notebook 08 in the JupyterLite site, in Chromium: the learner's loop runs in the browser.

A learner who did notebooks 01 to 07 in the browser has their functions in ``my_hooks.py``
in the browser's file store (the seed runs each earlier exercise cell with the teacher's
answer as a cell of its own and keeps it as its check does). They paste an answer into
08's exercise and run the notebook: their ``run_hooks`` and ``run_stop_loop`` play the
session with the hooks' and tools' answers the desktop's processes gave, and the
transcripts and ``check_loop`` must say what the desktop says for the same functions,
for the teacher's answer and then, in the same kernel, for a ``run_hooks`` that reads a
top-level ``permissionDecision``. Two more (marker ``walk``: each over a minute on a busy
machine) keep notebook 01's function, restart the kernel and open notebook 02
(``my_hooks.py`` is still there), and run every exercise's check in the browser on the
teacher's answer and on one classic mistake each, requiring the desktop's verdicts.
Needs the built site (scripts/lite.sh), Chromium and a Python with Playwright
(scripts/ui-prereqs.sh); browse_lite.py drives the browser.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hookcourse.course.checks.generators import SEED_ENV
from hookcourse.session.learner import check_loop, play, three_ways
from hookcourse.stages.stop_loop.solution import run_stop_loop
from tests.lite.test_lite_in_browser import (
    KERNEL_SETUP,
    Trap,
    built_site,
    chromium_service,
    drive,
    serve,
    trap,
    trap_host,
)
from tests.lite.test_lite_in_browser import SEED as DRAWN_WITH
from tests.lite.test_loop_replay import MERGED, TOP_LEVEL
from tests.ui.test_capstone_walk import teacher_answers

__all__ = ["trap"]  # the fixture, used by name

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = "08_your_hooks_your_loop.ipynb"
OTHER = "01_matcher.ipynb"
LATER = "02_exit_codes.ipynb"
BROWSER_NOTE = "(In the browser no process can start"
SEED = """
import json
from hookcourse.course.checks.learner_module import keep
for _answer in json.loads({answers!r}):
    get_ipython().run_cell(_answer["text"], store_history=True)
    print(_answer["function"], keep(_answer["function"], globals()[_answer["function"]]))
"""
TIMED = """
import contextlib, io, json, time
from hookcourse.course.notebook import check_loop, play, three_ways
_took = {}
with contextlib.redirect_stdout(io.StringIO()):
    _start = time.perf_counter()
    _ours = play(run_hooks, run_stop_loop, "guard-retry")
    _took["play"] = time.perf_counter() - _start
    _start = time.perf_counter()
    three_ways(_ours)
    _took["three_ways"] = time.perf_counter() - _start
    _start = time.perf_counter()
    check_loop(run_hooks, run_stop_loop)
    _took["check_loop"] = time.perf_counter() - _start
print(json.dumps({key: round(value, 2) for key, value in _took.items()}))
"""
AFTER_RESTART = """
from my_hooks import match_hook
print("my_hooks:", match_hook.__module__, match_hook("Edit|Write", "Write"))
"""


def desktop_says(run_hooks: Callable[..., Any]) -> tuple[str, str]:
    """What the three-way comparison and check_loop print for ``run_hooks`` on the desktop,
    with real processes."""
    with contextlib.redirect_stdout(io.StringIO()):
        ours = play(run_hooks, run_stop_loop, "guard-retry")
    return str(three_ways(ours)), str(check_loop(run_hooks, run_stop_loop))


def as_run_hooks(cell: str) -> Callable[..., Any]:
    """The ``run_hooks`` an exercise cell's text defines (with the teacher's earlier functions)."""
    from hookcourse.stages.matcher_and_dispatch.solution import match_hook
    from hookcourse.stages.merge_decisions.solution import merge_pre_tool_use

    namespace: dict[str, Any] = {
        "match_hook": match_hook,
        "merge_pre_tool_use": merge_pre_tool_use,
    }
    exec(cell, namespace)
    function: Callable[..., Any] = namespace["run_hooks"]
    return function


def in_the_site(
    tmp_path: Path, trap: Trap, browser_tools: tuple[str, str], **plan: Any
) -> dict[str, Any]:
    """browse_lite.py's ``capstone`` on ``plan`` in the served site; what the page showed,
    after the checks every browser test makes (nothing left 127.0.0.1; each seeded
    function kept in the browser's my_hooks.py)."""
    site = built_site()
    python, chromium = browser_tools
    url, server = serve(site)
    shots = tmp_path / "shots"
    shots.mkdir()
    seeded = plan.pop("seeded")
    plan |= {
        "mode": "capstone",
        "url": url,
        "chromium": chromium,
        "trap_port": trap.server_address[1],
        "shots": str(shots),
        "kernel_setup": KERNEL_SETUP,
        "seed": SEED.format(answers=json.dumps(seeded)),
        "timed": TIMED,
        "after_restart": AFTER_RESTART,
    }
    seen: dict[str, Any] = drive(python, plan, tmp_path, server)
    (tmp_path / "seen.json").write_text(json.dumps(seen, indent=1), encoding="utf-8")
    print(json.dumps({"steps": seen["steps"], "timed": seen.get("timed")}))  # for pytest -s
    assert [line for line in trap.seen if not chromium_service(trap_host(line))] == []
    assert not [u for u in seen["requests"] if not u.startswith((f"{url}/", "data:", "blob:"))]
    kept = seen["seeded"].splitlines()
    assert [line.split()[0] for line in kept] == [a["function"] for a in seeded]
    assert all(line.endswith("/my_hooks.py") for line in kept), kept
    return seen


def without_note(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith(BROWSER_NOTE))


# A kernel start and eight notebooks' answers: two minutes and more on a busy machine. CI
# keeps the replay's own tests (test_loop_replay.py) and the checks' browser parity
# (test_verdict_parity.py); `scripts/test.sh -m walk` runs this one.
@pytest.mark.walk
def test_08_plays_the_loop_in_the_browser_with_the_desktops_verdicts_right_or_wrong(
    tmp_path: Path, trap: Trap, browser_tools: tuple[str, str]
) -> None:
    *earlier, last = teacher_answers(ROOT / "notebooks")
    answer = last["text"]
    assert MERGED in answer
    wrong = answer.replace(MERGED, TOP_LEVEL)
    seen = in_the_site(
        tmp_path, trap, browser_tools, notebook=NOTEBOOK, seeded=earlier, exercises=[answer, wrong]
    )
    right, mistaken = seen["runs"]
    for run in (right, mistaken):  # 08 ran to its end: no cell raised, none was left unrun
        assert run["not_run"] == 0 and run["tracebacks"] == [], run["tracebacks"]
        assert run["mine"].startswith("from my_hooks.py: match_hook, merge_pre_tool_use")
        assert "hookcourse test" in run["program_tests"] and "desktop" in run["program_tests"]

    # The teacher's run_hooks: the loop agrees with the engine and Claude Code.
    assert right["check"].startswith("run_hooks: passed"), right["check"]
    assert BROWSER_NOTE in right["loop"]
    assert "your loop, the engine and Claude Code 2.1.332 agree on every request" in right["loop"]
    _, desktop_check = desktop_says(as_run_hooks(answer))
    assert without_note(right["check_loop"]) == desktop_check
    assert "check_loop: 2 of 2 sessions as Claude Code ran them" in desktop_check

    # A top-level permissionDecision: the denied force-push and read of .env run, and the
    # model sees their output, word for word as on the desktop.
    assert not mistaken["check"].startswith("run_hooks: passed"), mistaken["check"]
    desktop_loop, desktop_check = desktop_says(as_run_hooks(wrong))
    assert without_note(mistaken["check_loop"]) == desktop_check
    assert "✗ decide-modify-inject" in desktop_check and "'TOKEN=secret'" in desktop_check
    assert "Bash toolu_t1c0 runs | only Claude Code 2.1.332: Bash toolu_t1c0 does not run" in (
        desktop_check
    )
    explained = desktop_loop.split("\n\n", 1)[1].splitlines()
    assert "≠ request 2: a bug in your loop (the engine and Claude Code agree here)" in explained
    shown = [line.strip() for line in mistaken["loop"].splitlines()]
    assert [line for line in explained if line.strip() not in shown] == []


@pytest.mark.walk  # two kernel starts and a restart: over a minute on a busy machine
def test_my_hooks_outlives_a_kernel_restart_and_another_notebook_imports_it(
    tmp_path: Path, trap: Trap, browser_tools: tuple[str, str]
) -> None:
    matcher = teacher_answers(ROOT / "notebooks")[:1]
    seen = in_the_site(
        tmp_path,
        trap,
        browser_tools,
        notebook=OTHER,
        seeded=matcher,
        come_back=True,
        other_notebook=LATER,
    )
    assert seen["after_restart"].strip() == "my_hooks: my_hooks True"
    assert seen["other_notebook"].strip() == "my_hooks: my_hooks True"


CHECKS = """
import json
from hookcourse.course import notebook
_reports = []
for _case in json.loads({cases!r}):
    get_ipython().run_cell(_case["text"], store_history=True)
    _check = getattr(notebook, _case["check"])
    _reports.append(str(_check(globals()[_case["function"]])))
print(json.dumps(_reports))
"""


def check_cases() -> list[dict[str, str]]:
    """Each exercise's teacher answer, then the first classic mistake of each that has one."""
    from hookcourse.stages.registry import exercise_named
    from tests.lessons.single_bug_variants import VARIANTS

    cases = [
        {**answer, "check": exercise_named(answer["function"]).check}  # type: ignore[union-attr]
        for answer in teacher_answers(ROOT / "notebooks")
    ]
    firsts: dict[str, str] = {}
    for variant in VARIANTS:
        firsts.setdefault(variant.function, variant.source())
    for function, text in firsts.items():
        check = exercise_named(function).check  # type: ignore[union-attr]
        cases.append({"function": function, "text": text, "check": check})
    return cases


def on_the_desktop(cases: list[dict[str, str]]) -> list[str]:
    """The checks' reports for ``cases`` run as cells, in order, in one IPython shell: the
    desktop's kernel."""
    from IPython.core.interactiveshell import InteractiveShell

    from hookcourse.course import notebook

    shell = InteractiveShell.instance()
    reports = []
    for case in cases:
        shell.run_cell(case["text"], store_history=True)
        check = getattr(notebook, case["check"])
        reports.append(str(check(shell.user_ns[case["function"]])))
    return reports


def passed(report: str) -> bool:
    """A check's report says the function passed (the guard's: holds, nothing missed)."""
    first = report.split("\n", 1)[0]
    return ": passed," in first or " holds: 0 missed, 0 false alarms" in first


@pytest.mark.walk  # fourteen checks in one kernel: over a minute on a busy machine
def test_every_check_gives_the_desktops_verdict_in_the_browser(
    tmp_path: Path, trap: Trap, browser_tools: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    cases = check_cases()
    checks = CHECKS.format(cases=json.dumps(cases))
    seen = in_the_site(tmp_path, trap, browser_tools, notebook=OTHER, seeded=[], checks=checks)
    in_browser = json.loads(seen["checks"])
    monkeypatch.setenv(SEED_ENV, str(DRAWN_WITH))
    desktop = on_the_desktop(cases)
    verdicts = [
        (c["function"], passed(b), passed(d))
        for c, b, d in zip(cases, in_browser, desktop, strict=True)
    ]
    answers = len(teacher_answers(ROOT / "notebooks"))
    assert all(desk for name, _, desk in verdicts[:answers] if name != "run_stop_loop")
    assert not any(browser for _, browser, _ in verdicts[answers:])
    # The reports' counts may differ where the learner's code uses Python's re: the
    # browser's Python is 3.14, the desktop's 3.11 (one drawn matcher reads otherwise).
    differ = [(name, index) for index, (name, b, d) in enumerate(verdicts) if b != d]
    # Known: the teacher's 06 answer, run as a bare cell (it imports the merge's stdout
    # reading inside the function), is refused on the desktop as handing its work to the
    # course and passes in the browser; in its notebook it passes on both
    # (tests/ui/test_capstone_walk.py). When the check agrees, this line fails: drop it.
    assert differ == [("run_stop_loop", 5)], differ
