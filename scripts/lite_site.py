"""Lay out the JupyterLite build folder for scripts/lite.sh (run by its Python 3.12+).

    python lite_site.py ROOT WORK SITE PYODIDE

ROOT is the checkout, WORK the lite folder to fill (it holds the hookcourse wheel in
wheels/), SITE the output folder, PYODIDE the npm package `pyodide`. Afterwards WORK has:

* static/pyodide/: Pyodide's core from npm, its lock's package list emptied (npm ships
  none of those wheels; the lock step adds the ones the course needs, from PyPI);
* contents/: the notebooks with their data and hook scripts, as the learner sees them;
* jupyter_lite_config.json and jupyter-lite.json: the lock (ipywidgets, micropip and
  hookcourse, loaded with the kernel) and the kernel's PyPI fallback switched off.

The wheel already carries the course's fixtures (hookcourse/fixtures), as every wheel
of hookcourse does.
"""

from __future__ import annotations

import json
import shutil
import sys
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
    shutil.copytree(root / "notebooks", work / "contents", ignore=SKIPPED)
    write_config(work, site)


if __name__ == "__main__":
    main(*(Path(argument).resolve() for argument in sys.argv[1:5]))
