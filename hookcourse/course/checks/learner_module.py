"""The learner's module: every exercise function they wrote, kept in ``my_hooks.py``.

Each time a check runs a learner's function, its code is kept in ``my_hooks.py`` in
the learner's working copy (``my-notebooks/``, or the browser's folder in JupyterLite),
so ``from my_hooks import match_hook, run_stop_loop`` works in any notebook, after a
restart too, and ``hookcourse session --engine my_hooks.py`` runs it. The file holds one
section per exercise function, in course order; the newest definition of a function
replaces its section. What is kept is the cell that defined the function (its imports,
functions, classes and constants; not its calls or prints), and whatever else the
function reads from the notebook: a module becomes an import, a function of the
notebook its source, a plain constant its value. The course's own functions are never
kept, nor a starter that still raises ``NotImplementedError``.

Keeping is silent and best effort: a check never fails because the file could not be
written. Outside a working copy (the course's notebooks under nbval, a teacher build)
nothing is written.
"""

from __future__ import annotations

import ast
import builtins
import importlib.util
import inspect
import linecache
import sys
import types
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Final, cast

from hookcourse import browser
from hookcourse.course.checks.authorship import course_function, handed_to
from hookcourse.course.teaching import progress
from hookcourse.course.teaching.notebook_files import COURSE, read_notebook, source
from hookcourse.course.teaching.notebook_files import MY_HOOKS as FILE_NAME
from hookcourse.course.teaching.solution_cells import exercise_cells, free_names, solution_cell
from hookcourse.stages.registry import EXERCISES, Exercise, exercise_named, resolve

MODULE_NAME: Final = "my_hooks"
SECTION: Final = "# ── "
"""Each section opens with this, then the function's name: ``# ── match_hook ──``."""
HEADER: Final = '''"""My hooks: the functions I wrote in the hookcourse notebooks.

Kept by the notebooks' checks, each function's newest version replacing the one
before. Edit it if you like; the next check of a function rewrites its section.
"""

'''
_KEPT_NODES: Final = (
    ast.Import,
    ast.ImportFrom,
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Assign,
    ast.AnnAssign,
)


def module_path() -> Path | None:
    """Where ``my_hooks.py`` lives: the working copy's folder (the browser's notebook
    folder in JupyterLite), or None when this kernel is not in a working copy."""
    folder = progress.work_folder()
    if folder is None and browser.IN_BROWSER:
        folder = Path.cwd()  # JupyterLite: the notebooks' folder in the browser's storage
    return None if folder is None else folder / FILE_NAME


def keep(name: str, fn: object, path: Path | None = None) -> Path | None:
    """Keep ``fn``'s code as the section ``name`` of the learner's module; the file
    written, or None when nothing was (not in a working copy, the course's own code, a
    starter, no source to be found, a file that cannot be written)."""
    target = path or module_path()
    if target is None:
        return None
    code = kept_source(name, fn)
    if code is None:
        return None
    try:
        old = target.read_text(encoding="utf-8") if target.exists() else ""
        sections = read_sections(old)
        sections[name] = section(name, code)
        text = module_text(sections)
        partial = target.with_name(f".{target.name}.partial")
        partial.write_text(text, encoding="utf-8")
        partial.replace(target)
    except (OSError, UnicodeDecodeError):
        return None  # best effort: the check's report matters more than the copy
    return target


def kept_source(name: str, fn: object) -> str | None:
    """The code that defines ``fn`` as the learner wrote it, standing on its own; None
    for the course's code, a starter, or a function whose source Python cannot find."""
    if not isinstance(fn, types.FunctionType) or fn.__name__ != name:
        return None
    if course_function(fn) is not None or handed_to(fn) is not None or _from_package(fn):
        return None
    cell = _defining_cell(fn)
    if cell is None:
        return None
    try:
        tree = ast.parse(cell)
    except SyntaxError:
        return None
    kept = [node for node in tree.body if _kept(node)]
    defined = [n for n in kept if isinstance(n, ast.FunctionDef) and n.name == name]
    if not defined or _is_starter(defined[-1]):
        return None
    lines = [ast.get_source_segment(cell, node, padded=False) or "" for node in kept]
    needs = _prerequisites(fn, kept)
    return "\n\n".join(part for part in [*needs, *lines] if part).strip() + "\n"


