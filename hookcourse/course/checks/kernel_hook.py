"""One line instead of a traceback when a cell runs before the cell that defines a name.

After a kernel restart a learner often runs a cell alone: a check cell whose exercise
function is undefined, or a cell that drives a lab made further up. Python's answer
is a ``NameError`` traceback. In an IPython kernel the course installs a handler for
``NameError`` (at the kernel's start under the course's Jupyter server, else at the
first import of the course: ``exercises``, the labs) that says in one line which cell
to run first: for a name a cell of the open notebook defines (``lab = answer_lab()``,
08's ``match_hook, ... = mine(...)``), that cell, together with every
other cell the running cell needs and the kernel lacks (and what those need in turn), so
one try names them all, top to bottom; for an exercise's own name no cell of it defines,
the exercise cell in its notebook. A check or ``try_calls`` whose function meets such a
name says the same line (``cell_to_run``). Any other ``NameError`` keeps IPython's usual
traceback.
"""

from __future__ import annotations

import ast
import builtins
import json
import sys
from collections.abc import Collection
from pathlib import Path
from typing import Any

from hookcourse.kernel_exceptions import add_handler

# The notebook a kernel runs for: ipykernel puts the path here (from the server's
# JPY_SESSION_NAME).
SESSION_NAME = "__session__"
_BUILTINS = frozenset(dir(builtins))


def missing_exercise(name: str) -> str | None:
    """The line for an undefined exercise function ``name``, or None when it is not one."""
    from hookcourse.stages.registry import exercise_named

    exercise = exercise_named(name)
    if exercise is None:
        return None
    return (
        f"{name} is not defined yet (after a restart the kernel forgets it): run the "
        f"exercise cell that starts with `def {name}` in {exercise.notebook}, then this "
        "cell again."
    )


def _binds(statement: ast.stmt, name: str) -> bool:
    """Whether a top-level statement of a cell defines ``name``."""
    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return statement.name == name
    if isinstance(statement, ast.Import | ast.ImportFrom):
        return any((alias.asname or alias.name.split(".")[0]) == name for alias in statement.names)
    targets: list[ast.expr] = []
    if isinstance(statement, ast.Assign):
        targets = statement.targets
    elif isinstance(statement, ast.AnnAssign | ast.AugAssign | ast.For):
        targets = [statement.target]
    elif isinstance(statement, ast.With):
        targets = [item.optional_vars for item in statement.items if item.optional_vars]
    return any(
        isinstance(node, ast.Name) and node.id == name
        for target in targets
        for node in ast.walk(target)
    )


def defining_line(notebook: dict[str, Any], name: str, running: str = "") -> str | None:
    """The line that defines ``name`` in the first code cell of ``notebook`` that does,
    other than the cell now ``running``; None when no cell does."""
    for cell in notebook.get("cells", []):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        text = cell.get("source", "")
        text = "".join(text) if isinstance(text, list) else str(text)
        if running.strip() and text.strip() == running.strip():
            continue
        try:
            tree = ast.parse(text)
        except SyntaxError:  # a magic, or the learner's half-typed cell
            continue
        for statement in tree.body:
            if _binds(statement, name):
                return text.splitlines()[statement.lineno - 1].strip()
    return None


def missing_name(name: str, notebook: dict[str, Any], running: str = "") -> str | None:
    """The line for ``name``, undefined but defined by another cell of ``notebook``."""
    return missing_cells(name, notebook, running, set())


def _code_cells(notebook: dict[str, Any], running: str) -> list[str]:
    """The code cells' sources, in order, without the one now ``running``."""
    found = []
    for cell in notebook.get("cells", []):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        text = cell.get("source", "")
        text = "".join(text) if isinstance(text, list) else str(text)
        if not (running.strip() and text.strip() == running.strip()):
            found.append(text)
    return found


