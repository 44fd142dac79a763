"""Fixtures shared by more than one test folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.wheel import installed_wheel


@pytest.fixture(scope="session")
def wheel_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv, outside the checkout, with the wheel built from this repository: one
    build per run, shared by the pytest-xdist workers (their temp folders' parent)."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    return installed_wheel(shared)
