"""Where things are in the checkout, named once for every test."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
NOTEBOOKS = ROOT / "notebooks"
ORACLE_DIR = ROOT / "tests" / "oracle"
ORACLE_PROGRAM = ORACLE_DIR / "program.mjs"
PROGRAM = ROOT / "your_program.sh"
