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
import inspect
import linecache
import os
import sys
import types
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

from hookcourse import browser
from hookcourse.course import progress
from hookcourse.course.authorship import course_function, handed_to
from hookcourse.course.workshop import MY_HOOKS as FILE_NAME
from hookcourse.course.workshop import free_names
from hookcourse.stages.registry import EXERCISES

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
    if os.environ.get(progress.SWITCH_ENV) == "off" and path is None:
        return None
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
    package = Path(__file__).resolve().parents[1]
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
