"""The course's notebooks as files: where they are, read and written as plain JSON
(nbformat 4, no lab tools needed), a cell's source, outputs cleared.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Final

from hookcourse.errors import InputError

CHECKOUT: Final = Path(__file__).resolve().parents[3]
COURSE: Final = CHECKOUT / "notebooks"
WORK: Final = CHECKOUT / "my-notebooks"
MY_HOOKS: Final = "my_hooks.py"  # the learner's module (hookcourse.course.checks.learner_module)

Notebook = dict[str, Any]


# -- notebooks as JSON ---------------------------------------------------------------------------


def read_notebook(path: Path) -> Notebook:
    """A notebook's JSON; an unreadable or non-notebook file is an InputError naming it."""
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise InputError(str(path), f"cannot be read ({reason})", "check the file") from None
    except json.JSONDecodeError as error:
        raise InputError(
            str(path), f"is not a notebook (invalid JSON: {error})", "restore it from git"
        ) from None
    if not isinstance(loaded, dict) or not isinstance(loaded.get("cells"), list):
        raise InputError(str(path), "is not a notebook (no cell list)", "restore it from git")
    return loaded


def write_notebook(path: Path, notebook: Notebook) -> None:
    """Write as Jupyter does (one-space indent, a final newline), replacing atomically."""
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    partial.replace(path)


def cleared(notebook: Notebook) -> Notebook:
    """A copy with every output, execution count and stored widget state removed."""
    fresh = copy.deepcopy(notebook)
    for cell in fresh["cells"]:
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
    fresh.get("metadata", {}).pop("widgets", None)
    return fresh


def source(cell: dict[str, Any]) -> str:
    """A cell's source as one string (stored as a string or a list of lines)."""
    text = cell.get("source", "")
    return "".join(text) if isinstance(text, list) else str(text)


def course_notebooks(course: Path = COURSE) -> list[Path]:
    """The course's notebooks in course order (their names start with the number)."""
    found = sorted(course.glob("*.ipynb"))
    if not found:
        raise InputError(
            str(course), "holds no notebooks", "run this from a hookcourse checkout (git clone)"
        )
    return found
