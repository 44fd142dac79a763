"""The learner's working copy, ``my-notebooks/``: made on the first ``scripts/lab.sh`` with
outputs cleared (predictions unspoiled) and the course's data and hook scripts alongside,
topped up with what the course adds, and reset notebook by notebook (the old one kept in
``backups/``). Nothing here ever writes into the course folder.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

from hookcourse.course.teaching.notebook_files import (
    COURSE,
    MY_HOOKS,
    WORK,
    Notebook,
    cleared,
    course_notebooks,
    read_notebook,
    write_notebook,
)
from hookcourse.course.teaching.progress import MARKER
from hookcourse.errors import InputError

BACKUPS: Final = "backups"
# Never copied out of the course: editor and interpreter leftovers.
LEFTOVERS: Final = frozenset({".ipynb_checkpoints", "__pycache__"})


# -- the learner's working copy ------------------------------------------------------------------


def copy_item(item: Path, target: Path) -> None:
    if item.suffix == ".ipynb":
        write_notebook(target, cleared(read_notebook(item)))
    elif item.is_dir():
        shutil.copytree(item, target, ignore=shutil.ignore_patterns(*LEFTOVERS))
    else:
        shutil.copy2(item, target)


def prepare_work(course: Path = COURSE, work: Path = WORK) -> list[str]:
    """Create the working copy, or add what the course gained since; returns what was added.

    Never overwrites: a learner's notebook, data or hook script that exists stays as it is.
    """
    course_notebooks(course)
    work.mkdir(parents=True, exist_ok=True)
    mark_work(work)
    return _add_missing(course, work, course)


def mark_work(work: Path) -> None:
    """Mark ``work`` as a learner's working copy: the checks run there record progress."""
    (work / MARKER).write_text(
        "This folder is your own copy of the hookcourse notebooks (git ignores it).\n"
        "`hookcourse reset NOTEBOOK` restores one from the course.\n",
        encoding="utf-8",
    )


def _add_missing(source: Path, target: Path, course: Path) -> list[str]:
    """Copy what ``source`` has and ``target`` lacks, into folders that both have too
    (a data file the course gained since the copy was made); paths added, from the course."""
    added = []
    for item in sorted(source.iterdir()):
        there = target / item.name
        if item.name in LEFTOVERS:
            continue
        if not there.exists():
            copy_item(item, there)
            added.append(str(item.relative_to(course)))
        elif item.is_dir() and there.is_dir():
            added += _add_missing(item, there, course)
    return added


def resolve_notebook(name: str, course: Path = COURSE) -> Path:
    """The course notebook a learner means by ``name``: a file name, a stem or its number."""
    notebooks = course_notebooks(course)
    wanted = Path(name).name.removesuffix(".ipynb")
    exact = [path for path in notebooks if path.stem == wanted]
    matches = exact or [path for path in notebooks if wanted and path.stem.startswith(wanted)]
    if len(matches) == 1:
        return matches[0]
    names = ", ".join(path.stem for path in notebooks)
    problem = "matches several notebooks" if matches else "is not a course notebook"
    raise InputError(repr(name), problem, f"name one of {names}")


@dataclass(frozen=True)
class Reset:
    """One notebook restored from the course; ``backup`` holds the learner's version, if any."""

    notebook: Path
    backup: Path | None


def reset(
    names: Iterable[str], course: Path = COURSE, work: Path = WORK, now: datetime | None = None
) -> list[Reset]:
    """Restore notebooks in the working copy from the course, backing up the learner's."""
    chosen = [resolve_notebook(name, course) for name in names]
    if not work.is_dir():
        prepare_work(course, work)
    stamp = (now or datetime.now(UTC)).strftime("%Y-%m-%dT%H-%M-%S")
    done = []
    for original in chosen:
        target = work / original.name
        fresh = cleared(read_notebook(original))
        backup = None
        if target.exists() and _notebook_or_none(target) != fresh:
            backup = _free_name(work / BACKUPS, f"{original.stem}.{stamp}", ".ipynb")
            target.replace(backup)
        write_notebook(target, fresh)
        done.append(Reset(target, backup))
    return done


def reset_module(work: Path = WORK, now: datetime | None = None) -> Path | None:
    """Move the learner's ``my_hooks.py`` into the backups (the checks start it afresh);
    the backup, or None when there was none."""
    kept = work / MY_HOOKS
    if not kept.is_file():
        return None
    stamp = (now or datetime.now(UTC)).strftime("%Y-%m-%dT%H-%M-%S")
    backup = _free_name(work / BACKUPS, f"my_hooks.{stamp}", ".py")
    kept.replace(backup)
    return backup


def _notebook_or_none(path: Path) -> Notebook | None:
    try:
        return read_notebook(path)
    except InputError:  # the learner's file is broken: back it up all the same
        return None


def _free_name(folder: Path, stem: str, suffix: str) -> Path:
    """``folder/stem.suffix``, or ``stem-2.suffix`` and so on: never an existing file."""
    folder.mkdir(exist_ok=True)
    candidate, number = folder / f"{stem}{suffix}", 1
    while candidate.exists():
        number += 1
        candidate = folder / f"{stem}-{number}{suffix}"
    return candidate
