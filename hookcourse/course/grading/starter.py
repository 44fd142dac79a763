"""``hookcourse init --lang ts|js|py DIR``: the course's stage skeleton in another language.

The starters are package data (``data/starters/<lang>/``): the functions every graded
stage asks for, each failing with "not implemented" until written, the adapter that
maps them over a case file for every grader command, and ``your_program.sh``. Files
already in DIR are never overwritten.
"""

from __future__ import annotations

import shlex
import shutil
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import Final

from hookcourse.errors import InputError, visible

LANGUAGES: Final = {"ts": "TypeScript", "js": "JavaScript", "py": "Python"}
NEXT_STEPS: Final = {
    "ts": "npm install && hookcourse test",
    "js": "hookcourse test",
    "py": "hookcourse test",
}
ENTRY: Final = "your_program.sh"


def starter_files(language: str) -> dict[str, Traversable]:
    """The starter's files by their path inside DIR."""
    root = resources.files("hookcourse").joinpath("data/starters", language)
    found: dict[str, Traversable] = {}

    def walk(folder: Traversable, prefix: str) -> None:
        for entry in folder.iterdir():
            if entry.name in ("__pycache__", "node_modules", ".hookcourse"):
                continue
            if entry.is_dir():
                walk(entry, f"{prefix}{entry.name}/")
            else:
                found[f"{prefix}{entry.name}"] = entry

    walk(root, "")
    return dict(sorted(found.items()))


def write_starter(language: str, folder: Path) -> list[str]:
    """Write the ``language`` starter into ``folder`` (made if missing); the files written."""
    if language not in LANGUAGES:
        raise InputError("--lang", f"{language!r} is not a starter", "pass ts, js or py")
    if folder.exists() and not folder.is_dir():
        raise InputError(str(folder), "it is not a folder", "pass a new or existing folder")
    files = starter_files(language)
    taken = [name for name in files if (folder / name).exists()]
    if taken:
        raise InputError(
            str(folder / taken[0]),
            "it exists already (hookcourse init never overwrites a file)",
            "pass a new folder, or move the file away",
        )
    try:
        for name, source in files.items():
            target = folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            with source.open("rb") as read, target.open("xb") as write:
                shutil.copyfileobj(read, write)
            if name == ENTRY:
                target.chmod(0o755)
    except OSError as error:
        where = error.filename or str(folder)
        raise InputError(
            where, f"it cannot be written ({error.strerror})", "pick a folder you may write to"
        ) from None
    return list(files)


def run_init(language: str, folder: Path) -> int:
    """The command: write the starter and say what to do next."""
    written = write_starter(language, folder)
    shown = shlex.quote(visible(str(folder)))  # as it can be typed back, controls escaped
    print(f"hookcourse init: a {LANGUAGES[language]} starter in {shown}: {', '.join(written)}")
    if language in ("ts", "js") and shutil.which("node") is None:
        print("hookcourse init: node is not on PATH; install Node.js 20 or later to run it")
    print(f"next: cd {shown} && {NEXT_STEPS[language]}")
    return 0
