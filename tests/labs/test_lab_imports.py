"""The labs reach the engine through its one entry, and the checks load no lab code.

Every module under ``hookcourse/course/labs/`` may import ``hookcourse.engine.api`` and
nothing else of the engine (issue 19): the entry re-exports what the labs need, so the
engine's modules can move without touching a lab.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import ROOT

LABS = ROOT / "hookcourse" / "course" / "labs"
ENTRY = "hookcourse.engine.api"


def engine_imports(path: Path) -> list[tuple[int, str]]:
    """Every engine module ``path`` imports, at any depth, with its line."""
    package = "hookcourse.course.labs"
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            # ``from hookcourse import engine`` / ``from hookcourse.engine import x`` name
            # modules in the import list.
            names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
            if base.startswith("hookcourse.engine"):
                names = [base]
        else:
            continue
        found.extend(
            (node.lineno, name)
            for name in names
            if name == "hookcourse.engine" or name.startswith("hookcourse.engine.")
        )
    return found


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
    assert engine_imports(sample) == [
        (1, "hookcourse.engine.reading"),
        (2, "hookcourse.engine.outcome"),
        (3, "hookcourse.engine"),
        (4, "hookcourse.engine"),
        (6, ENTRY),
    ]


@pytest.mark.parametrize("path", sorted(LABS.glob("*.py")), ids=lambda path: path.name)
def test_a_lab_imports_only_the_engine_entry(path: Path) -> None:
    others = [f"line {line}: {name}" for line, name in engine_imports(path) if name != ENTRY]
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
