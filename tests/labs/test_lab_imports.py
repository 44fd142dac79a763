"""The labs reach the engine through its one entry, and the checks load no lab code.

Every module under ``hookcourse/course/labs/`` may import ``hookcourse.engine.api`` and
nothing else of the engine (issue 19): the entry re-exports what the labs need, so the
engine's modules can move without touching a lab.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.engine_imports import ENTRY, engine_imports
from tests.support.paths import ROOT

LABS = ROOT / "hookcourse" / "course" / "labs"


def test_engine_imports_sees_every_form(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import hookcourse.engine.reading\n"
        "from hookcourse.engine.outcome import merge_readings\n"
        "from hookcourse import engine\n"
        "from ...engine import plan\n"
        "def late():\n"
        "    from hookcourse.engine.api import fire\n",
        encoding="utf-8",
    )
    assert engine_imports(sample, "hookcourse.course.labs") == [
        (1, "hookcourse.engine.reading"),
        (2, "hookcourse.engine.outcome"),
        (3, "hookcourse.engine"),
        (4, "hookcourse.engine"),
        (6, ENTRY),
    ]


@pytest.mark.parametrize("path", sorted(LABS.glob("*.py")), ids=lambda path: path.name)
def test_a_lab_imports_only_the_engine_entry(path: Path) -> None:
    found = engine_imports(path, "hookcourse.course.labs")
    others = [f"line {line}: {name}" for line, name in found if name != ENTRY]
    assert not others, (
        f"{path.relative_to(ROOT)} imports engine modules other than {ENTRY}: "
        + ", ".join(others)
        + f"; re-export what it needs from {ENTRY}"
    )


def test_the_checks_load_no_lab_and_no_engine_code() -> None:
    probe = (
        "import sys, hookcourse.course.checks.exercises\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith("
        "('hookcourse.course.labs', 'hookcourse.engine')))))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    assert loaded == []
