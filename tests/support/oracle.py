"""The JavaScript oracle (tests/oracle/program.mjs): its stage list and its batch mode.

The oracle's stage list, tests/oracle/stages.json, is written from the registry
(``write_stage_list``) and checked against it; node reads it as a file because the
oracle imports nothing of Python's.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from hookcourse.stages.registry import STAGES
from tests.support.paths import ORACLE_DIR, ORACLE_PROGRAM

STAGE_LIST = ORACLE_DIR / "stages.json"


def stage_list_text() -> str:
    """tests/oracle/stages.json as the registry says it: slug -> command, in course order."""
    return json.dumps({stage.slug: stage.command for stage in STAGES}) + "\n"


def write_stage_list() -> None:
    """Write tests/oracle/stages.json from the registry."""
    STAGE_LIST.write_text(stage_list_text(), encoding="utf-8")


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


if __name__ == "__main__":  # python -m tests.support.oracle: rewrite the stage list
    write_stage_list()
    sys.stdout.write(f"wrote {STAGE_LIST}\n")
