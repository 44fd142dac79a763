"""The JavaScript oracle (tests/oracle/program.mjs): its batch mode.

The oracle's command table (tests/oracle/stages.mjs) and stage list (stages.json) are
written from the stage folders by ``python -m hookcourse.dev update``; node reads them as
files because the oracle imports nothing of Python's.
"""

from __future__ import annotations

import json
import subprocess
from typing import Any

import pytest

from tests.support.paths import ORACLE_PROGRAM


def oracle_batch(command: list[str], request: str, timeout: float = 300) -> Any:
    """The oracle's answer to one batch REQUEST (see program.mjs), in one process."""
    done = subprocess.run(
        [*command, str(ORACLE_PROGRAM), "batch"],
        input=request.encode("utf-8"),
        capture_output=True,
        timeout=timeout,
        check=False,
    )
    if done.returncode != 0:
        pytest.fail(f"oracle {command} failed ({done.returncode}): {done.stderr.decode()[-2000:]}")
    return json.loads(done.stdout.decode("utf-8"))
