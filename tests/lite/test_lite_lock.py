"""What every kernel of the built JupyterLite site unpacks: the locked wheels, slimmed.

Each open notebook is a Pyodide kernel that unpacks every locked wheel into its own
memory, so what scripts/lite_site.py leaves out is left out once per open notebook. These
read the built site (scripts/lite.sh); the browser tests show the kernels still work.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from tests.lite.conftest import load
from tests.lite.test_lite_in_browser import ROOT, built_site

LITE_SITE = load(ROOT / "scripts" / "lite_site.py")


def locked_wheels(site: Path) -> dict[str, Path]:
    """Each locked package's wheel."""
    lock_file = site / LITE_SITE.LOCK
    packages = json.loads(lock_file.read_text(encoding="utf-8"))["packages"]
    return {name: (lock_file.parent / e["file_name"]).resolve() for name, e in packages.items()}


def names(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


def test_no_kernel_unpacks_what_the_site_leaves_out() -> None:
    wheels = locked_wheels(built_site())
    for name, folders in LITE_SITE.SLIMMED:
        files = names(wheels[name])
        for folder in folders:
            if folder == LITE_SITE.DATA:
                kept = [f for f in files if f.split("/")[0].endswith(".data")]
            else:
                kept = [f for f in files if f.startswith(folder)]
            assert kept == [], (name, folder, kept[:3])
        # The metadata stays, so the lock's dependencies and importlib.metadata still hold.
        assert any(f.endswith(".dist-info/METADATA") for f in files), name
    # What a kernel does import is still there.
    assert "IPython/core/interactiveshell.py" in names(wheels["ipython"])
    assert any(f.startswith("jupyterlab_widgets/") for f in names(wheels["jupyterlab-widgets"]))


def test_only_the_terminal_ipython_imports_what_the_site_leaves_out() -> None:
    left_out = ("prompt_toolkit", "wcwidth")
    importers = []
    for wheel in locked_wheels(built_site()).values():
        with zipfile.ZipFile(wheel) as archive:
            for file in archive.namelist():
                if file.endswith(".py") and not file.startswith("IPython/terminal/"):
                    text = archive.read(file).decode("utf-8", "replace")
                    if any(f"import {m}" in text or f"from {m}" in text for m in left_out):
                        importers.append(file)
    assert importers == []
