"""The README's Python examples run and print what the README says they print."""

from __future__ import annotations

import doctest
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_examples() -> None:
    failures, attempted = doctest.testfile(str(README), module_relative=False)
    assert attempted > 10
    assert failures == 0
