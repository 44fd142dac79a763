// Compile Python sources to bytecode with the site's own Pyodide, for scripts/lite_site.py:
//   node lite_compile.mjs PYODIDE_DIR FOLDER WHOLE...
// Each folder under FOLDER is an unpacked wheel. Compiled: every module a kernel imports
// at its start (found by importing pyodide_kernel, the kernel's own module, from these
// folders) and every module of the packages named WHOLE (the course's own imports). Each
// gets the __pycache__/*.pyc this Pyodide's Python would write on first import, as an
// unchecked-hash pyc (used without comparing it to the source), named for the place the
// wheel unpacks to, so tracebacks still show the source's lines.
import { pathToFileURL } from "node:url";

const [pyodideDir, folder, ...whole] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/` });
pyodide.mountNodeFS("/wheels", folder);
pyodide.globals.set("whole", pyodide.toPy(whole));
const count = pyodide.runPython(`
import importlib, importlib.util, os, py_compile, site, sys
from pathlib import Path

wheels = [Path("/wheels", name) for name in sorted(os.listdir("/wheels"))]
sys.path[:0] = [str(wheel) for wheel in wheels]
importlib.import_module("pyodide_kernel")
for name in whole:
    importlib.import_module(name)
started = {Path(m.__file__) for m in list(sys.modules.values()) if getattr(m, "__file__", None)}
wanted = {path for path in started if path.is_relative_to("/wheels")}
for name in whole:
    package = Path(sys.modules[name].__file__).parent
    # data/ holds files, not modules: the starters and their templates (not Python until filled)
    wanted |= {path for path in package.rglob("*.py") if not {"tests", "data"} & set(path.parts)}
site_packages = site.getsitepackages()[0]
for path in sorted(wanted):
    inside = path.relative_to(next(w for w in wheels if path.is_relative_to(w)))
    py_compile.compile(
        str(path),
        cfile=importlib.util.cache_from_source(str(path)),
        dfile=f"{site_packages}/{inside.as_posix()}",
        doraise=True,
        invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
    )
len(wanted)
`);
console.error(`lite_compile.mjs: compiled ${count} modules`);
