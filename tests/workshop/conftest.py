"""Fixtures for the workshop kit: a small course folder and learners' working copies."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support.paths import ROOT


@pytest.fixture
def course(tmp_path: Path) -> Path:
    """A copy of the course's notebooks folder (notebooks, data, hook scripts)."""
    target = tmp_path / "notebooks"
    shutil.copytree(ROOT / "notebooks", target, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    return target
