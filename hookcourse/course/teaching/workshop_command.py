"""``hookcourse reset`` and ``hookcourse workshop build|report``: the command line over the
working copy, the builds and the class report; the only part of the workshop that prints.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from hookcourse.course.teaching.notebook_files import COURSE, WORK, course_notebooks
from hookcourse.course.teaching.working_copy import reset, reset_module
from hookcourse.course.teaching.workshop import build, execute_build
from hookcourse.errors import EXIT_INTERRUPTED, InputError
from hookcourse.stages import registry

# -- the command line: `hookcourse reset` and `hookcourse workshop` ------------------------------


def _write(path: str, text: str) -> None:
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise InputError(path, f"cannot be written ({error.strerror})", "check the path") from None


def run_command(args: Any) -> int:
    """Run ``reset`` or ``workshop build|report`` from parsed arguments; the exit status.

    A file system error is one line (InputError); an interrupt is one line and 130.
    """
    try:
        if args.command == "reset":
            return _reset_command(args.notebooks, args.all, getattr(args, "my_hooks", False))
        if args.action == "build":
            return _build_command(args.teacher, args.student)
        return _report_command(args.paths, args.html, args.csv)
    except OSError as error:
        where = error.filename or args.command
        reason = error.strerror or str(error)
        raise InputError(str(where), reason, "check the path and its permissions") from None
    except KeyboardInterrupt:
        print("hookcourse: interrupted; what it was writing may be incomplete", file=sys.stderr)
        return EXIT_INTERRUPTED


def _build_command(teacher_dir: str | None, student_dir: str | None) -> int:
    teacher = teacher_dir is not None
    target = Path(teacher_dir or student_dir or ".")
    built = build(target, teacher)
    found = {name for item in built for name in item.exercises}
    absent = [e.function for e in registry.EXERCISES if e.function not in found]
    if absent:
        raise InputError(
            str(COURSE),
            f"no notebook has the exercise cell of {', '.join(absent)}",
            "restore the notebooks from git (the registry names each exercise's notebook)",
        )
    if teacher:
        print(f"hookcourse: executing {len(built)} notebooks in {target}", file=sys.stderr)
        execute_build(built)
    solved = len(registry.EXERCISES)
    kind = f"teacher build ({solved} exercises solved, every exercise's check passed)"
    print(f"wrote the {kind if teacher else 'student build (starters)'}: {target}")
    return 0


def _reset_command(names: list[str], every: bool, module: bool = False) -> int:
    if (every and names) or not (every or names or module):
        raise InputError(
            "reset", "name the notebooks to restore, or --all", "e.g. hookcourse reset 01"
        )
    chosen = [path.name for path in course_notebooks()] if every else names
    for done in reset(chosen):
        kept = f" (yours is now {done.backup.relative_to(WORK)})" if done.backup else ""
        print(f"restored {done.notebook.relative_to(WORK.parent)} from the course{kept}")
    if module:
        backup = reset_module()
        moved = f"moved to {backup.relative_to(WORK)}" if backup else "there was none"
        print(f"my_hooks.py starts afresh at the next check ({moved})")
    return 0


def _report_command(paths: list[str], html_file: str | None, csv_file: str | None) -> int:
    from hookcourse.course.teaching import report, report_sources

    sources, warnings = report_sources.find_sources(paths)
    runs, unreadable = report_sources.read_sources(sources)
    warnings += unreadable
    for warning in warnings:
        print(f"hookcourse: warning: {warning}", file=sys.stderr)
    if not runs:
        raise InputError(
            " ".join(paths), "holds no progress records", "pass learners' progress.jsonl files"
        )
    summary = report.ClassReport.build(runs, warnings)
    if html_file:
        _write(html_file, report.to_html(summary))
    if csv_file:
        _write(csv_file, report.to_csv(summary))
    if not html_file and not csv_file:
        print(report.text(summary))
    else:
        written = " and ".join(name for name in (html_file, csv_file) if name)
        print(f"class report: {len(summary.learners)} learners, written to {written}")
    return 0
