"""Lay out the JupyterLite build folder for scripts/lite.sh (run by its Python 3.12+).

    python lite_site.py ROOT WORK SITE PYODIDE      before `jupyter lite build`
    python lite_site.py --finish SITE PYODIDE       after it

ROOT is the checkout, WORK the lite folder to fill (it holds the hookcourse wheel in
wheels/), SITE the output folder, PYODIDE the npm package `pyodide`. Afterwards WORK has:

* static/pyodide/: Pyodide's core from npm, its lock's package list emptied (npm ships
  none of those wheels; the lock step adds the ones the course needs, from PyPI);
* contents/: the notebooks with their outputs cleared (by the function that makes the
  desktop's working copy), their data and hook scripts copied byte for byte;
* hookcourse-lite/: the site's plugins (scripts/lite_extension): the kernel reads
  those JSON files byte for byte, and a ``?path=`` link opens only the notebook it
  names (not every tab of the learner's last visit, each with a kernel of its own);
* jupyter_lite_config.json and jupyter-lite.json: the lock (ipywidgets, micropip and
  hookcourse, loaded with the kernel), the kernel's PyPI fallback switched off, and a
  closed notebook's kernel shut down.

``--finish`` makes the site's root page open notebook 00 (a ``?path=`` link, so notebook
00 alone), and lightens what every kernel unpacks at its start: jedi without its
bundled type stubs (5,500 of its 5,600 files; IPython's completions work from the live
objects), prompt_toolkit and wcwidth without their code (only the terminal IPython
imports them), jupyterlab_widgets without the JupyterLab extension the page already has,
and widgetsnbextension as the stub JupyterLite ships (the real one is the classic
Notebook's JavaScript); then it adds to every locked wheel the bytecode of what
a kernel imports, compiled by PYODIDE's own Python (scripts/lite_compile.mjs, in node).

The wheel already carries the course's fixtures (hookcourse/fixtures), as every wheel
of hookcourse does.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's hookcourse
from hookcourse.course.teaching.notebook_files import (
    cleared,
    course_notebooks,
    read_notebook,
    write_notebook,
)
from hookcourse.course.teaching.working_copy import LEFTOVERS

PYODIDE_CORE = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
LOCKED = ["ipywidgets>=8.1,<9", "micropip", "hookcourse"]
# Loaded with the kernel: the notebooks' first cells import both, and the kernel's own
# start loads micropip, piplite and jedi one after another unless they are listed here.
PRELOADED = ["hookcourse", "ipywidgets", "micropip", "piplite", "jedi"]
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
NOTEBOOK_PLUGIN = "@jupyterlab/notebook-extension:tracker"
SKIPPED = shutil.ignore_patterns(*LEFTOVERS)
EXTENSION = Path(__file__).resolve().parent / "lite_extension"
FIRST_PAGE = "lab/index.html?path={notebook}"


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
            "federated_extensions": ["hookcourse-lite"],
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
            # window.jupyterapp: tests/lite counts the running kernels through it.
            "exposeAppInBrowser": True,
            # Closing a notebook's tab ends its kernel (JupyterLab keeps it by default):
            # each is a Pyodide of its own, a few hundred MB of the learner's memory.
            "settingsOverrides": {NOTEBOOK_PLUGIN: {"kernelShutdown": True}},
        },
    }
    for name, data in [("jupyter_lite_config.json", build), ("jupyter-lite.json", lite)]:
        (work / name).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def copy_contents(course: Path, contents: Path) -> None:
    """The course as a learner starts it: notebooks cleared, every other file as it is."""
    shutil.copytree(course, contents, ignore=SKIPPED)
    for notebook in course_notebooks(course):
        write_notebook(contents / notebook.name, cleared(read_notebook(notebook)))


def root_page(first: str) -> str:
    """The site's index.html: straight to notebook ``first``, and JupyterLite's root
    settings (an empty ``jupyter-config-data``, as the page it replaces holds)."""
    target = html.escape(FIRST_PAGE.format(notebook=first))
    return (
        "<!DOCTYPE html>\n<html><head><meta charset='utf-8'>"
        f"<meta http-equiv='refresh' content='0; url={target}'>"
        # Every page of the site reads its settings from this element of the root page.
        '<script id="jupyter-config-data" type="application/json" data-jupyter-lite-root=".">'
        "{}</script><title>hookcourse</title></head>\n"
        f"<body><p><a href='{target}'>Open the course at notebook {html.escape(first)}</a></p>"
        "</body></html>\n"
    )


def main(root: Path, work: Path, site: Path, pyodide: Path) -> None:
    vendor_pyodide(pyodide, work / "static" / "pyodide")
    copy_contents(root / "notebooks", work / "contents")
    shutil.copytree(EXTENSION, work / "hookcourse-lite")
    write_config(work, site)


# Parts of a locked wheel no kernel needs: (package, folders to leave out; DATA is the
# wheel's own .data folder). Every kernel unpacks each locked wheel into its own memory,
# so each folder here is memory saved once per open notebook.
DATA = "<the wheel's .data folder>"
SLIMMED = [
    ("jedi", ("jedi/third_party/typeshed/", "jedi/third_party/django-stubs/")),
    # The terminal IPython's (IPython.terminal, IPython.embed): a kernel has no terminal,
    # and nothing else imports them. Their metadata stays, so the lock's graph holds.
    ("prompt-toolkit", ("prompt_toolkit/",)),
    ("wcwidth", ("wcwidth/",)),
    # The widgets' JupyterLab extension, which the site itself serves to the page.
    ("jupyterlab-widgets", (DATA,)),
]
STUBBED = "widgetsnbextension"
LOCK = Path("static") / "pyodide-lock" / "pyodide-lock.json"


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def rewritten_wheel(
    wheel: Path, target: Path, left_out: tuple[str, ...] = (), added: Path | None = None
) -> None:
    """``wheel`` without the files under ``left_out`` and with every file under folder
    ``added`` (by its path there), its RECORD to match."""
    files = sorted(added.rglob("*")) if added else []
    names = [(path.relative_to(added).as_posix(), path) for path in files if path.is_file()]
    with (
        zipfile.ZipFile(wheel) as source,
        zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out,
    ):
        kept = [i for i in source.infolist() if not i.filename.startswith(left_out)]
        record = next(i.filename for i in kept if i.filename.endswith(".dist-info/RECORD"))
        lines = []
        for info in kept:
            if info.filename != record:
                data = source.read(info)
                out.writestr(info, data)
                lines.append(_record_line(info.filename, data))
        for name, path in names:
            data = path.read_bytes()
            out.writestr(name, data)
            lines.append(_record_line(name, data))
        out.writestr(record, "\n".join([*lines, f"{record},,"]) + "\n")


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def lighten_lock(site: Path) -> None:
    lock_file = site / LOCK
    lock = json.loads(lock_file.read_text(encoding="utf-8"))
    packages = lock["packages"]
    for name, folders in SLIMMED:
        entry = packages[name]
        wheel = (lock_file.parent / entry["file_name"]).resolve()
        data = f"{wheel.name.split('-')[0]}-{entry['version']}.data/"
        left_out = tuple(data if folder == DATA else folder for folder in folders)
        version = f"{entry['version']}+slim"
        target = wheel.with_name(wheel.name.replace(f"-{entry['version']}-", f"-{version}-"))
        rewritten_wheel(wheel, target, left_out=left_out)
        wheel.unlink()
        entry.update(file_name=entry["file_name"].replace(wheel.name, target.name))
        entry.update(version=version, sha256=_sha256(target))
    entry = packages[STUBBED]
    old = (lock_file.parent / entry["file_name"]).resolve()
    pypi = site / "extensions" / "@jupyterlite" / "pyodide-kernel-extension" / "static" / "pypi"
    (stub,) = sorted(pypi.glob(f"{STUBBED}-{entry['version'].split('.')[0]}.*-py3-none-any.whl"))
    old.unlink()
    entry.update(
        file_name=f"../../{stub.relative_to(site).as_posix()}",
        version=stub.name.split("-")[1],
        sha256=_sha256(stub),
    )
    lock_file.write_text(json.dumps(lock, indent=2) + "\n", encoding="utf-8")


COMPILER = Path(__file__).resolve().parent / "lite_compile.mjs"
# Compiled whole (tests aside), beyond what importing the kernel's module brings in:
# what the notebooks import, and piplite, which the kernel's start imports on its own.
COMPILED_WHOLE = ["hookcourse", "ipywidgets", "piplite"]


def precompile_lock(site: Path, pyodide: Path, scratch: Path) -> None:
    """The locked wheels with the bytecode of what a kernel imports, compiled once here by
    the site's Pyodide: each kernel would otherwise compile IPython, the widgets and the
    course from source (about 2 s of CPU; compiling everything would make the wheels
    three times as large to fetch and unpack). A wheel outside the lock's folder (the
    kernel extension's own, which piplite's index also lists by hash) gets its compiled
    copy in the lock's folder."""
    lock_file = site / LOCK
    lock = json.loads(lock_file.read_text(encoding="utf-8"))
    wheels = {
        name: (lock_file.parent / entry["file_name"]).resolve()
        for name, entry in lock["packages"].items()
    }
    for name, wheel in wheels.items():
        with zipfile.ZipFile(wheel) as source:
            source.extractall(scratch / "sources" / name)
    shutil.copytree(scratch / "sources", scratch / "compiled")
    compile_ = ["node", str(COMPILER), str(pyodide), str(scratch / "compiled"), *COMPILED_WHOLE]
    if subprocess.run(compile_, check=False).returncode != 0:
        raise SystemExit(
            "lite_site.py: compiling the locked wheels under Pyodide failed (node's output"
            " above); fix what it names, or check that node runs scripts/lite_compile.mjs"
        )
    for name, wheel in wheels.items():
        compiled = scratch / "compiled" / name
        for source in (scratch / "sources" / name).rglob("*"):
            if source.is_file():
                (compiled / source.relative_to(scratch / "sources" / name)).unlink()
        target = lock_file.parent / wheel.name
        rewritten_wheel(wheel, target.with_suffix(".tmp"), added=compiled)
        target.with_suffix(".tmp").replace(target)
        lock["packages"][name].update(
            file_name=f"../../{target.relative_to(site).as_posix()}", sha256=_sha256(target)
        )
    lock_file.write_text(json.dumps(lock, indent=2) + "\n", encoding="utf-8")


def finish(site: Path, pyodide: Path) -> None:
    first = sorted(path.name for path in (site / "files").glob("*.ipynb"))[0]
    (site / "index.html").write_text(root_page(first), encoding="utf-8")
    lighten_lock(site)
    with tempfile.TemporaryDirectory() as scratch:
        precompile_lock(site, pyodide, Path(scratch))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--finish"]:
        finish(Path(sys.argv[2]).resolve(), Path(sys.argv[3]).resolve())
    else:
        main(*(Path(argument).resolve() for argument in sys.argv[1:5]))
