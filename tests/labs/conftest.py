"""Fixtures for the labs, exercises and notebook tests.

``write_stage`` writes a real fixture folder whose ``expected.json`` is what the
course's JavaScript reference prints under node (``tests/oracle/program.mjs``),
so no expected result in these tests is typed by hand.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from hookcourse.stages.registry import STAGES
from tests.support.paths import ROOT
from tests.support.runtimes import node_binary

ORACLE = ROOT / "tests" / "oracle" / "program.mjs"
COMMANDS = {stage.slug: stage.command for stage in STAGES}

WriteStage = Callable[[str, dict[str, object]], Path]


def oracle_expected(stage: str, case_file: Path) -> str:
    """What the JavaScript reference prints for a fixture of ``stage``."""
    run = subprocess.run(
        [node_binary(), str(ORACLE), COMMANDS[stage], str(case_file)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return run.stdout


@pytest.fixture
def repo_root() -> Path:
    """The checkout's root folder."""
    return ROOT


@pytest.fixture
def write_stage(tmp_path: Path) -> WriteStage:
    """Write ``fixtures/<stage>/case.json`` (+ oracle ``expected.json``); returns the root."""

    def write(stage: str, case: dict[str, object]) -> Path:
        folder = tmp_path / "fixtures" / stage
        folder.mkdir(parents=True, exist_ok=True)
        case_file = folder / "case.json"
        case_file.write_text(json.dumps(case), encoding="utf-8")
        (folder / "expected.json").write_text(oracle_expected(stage, case_file), encoding="utf-8")
        return tmp_path / "fixtures"

    return write
