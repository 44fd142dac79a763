"""The CLI stays lean: the engine is imported by the subcommand that needs it."""

from __future__ import annotations

import pytest

from tests.support.engine_imports import modules_loaded_after

HEAVY = ("asyncio", "urllib.request", "hookcourse.engine.runner", "hookcourse.engine.firing")


@pytest.mark.parametrize(
    "statement",
    [
        "import hookcourse.cli",
        "from hookcourse.cli import main; main(['events'])",
        "from hookcourse.cli import main; main(['events', 'Stop'])",
    ],
)
def test_importing_the_cli_and_listing_events_leave_the_runner_unloaded(statement: str) -> None:
    assert modules_loaded_after(statement) & set(HEAVY) == set()
