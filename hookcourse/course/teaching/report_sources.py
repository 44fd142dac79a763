"""Where the class report's progress files come from: globs, folders searched a few levels
deep (a hub's home folders), each file read line by line; a file that cannot be read, or
is not a progress file, costs one warning line and nothing else.
"""

from __future__ import annotations

import glob
import os
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from hookcourse.course.teaching.progress import FILE_NAME, Progress, parse_line

WORK_FOLDER_NAME: Final = "my-notebooks"
# How deep a folder is searched for progress files: a hub's /home holds
# <user>/my-notebooks/progress.jsonl, a collected class <learner>/progress.jsonl.
SEARCH_DEPTH: Final = 4
# Folders never searched: caches and packages, where no working copy lives.
NOT_SEARCHED: Final = frozenset({"node_modules", "__pycache__", "site-packages", "backups"})


@dataclass(frozen=True)
class Source:
    """One progress file and the learner its lines belong to unless a line names one."""

    path: Path
    learner: str


def _learner_from_file(path: Path) -> str:
    if path.name != FILE_NAME:
        return path.stem
    parent = path.resolve().parent
    return parent.parent.name if parent.name == WORK_FOLDER_NAME else parent.name


def _progress_files(folder: Path, warnings: list[str]) -> list[Path]:
    """Progress files under ``folder``, at most SEARCH_DEPTH levels down, skipping hidden
    folders and package trees; a subfolder that cannot be listed is one warning."""
    found: list[Path] = []

    def refused(error: OSError) -> None:
        warnings.append(f"{error.filename}: cannot be searched ({error.strerror}); skipped")

    for here, folders, files in os.walk(folder, onerror=refused):
        depth = len(Path(here).relative_to(folder).parts)
        folders[:] = sorted(
            name
            for name in folders
            if depth < SEARCH_DEPTH and not name.startswith(".") and name not in NOT_SEARCHED
        )
        if FILE_NAME in files and (Path(here) / FILE_NAME).is_file():
            found.append(Path(here) / FILE_NAME)
    return sorted(found)


def _folder_sources(path: Path, argument: str, warnings: list[str]) -> list[Source]:
    """A folder whose progress files sit in several subfolders is a class (each top
    subfolder a learner); otherwise the folder is one learner."""
    found = _progress_files(path, warnings)
    if not found:
        warnings.append(f"{argument}: no {FILE_NAME} in this folder; skipped")
        return []
    tops = {p.relative_to(path).parts[0] for p in found}
    several = len(tops) > 1 and all(len(p.relative_to(path).parts) > 1 for p in found)
    own = _learner_from_file(path / FILE_NAME)
    return [Source(f, f.relative_to(path).parts[0] if several else own) for f in found]


def _expanded(argument: str) -> list[str] | None:
    """A glob's matches (``/home/*/my-notebooks``), sorted; None when it is no glob."""
    if not glob.has_magic(argument):
        return None
    return sorted(glob.glob(os.path.expanduser(argument)))


def find_sources(arguments: Sequence[str]) -> tuple[list[Source], list[str]]:
    """The progress files named, matched by a glob or found under the folders named, and
    warnings. Each file is read once, however many arguments reach it."""
    sources: list[Source] = []
    warnings: list[str] = []
    for argument in arguments:
        matches = _expanded(argument)
        if matches == []:
            warnings.append(f"{argument}: matches no file or folder; skipped")
        for name in matches or [argument]:
            path = Path(name)
            if path.is_dir():
                sources += _folder_sources(path, name, warnings)
            elif path.exists():
                sources.append(Source(path, _learner_from_file(path)))
            elif matches is None:
                warnings.append(f"{argument}: no such file or folder; skipped")
    seen: set[Path] = set()
    unique = []
    for item in sources:
        where = item.path.resolve()
        if where not in seen:
            seen.add(where)
            unique.append(item)
    return unique, warnings


def read_sources(sources: Iterable[Source]) -> tuple[list[tuple[str, Progress]], list[str]]:
    """(learner, run) for every progress line, and one warning per file with a problem.

    A line names its learner (``$HOOKCOURSE_LEARNER``, ``$JUPYTERHUB_USER`` or the OS
    user); older lines without one take their folder's name. When one name comes from
    several learners' folders (everybody is ``root`` in their container), each is shown
    with its folder: ``root (ada)``.
    """
    named: list[tuple[str, str, Progress]] = []  # (name, folder's learner, run)
    warnings: list[str] = []
    for item in sources:
        try:
            text = item.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or "not UTF-8 text"
            warnings.append(f"{item.path}: cannot be read ({reason}); skipped")
            continue
        lines = [line for line in text.splitlines() if line.strip()]
        parsed = [parse_line(line) for line in lines]
        good = [run for run in parsed if run is not None]
        if lines and not good:
            warnings.append(f"{item.path}: not a hookcourse progress file; skipped")
            continue
        if len(good) < len(lines):
            bad = len(lines) - len(good)
            warnings.append(
                f"{item.path}: {bad} of {len(lines)} lines are not progress records; skipped those"
            )
        named += [(run.learner or item.learner, item.learner, run) for run in good]
    folders: defaultdict[str, set[str]] = defaultdict(set)
    for name, folder, _ in named:
        folders[name].add(folder)
    runs = [
        (f"{name} ({folder})" if len(folders[name]) > 1 and name != folder else name, run)
        for name, folder, run in named
    ]
    return runs, warnings
