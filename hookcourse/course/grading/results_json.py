"""``hookcourse test --json FILE``: the grading pass as an Exercism v3 ``results.json``, and
whether that file can be written before the pass starts.
"""

from __future__ import annotations

import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from hookcourse.course.grading.judging import Report
from hookcourse.course.grading.tester_text import summary
from hookcourse.stages.registry import STAGES, Stage

RESULTS_OUTPUT_CHARACTERS: Final = 500  # Exercism v3's limit on a test's output


def _limited(text: str) -> str:
    if len(text) <= RESULTS_OUTPUT_CHARACTERS:
        return text
    note = "\nOutput was truncated. Please limit to 500 chars"
    return text[: RESULTS_OUTPUT_CHARACTERS - len(note)] + note


def results_document(report: Report, stages: Sequence[Stage]) -> dict[str, object]:
    """Exercism's results.json, version 3: one test per case, task_id the stage's number.

    ``test_code`` is the command and the case; ``message`` only on a test that did not
    pass, and at the top only with status ``error`` (nothing could be graded: the
    program cannot run, or it failed to answer on every case).
    """
    tests: list[dict[str, object]] = []
    for verdicts in report.verdicts.values():
        for verdict in verdicts:
            command = verdict.command or f"{verdict.stage.command} ({verdict.file.name})"
            test: dict[str, object] = {
                "name": verdict.name,
                "status": "pass" if verdict.passed else "error" if verdict.error else "fail",
                "test_code": f"{command}\n# {verdict.file.name}:\n{verdict.file.text.rstrip()}",
                "task_id": STAGES.index(verdict.stage) + 1,
            }
            if not verdict.passed:
                parts = [verdict.problem, *([f"fix: {verdict.fix}"] if verdict.fix else [])]
                site = [f"it crashed in your code at {verdict.site}"] if verdict.site else []
                test["message"] = "\n".join([*parts, *site, *verdict.details, *verdict.stderr])
            if verdict.output:
                test["output"] = _limited("\n".join(verdict.output))
            tests.append(test)
    document: dict[str, object] = {"version": 3, "status": "pass" if report.passed else "fail"}
    nothing_graded = not tests or all(test["status"] == "error" for test in tests)
    if not report.passed and nothing_graded:
        document["status"] = "error"
        document["message"] = summary(report, stages)
    document["tests"] = tests
    return document


def results_file_problem(text: str) -> str | None:
    """Why the results file named ``text`` cannot be written, with the fix; None when it can.

    Found before grading, so a long pass is never lost to a bad path. Opening it to append
    proves it writable without changing it; a file made only to prove that is removed.
    """
    path = Path(text)
    if path.is_dir():
        return f"it is a folder; fix: name a file in it, such as {path / 'results.json'}"
    if not path.absolute().parent.is_dir():
        return "its folder does not exist; fix: create the folder or pass another path"
    existed = path.exists()
    if existed and stat.S_ISFIFO(path.stat().st_mode):  # opening it would wait for a reader
        return "it is a named pipe; fix: pass a regular file such as results.json"
    try:
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as error:
        reason = error.strerror or type(error).__name__
        return f"it cannot be written ({reason}); fix: pass a path you may write to"
    if not existed:
        path.unlink(missing_ok=True)
    return None
