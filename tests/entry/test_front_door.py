"""``hookcourse/engine/api.py`` is the engine's front door: the command line, the session
package and the course reach the engine through it alone, and it loads lazily."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from hookcourse.engine import api
from tests.support.engine_imports import ENTRY, engine_imports, modules_loaded_after
from tests.support.paths import ROOT

PACKAGE = ROOT / "hookcourse"
HELD = sorted(
    [PACKAGE / "cli.py", *(PACKAGE / "session").rglob("*.py"), *(PACKAGE / "course").rglob("*.py")]
)


def _package(path: Path) -> str:
    """The package a module belongs to, dotted (``hookcourse.course.labs``)."""
    return ".".join(path.relative_to(ROOT).parent.parts)


@pytest.mark.parametrize("path", HELD, ids=lambda path: str(path.relative_to(PACKAGE)))
def test_only_the_front_door_is_imported(path: Path) -> None:
    others = [
        f"line {line}: {name}"
        for line, name in engine_imports(path, _package(path))
        if name != ENTRY
    ]
    assert not others, (
        f"{path.relative_to(ROOT)} imports {', '.join(others)}; import the name from {ENTRY} "
        "(add it to PLACES and the TYPE_CHECKING block there if it is new)"
    )


def test_the_check_sees_every_form_of_import(tmp_path: Path) -> None:
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
    sample.write_text("from ..engine.settings import Handler\n", encoding="utf-8")
    assert engine_imports(sample, "hookcourse.session") == [(1, "hookcourse.engine.settings")]


def test_every_name_is_typed_listed_and_found() -> None:
    source = (PACKAGE / "engine" / "api.py").read_text(encoding="utf-8")
    typed = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom)
                typed |= {alias.asname or alias.name for alias in statement.names}
    assert typed == set(api.PLACES)
    assert sorted(api.__all__) == sorted(api.PLACES)
    for name in api.PLACES:
        assert getattr(api, name) is not None, name


def test_a_name_loads_only_its_own_module() -> None:
    loaded = modules_loaded_after("from hookcourse.engine.api import describe_events")
    engine = sorted(m for m in loaded if m.startswith("hookcourse.engine"))
    assert engine == ["hookcourse.engine", "hookcourse.engine.api", "hookcourse.engine.catalogue"]


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'fyre'"):
        api.fyre  # noqa: B018
