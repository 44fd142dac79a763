"""Run one hook script as Claude Code does: the event's JSON on stdin, then its exit code,
stdout and stderr.

Notebook 00 runs its example hooks this way. On the desktop each one is a real process,
through the one process runner (its own process group, a time limit, killed with
everything it started). In the browser (Pyodide) there are no processes, and the
course's hooks are plain Python: the script runs inside the kernel instead, with its
stdin, stdout and stderr swapped for text (``labs.kernel_script``, which 07's guard
uses too), so both give the same answers.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Final

from hookcourse import browser
from hookcourse.course.labs.kernel_script import run_in_kernel
from hookcourse.system.processes import TextRun, run

TIMEOUT_S: Final = 30.0


def run_in_process(script: str | Path, stdin_text: str) -> TextRun:
    """Run the Python hook ``script`` inside this interpreter, as ``python script`` would:
    its exit code and output as text (no time limit: for the course's own short hooks)."""
    done = run_in_kernel(Path(script), stdin_text)
    if done.exit_code is None:  # the script could not be read: python3 says so, exit 2
        return TextRun(2, "", f"python3: can't open file {done.start_error}\n")
    return TextRun(done.exit_code, done.stdout, done.stderr)


def run_hook_script(script: str | Path, stdin_text: str) -> TextRun:
    """Run the Python hook ``script`` with ``stdin_text`` on stdin; its exit code and output.

    Raises TimeoutError when it runs past TIMEOUT_S (it is killed first). In the browser
    it runs in the kernel (``run_in_process``).
    """
    if browser.IN_BROWSER:
        return run_in_process(script, stdin_text)
    done = run(
        [sys.executable, str(script)],
        stdin=stdin_text.encode("utf-8", "surrogatepass"),
        timeout_s=TIMEOUT_S,
    )
    if done.timed_out:
        raise TimeoutError(f"the hook script {script} ran past {TIMEOUT_S:g} s and was killed")
    return done.text()