def _kept(node: ast.stmt) -> bool:
    """A definition worth keeping: not a ``__future__`` import (it must open a module),
    not an assignment that runs a check (``result = check_matcher(match_hook)``)."""
    if not isinstance(node, _KEPT_NODES):
        return False
    if isinstance(node, ast.ImportFrom):
        return node.module != "__future__"
    if isinstance(node, ast.Assign | ast.AnnAssign):
        called = {
            ast.unparse(inner.func).split(".")[-1]
            for inner in ast.walk(node)
            if isinstance(inner, ast.Call)
        }
        return not any(name.startswith("check") for name in called)
    return True


def _from_package(fn: types.FunctionType) -> bool:
    """True for code in an installed file of hookcourse (the teacher's solutions too)."""
    package = Path(__file__).resolve().parents[2]
    try:
        return Path(fn.__code__.co_filename).resolve().is_relative_to(package)
    except (OSError, ValueError):
        return False


def _defining_cell(fn: types.FunctionType) -> str | None:
    """The whole source of the cell (or file) that defined ``fn``: IPython keeps every
    cell in ``linecache``; else the function's own source."""
    lines = linecache.getlines(fn.__code__.co_filename)
    if lines:
        return "".join(lines)
    try:
        return inspect.getsource(fn)
    except (OSError, TypeError):
        return None


def _is_starter(function: ast.FunctionDef) -> bool:
    """A body that only raises NotImplementedError (after its docstring)."""
    body = function.body[1:] if ast.get_docstring(function) is not None else function.body
    return (
        len(body) == 1
        and isinstance(body[0], ast.Raise)
        and "NotImplementedError" in ast.unparse(body[0])
    )


