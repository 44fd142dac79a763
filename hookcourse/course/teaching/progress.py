"""A learner's progress: one JSON line per check or test run, in their working folder.

Each ``check_*`` run in a notebook and each ``hookcourse test`` run appends one line
to ``progress.jsonl`` in the learner's working copy (``my-notebooks/``): the stage,
the task (the exercise function, or ``program`` for a graded program), passed and
total cases, the failing case families, the time and the hookcourse version. A
teacher collects these files and runs ``hookcourse workshop report``.

Recording is best effort and silent outside a working copy: the course notebooks
under nbval and a teacher build write nothing; ``HOOKCOURSE_PROGRESS=off`` turns it
off everywhere (the test suite does). In the browser course (JupyterLite) the working
copy is the browser's own file store, ``/drive`` in the kernel: ``progress.jsonl``
appears in the file browser, where the learner downloads it for the teacher; its lines
name no learner (the browser has no user), so the report names them by the file's
name or folder.
"""

from __future__ import annotations

import getpass
import json
import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from hookcourse import browser

FILE_NAME: Final = "progress.jsonl"
# Set by scripts/lab.sh for the kernels it starts; a teacher may set it for a learner.
WORK_ENV: Final = "HOOKCOURSE_WORK"
LEARNER_ENV: Final = "HOOKCOURSE_LEARNER"
# JupyterHub sets this in every user's server: the hub's name for the learner.
HUB_USER_ENV: Final = "JUPYTERHUB_USER"
# "off" records nothing (the test suite sets it, so no test writes a learner's file).
SWITCH_ENV: Final = "HOOKCOURSE_PROGRESS"
# Marks a learner's working copy (hookcourse.course.teaching.workshop writes it).
MARKER: Final = ".hookcourse-work"
CHECKOUT_WORK: Final = Path(__file__).resolve().parents[3] / "my-notebooks"
PROGRAM_TASK: Final = "program"
# JupyterLite's kernel sees the browser's file store (what its file browser shows) here.
BROWSER_DRIVE: Final = Path("/drive")


@dataclass(frozen=True)
class Progress:
    """One run: which stage and task, how many cases passed, and what failed."""

    stage: str
    task: str
    passed: int
    total: int
    failing: tuple[str, ...]
    time: str  # ISO 8601, UTC, seconds
    version: str
    source: str  # "check" or "test"
    learner: str | None = None

    @property
    def done(self) -> bool:
        """Every case passed."""
        return self.total > 0 and self.passed == self.total

    def to_json(self) -> dict[str, Any]:
        """The line's fields, in a fixed order."""
        fields: dict[str, Any] = {
            "stage": self.stage,
            "task": self.task,
            "passed": self.passed,
            "total": self.total,
            "failing": list(self.failing),
            "time": self.time,
            "version": self.version,
            "source": self.source,
        }
        if self.learner:
            fields["learner"] = self.learner
        return fields


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("hookcourse")
    except PackageNotFoundError:
        return "unknown"


def learner_name() -> str | None:
    """Who is working: ``$HOOKCOURSE_LEARNER``, else ``$JUPYTERHUB_USER``, else the OS user."""
    named = os.environ.get(LEARNER_ENV) or os.environ.get(HUB_USER_ENV)
    if named:
        return named
    if browser.IN_BROWSER:  # Pyodide's user is "web_user" for everybody
        return None
    try:
        return getpass.getuser() or None
    except (KeyError, OSError):  # no such user in the password database (some containers)
        return None


def work_folder(search_from: Path | None = None, checkout_fallback: bool = False) -> Path | None:
    """The learner's working folder: ``$HOOKCOURSE_WORK``, else the nearest folder marked
    as a working copy at or above ``search_from`` (the current directory), else in the
    browser its file store, else (for ``hookcourse test``, run from the learner's program
    folder) this checkout's copy."""
    named = os.environ.get(WORK_ENV)
    if named:
        return Path(named)
    here = (search_from or Path.cwd()).resolve()
    for folder in [here, *here.parents]:
        if (folder / MARKER).is_file():
            return folder
    if browser.IN_BROWSER and BROWSER_DRIVE.is_dir():
        return BROWSER_DRIVE
    if checkout_fallback and (CHECKOUT_WORK / MARKER).is_file():
        return CHECKOUT_WORK
    return None


def record(
    stage: str,
    task: str,
    passed: int,
    total: int,
    failing: Iterable[str],
    source: str,
    checkout_fallback: bool = False,
) -> Path | None:
    """Append one progress line to the working folder's file; returns the file, or None
    when there is no working folder. A file that cannot be written costs one line on
    stderr, never the learner's check."""
    if os.environ.get(SWITCH_ENV) == "off":
        return None
    folder = work_folder(checkout_fallback=checkout_fallback)
    if folder is None:
        return None
    entry = Progress(
        stage=stage,
        task=task,
        passed=passed,
        total=total,
        failing=tuple(dict.fromkeys(failing)),
        time=datetime.now(UTC).isoformat(timespec="seconds"),
        version=_version(),
        source=source,
        learner=learner_name(),
    )
    line = json.dumps(entry.to_json(), ensure_ascii=False) + "\n"
    path = folder / FILE_NAME
    try:
        # One write in append mode: lines from two kernels at once do not interleave.
        with path.open("a", encoding="utf-8") as sink:
            sink.write(line)
    except OSError as error:
        reason = error.strerror or str(error)
        print(f"hookcourse: progress not recorded in {path} ({reason})", file=sys.stderr)
        return None
    return path


def record_test(stage: str, cases: Iterable[tuple[str, bool]]) -> Path | None:
    """Record one stage of a ``hookcourse test`` run from (case file, passed) pairs; the
    failing families are the failing case files' names (``seed``, ``name-lists``...)."""
    results = list(cases)
    failing = [
        "seed" if name == "case.json" else name.removeprefix("extra/")
        for name, passed in results
        if not passed
    ]
    passed = sum(ok for _, ok in results)
    # The learner's program folder is anywhere: fall back to this checkout's working copy.
    return record(stage, PROGRAM_TASK, passed, len(results), failing, "test", True)


def parse_line(text: str) -> Progress | None:
    """A progress line read back, or None when the line is not one."""
    try:
        fields = json.loads(text)
    except json.JSONDecodeError:
        return None
    if not isinstance(fields, dict):
        return None
    stage, task, time = fields.get("stage"), fields.get("task"), fields.get("time")
    passed, total, failing = fields.get("passed"), fields.get("total"), fields.get("failing")
    counts_ok = all(type(n) is int and n >= 0 for n in (passed, total))
    texts_ok = all(isinstance(t, str) and t for t in (stage, task, time))
    if not (counts_ok and texts_ok and isinstance(failing, list)):
        return None
    assert isinstance(passed, int) and isinstance(total, int)
    learner = fields.get("learner")
    return Progress(
        stage=str(stage),
        task=str(task),
        passed=passed,
        total=total,
        failing=tuple(str(family) for family in failing),
        time=str(time),
        version=str(fields.get("version", "")),
        source=str(fields.get("source", "")),
        learner=learner if isinstance(learner, str) and learner else None,
    )
