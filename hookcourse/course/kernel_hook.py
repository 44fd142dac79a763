"""One line instead of a traceback when a check cell runs before its exercise cell.

After a kernel restart a learner often runs the check cell alone; the exercise function
is then undefined and Python's answer is a ``NameError`` traceback. In an IPython kernel
the first import of the course (``exercises``, the labs) installs a handler for
``NameError`` that, for an exercise's own name, says in one line which cell to run
first; any other ``NameError`` keeps IPython's usual traceback.
"""

from __future__ import annotations

import sys
from typing import Any

from hookcourse.kernel_exceptions import add_handler


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


def _on_name_error(
    shell: Any, kind: type[BaseException], error: BaseException, tb: Any, tb_offset: Any = None
) -> Any:
    """IPython's custom exception handler: it shows what it returns itself."""
    said = missing_exercise(getattr(error, "name", None) or "")
    if said is None:
        shell.showtraceback((kind, error, tb), tb_offset=tb_offset)
        return None
    lines = [f"\x1b[31m{said}\x1b[0m"]
    shell._showtraceback(kind, error, lines)
    return lines


def install() -> bool:
    """Install the handler in the running IPython shell, once; False outside IPython."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None:
        return False
    if getattr(shell, "_hookcourse_name_hook", False):
        return True
    add_handler(shell, NameError, _on_name_error)
    shell._hookcourse_name_hook = True
    return True
