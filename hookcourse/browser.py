"""Where hookcourse runs: a desktop Python, or Pyodide in a browser (the JupyterLite site).

In the browser there are no processes: code that runs hook scripts or handlers calls
``require_desktop`` first, and the learner reads one plain paragraph, not a traceback.
The kernel prints that paragraph and reports no error, so Run All goes on past it.
"""

from __future__ import annotations

import sys
from typing import Any

from hookcourse.kernel_exceptions import add_handler

IN_BROWSER = sys.platform == "emscripten"
DESKTOP_INSTALL = "scripts/lab.sh in a clone of the course, with Python 3.11+"


class NeedsDesktop(Exception):
    """This part runs real processes, which a browser cannot start."""

    def __init__(self, what: str, would_show: str) -> None:
        super().__init__(
            f"In the browser, {what} cannot run: it needs real processes, so it needs the "
            f"desktop install ({DESKTOP_INSTALL}). There it shows {would_show}."
        )

    def _render_traceback_(self) -> list[str]:
        """IPython shows these lines in place of a traceback."""
        return [str(self)]


def require_desktop(what: str, would_show: str) -> None:
    """Raise NeedsDesktop in the browser; do nothing on the desktop."""
    if IN_BROWSER:
        raise NeedsDesktop(what, would_show)


def _say_needs_desktop(
    shell: object, etype: type, value: BaseException, tb: object, tb_offset: object = None
) -> None:
    print(value, file=sys.stderr)


def show_needs_desktop_as_a_paragraph(shell: Any) -> None:
    """Make IPython ``shell`` print a NeedsDesktop on stderr instead of reporting an error.

    JupyterLite's Run All stops at the first cell whose reply is an error, whatever the
    cell's ``raises-exception`` tag says; a cell that only says it needs the desktop must
    let the rest of the notebook run.
    """
    add_handler(shell, NeedsDesktop, _say_needs_desktop)


if IN_BROWSER:
    try:  # the JupyterLite kernel has IPython; plain Pyodide (under node) has not
        from IPython import get_ipython
    except ImportError:
        pass
    else:
        if (kernel_shell := get_ipython()) is not None:
            show_needs_desktop_as_a_paragraph(kernel_shell)
