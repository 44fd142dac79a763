"""docs/ARCHITECTURE.md names every module of the package, and only real ones."""

from __future__ import annotations

import fnmatch
import re

from tests.support.paths import ROOT

PAGE = ROOT / "docs" / "ARCHITECTURE.md"
ENTRY = re.compile(r"^(?P<indent> *)(?P<name>[\w.-]+/?)(?:\s{2,}(?P<text>.*))?$")


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
    modules, folders = _tree()
    unnamed = []
    for module in sorted(_real_modules()):
        if module in modules:
            continue
        folder, _, name = module.rpartition("/")
        text = folders.get(folder + "/", "")
        if not any(fnmatch.fnmatch(name, word.strip("(),;:`")) for word in text.split()):
            unnamed.append(module)
    assert unnamed == []
