"""Run one hook script as Claude Code does: a real process, the event's JSON on stdin.

Notebook 00 runs its example hooks this way, through the one process runner (its own
process group, a time limit, killed with everything it started). In the browser there
are no processes, so it says what the desktop install would show instead of failing
with a traceback.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Final

from hookcourse.browser import require_desktop
from hookcourse.engine.processes import TextRun, run

TIMEOUT_S: Final = 30.0


def run_hook_script(script: str | Path, stdin_text: str) -> TextRun:
    """Run the Python hook ``script`` with ``stdin_text`` on stdin; its exit code and output.

    Raises TimeoutError when it runs past TIMEOUT_S (it is killed first).
    """
    require_desktop(
        f"the hook script {Path(script).name}",
        "its exit code, stderr and stdout",
    )
    done = run(
        [sys.executable, str(script)],
        stdin=stdin_text.encode("utf-8", "surrogatepass"),
        timeout_s=TIMEOUT_S,
    )
    if done.timed_out:
        raise TimeoutError(f"the hook script {script} ran past {TIMEOUT_S:g} s and was killed")
    return done.text()
