"""docs/ARCHITECTURE.md names every module of the package, and only real ones."""

from __future__ import annotations

import fnmatch
import re

from tests.support.paths import ROOT

PAGE = ROOT / "docs" / "ARCHITECTURE.md"
ENTRY = re.compile(r"^(?P<indent> *)(?P<name>[\w.<>-]+/?)(?:\s{2,}(?P<text>.*))?$")


def _tree() -> tuple[dict[str, str], dict[str, str]]:
    """The page's layout block: module path -> its text, folder path -> the text of the
    folder's entry and its continuation lines (where a folder may name its modules)."""
    block = PAGE.read_text(encoding="utf-8").split("```\n", 2)[1]
    modules: dict[str, str] = {}
    folders: dict[str, str] = {}
    stack: list[tuple[int, str]] = []
    last_folder = ""
    for line in block.splitlines():
        match = ENTRY.match(line)
        if match is None or not match.group("name").endswith(("/", ".py")):
            if last_folder:  # a continuation line of the folder's text
                folders[last_folder] += " " + line.strip()
            continue
        indent = len(match.group("indent"))
        while stack and stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1][1] if stack else ""
        name = match.group("name")
        path = parent + name
        text = match.group("text") or ""
        if name.endswith("/"):
            stack.append((indent, path))
            folders[path] = text
            last_folder = path
        else:
            modules[path] = text
            last_folder = ""
    return modules, folders


def _real_modules() -> set[str]:
    package = ROOT / "hookcourse"
    return {
        str(path.relative_to(package.parent))
        for path in package.rglob("*.py")
        if path.name != "__init__.py" and "fixtures" not in path.parts and "data" not in path.parts
    }


def test_every_named_module_exists() -> None:
    modules, _folders = _tree()
    real = _real_modules()
    assert sorted(name for name in modules if name not in real) == []


def test_every_module_is_named() -> None:
    """Named as an entry, or in the text of a folder above it (a folder written
    ``<stage>/`` stands for each of its siblings' kind)."""
    modules, folders = _tree()
    unnamed = [m for m in sorted(_real_modules()) if m not in modules and not _in_text(m, folders)]
    assert unnamed == []


def _in_text(module: str, folders: dict[str, str]) -> bool:
    parts = module.split("/")
    for depth in range(len(parts) - 1, 0, -1):
        folder = "/".join(parts[:depth]) + "/"
        below = "/".join(parts[depth:])
        texts = [text for key, text in folders.items() if fnmatch.fnmatch(folder, _pattern(key))]
        words = [word.strip("(),;:`") for text in texts for word in text.split()]
        if any(fnmatch.fnmatch(below, word) for word in words):
            return True
    return False


def _pattern(folder: str) -> str:
    return re.sub(r"<[^>]+>", "*", folder)
