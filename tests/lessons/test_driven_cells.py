"""Demonstration cells cannot contradict their prose: after a learner has played with a
lab (every control changed), each cell that drives it still prints what the notebook
stores, which nbval holds to and the prose describes."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import nbclient
import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
LAB_CELL = re.compile(r"^(\w+) = \w+_lab\(", re.MULTILINE)
# Every control moved away from its value: ticks flipped, choices moved, text replaced
# by an answer that blocks, stops and rewrites at once.
PLAY = """
import ipywidgets as _widgets

def _play(lab):
    for control in lab.controls.values():
        if isinstance(control, _widgets.Checkbox):
            control.value = not control.value
        elif isinstance(control, _widgets.widget_selection._Selection):
            values = [o[1] if isinstance(o, tuple) else o for o in control.options]
            control.value = values[-1] if values[-1] != control.value else values[0]
        else:
            control.value = '{"decision": "block", "continue": false, "updatedInput": {}}'

_play(LAB)
"""


def lab_notebooks() -> list[Path]:
    found = []
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        if any(LAB_CELL.search("".join(c["source"])) for c in cells if c["cell_type"] == "code"):
            found.append(path)
    return found


def shown(cell: Any) -> str:
    parts = []
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream":
            parts.append("".join(output["text"]))
        else:
            plain = output.get("data", {}).get("text/plain", "")
            parts.append("".join(plain) if isinstance(plain, list) else plain)
    return "".join(parts)


@pytest.mark.parametrize("path", lab_notebooks(), ids=lambda p: p.stem)
def test_driven_cells_print_what_is_stored_after_the_lab_was_played_with(path: Path) -> None:
    stored = nbformat.read(path, as_version=4)
    played = copy.deepcopy(stored)
    originals: list[tuple[Any, Any]] = []  # (stored cell, the same cell in the played copy)
    cells = []
    for original, cell in zip(stored.cells, played.cells, strict=True):
        cells.append(cell)
        if cell.cell_type != "code":
            continue
        originals.append((original, cell))
        lab = LAB_CELL.search(cell.source)
        if lab:
            cells.append(nbformat.v4.new_code_cell(PLAY.replace("LAB", lab[1])))
    played.cells = cells
    client = nbclient.NotebookClient(
        played,
        kernel_name="python3",
        timeout=120,
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    driven = 0
    for original, cell in originals:
        if "nbval-ignore-output" in original.metadata.get("tags", []):
            continue
        if re.search(r"\b\w+\.reset\(", original.source):
            driven += 1
        assert shown(cell) == shown(original), original.source
    assert driven, "no cell drives a lab"
