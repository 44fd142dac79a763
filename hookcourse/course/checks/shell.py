"""How a POSIX shell reads an exit code: the reading notebook 00 sets beside Claude Code's.

On the desktop the shell is asked itself, as a real process. In the browser there are
no processes, so the answer comes from the POSIX rule the shell follows (``a && b`` runs
``b`` only when ``a`` exits 0); tests/lite compares the two for every code.
"""

from __future__ import annotations

from typing import Final

from hookcourse import browser
from hookcourse.system.processes import run

TIMEOUT_S: Final = 10.0

GOES_ON = "goes-on"


def and_goes_on(code: int) -> bool:
    """Whether ``sh`` runs what follows ``&&`` after a command that exits ``code`` (0-255)."""
    if not 0 <= code <= 255:
        raise ValueError(f"an exit code is 0 to 255, not {code}")
    if browser.IN_BROWSER:
        return code == 0  # POSIX: an AND list runs its next command only after exit 0
    done = run(["sh", "-c", f"(exit {code}) && echo {GOES_ON}"], timeout_s=TIMEOUT_S)
    if done.timed_out:
        raise TimeoutError(f"sh did not answer within {TIMEOUT_S:g} s")
    return done.text().stdout.strip() == GOES_ON
