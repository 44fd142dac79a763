"""One process package: only ``hookcourse/system/`` starts processes, and it knows no domain.

Every process the package starts goes through ``system/processes.py`` (its own session,
output caps, the group killed at the limit and on a signal), so nothing else may import
``subprocess``/``multiprocessing`` or call ``os.fork``, ``os.exec*``, ``os.spawn*``,
``os.posix_spawn``, ``os.system``, ``pty.fork`` or ``asyncio.create_subprocess_*``; a forked
child for bounded work is ``processes.call_in_child``. An exception would be listed below
with its reason; there is none.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.entry.test_imports import package_files
from tests.support.paths import ROOT

PACKAGE = ROOT / "hookcourse"
SYSTEM = PACKAGE / "system"
MODULES = frozenset({"subprocess", "multiprocessing", "pty", "_posixsubprocess"})
CALLS = frozenset({"fork", "forkpty", "system", "posix_spawn", "posix_spawnp"})
CALL_PREFIXES = ("exec", "spawn", "create_subprocess")
EXCEPTIONS: dict[str, list[str]] = {}  # path -> what it uses, with the reason beside it


def process_starts(path: Path) -> list[str]:
    """What ``path`` uses to start a process: a module it imports or a call it makes."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.partition(".")[0] in MODULES]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.partition(".")[0] in MODULES:
                found.append(node.module)
            elif node.module in ("os", "asyncio"):
                found += [f"{node.module}.{a.name}" for a in node.names if _starts(a.name)]
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in ("os", "asyncio", "pty")
            and _starts(node.attr)
        ):
            found.append(f"{node.value.id}.{node.attr}")
    return found


def _starts(name: str) -> bool:
    return name in CALLS or name.startswith(CALL_PREFIXES)


def test_process_starts_sees_every_form(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import subprocess\nfrom os import fork\nimport os, asyncio\n"
        "os.execvp('x', ['x'])\nasyncio.create_subprocess_exec('x')\nos.getpid()\n",
        encoding="utf-8",
    )
    found = process_starts(sample)
    assert found == ["subprocess", "os.fork", "os.execvp", "asyncio.create_subprocess_exec"]


def test_only_system_starts_processes() -> None:
    starts = {
        str(path.relative_to(ROOT)): found
        for path in package_files()
        if SYSTEM not in path.parents
        and not {"fixtures", "data"} & set(path.relative_to(PACKAGE).parts)
        if (found := process_starts(path))
    }
    assert starts == EXCEPTIONS


def test_system_knows_no_domain() -> None:
    """system/ imports nothing of hookcourse but errors.py and itself."""
    outside = []
    for path in sorted(SYSTEM.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                module = node.module
            elif isinstance(node, ast.Import):
                module = node.names[0].name
            else:
                continue
            if module.startswith("hookcourse") and not module.startswith(
                ("hookcourse.system", "hookcourse.errors")
            ):
                outside.append(f"{path.name}: {module}")
    assert outside == []