def needs(text: str) -> list[str]:
    """The names a cell reads but does not bind itself, in the order it reads them."""
    try:
        tree = ast.parse(text)
    except SyntaxError:  # a magic, or the learner's half-typed cell
        return []
    bound = {
        node.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load)
    }
    bound |= {node.arg for node in ast.walk(tree) if isinstance(node, ast.arg)}
    bound |= {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    }
    bound |= {
        (alias.asname or alias.name.split(".")[0])
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    read = [
        node.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
    ]
    return [name for name in dict.fromkeys(read) if name not in bound and name not in _BUILTINS]


def _first_binding(cells: list[str], name: str) -> tuple[int, str] | None:
    """The index of the first cell that binds ``name`` at its top level, and that line."""
    for index, text in enumerate(cells):
        line = defining_line({"cells": [{"cell_type": "code", "source": text}]}, name)
        if line is not None:
            return index, line
    return None


def missing_cells(
    name: str, notebook: dict[str, Any], running: str = "", defined: Collection[str] = ()
) -> str | None:
    """One line naming every cell to run before ``running``: the cell that defines the
    undefined ``name``, the cells that define the other names ``running`` reads and the
    kernel lacks (``defined`` holds what it has), and what those cells need in turn;
    None when no other cell of ``notebook`` defines ``name``."""
    cells = _code_cells(notebook, running)
    if _first_binding(cells, name) is None:
        return None
    wanted: dict[int, str] = {}  # cell index -> its defining line
    names: dict[str, None] = {}
    pending = [name, *needs(running)]
    while pending:
        needed = pending.pop(0)
        if needed in defined or needed in names:
            continue
        found = _first_binding(cells, needed)
        if found is None:  # no cell defines it: not this line's business
            continue
        names[needed] = None
        index, line = found
        if index not in wanted:
            wanted[index] = line
            pending += needs(cells[index])
    return _run_first(list(names), [wanted[index] for index in sorted(wanted)])


def _run_first(names: list[str], lines: list[str]) -> str:
    """The one line: which names are missing, and the cells to run, top to bottom."""
    if len(names) == 1:
        missing = f"{names[0]} is not defined yet (after a restart the kernel forgets it)"
    else:
        listed = ", ".join(names[:-1]) + f" and {names[-1]}"
        missing = f"{listed} are not defined yet (after a restart the kernel forgets them)"
    if len(lines) == 1:
        return f"{missing}: run the cell with `{lines[0]}` first, then this cell again."
    cells = "; ".join(f"the cell with `{line}`" for line in lines)
    return (
        f"{missing}: run these {len(lines)} cells first, top to bottom, then this cell "
        f"again: {cells}."
    )


def _open_notebook(shell: Any) -> dict[str, Any] | None:
    """The notebook this kernel runs for, as saved; None outside a Jupyter session."""
    path = shell.user_ns.get(SESSION_NAME)
    if not isinstance(path, str) or not path.endswith(".ipynb"):
        return None
    try:
        loaded = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    return loaded if isinstance(loaded, dict) else None


def _in_open_notebook(shell: Any, name: str) -> str | None:
    """The line for ``name`` when a cell of the notebook ``shell`` runs for defines it."""
    notebook = _open_notebook(shell)
    if notebook is None:
        return None
    history = shell.user_ns.get("_ih") or [""]
    return missing_cells(name, notebook, str(history[-1]), shell.user_ns)


def _said(shell: Any, name: str) -> str | None:
    # The open notebook first: 08 binds the earlier exercises' names itself (`mine(...)`),
    # and its cell is the one to run, not the exercise in another notebook.
    said = _in_open_notebook(shell, name)
    return said if said is not None else missing_exercise(name)


def _running_shell() -> Any:
    """The running IPython shell, or None (IPython not imported: no kernel, no console)."""
    ipython = sys.modules.get("IPython")
    return ipython.get_ipython() if ipython is not None else None


def say_in_notebook(text: str) -> None:
    """Show ``text`` in the running cell's output at once, before a long wait; nothing
    outside a notebook kernel, where stdout belongs to the caller (a script, a probe)."""
    shell = _running_shell()
    if shell is not None and getattr(shell, "kernel", None) is not None:
        print(text, flush=True)


def cell_to_run(name: str) -> str | None:
    """The one line for ``name``, undefined in a learner's function that a check or
    ``try_calls`` ran, when a cell of the open notebook defines it; None outside a
    notebook kernel or when no cell does."""
    shell = _running_shell()
    if shell is None or not name:
        return None
    return _in_open_notebook(shell, name)


def _on_name_error(
    shell: Any, kind: type[BaseException], error: BaseException, tb: Any, tb_offset: Any = None
) -> Any:
    """IPython's custom exception handler: it shows what it returns itself."""
    said = _said(shell, getattr(error, "name", None) or "")
    if said is None:
        shell.showtraceback((kind, error, tb), tb_offset=tb_offset)
        return None
    lines = [f"\x1b[31m{said}\x1b[0m"]
    shell._showtraceback(kind, error, lines)
    return lines


def install() -> bool:
    """Install the handler in the running IPython shell, once; False outside IPython."""
    shell = _running_shell()
    if shell is None:
        return False
    if getattr(shell, "_hookcourse_name_hook", False):
        return True
    add_handler(shell, NameError, _on_name_error)
    shell._hookcourse_name_hook = True
    return True
