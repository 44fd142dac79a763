"""The CLI stays lean: the engine is imported by the subcommand that needs it."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("asyncio", "urllib.request", "hookcourse.engine.runner", "hookcourse.engine.firing")


def imported_after(statement: str) -> set[str]:
    """Which HEAVY modules are loaded after running `statement` in a fresh interpreter."""
    loaded = f"' '.join(m for m in {HEAVY!r} if m in sys.modules)"
    probe = f"import sys\n{statement}\nprint({loaded}, file=sys.stderr)"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    return set(done.stderr.split())


@pytest.mark.parametrize(
    "statement",
    [
        "import hookcourse.cli",
        "from hookcourse.cli import main; main(['events'])",
        "from hookcourse.cli import main; main(['events', 'Stop'])",
    ],
)
def test_importing_the_cli_and_listing_events_leave_the_runner_unloaded(statement: str) -> None:
    assert imported_after(statement) == set()
