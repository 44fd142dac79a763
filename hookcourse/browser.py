"""Where hookcourse runs: a desktop Python, or Pyodide in a browser (the JupyterLite site).

In the browser there are no processes: code that runs hook scripts or handlers calls
``require_desktop`` first, and the learner reads one plain paragraph, not a traceback.
"""

from __future__ import annotations

import sys

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
