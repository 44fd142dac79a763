"""Colours come from one palette (course/checks/check_report.py's PALETTE), never typed in place."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.paths import ROOT

COURSE = ROOT / "hookcourse" / "course"
COLOUR = re.compile(r"#[0-9a-fA-F]{6}\b|#[0-9a-fA-F]{3}\b(?![\w-])|\brgba?\(")
# check_report.py holds the palette; report.py is the class report's own page (a table's
# cell backgrounds, no check states), outside the check renderer.
OWN_COLOURS = {"check_report.py", "report.py"}
MODULES = sorted(p for p in COURSE.rglob("*.py") if p.name not in OWN_COLOURS)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(COURSE)))
def test_no_colour_is_typed_outside_the_palette(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    found = [m.group(0) for m in COLOUR.finditer(text)]
    assert not found, f"{path.relative_to(ROOT)} types colours {found}: use check_report.PALETTE"
