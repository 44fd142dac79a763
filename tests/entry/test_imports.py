"""hookcourse's import graph has no loop, and no module of ``course/`` outgrows one idea.

The graph counts every import a module can run: at module level and inside functions
(a late import still ties two modules together; it only hides the loop until a call).
Imports under ``if TYPE_CHECKING:`` are left out: they never run.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterator
from pathlib import Path

from tests.support.paths import ROOT

PACKAGE = ROOT / "hookcourse"
COURSE_LIMIT = 400  # lines; a course module longer than this holds more than one idea


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def package_files() -> list[Path]:
    """Every module of the package; the data folders (fixtures, starters) left unwalked."""
    found = []
    for folder, subfolders, names in os.walk(PACKAGE):
        subfolders[:] = [name for name in subfolders if name not in ("fixtures", "data")]
        found += [Path(folder) / name for name in names if name.endswith(".py")]
    return sorted(found)


def package_modules() -> dict[str, Path]:
    return {module_name(path): path for path in package_files()}


def _runtime_imports(statements: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement at any depth of ``statements`` (imports are statements, so
    only statement bodies are walked), except in the bodies of ``if TYPE_CHECKING:``."""
    for node in statements:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from _runtime_imports(node.orelse)
        else:
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                for child in getattr(node, field, ()):
                    yield from _runtime_imports(
                        [child] if isinstance(child, ast.stmt) else child.body
                    )


def imported_names(name: str, path: Path) -> set[str]:
    """The dotted names ``path`` imports (a ``from X import Y`` gives ``X`` and ``X.Y``)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"), str(path)).body):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports (an empty package ``__init__`` is no edge)."""
    modules = package_modules()
    return {
        name: {target for target in imported_names(name, path) if target in modules} - {name}
        for name, path in modules.items()
    }


def loops(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_loops_finds_a_loop_through_a_late_import(tmp_path: Path) -> None:
    a = tmp_path / "a.py"
    a.write_text("from pkg import b\n", encoding="utf-8")
    b = tmp_path / "b.py"
    b.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from pkg import c\n"
        "def late():\n    from pkg.a import x\n",
        encoding="utf-8",
    )
    c = tmp_path / "c.py"
    c.write_text("import pkg.a\n", encoding="utf-8")
    graph = {
        name: {t for t in imported_names(f"pkg.{name}", path) if t in {"pkg.a", "pkg.b", "pkg.c"}}
        for name, path in (("a", a), ("b", b), ("c", c))
    }
    renamed = {f"pkg.{name}": targets for name, targets in graph.items()}
    assert renamed == {"pkg.a": {"pkg.b"}, "pkg.b": {"pkg.a"}, "pkg.c": {"pkg.a"}}
    assert loops(renamed) == [["pkg.a", "pkg.b"]]


def test_no_import_loop() -> None:
    assert loops(import_graph()) == []


def test_no_course_module_over_the_limit() -> None:
    course = PACKAGE / "course"
    long = {
        str(path.relative_to(ROOT)): lines
        for path in sorted(course.rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > COURSE_LIMIT
    }
    assert long == {}


def test_course_is_four_rooms_and_the_notebook_facade() -> None:
    """``course/`` holds its rooms by audience and the notebooks' façade, nothing else; each
    room's ``__init__`` is empty, so importing one module of a room loads only what it names
    (the grader's cold path passes through ``grading/``)."""
    course = PACKAGE / "course"
    top = sorted(p.name for p in course.iterdir() if p.name != "__pycache__")
    assert top == ["__init__.py", "checks", "grading", "labs", "notebook.py", "teaching"]
    filled = [
        str(init.relative_to(ROOT))
        for init in sorted([course / "__init__.py", *course.glob("*/__init__.py")])
        if any(not _docstring(node) for node in ast.parse(init.read_text(encoding="utf-8")).body)
    ]
    assert filled == []


def _docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
