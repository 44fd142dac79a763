"""Run one hook script as Claude Code does: a real process, the event's JSON on stdin.

Notebook 00 runs its example hooks this way. In the browser there are no processes,
so it says what the desktop install would show instead of failing with a traceback.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hookcourse.browser import require_desktop


def run_hook_script(script: str | Path, stdin_text: str) -> subprocess.CompletedProcess[str]:
    """Run the Python hook ``script`` with ``stdin_text`` on stdin; its exit code and output."""
    require_desktop(
        f"the hook script {Path(script).name}",
        "its exit code, stderr and stdout",
    )
    return subprocess.run(
        [sys.executable, str(script)],
        input=stdin_text,
        capture_output=True,
        text=True,
        check=False,
    )
