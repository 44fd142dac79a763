"""The verdicts of the course's checks on a list of learner attempts, as JSON.

The same file runs on the desktop (``python verdict_probe.py ATTEMPTS_JSON``, a plain
interpreter with the working copy's package) and in the JupyterLite site's Pyodide
kernel (fetched by the page and run with ``exec``), so both sides call the checks
the same way and any difference is the platform's. Standard library and hookcourse only.

An attempt is a dict with ``id`` and ``kind``:

- ``check``: ``source`` defines ``function``; ``check`` (a name of
  ``hookcourse.course.notebook``) grades it with ``seed``. Read back: the verdict
  (``state``), the summary line, the failing families, the first hint, the whole text.
- ``quiz``: ``quiz`` answered with ``choice``: the feedback the learner reads.
- ``parsons``: ``puzzle`` answered with ``order``: what its check says.
- ``tryout``: ``source`` defines a faded function; ``calls`` is the cell that tries it,
  its last line the ``try_calls(...)`` expression: what the tryout shows.
- ``regex-errors``: the SyntaxError text ``regex_error`` gives for each of ``patterns``
  (Node's profile), as ``matcher_lab`` and 01's cells show it.
- ``python-re``: what this Python's ``re.search`` says of ``pattern`` on ``subject`` (the
  checks' case families depend on it), and the Python's version.
"""

from __future__ import annotations

import ast
import json
import linecache
import sys
from pathlib import Path
from typing import Any


def as_cell(source: str, name: str) -> Any:
    """``source`` compiled as IPython compiles a cell: its lines readable by ``inspect``
    and ``linecache`` (check_guard writes the defining cell out as a hook script)."""
    filename = f"<cell {name}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    return compile(source, filename, "exec")


def last_value(source: str, name: str, scope: dict[str, Any]) -> Any:
    """Run a cell whose last line is an expression in ``scope``; that expression's value."""
    *body, last = ast.parse(source).body
    assert isinstance(last, ast.Expr), f"{name}: the cell must end with an expression"
    exec(compile(ast.Module(body=body, type_ignores=[]), f"<cell {name}>", "exec"), scope)
    return eval(compile(ast.Expression(last.value), f"<cell {name}>", "eval"), scope)


def first_hint(details: tuple[tuple[str, str], ...]) -> str | None:
    return next((value for label, value in details if label == "hint"), None)


def graded(attempt: dict[str, Any]) -> dict[str, Any]:
    from hookcourse.course import notebook

    scope: dict[str, Any] = {"__name__": "__main__"}
    exec(as_cell(attempt["source"], attempt["id"]), scope)
    result = getattr(notebook, attempt["check"])(scope[attempt["function"]], seed=attempt["seed"])
    report = result.report()
    return {
        "state": report.state,
        "summary": report.summary,
        "failing": list(report.failing),
        "hint": first_hint(report.details),
        "text": result.text(),
    }


def answered(attempt: dict[str, Any]) -> dict[str, Any]:
    from hookcourse.course.notebook import parsons, quiz

    if attempt["kind"] == "quiz":
        return {"text": quiz(attempt["quiz"]).set(choice=attempt["choice"])}
    return {"text": parsons(attempt["puzzle"]).check(attempt["order"])}


def tried(attempt: dict[str, Any]) -> dict[str, Any]:
    scope: dict[str, Any] = {"__name__": "__main__"}
    exec(as_cell(attempt["source"], attempt["id"]), scope)
    shown = last_value(attempt["calls"], attempt["id"], scope)
    return {"right": shown.right, "rows": len(shown.rows), "text": shown.text()}


def python_re(attempt: dict[str, Any]) -> dict[str, Any]:
    from hookcourse.course.checks.pitfalls import python_re_search

    answer = python_re_search(attempt["pattern"], attempt["subject"])
    return {"answer": answer, "python": list(sys.version_info[:2])}


def regex_errors(attempt: dict[str, Any]) -> dict[str, Any]:
    from hookcourse.js.regex import RegexEngine, regex_error

    return {"errors": [regex_error(pattern, RegexEngine.NODE) for pattern in attempt["patterns"]]}


RUNS = {
    "check": graded,
    "quiz": answered,
    "parsons": answered,
    "tryout": tried,
    "python-re": python_re,
    "regex-errors": regex_errors,
}


def verdicts(attempts: list[dict[str, Any]]) -> dict[str, Any]:
    """Each attempt's id: what the learner is shown for it (or the error it raised, by name,
    which the test then reports as a difference)."""
    found: dict[str, Any] = {}
    for attempt in attempts:
        try:
            found[attempt["id"]] = RUNS[attempt["kind"]](attempt)
        except Exception as error:  # a raise on one side only is a difference to report
            found[attempt["id"]] = {"raised": f"{type(error).__name__}: {error}"}
    return found


if __name__ == "__main__":
    given = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    print(json.dumps(verdicts(given)))
