"""Suite-wide rules. Under CI (``CI=true``) a skipped test fails the run: a green CI
must mean every test ran, so whatever a test needs is installed by ``.ci/run``. And
no test leaves a process behind: pytest adopts every orphan of the processes it
started (a child subreaper), and a run with any of them still alive at its end fails."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import time
from pathlib import Path

import pytest

_PR_SET_CHILD_SUBREAPER = 36
# The slow tests, left out by ``scripts/test.sh --quick`` (``-m "not slow"``): each entry is a
# path prefix from the checkout's root, and why it is slow. A single slow test elsewhere
# carries ``@pytest.mark.slow`` itself. Under CI nothing is marked, so nothing is left out.
SLOW: dict[str, str] = {
    "notebooks/": "nbval re-executes every notebook in a kernel",
    "tests/lite/": "a browser runs the JupyterLite site",
    "tests/claude_code/": "the real Claude Code runs each scenario",
    "tests/workshop/test_hub.py": "a JupyterHub with its proxy starts",
    "tests/entry/test_wheel.py": "a wheel is built and installed",
    "tests/entry/test_fresh_clone.py": "a clone bootstraps its own .venv",
    "tests/ui/": "a browser drives JupyterLab",
    "tests/tester/": "learners' programs run under node, npm and Python, case file by case file",
    "tests/workshop/": "workshop builds execute notebooks and start servers",
    "tests/labs/test_notebooks.py": "it executes notebooks",
    "tests/labs/test_merge_stop_exercises.py": "every check runs on drawn cases (87 s on 2 cores)",
    "tests/core/test_new_stage.py": "a copy of the repository runs every command (24 s)",
    "tests/core/test_differential.py": "node answers the whole differential corpus",
    "tests/core/test_merge_stop_differential.py": "node answers the whole differential corpus",
    "tests/core/test_generators.py": "node answers 20 seeds of drawn case files per stage",
    "tests/session/": "scripted sessions start hook processes turn by turn",
    "tests/engine_run/test_hostile.py": "hostile hooks run to their time limits",
    "tests/engine_run/test_interrupts.py": "signals are sent to running hook processes",
    "tests/engine_run/test_concurrent_batches.py": "many hook processes run at once",
    "tests/engine_run/test_fire_cli.py": "hookcourse fire runs real hook processes",
    "tests/engine_run/test_outside_scenarios.py": "hookcourse fire runs real hook processes",
    "tests/engine_run/test_session_facts.py": "hookcourse fire runs real hook processes",
    "tests/engine_run/test_fidelity.py": "hookcourse fire runs real hook processes",
    "tests/lessons/test_driven_cells.py": "it runs each notebook's cells in a kernel (8-11 s each)",
    "tests/lessons/test_returning_learner.py": "it runs notebook cells in kernels",
    "tests/labs/test_chapter_labs.py": "learners' functions run as real hook scripts",
    "tests/lessons/test_capstone_notebook.py": "notebook 08's loop cells run in a kernel (8 s)",
    "tests/entry/test_quick_loop.py": "it collects the suite in pytest subprocesses (6 s)",
}
LEFTOVER_GRACE_S = 5.0  # a process killed at a test's end may take a moment to go


def _under_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    skipped = terminalreporter.stats.get("skipped", [])
    if _under_ci() and skipped:
        terminalreporter.write_line(
            f"CI: {len(skipped)} test(s) skipped; under CI nothing may skip "
            "(fix: install what they need in .ci/run)",
            red=True,
        )


def leftover_processes() -> dict[int, str]:
    """This process's live children (orphans it adopted included), by pid, with their
    command lines; zombies are reaped, not counted. Linux only (``/proc``)."""
    found: dict[int, str] = {}
    me = str(os.getpid())
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
            if fields[1].decode() != me:
                continue
            if fields[0] == b"Z":
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(int(entry), os.WNOHANG)
                continue
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                found[int(entry)] = handle.read().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, IndexError):
            continue  # gone meanwhile
    return found


def _checks_leftovers(config: pytest.Config) -> bool:
    # The xdist controller's children are its workers; each worker checks its own.
    worker = hasattr(config, "workerinput")
    controller = not worker and getattr(config.option, "dist", "no") != "no"
    return sys.platform == "linux" and not controller


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter is not None else []
    if _under_ci() and skipped and exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    config = session.config
    if not _checks_leftovers(config):
        reported = getattr(config, "_leftovers_reported", [])
        if reported:  # the workers' finding, collected as each went down
            if reporter is not None:
                for message in reported:
                    reporter.write_line(message, red=True)
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
        return
    deadline = time.monotonic() + LEFTOVER_GRACE_S
    while (left := leftover_processes()) and time.monotonic() < deadline:
        time.sleep(0.1)
    if not left:
        return
    lines = [f"  {pid}: {command[:200]}" for pid, command in sorted(left.items())]
    message = "processes the tests started are still running (killed now):\n" + "\n".join(lines)
    if reporter is not None:
        reporter.write_line(message, red=True)
    else:
        print(message, file=sys.stderr)
    workeroutput = getattr(config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: its exit status does not reach the run
        workeroutput["leftover_processes"] = message
    for _ in range(20):  # what they started comes back to pytest as each one dies: again
        for pid in left:
            with contextlib.suppress(OSError):
                group = os.getpgid(pid)
                if group != os.getpgrp():  # its own group, not pytest's
                    os.killpg(group, signal.SIGKILL)
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.1)
        if not (left := leftover_processes()):
            break
    session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: object, error: object) -> None:
    """xdist's controller: keep what a worker found left behind, to fail the run."""
    message = getattr(node, "workeroutput", {}).get("leftover_processes")
    config = getattr(node, "config", None)
    if message and config is not None:
        config._leftovers_reported = [*getattr(config, "_leftovers_reported", []), message]


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """The quick loop (``-m "not slow"`` outside CI) does not even import the slow files:
    importing them (nbformat's validator, jupyter_client, the oracle's record) was a
    third of its time. A file named on the command line is still collected (pytest does
    not ask this hook about those), and deselected as slow."""
    if _under_ci() or config.getoption("markexpr", "") != "not slow":
        return None
    root = config.rootpath
    if not collection_path.is_relative_to(root):
        return None
    where = collection_path.relative_to(root).as_posix() + ("/" if collection_path.is_dir() else "")
    return True if any(where.startswith(prefix) for prefix in SLOW) else None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests under ``SLOW`` slow (none under CI, which runs everything)."""
    if _under_ci():
        return
    root = config.rootpath
    for item in items:
        where = item.path.relative_to(root).as_posix() if item.path.is_relative_to(root) else ""
        if any(where.startswith(prefix) for prefix in SLOW):
            item.add_marker(pytest.mark.slow)


def pytest_configure(config: pytest.Config) -> None:
    if _checks_leftovers(config):
        # Orphans of the processes the tests start come back to pytest, so none escapes.
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    # No test records progress into a learner's working copy (my-notebooks/) by accident;
    # tests of recording itself lift this.
    os.environ["HOOKCOURSE_PROGRESS"] = "off"
    # The checks draw fresh cases from a seed each run; the suite (and nbval's kernels, which
    # inherit this) uses one fixed seed so stored notebook outputs stay comparable. Tests of
    # the drawing itself pass seeds explicitly or lift this.
    os.environ.setdefault("HOOKCOURSE_SEED", "2026")
