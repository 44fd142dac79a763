"""tests/tester's fixtures: the Exercism test-runner interface, results.json version 3, as
rules a document breaks (``results_v3_problems``).

From the interface's text: top-level ``version`` 3, ``status`` pass/fail/error,
``message`` only with status error (required then), ``tests`` required unless error;
per test ``name``, ``status``, ``test_code`` (required for Concept Exercises; we always
give it), ``message`` on a test that did not pass, ``output`` at most 500 characters,
``task_id`` a positive integer.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

TOP_LEVEL = {"version", "status", "message", "tests"}
PER_TEST = {"name", "status", "test_code", "message", "output", "task_id"}
STATUSES = {"pass", "fail", "error"}


def problems(document: object) -> list[str]:
    """Every way ``document`` departs from results.json v3 (empty when it conforms)."""
    if not isinstance(document, dict):
        return ["the document is not an object"]
    found = [f"unknown top-level key {key!r}" for key in document.keys() - TOP_LEVEL]
    if document.get("version") != 3:
        found.append("version is not 3")
    status = document.get("status")
    if status not in STATUSES:
        found.append(f"status {status!r} is not pass, fail or error")
    message = document.get("message")
    if status == "error" and not (isinstance(message, str) and message):
        found.append("status error without a top-level message")
    if status != "error" and message is not None:
        found.append("a top-level message with a status other than error")
    tests = document.get("tests")
    if status in ("pass", "fail") and not isinstance(tests, list):
        found.append("no tests array")
    for index, test in enumerate(tests if isinstance(tests, list) else []):
        where = f"tests[{index}]"
        if not isinstance(test, dict):
            found.append(f"{where} is not an object")
            continue
        found += [f"{where}: unknown key {key!r}" for key in test.keys() - PER_TEST]
        if not isinstance(test.get("name"), str) or not test["name"]:
            found.append(f"{where}: no name")
        if test.get("status") not in STATUSES:
            found.append(f"{where}: status {test.get('status')!r}")
        if not isinstance(test.get("test_code"), str) or not test["test_code"]:
            found.append(f"{where}: no test_code")
        failed = test.get("status") != "pass"
        if failed and not isinstance(test.get("message"), str):
            found.append(f"{where}: not passing, without a message")
        if not failed and test.get("message") is not None:
            found.append(f"{where}: passing, with a message")
        if "output" in test and not (
            isinstance(test["output"], str) and len(test["output"]) <= 500
        ):
            found.append(f"{where}: output is not a string of at most 500 characters")
        task = test.get("task_id")
        if "task_id" in test and not (type(task) is int and task >= 1):
            found.append(f"{where}: task_id {task!r} is not a positive integer")
    if isinstance(tests, list) and tests and all(isinstance(t, dict) for t in tests):
        statuses = {t.get("status") for t in tests}
        expected = "pass" if statuses == {"pass"} else "error" if statuses == {"error"} else "fail"
        if status != expected:
            found.append(f"status {status!r} where the tests say {expected!r}")
    return found


@pytest.fixture
def results_v3_problems() -> Callable[[object], list[str]]:
    """``problems``: every way a document departs from results.json v3."""
    return problems
