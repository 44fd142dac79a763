"""How a POSIX shell reads an exit code: the reading notebook 00 sets beside Claude Code's.

The shell is asked itself, as a real process. In the browser there are no processes,
so it says what the desktop install would show instead of failing with a traceback.
"""

from __future__ import annotations

from typing import Final

from hookcourse.browser import require_desktop
from hookcourse.engine.processes import run

TIMEOUT_S: Final = 10.0

GOES_ON = "goes-on"


def and_goes_on(code: int) -> bool:
    """Whether ``sh`` runs what follows ``&&`` after a command that exits ``code`` (0-255)."""
    if not 0 <= code <= 255:
        raise ValueError(f"an exit code is 0 to 255, not {code}")
    require_desktop(
        "the shell sh",
        f"whether its && goes on after a command that exits {code} (a shell goes on only "
        "after exit 0, so 1 and 2 both stop it)",
    )
    done = run(["sh", "-c", f"(exit {code}) && echo {GOES_ON}"], timeout_s=TIMEOUT_S)
    if done.timed_out:
        raise TimeoutError(f"sh did not answer within {TIMEOUT_S:g} s")
    return done.text().stdout.strip() == GOES_ON
