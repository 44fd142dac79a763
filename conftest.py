"""Suite-wide rules. Under CI (``CI=true``) a skipped test fails the run: a green CI
must mean every test ran, so whatever a test needs is installed by ``.ci/run``."""

from __future__ import annotations

import os

import pytest


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


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter is not None else []
    if _under_ci() and skipped and exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_configure(config: pytest.Config) -> None:
    # No test records progress into a learner's working copy (my-notebooks/) by accident;
    # tests of recording itself lift this.
    os.environ["HOOKCOURSE_PROGRESS"] = "off"
    # The checks draw fresh cases from a seed each run; the suite (and nbval's kernels, which
    # inherit this) uses one fixed seed so stored notebook outputs stay comparable. Tests of
    # the drawing itself pass seeds explicitly or lift this.
    os.environ.setdefault("HOOKCOURSE_SEED", "2026")
