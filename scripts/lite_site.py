"""Lay out the JupyterLite build folder for scripts/lite.sh (run by its Python 3.12+).

    python lite_site.py ROOT WORK SITE PYODIDE

ROOT is the checkout, WORK the lite folder to fill (it holds the hookcourse wheel in
wheels/), SITE the output folder, PYODIDE the npm package `pyodide`. Afterwards WORK has:

* static/pyodide/: Pyodide's core from npm, its lock's package list emptied (npm ships
  none of those wheels; the lock step adds the ones the course needs, from PyPI);
* contents/: the notebooks with their data and hook scripts, as the learner sees them;
* jupyter_lite_config.json and jupyter-lite.json: the lock (ipywidgets, micropip and
  hookcourse, loaded with the kernel) and the kernel's PyPI fallback switched off.

The wheel gains the course's fixtures at its top level, so under Pyodide they land in
site-packages/fixtures, beside the package, where hookcourse.course.exercises finds a
checkout's fixtures folder.
"""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import sys
import zipfile
from pathlib import Path

PYODIDE_CORE = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
LOCKED = ["ipywidgets>=8.1,<9", "micropip", "hookcourse"]
# Loaded with the kernel: the notebooks' first cells import both.
PRELOADED = ["hookcourse", "ipywidgets"]
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
SKIPPED = shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__")


def vendor_pyodide(pyodide: Path, static: Path) -> None:
    static.mkdir(parents=True)
    for name in PYODIDE_CORE:
        shutil.copy2(pyodide / name, static / name)
    lock = json.loads((pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))
    lock["packages"] = {}
    (static / "pyodide-lock.json").write_text(json.dumps(lock), encoding="utf-8")


def record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def add_fixtures(wheel: Path, fixtures: Path) -> None:
    """Append fixtures/** to the wheel's top level and to its RECORD."""
    with zipfile.ZipFile(wheel) as old:
        members = [(info, old.read(info)) for info in old.infolist()]
    added = {
        path.relative_to(fixtures.parent).as_posix(): path.read_bytes()
        for path in sorted(fixtures.rglob("*"))
        if path.is_file()
    }
    rewritten = wheel.with_suffix(".tmp")
    with zipfile.ZipFile(rewritten, "w", zipfile.ZIP_DEFLATED) as new:
        for info, data in members:
            if info.filename.endswith(".dist-info/RECORD"):
                lines = [record_line(name, body) for name, body in added.items()]
                data = data + ("\n".join(lines) + "\n").encode()
                record = (info, data)
                continue
            new.writestr(info, data)
        for name, body in added.items():
            new.writestr(name, body)
        new.writestr(*record)  # RECORD stays the last member, as wheels write it
    rewritten.replace(wheel)


def write_config(work: Path, site: Path) -> None:
    build = {
        "LiteBuildConfig": {
            "contents": ["contents"],
            "output_dir": str(site),
            "no_sourcemaps": True,
        },
        "PyodideLockAddon": {
            "enabled": True,
            "specs": LOCKED,
            "wheels": ["wheels"],
            "prefetch_extra": PRELOADED,
        },
    }
    lite = {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "litePluginSettings": {KERNEL_PLUGIN: {"disablePyPIFallback": True}},
        },
    }
    for name, data in [("jupyter_lite_config.json", build), ("jupyter-lite.json", lite)]:
        (work / name).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def main(root: Path, work: Path, site: Path, pyodide: Path) -> None:
    vendor_pyodide(pyodide, work / "static" / "pyodide")
    (wheel,) = (work / "wheels").glob("hookcourse-*.whl")
    add_fixtures(wheel, root / "fixtures")
    shutil.copytree(root / "notebooks", work / "contents", ignore=SKIPPED)
    write_config(work, site)


if __name__ == "__main__":
    main(*(Path(argument).resolve() for argument in sys.argv[1:5]))
