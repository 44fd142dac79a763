"""The course inside a Jupyter server: a hub user's working copy, and saves without stale views.

A Jupyter server extension (``jupyter server extension enable hookcourse.course.teaching.server``;
scripts/lab.sh and workshop/install.sh enable it):

- on a JupyterHub (``$JUPYTERHUB_USER`` set), each user's server makes or completes the
  user's working copy, ``my-notebooks/`` in the server's root folder (their home),
  from the installed checkout's course, before the first page is served;
- every kernel it starts installs the course's NameError line before its first cell
  (``kernel_startup`` as the kernels' ``PYTHONSTARTUP``), so a cell run before the one
  that defines its name says so in one line even when it imports nothing;
- every kernel it starts finds the course's commands (``!hookcourse events Stop`` in a
  cell): the folder of this Python's scripts goes first on the kernels' ``PATH``, since
  scripts/lab.sh starts JupyterLab from the environment without activating it;
- the working copy it serves (its root, or ``my-notebooks/`` under it on a hub) gets the
  course files the notebooks name by a relative path, never overwriting: the course's
  fixtures as ``fixtures/`` (the session scripts, the cases and the guard project a
  script copies from), the reference solutions as ``solutions/`` and the
  stages' contract pages as ``stages/<stage>/stage.md``, so each path resolves from the
  notebook's own folder, inside JupyterLab's root;
- every notebook it saves loses its widget views and widget state. A saved view names
  a widget model that lives only as long as its kernel, so reopened later it reads
  "Error displaying widget: model not found"; without it, the output's text (the lab's
  "[the … lab: run this cell to use it]") shows until the cell runs again.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any, Final

from hookcourse.errors import InputError

WIDGET_VIEW: Final = "application/vnd.jupyter.widget-view+json"
# What an output that held nothing but a widget view shows instead.
RUN_AGAIN: Final = "[a widget: run this cell to show it]"
WORK_FOLDER: Final = "my-notebooks"
# IPython kernels run this file before the first cell (the NameError line's handler).
STARTUP_ENV: Final = "PYTHONSTARTUP"
PACKAGE: Final = Path(__file__).resolve().parents[2]
# Course files a notebook names by path, and where they go in the working copy: a folder
# and the glob of its files to copy, each kept at its place under the folder.
COURSE_FILES: Final = {
    # The session scripts, the cases and projects the notebooks and the scripts name
    # (guard-retry.json copies its hook script from force-push-guard/).
    "fixtures": (PACKAGE / "fixtures", "**/*"),
    "solutions": (PACKAGE / "solutions", "[!_]*.py"),
    "stages": (PACKAGE / "stages", "*/stage.md"),
}


def without_widget_views(notebook: dict[str, Any]) -> bool:
    """Drop every output's widget view (keeping its text) and the stored widget state,
    in place; True when anything was dropped."""
    changed = notebook.get("metadata", {}).pop("widgets", None) is not None
    for cell in notebook.get("cells", []):
        for output in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            data = output.get("data")
            if not isinstance(data, dict) or WIDGET_VIEW not in data:
                continue
            del data[WIDGET_VIEW]
            data.setdefault("text/plain", RUN_AGAIN)
            changed = True
    return changed


def strip_on_save(model: dict[str, Any], **_context: Any) -> None:
    """A contents manager pre-save hook: notebooks are saved without widget views."""
    if model.get("type") == "notebook" and isinstance(model.get("content"), dict):
        without_widget_views(model["content"])


def prepare_hub_copy(root: Path) -> list[str]:
    """Make or complete ``root/my-notebooks`` from the course; what was added."""
    from hookcourse.course.teaching.notebook_files import COURSE
    from hookcourse.course.teaching.working_copy import prepare_work

    return prepare_work(COURSE, root / WORK_FOLDER)


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "hookcourse.course.teaching.server"}]


def start_kernels_with_the_name_hook(environ: MutableMapping[str, str] = os.environ) -> bool:
    """Have the kernels this server starts (they inherit its environment) run
    ``kernel_startup`` first, unless the learner has a ``PYTHONSTARTUP`` of their own;
    True when set."""
    if environ.get(STARTUP_ENV):
        return False
    environ[STARTUP_ENV] = str(Path(__file__).with_name("kernel_startup.py"))
    return True


def put_the_course_on_path(
    environ: MutableMapping[str, str] = os.environ, scripts: Path | None = None
) -> bool:
    """Put ``scripts`` (this Python's own scripts folder, where ``hookcourse`` is) first on
    ``PATH`` for the kernels this server starts, unless it is on it already; True when set."""
    folder = str(scripts or Path(sys.executable).parent)
    path = environ.get("PATH", "")
    if folder in path.split(os.pathsep):
        return False
    environ["PATH"] = os.pathsep.join([folder, path]) if path else folder
    return True


def _files(source: Path, pattern: str) -> list[Path]:
    """The files under ``source`` that ``pattern`` matches, in order; ``**/*`` is every
    file below it, through linked folders too (a stage's fixtures are a link to its folder)."""
    if pattern != "**/*":
        return sorted(path for path in source.glob(pattern) if path.is_file())
    return sorted(
        Path(folder, name)
        for folder, _, names in os.walk(source, followlinks=True)
        for name in names
    )


def add_course_files(work: Path) -> list[str]:
    """Copy the course files notebooks name by path into the working copy ``work``,
    never overwriting; the paths added, relative to ``work``."""
    added = []
    for place, (source, pattern) in COURSE_FILES.items():
        for item in _files(source, pattern):
            relative = item.relative_to(source).as_posix()
            there = work / place / relative
            if there.exists():
                continue
            there.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(item, there)  # with its mode: a hook script stays executable
            added.append(f"{place}/{relative}")
    return added


def working_copy(root: Path) -> Path | None:
    """The learner's working copy a server at ``root`` serves: ``root`` itself
    (scripts/lab.sh) or its ``my-notebooks/`` (a hub); None when neither is one."""
    from hookcourse.course.teaching.progress import MARKER

    for folder in (root, root / WORK_FOLDER):
        if (folder / MARKER).is_file():
            return folder
    return None


def _load_jupyter_server_extension(server: Any) -> None:
    server.contents_manager.register_pre_save_hook(strip_on_save)
    start_kernels_with_the_name_hook()
    put_the_course_on_path()
    root = Path(server.root_dir)
    try:
        added = prepare_hub_copy(root) if os.environ.get("JUPYTERHUB_USER") else []
        work = working_copy(root)
        if work is not None:
            added += add_course_files(work)
    except (OSError, InputError) as error:  # the server starts even without the copy
        server.log.error("hookcourse: no working copy in %s: %s", server.root_dir, error)
        return
    if added:
        server.log.info("hookcourse: working copy: added %s", ", ".join(added))


def _strip_main(paths: list[str]) -> int:
    """``python -m hookcourse.course.teaching.server strip NOTEBOOK...``: strip saved notebooks."""
    import json

    for name in paths:
        path = Path(name)
        notebook = json.loads(path.read_text(encoding="utf-8"))
        if without_widget_views(notebook):
            text = json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"
            path.write_text(text, encoding="utf-8")
            print(f"{name}: widget views removed")
    return 0


if __name__ == "__main__":
    import sys

    if sys.argv[1:2] != ["strip"] or len(sys.argv) < 3:
        print(
            "usage: python -m hookcourse.course.teaching.server strip NOTEBOOK...", file=sys.stderr
        )
        sys.exit(2)
    sys.exit(_strip_main(sys.argv[2:]))
