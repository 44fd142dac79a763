"""Notebooks import the package through a few public modules only.

A course notebook (``notebooks/*.ipynb``; the browser site's copies and the working copy
are made from them, outputs cleared, sources unchanged) may import from
``hookcourse.course.notebook`` (the façade: checks, labs, helpers, the stages' references
it reads), from ``hookcourse.js`` (JavaScript semantics the learner's own functions use,
which ``my_hooks.py`` and the learner's program keep importing) and from ``my_hooks``.
So the package's rooms can move without touching a notebook.
"""

from __future__ import annotations

import ast
import importlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from hookcourse.course import notebook
from tests.support.paths import ROOT

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
FACADE = "hookcourse.course.notebook"
JS = frozenset({"hookcourse.js.values", "hookcourse.js.json", "hookcourse.js.regex"})


def imports(source: str) -> Iterator[tuple[str, str]]:
    """(module, name) for every name a cell imports; ``import m`` gives (m, "")."""
    # IPython's own lines (%magic, !shell) are not Python.
    python = "\n".join(
        "" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines()
    )
    for node in ast.walk(ast.parse(python)):
        if isinstance(node, ast.Import):
            yield from ((alias.name, "") for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            yield from ((node.module, alias.name) for alias in node.names)


def allowed(module: str, name: str) -> bool:
    if module == FACADE or module == "my_hooks" or module in JS:
        return True
    if module == "hookcourse.js":
        return f"hookcourse.js.{name}" in JS
    return module.partition(".")[0] != "hookcourse"


def test_imports_reads_every_form() -> None:
    found = list(
        imports(
            "%matplotlib inline\nimport hookcourse.js.values\nfrom hookcourse.js import json as j\n"
        )
    )
    assert found == [("hookcourse.js.values", ""), ("hookcourse.js", "json")]
    assert not allowed("hookcourse.course.checks.exercises", "check_matcher")
    assert not allowed("hookcourse.stages.matcher", "RuleSet")
    assert allowed("hookcourse.js", "json") and not allowed("hookcourse.js", "browser_regex")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_a_notebook_imports_only_the_public_modules(path: Path) -> None:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    found = [
        (module, name)
        for cell in cells
        if cell["cell_type"] == "code"
        for module, name in imports("".join(cell["source"]))
    ]
    assert [f"{module}:{name}" for module, name in found if not allowed(module, name)] == []
    unknown = [name for module, name in found if module == FACADE and name not in notebook.PLACES]
    assert unknown == []


def test_every_facade_name_resolves() -> None:
    for name, place in notebook.PLACES.items():
        module_name, _, attribute = place.partition(":")
        module = importlib.import_module(module_name)
        assert not attribute or hasattr(module, attribute), f"{name}: {place}"


def test_every_facade_name_is_used_by_a_notebook() -> None:
    used = {
        name
        for path in NOTEBOOKS
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]
        if cell["cell_type"] == "code"
        for module, name in imports("".join(cell["source"]))
        if module == FACADE
    }
    assert sorted(set(notebook.PLACES) - used) == []


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'check_everything'"):
        notebook.check_everything  # noqa: B018