def _bound(nodes: Iterable[ast.stmt]) -> set[str]:
    names: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import | ast.ImportFrom):
            names |= {alias.asname or alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return names


def _prerequisites(fn: types.FunctionType, kept: list[ast.stmt]) -> list[str]:
    """What the kept code reads from the notebook but does not define: imports, the
    notebook's helper functions (with what they read in turn), plain constants."""
    found: list[str] = []
    bound = _bound(kept) | set(dir(builtins))
    pending = sorted(free_names(kept, bound))
    while pending:
        name = pending.pop(0)
        if name in bound:
            continue
        bound.add(name)
        value = fn.__globals__.get(name, _MISSING)
        line, more = _definition(name, value)
        if line:
            found.append(line)
        pending += sorted(more - bound)
    imports = [line for line in found if line.startswith(("import ", "from "))]
    return imports + [line for line in found if line not in imports]


_MISSING: Final = object()


def _definition(name: str, value: object) -> tuple[str, set[str]]:
    """One notebook name as code, and the names that code reads in turn."""
    if value is _MISSING:
        return f"# {name}: not found in the notebook; define it in your exercise cell", set()
    if isinstance(value, types.ModuleType):
        alias = "" if value.__name__ == name else f" as {name}"
        return f"import {value.__name__}{alias}", set()
    module = getattr(value, "__module__", None)
    qualname = getattr(value, "__qualname__", None)
    if module == MODULE_NAME:
        return "", set()  # a function of my_hooks.py itself: its own section defines it
    if isinstance(value, types.FunctionType) and module in ("__main__", None):
        try:
            code = inspect.getsource(value)
        except (OSError, TypeError):
            return f"# {name}: its source is not available; define it again", set()
        tree = ast.parse(code)
        return code.rstrip(), free_names(tree.body, set())
    if isinstance(module, str) and isinstance(qualname, str) and module != "__main__":
        owner = sys.modules.get(module)
        if owner is not None and getattr(owner, qualname, None) is value:
            alias = "" if qualname == name else f" as {name}"
            return f"from {module} import {qualname}{alias}", set()
    try:
        if ast.literal_eval(repr(value)) == value:
            return f"{name} = {value!r}", set()
    except (ValueError, SyntaxError, RecursionError, MemoryError, TypeError):
        pass
    return f"# {name}: a value the notebook made ({type(value).__name__}); not kept", set()


# -- the file --------------------------------------------------------------------------------


def section(name: str, code: str, now: datetime | None = None) -> str:
    """One function's section: its opening line (the name, when it was kept), its code."""
    stamp = (now or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M UTC")
    return f"{SECTION}{name} ── kept {stamp}\n\n{code.strip()}\n"


def _section_name(line: str) -> str | None:
    if not line.startswith(SECTION):
        return None
    name = line[len(SECTION) :].split(" ", 1)[0]
    return name if name.isidentifier() else None


def read_sections(text: str) -> dict[str, str]:
    """The module's sections by function name, each with its opening line (what comes
    before the first one is the header, written anew)."""
    sections: dict[str, str] = {}
    current: str | None = None
    for line in text.splitlines(keepends=True):
        name = _section_name(line)
        if name is not None:
            current = name
            sections[current] = ""
        if current is not None:
            sections[current] += line
    return {name: block.strip() + "\n" for name, block in sections.items()}


def _order(name: str) -> tuple[int, str]:
    functions = [exercise.function for exercise in EXERCISES]
    return (functions.index(name) if name in functions else len(functions), name)


def module_text(sections: dict[str, str]) -> str:
    """The whole module: the header, then each section in course order."""
    blocks = [sections[name].strip() for name in sorted(sections, key=_order)]
    return HEADER + "".join(f"\n{block}\n\n" for block in blocks).rstrip() + "\n"


# -- using it from a notebook ----------------------------------------------------------------


def _stand_in(name: str, why: str) -> types.FunctionType:
    def missing(*arguments: object) -> object:
        raise NotImplementedError(f"{name} is not in my_hooks.py yet: {why}")

    missing.__name__ = missing.__qualname__ = name
    return cast(types.FunctionType, missing)


def mine(*names: str) -> tuple[types.FunctionType, ...]:
    """The learner's own functions ``names`` from ``my_hooks.py``, read afresh; one line
    says where they come from. Outside a working copy (the course's folder, a teacher
    build) the teacher's solutions stand in, and the line says so; in a working copy a
    function the module lacks raises NotImplementedError naming its notebook."""
    path = module_path()
    if path is None:
        found = [_teachers(name) for name in names]
        print(f"not in a working copy: the teacher's {', '.join(names)} stand in for yours")
        return tuple(found)
    module = _load(path)
    found = []
    for name in names:
        fn = getattr(module, name, None) if module is not None else None
        if not isinstance(fn, types.FunctionType):
            notebook = _exercise(name).notebook
            fn = _stand_in(name, f"run notebook {notebook}'s check of your {name}")
        found.append(fn)
    kept = [name for name, fn in zip(names, found, strict=True) if _kept_from(fn, path)]
    print(f"from {path.name}: {', '.join(kept) or 'none yet'}", end="")
    absent = [name for name in names if name not in kept]
    print(f"; not there yet: {', '.join(absent)}" if absent else "")
    return tuple(found)


def _teachers(name: str) -> types.FunctionType:
    """The teacher's ``name`` as the teacher build's exercise cell defines it (a notebook's
    function, as a learner's would be); the solution itself without the course's notebooks."""
    exercise = _exercise(name)
    solution = resolve(exercise.solution)
    course = COURSE / f"{exercise.notebook}.ipynb"
    if not course.is_file():  # an installed wheel carries no notebooks
        return cast(types.FunctionType, solution)
    notebook = read_notebook(course)
    for index, _ in exercise_cells(notebook, [name]):
        text = solution_cell(source(notebook["cells"][index]), name, solution)
        filename = f"<the teacher's {name}>"
        linecache.cache[filename] = (len(text), None, text.splitlines(keepends=True), filename)
        namespace: dict[str, object] = {"__name__": "__main__"}
        exec(compile(text, filename, "exec"), namespace)  # the course's own notebook cell
        return cast(types.FunctionType, namespace[name])
    return cast(types.FunctionType, solution)


def _exercise(name: str) -> Exercise:
    exercise = exercise_named(name)
    if exercise is None:
        raise ValueError(f"{name} is not an exercise of the course")
    return exercise


def _kept_from(fn: types.FunctionType, path: Path) -> bool:
    return Path(fn.__code__.co_filename).resolve() == path.resolve()


def _load(path: Path) -> types.ModuleType | None:
    """``my_hooks.py`` imported afresh (it changes under the kernel); None when it is
    missing or does not import, which a line says."""
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(MODULE_NAME, path)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as error:  # the learner's file: say what broke, keep the notebook going
        said = f"{type(error).__name__}: {error}"
        print(f"{path.name} does not import ({said}); fix it, or run a check again")
        return None
    sys.modules[MODULE_NAME] = module
    return module
