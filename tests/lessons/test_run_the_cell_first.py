"""After a restart in notebook 08, a name its own cell binds (``match_hook, ... = mine(...)``)
is pointed to in 08 itself, by the NameError line, a check's hint and ``try_calls`` alike."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from IPython.core.interactiveshell import InteractiveShell

from hookcourse.course.checks import kernel_hook
from hookcourse.course.checks.exercises import check
from hookcourse.course.checks.tryout import try_calls

ROOT = Path(__file__).resolve().parents[2]
CAPSTONE = ROOT / "notebooks" / "08_your_hooks_your_loop.ipynb"
MINE = (
    "match_hook, merge_pre_tool_use, run_stop_loop = "
    'mine("match_hook", "merge_pre_tool_use", "run_stop_loop")'
)
RUN_MINE_FIRST = (
    "match_hook is not defined yet (after a restart the kernel forgets it): run the cell "
    f"with `{MINE}` first, then this cell again."
)


def _cell(notebook: dict[str, Any], starts: str) -> str:
    return next(
        text
        for text in ("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code")
        if text.startswith(starts)
    )


@pytest.fixture
def capstone_kernel() -> Iterator[InteractiveShell]:
    """A shell as the course's server starts one for notebook 08, just restarted."""
    shell = InteractiveShell.instance()
    shell.user_ns[kernel_hook.SESSION_NAME] = str(CAPSTONE)
    try:
        yield shell
    finally:
        InteractiveShell.clear_instance()


def _running(shell: InteractiveShell, cell: str) -> None:
    shell.user_ns["_ih"] = ["", cell]


def test_a_name_the_open_notebook_binds_points_to_its_cell_not_the_exercise(
    capstone_kernel: InteractiveShell,
) -> None:
    notebook = json.loads(CAPSTONE.read_text(encoding="utf-8"))
    _running(capstone_kernel, _cell(notebook, "from hookcourse.course.notebook import play"))
    said = kernel_hook._said(capstone_kernel, "run_stop_loop")
    assert said is not None and "06_stop_loop" not in said
    assert f"the cell with `{MINE}`" in said
    assert "the cell with `def run_hooks(hooks, tool, results):`" in said
    # Outside a notebook kernel the exercise's own notebook is still named.
    del capstone_kernel.user_ns[kernel_hook.SESSION_NAME]
    assert "06_stop_loop" in str(kernel_hook._said(capstone_kernel, "run_stop_loop"))


def test_a_check_and_try_calls_meeting_such_a_name_say_which_cell_to_run(
    capstone_kernel: InteractiveShell,
) -> None:
    def handlers_that_run(groups: list[Any], tool_name: str) -> list[str]:
        return [g["matcher"] for g in groups if match_hook(g["matcher"], tool_name)]  # type: ignore[name-defined]  # noqa: F821

    notebook = json.loads(CAPSTONE.read_text(encoding="utf-8"))
    _running(capstone_kernel, _cell(notebook, "from hookcourse.course.notebook import try_calls"))
    tried = try_calls(handlers_that_run, [(([{"matcher": "Bash"}], "Bash"), ["Bash"])])
    assert tried.text().splitlines()[0] == f"0 of 1 right: {RUN_MINE_FIRST}"
    assert "raised NameError: name 'match_hook' is not defined" in tried.text()

    def run_hooks(hooks: object, tool: object, results: object) -> object:
        return match_hook("Bash", "Bash")  # type: ignore[name-defined]  # noqa: F821

    _running(
        capstone_kernel, _cell(notebook, "from hookcourse.course.notebook import check_run_hooks")
    )
    capstone_kernel.user_ns["run_hooks"] = run_hooks
    rows = dict(check("run_hooks", run_hooks, seed=1).failure_rows())
    assert rows["hint"] == RUN_MINE_FIRST
    InteractiveShell.clear_instance()  # no notebook kernel: the usual advice
    rows = dict(check("run_hooks", run_hooks, seed=1).failure_rows())
    assert rows["hint"].startswith("Your function uses a name that is not defined")


def test_the_loop_stopped_by_such_a_name_says_which_cell_to_run(
    capstone_kernel: InteractiveShell, capsys: pytest.CaptureFixture[str]
) -> None:
    from hookcourse.session.learner import play
    from hookcourse.stages.stop_loop.solution import run_stop_loop

    def run_hooks(hooks: object, tool: object, results: object) -> object:
        return match_hook("Bash", "Bash")  # type: ignore[name-defined]  # noqa: F821

    notebook = json.loads(CAPSTONE.read_text(encoding="utf-8"))
    capstone_kernel.user_ns.update(run_hooks=run_hooks, run_stop_loop=run_stop_loop)
    _running(capstone_kernel, _cell(notebook, "from hookcourse.course.notebook import play"))
    assert play(run_hooks, run_stop_loop, "guard-retry") is None
    said = capsys.readouterr().out.strip()
    assert said.startswith("your loop stopped: your run_hooks raised NameError: name 'match_hook'")
    assert said.endswith(f"on the Bash call toolu_t0c0. {RUN_MINE_FIRST}")
