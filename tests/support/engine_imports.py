"""Which engine modules a source file imports, for the tests that hold code to the front door."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from tests.support.paths import ROOT

ENTRY = "hookcourse.engine.api"
"""The engine's front door."""


def engine_imports(path: Path, package: str) -> list[tuple[int, str]]:
    """Every engine module ``path`` (a module of ``package``) imports, at any depth, with
    its line."""
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


def modules_loaded_after(statement: str) -> set[str]:
    """Every module a fresh interpreter holds after running ``statement``."""
    probe = f"import sys\n{statement}\nprint(' '.join(sys.modules), file=sys.stderr)"
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return set(done.stderr.split())
