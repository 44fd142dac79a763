"""From the learner's working copy everything works: a cell's ``!hookcourse`` finds the
command, and the paths the notebooks name resolve from the notebook's own folder."""

from __future__ import annotations

import json
import logging
import os
import re
import sys
from pathlib import Path

import nbclient
import nbformat
import pytest

from hookcourse.course.teaching import server
from hookcourse.course.teaching.progress import MARKER

ROOT = Path(__file__).resolve().parents[2]
# A path a notebook's prose or code names for the learner to open or run.
NAMED_PATH = re.compile(
    r"(?<![\w./-])((?:fixtures|solutions|stages)/(?:[\w.-]+/)*[\w.-]+\.(?:json|py|sh|md))\b"
)
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_the_kernels_path_gets_this_pythons_scripts_first_once() -> None:
    environ = {"PATH": "/usr/bin:/bin"}
    assert server.put_the_course_on_path(environ, Path("/opt/course/.venv/bin"))
    assert environ["PATH"] == "/opt/course/.venv/bin:/usr/bin:/bin"
    assert not server.put_the_course_on_path(environ, Path("/opt/course/.venv/bin"))
    bare: dict[str, str] = {}
    assert server.put_the_course_on_path(bare, Path("/opt/bin"))
    assert bare["PATH"] == "/opt/bin"


def a_working_copy(tmp_path: Path) -> Path:
    work = tmp_path / "my-notebooks"
    work.mkdir()
    (work / MARKER).write_text("a working copy\n", encoding="utf-8")
    return work


class Server:
    def __init__(self, root: Path) -> None:
        from jupyter_server.services.contents.filemanager import FileContentsManager

        self.contents_manager = FileContentsManager(root_dir=str(root))
        self.root_dir = str(root)
        self.log = logging.getLogger("test")


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda path: path.stem)
def test_the_server_copies_what_the_notebooks_name_into_the_working_copy(
    notebook: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", os.environ.get("PATH", ""))  # put back after the test
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    work = a_working_copy(tmp_path)
    mine = work / "solutions" / "stop_loop.py"
    mine.parent.mkdir()
    mine.write_text("# my own notes\n", encoding="utf-8")
    server._load_jupyter_server_extension(Server(work))  # as scripts/lab.sh serves it
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    named = set(NAMED_PATH.findall("\n".join("".join(c["source"]) for c in cells)))
    for relative in sorted(named):
        assert (work / relative).is_file(), f"{relative} does not resolve from my-notebooks/"
    assert mine.read_text(encoding="utf-8") == "# my own notes\n"  # never overwritten
    assert (work / "fixtures" / "sessions" / "decide-modify-inject.json").read_bytes() == (
        ROOT / "fixtures" / "sessions" / "decide-modify-inject.json"
    ).read_bytes()
    for script in (work / "fixtures" / "sessions").glob("*.json"):  # files a script copies
        for file in json.loads(script.read_text(encoding="utf-8")).get("files", {}).values():
            source = file.get("from") if isinstance(file, dict) else None
            assert source is None or (script.parent / source).is_file(), (script.name, source)
    assert os.access(work / "fixtures/force-push-guard/.claude/hooks/no-force-push.sh", os.X_OK)
    assert server.add_course_files(work) == []  # a second start adds nothing
    assert server.working_copy(tmp_path) == work  # a hub serves the home above it
    assert server.working_copy(tmp_path / "elsewhere") is None


def test_a_cell_runs_the_course_command_from_a_kernel_the_server_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # As scripts/lab.sh starts JupyterLab: the environment's Python, not activated.
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    assert server.put_the_course_on_path()
    assert os.environ["PATH"].split(os.pathsep)[0] == str(Path(sys.executable).parent)
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell("!hookcourse events Stop")]
    nbclient.NotebookClient(notebook, kernel_name="python3").execute()
    shown = "".join(o.get("text", "") for o in notebook.cells[0].outputs)
    assert "command not found" not in shown
    assert "Stop" in shown and "decision" in shown
