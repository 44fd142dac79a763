"""The course in a workshop: the learner's working copy, its reset, teacher and student builds.

The tracked notebooks in ``notebooks/`` stay the course (nbval and CI run them); a
learner works in a git-ignored copy, ``my-notebooks/``, made on the first
``scripts/lab.sh`` with outputs cleared (predictions unspoiled) and the course's data
and hook scripts alongside. Nothing here ever writes into the course folder.

Notebooks are read and written as plain JSON (nbformat 4), so only the teacher
build, which executes notebooks, needs the lab tools installed.
"""

from __future__ import annotations

import ast
import builtins
import copy
import inspect
import json
import os
import shutil
import sys
import textwrap
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, cast

from hookcourse.course.check_report import reports_in
from hookcourse.course.progress import MARKER
from hookcourse.errors import InputError
from hookcourse.stages import registry
from hookcourse.stages.registry import exercise_named, resolve

CHECKOUT: Final = Path(__file__).resolve().parents[2]
COURSE: Final = CHECKOUT / "notebooks"
WORK: Final = CHECKOUT / "my-notebooks"
BACKUPS: Final = "backups"
MY_HOOKS: Final = "my_hooks.py"  # the learner's module (hookcourse.course.learner_module)
# Never copied out of the course: editor and interpreter leftovers.
LEFTOVERS: Final = frozenset({".ipynb_checkpoints", "__pycache__"})
EXERCISE_TAG: Final = "exercise"
INTERRUPTED: Final = 130  # the shell's status for Ctrl-C
BEGIN: Final = "# BEGIN SOLUTION"
END: Final = "# END SOLUTION"

Notebook = dict[str, Any]


# -- notebooks as JSON ---------------------------------------------------------------------------


def read_notebook(path: Path) -> Notebook:
    """A notebook's JSON; an unreadable or non-notebook file is an InputError naming it."""
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise InputError(str(path), f"cannot be read ({reason})", "check the file") from None
    except json.JSONDecodeError as error:
        raise InputError(
            str(path), f"is not a notebook (invalid JSON: {error})", "restore it from git"
        ) from None
    if not isinstance(loaded, dict) or not isinstance(loaded.get("cells"), list):
        raise InputError(str(path), "is not a notebook (no cell list)", "restore it from git")
    return loaded


def write_notebook(path: Path, notebook: Notebook) -> None:
    """Write as Jupyter does (one-space indent, a final newline), replacing atomically."""
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    partial.replace(path)


def cleared(notebook: Notebook) -> Notebook:
    """A copy with every output, execution count and stored widget state removed."""
    fresh = copy.deepcopy(notebook)
    for cell in fresh["cells"]:
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
    fresh.get("metadata", {}).pop("widgets", None)
    return fresh


def source(cell: dict[str, Any]) -> str:
    """A cell's source as one string (stored as a string or a list of lines)."""
    text = cell.get("source", "")
    return "".join(text) if isinstance(text, list) else str(text)


def course_notebooks(course: Path = COURSE) -> list[Path]:
    """The course's notebooks in course order (their names start with the number)."""
    found = sorted(course.glob("*.ipynb"))
    if not found:
        raise InputError(
            str(course), "holds no notebooks", "run this from a hookcourse checkout (git clone)"
        )
    return found


# -- the learner's working copy ------------------------------------------------------------------


def _copy_item(item: Path, target: Path) -> None:
    if item.suffix == ".ipynb":
        write_notebook(target, cleared(read_notebook(item)))
    elif item.is_dir():
        shutil.copytree(item, target, ignore=shutil.ignore_patterns(*LEFTOVERS))
    else:
        shutil.copy2(item, target)


def prepare_work(course: Path = COURSE, work: Path = WORK) -> list[str]:
    """Create the working copy, or add what the course gained since; returns what was added.

    Never overwrites: a learner's notebook, data or hook script that exists stays as it is.
    """
    course_notebooks(course)
    work.mkdir(parents=True, exist_ok=True)
    mark_work(work)
    return _add_missing(course, work, course)


def mark_work(work: Path) -> None:
    """Mark ``work`` as a learner's working copy: the checks run there record progress."""
    (work / MARKER).write_text(
        "This folder is your own copy of the hookcourse notebooks (git ignores it).\n"
        "`hookcourse reset NOTEBOOK` restores one from the course.\n",
        encoding="utf-8",
    )


def _add_missing(source: Path, target: Path, course: Path) -> list[str]:
    """Copy what ``source`` has and ``target`` lacks, into folders that both have too
    (a data file the course gained since the copy was made); paths added, from the course."""
    added = []
    for item in sorted(source.iterdir()):
        there = target / item.name
        if item.name in LEFTOVERS:
            continue
        if not there.exists():
            _copy_item(item, there)
            added.append(str(item.relative_to(course)))
        elif item.is_dir() and there.is_dir():
            added += _add_missing(item, there, course)
    return added


def resolve_notebook(name: str, course: Path = COURSE) -> Path:
    """The course notebook a learner means by ``name``: a file name, a stem or its number."""
    notebooks = course_notebooks(course)
    wanted = Path(name).name.removesuffix(".ipynb")
    exact = [path for path in notebooks if path.stem == wanted]
    matches = exact or [path for path in notebooks if wanted and path.stem.startswith(wanted)]
    if len(matches) == 1:
        return matches[0]
    names = ", ".join(path.stem for path in notebooks)
    problem = "matches several notebooks" if matches else "is not a course notebook"
    raise InputError(repr(name), problem, f"name one of {names}")


@dataclass(frozen=True)
class Reset:
    """One notebook restored from the course; ``backup`` holds the learner's version, if any."""

    notebook: Path
    backup: Path | None


def reset(
    names: Iterable[str], course: Path = COURSE, work: Path = WORK, now: datetime | None = None
) -> list[Reset]:
    """Restore notebooks in the working copy from the course, backing up the learner's."""
    chosen = [resolve_notebook(name, course) for name in names]
    if not work.is_dir():
        prepare_work(course, work)
    stamp = (now or datetime.now(UTC)).strftime("%Y-%m-%dT%H-%M-%S")
    done = []
    for original in chosen:
        target = work / original.name
        fresh = cleared(read_notebook(original))
        backup = None
        if target.exists() and _notebook_or_none(target) != fresh:
            backup = _free_name(work / BACKUPS, f"{original.stem}.{stamp}", ".ipynb")
            target.replace(backup)
        write_notebook(target, fresh)
        done.append(Reset(target, backup))
    return done


def reset_module(work: Path = WORK, now: datetime | None = None) -> Path | None:
    """Move the learner's ``my_hooks.py`` into the backups (the checks start it afresh);
    the backup, or None when there was none."""
    kept = work / MY_HOOKS
    if not kept.is_file():
        return None
    stamp = (now or datetime.now(UTC)).strftime("%Y-%m-%dT%H-%M-%S")
    backup = _free_name(work / BACKUPS, f"my_hooks.{stamp}", ".py")
    kept.replace(backup)
    return backup


def _notebook_or_none(path: Path) -> Notebook | None:
    try:
        return read_notebook(path)
    except InputError:  # the learner's file is broken: back it up all the same
        return None


def _free_name(folder: Path, stem: str, suffix: str) -> Path:
    """``folder/stem.suffix``, or ``stem-2.suffix`` and so on: never an existing file."""
    folder.mkdir(exist_ok=True)
    candidate, number = folder / f"{stem}{suffix}", 1
    while candidate.exists():
        number += 1
        candidate = folder / f"{stem}-{number}{suffix}"
    return candidate


# -- exercise cells and their solutions ----------------------------------------------------------


def exercise_names() -> list[str]:
    """The function each notebook exercise asks the learner to write, in course order."""
    return [exercise.function for exercise in registry.EXERCISES]


def _defined_function(text: str, names: Iterable[str]) -> str | None:
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    wanted = set(names)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in wanted:
            return node.name
    return None


def exercise_cells(notebook: Notebook, names: Iterable[str]) -> Iterator[tuple[int, str]]:
    """(cell index, function name) of each exercise cell: tagged ``exercise``, or else the
    code cell that defines one of the exercise functions."""
    names = list(names)
    code = [(i, c) for i, c in enumerate(notebook["cells"]) if c.get("cell_type") == "code"]
    tagged = [(i, c) for i, c in code if EXERCISE_TAG in c.get("metadata", {}).get("tags", [])]
    for index, cell in tagged or code:
        name = _defined_function(source(cell), names)
        if name is not None:
            yield index, name


def free_names(nodes: Iterable[ast.AST], bound: set[str]) -> set[str]:
    """Names the code reads but does not define itself (parameters, assignments, local
    functions and imports count as defined), less ``bound`` and the builtins."""
    loaded: set[str] = set()
    defined: set[str] = set()
    for node in nodes:
        for inner in ast.walk(node):
            if isinstance(inner, ast.Name):
                (loaded if isinstance(inner.ctx, ast.Load) else defined).add(inner.id)
            elif isinstance(inner, ast.arg):
                defined.add(inner.arg)
            elif isinstance(inner, ast.FunctionDef | ast.ClassDef):
                defined.add(inner.name)
            elif isinstance(inner, ast.Import | ast.ImportFrom):
                defined |= {alias.asname or alias.name.split(".")[0] for alias in inner.names}
    return loaded - defined - bound - set(dir(builtins))


def _without_annotations(function: ast.FunctionDef) -> ast.FunctionDef:
    """A copy with no parameter or return annotations: nested in the exercise's function,
    a def's annotations are evaluated, and the notebook need not import typing names."""
    bare = copy.deepcopy(function)
    arguments = bare.args
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
    for argument in [*every, arguments.vararg, arguments.kwarg]:
        if argument is not None:
            argument.annotation = None
    bare.returns = None
    return bare


def _comment_above(lines: list[str], lineno: int) -> list[str]:
    """The comment lines directly above line ``lineno`` (1-based) of a module."""
    start = lineno - 1
    while start > 0 and lines[start - 1].lstrip().startswith("#"):
        start -= 1
    return lines[start : lineno - 1]


def _prerequisites(module_source: str, needed: set[str], bound: set[str]) -> list[str]:
    """Module-level imports, constants and helper functions the solution body needs, as
    standalone lines (helpers without annotations); names in ``bound`` the cell has."""
    tree = ast.parse(module_source)
    lines = module_source.splitlines()
    found: dict[str, tuple[int, list[str]]] = {}  # name -> (kind: 0 import, 1 constant, 2 def)
    pending, seen = set(needed), set(bound)
    # What is brought in may need more (NAME_LIST needs re, a helper needs another).
    while pending:
        name = pending.pop()
        seen.add(name)
        for node in tree.body:
            wants: set[str] = set()
            if isinstance(node, ast.ImportFrom) and node.module != "__future__":
                for alias in node.names:
                    if (alias.asname or alias.name) == name:
                        rename = f" as {alias.asname}" if alias.asname else ""
                        found[name] = (0, [f"from {node.module} import {alias.name}{rename}"])
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if (alias.asname or alias.name.split(".")[0]) == name:
                        rename = f" as {alias.asname}" if alias.asname else ""
                        found[name] = (0, [f"import {alias.name}{rename}"])
            elif isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                    assert node.value is not None
                    value = ast.get_source_segment(module_source, node.value)
                    comment = _comment_above(lines, node.lineno)
                    # A value over several lines is indented line by line, unless a
                    # string in it spans lines (indenting would change the string).
                    spans = any(
                        isinstance(inner, ast.Constant)
                        and isinstance(inner.value, str)
                        and inner.lineno != inner.end_lineno
                        for inner in ast.walk(node.value)
                    )
                    text = f"{name} = {value}"
                    found[name] = (1, [*comment, *([text] if spans else text.splitlines())])
                    wants = free_names([node.value], set())
            elif isinstance(node, ast.FunctionDef) and node.name == name:
                bare = _without_annotations(node)
                found[name] = (2, ["", *ast.unparse(bare).splitlines()])
                wants = free_names([bare], set())
            elif isinstance(node, ast.ClassDef) and node.name == name:  # an exception class
                found[name] = (2, ["", *ast.unparse(node).splitlines()])
                wants = free_names(node.bases, set())
            pending |= wants - seen
    ordered = sorted(found.items(), key=lambda item: (item[1][0], item[0]))
    imports = [line for _, (kind, text) in ordered if kind == 0 for line in text]
    rest = [line for _, (kind, text) in ordered if kind != 0 for line in text]
    return imports + ([""] if imports and rest and rest[0] else []) + rest


def _parameters(function: ast.FunctionDef) -> list[str]:
    arguments = function.args
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
    return [argument.arg for argument in every]


def solution_cell(
    cell_source: str, name: str, solution: Callable[..., object], bound: Iterable[str] = ()
) -> str:
    """The exercise cell with its function's body replaced by the solution's, between
    ``# BEGIN SOLUTION`` and ``# END SOLUTION`` (the marker nbgrader and Otter accept).

    The starter's signature and docstring stay; imports and constants the solution's
    module gives it are written inside the region, so the cell runs on its own, except
    for names in ``bound``, which cells before it give (notebook 08's ``mine(...)``).
    """
    module = sys.modules[solution.__module__]
    module_source = inspect.getsource(module)
    solved = next(
        node
        for node in ast.walk(ast.parse(module_source))
        if isinstance(node, ast.FunctionDef) and node.name == solution.__name__
    )
    starter_tree = ast.parse(cell_source)
    starter = next(
        node
        for node in starter_tree.body
        if isinstance(node, ast.FunctionDef) and node.name == name
    )
    if _parameters(starter) != _parameters(solved):
        raise InputError(
            f"the {name} exercise",
            f"the starter takes ({', '.join(_parameters(starter))}) but the solution takes "
            f"({', '.join(_parameters(solved))})",
            "give the solution in hookcourse/solutions/ the starter's parameters",
        )
    body = solved.body
    if ast.get_docstring(solved) is not None:
        body = body[1:]
    solution_lines = module_source.splitlines()
    first = body[0].lineno
    # Keep comment lines between the docstring and the first statement.
    while first > 1 and solution_lines[first - 2].lstrip().startswith("#"):
        first -= 1
    assert solved.end_lineno is not None
    region = textwrap.dedent("\n".join(solution_lines[first - 1 : solved.end_lineno]))
    cell_bound = {
        getattr(node, "name", "")
        for node in starter_tree.body
        if isinstance(node, ast.FunctionDef | ast.ClassDef)
    } | set(bound)
    for node in starter_tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            cell_bound |= {alias.asname or alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.Assign):
            # a, b = f() binds both: every name among the targets
            cell_bound |= {
                n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)
            }
    needed = free_names(body, set(_parameters(solved)) | cell_bound)
    before = _prerequisites(module_source, needed, cell_bound)
    indent = " " * starter.body[0].col_offset
    inner = [BEGIN, *before, *([""] if before else []), *region.splitlines(), END]
    filled = [indent + line if line else "" for line in inner]
    cell_lines = cell_source.splitlines()
    keep = starter.body[0].end_lineno if ast.get_docstring(starter) is not None else starter.lineno
    assert keep is not None and starter.end_lineno is not None
    out = [*cell_lines[:keep], *filled, *cell_lines[starter.end_lineno :]]
    return "\n".join(out)


# -- teacher and student builds ------------------------------------------------------------------


@dataclass(frozen=True)
class Built:
    """One notebook of a build and the exercise functions in it."""

    notebook: Path
    exercises: tuple[str, ...]


def _fresh_folder(target: Path) -> None:
    if target.exists() and any(target.iterdir()):
        raise InputError(
            str(target), "already exists and is not empty", "name a new folder, or remove it first"
        )
    target.mkdir(parents=True, exist_ok=True)


def _set_source(cell: dict[str, Any], text: str) -> None:
    cell["source"] = text.splitlines(keepends=True)


def build(target: Path, teacher: bool, course: Path = COURSE) -> list[Built]:
    """Write the course into ``target``: every notebook with outputs cleared, its data and
    hook scripts alongside, and for the teacher every exercise cell solved with the
    registry's solution. The student build is marked as a working copy, so the checks
    its learners run record their progress there.

    The teacher build still has to be executed (``execute_build``) for its outputs.
    """
    notebooks = course_notebooks(course)
    _fresh_folder(target)
    built = []
    for path in notebooks:
        notebook = cleared(read_notebook(path))
        found = list(exercise_cells(notebook, exercise_names()))
        for index, name in found if teacher else []:
            cell = notebook["cells"][index]
            before = bound_before(notebook, index)
            solved = solution_cell(source(cell), name, _solution(name, path, index), before)
            _set_source(cell, solved)
        write_notebook(target / path.name, notebook)
        built.append(Built(target / path.name, tuple(name for _, name in found)))
    for item in sorted(course.iterdir()):
        if item.suffix != ".ipynb" and item.name not in LEFTOVERS:
            _copy_item(item, target / item.name)
    if not teacher:
        mark_work(target)
    return built


def bound_before(notebook: Notebook, index: int) -> set[str]:
    """Names the code cells before cell ``index`` assign at their top level (such as
    ``match_hook, run_stop_loop = mine(...)``): the exercise cell may use them."""
    bound: set[str] = set()
    for cell in notebook["cells"][:index]:
        if cell.get("cell_type") != "code":
            continue
        try:
            tree = ast.parse(source(cell))
        except SyntaxError:
            continue
        for node in tree.body:
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    names = target.elts if isinstance(target, ast.Tuple) else [target]
                    bound |= {n.id for n in names if isinstance(n, ast.Name)}
    return bound


def _solution(name: str, notebook: Path, index: int) -> Callable[..., object]:
    """The registry's solution of the exercise ``name``, or an InputError naming the cell."""
    exercise = exercise_named(name)
    assert exercise is not None  # exercise_cells finds only the registry's functions
    try:
        solution = resolve(exercise.solution)
    except (ImportError, AttributeError) as error:
        raise InputError(
            f"{notebook.name} cell {index}",
            f"the solution {exercise.solution} cannot be loaded ({error})",
            f"write {name} in hookcourse/solutions/ (the registry names it)",
        ) from None
    if not callable(solution):
        raise InputError(
            f"{notebook.name} cell {index}",
            f"the solution {exercise.solution} is not a function",
            f"write {name} in hookcourse/solutions/ as a function",
        )
    return cast(Callable[..., object], solution)


def check_reports(notebook: Notebook) -> list[dict[str, Any]]:
    """Every check report a notebook's outputs carry (the checks' data, not their text)."""
    return [found for cell in notebook["cells"] for found in reports_in(cell.get("outputs", []))]


def unpassed(notebook: Notebook, exercises: Iterable[str]) -> list[tuple[str, str]]:
    """(exercise, why) for each exercise whose own check did not pass in these outputs;
    ``why`` is the check's summary without the exercise's name in front."""
    reports = check_reports(notebook)
    missing = []
    for name in exercises:
        own = [r for r in reports if r.get("exercise") == name and r.get("subject") == name]
        if not own:
            missing.append((name, "its check printed no report"))
        elif not all(r.get("passed") is True for r in own):
            said = str(next(r for r in own if not r.get("passed"))["summary"])
            missing.append((name, said.removeprefix(f"{name}: ")))
    return missing


def execute_build(built: Iterable[Built], timeout: int = 300) -> None:
    """Execute each notebook in its folder and store its outputs (without widget views,
    which would outlive their kernel); then insist that every exercise's check passed,
    naming every notebook and exercise that did not, after running them all."""
    try:
        import nbclient
        import nbformat
    except ImportError:
        raise InputError(
            "workshop build --teacher",
            "the lab tools (nbclient) are not installed",
            "run scripts/bootstrap.sh lab, then .venv/bin/hookcourse",
        ) from None
    from hookcourse.course.server import without_widget_views

    notebooks = list(built)
    problems: list[str] = []
    failed_names: list[str] = []
    for item in notebooks:
        # nbformat's readers carry no type hints.
        text = item.notebook.read_text(encoding="utf-8")
        notebook = nbformat.reads(text, as_version=4)  # type: ignore[no-untyped-call]
        client = nbclient.NotebookClient(
            notebook,
            timeout=timeout,
            kernel_name="python3",
            # ipykernel warns on every start that TCP is unencrypted: noise on one machine.
            extra_arguments=["--IPKernelApp.log_level=ERROR"],
            resources={"metadata": {"path": str(item.notebook.parent)}},
        )
        try:
            client.execute()
        except Exception as error:  # a cell's error, a timeout, a kernel that died
            # A cell's error carries its name and value (its text is a coloured traceback).
            ename, evalue = getattr(error, "ename", None), getattr(error, "evalue", None)
            said = f"{ename}: {evalue}" if ename else str(error).strip() or type(error).__name__
            problems.append(
                f"{item.notebook.name} did not run to the end ({said.splitlines()[-1]})"
            )
            failed_names += item.exercises
            continue
        without_widget_views(notebook)
        write_notebook(item.notebook, notebook)
        for name, why in unpassed(notebook, item.exercises):
            problems.append(f"{item.notebook.name}: the check of {name} did not pass ({why})")
            failed_names.append(name)
    if problems:
        where = str(notebooks[0].notebook.parent)
        names = ", ".join(dict.fromkeys(failed_names))
        fix = f"fix {names} in hookcourse/solutions/" if names else "fix the notebook"
        raise InputError(where, "; ".join(problems), fix)


# -- scripts/lab.sh's helpers --------------------------------------------------------------------


def server_url(info: dict[str, Any], notebook: str) -> str:
    """The direct address of ``notebook`` on a running server, token included."""
    url = str(info.get("url") or "http://localhost:8888/").rstrip("/")
    token = info.get("token") or ""
    return f"{url}/lab/tree/{notebook}" + (f"?token={token}" if token else "")


def _answers(info: dict[str, Any]) -> bool:
    """True once the server answers HTTP at all (any status): it is serving."""
    import urllib.error
    import urllib.request

    status = str(info.get("url") or "").rstrip("/") + "/api/status"
    try:
        with urllib.request.urlopen(status, timeout=2):
            return True
    except urllib.error.HTTPError:
        return True
    except (OSError, ValueError):
        return False


def wait_for_server(pid: int, runtime_dir: Path, deadline: float = 120.0) -> dict[str, Any] | None:
    """What JupyterLab ``pid`` wrote in its runtime file, once it serves; None if it exits
    or the deadline passes first."""
    import time

    started = time.monotonic()
    info_file = runtime_dir / f"jpserver-{pid}.json"
    while time.monotonic() - started < deadline:
        try:
            loaded = json.loads(info_file.read_text(encoding="utf-8"))
            if isinstance(loaded, dict) and _answers(loaded):
                return loaded
        except (OSError, json.JSONDecodeError):  # not written yet, or half written
            pass
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return None
        except PermissionError:  # alive, owned by someone else
            pass
        time.sleep(0.1)
    return None


def running_server(work: Path, runtime_dir: Path) -> dict[str, Any] | None:
    """A live JupyterLab already serving ``work`` (from its runtime file), or None."""
    for info_file in sorted(runtime_dir.glob("jpserver-*.json")):
        try:
            info = json.loads(info_file.read_text(encoding="utf-8"))
            served = Path(str(info["root_dir"])).resolve()
            os.kill(int(info["pid"]), 0)
        except (OSError, ValueError, KeyError, TypeError):  # unreadable, or its server is gone
            continue
        if served == work.resolve() and _answers(info):
            return dict(info)
    return None


def _lab_main(argv: list[str]) -> int:
    """``prepare COURSE WORK``, ``running WORK NOTEBOOK`` and ``url PID NOTEBOOK``, for
    scripts/lab.sh only."""
    if argv[:1] == ["prepare"] and len(argv) == 3:
        course, work = Path(argv[1]), Path(argv[2])
        fresh = not (work / MARKER).exists()
        added = prepare_work(course, work)
        if fresh:
            print(f"hookcourse: made your working copy of the course in {work}", file=sys.stderr)
        elif added:
            print(f"hookcourse: new from the course: {', '.join(added)}", file=sys.stderr)
        return 0
    if argv[:1] == ["running"] and len(argv) == 3:
        from jupyter_core.paths import jupyter_runtime_dir

        info = running_server(Path(argv[1]), Path(jupyter_runtime_dir()))
        if info is None:
            return 1
        print(
            f"hookcourse: JupyterLab already serves your notebooks (stop it with: kill "
            f"{info['pid']}); they are at {server_url(info, argv[2])}",
            flush=True,
        )
        return 0
    if argv[:1] == ["url"] and len(argv) == 3:
        from jupyter_core.paths import jupyter_runtime_dir

        info = wait_for_server(int(argv[1]), Path(jupyter_runtime_dir()))
        if info is None:
            return 1
        print(f"hookcourse: your notebooks are at {server_url(info, argv[2])}", flush=True)
        return 0
    commands = "prepare COURSE WORK | running WORK NOTEBOOK | url PID NOTEBOOK"
    print(f"usage: python -m hookcourse.course.workshop {commands}", file=sys.stderr)
    return 2


# -- the command line: `hookcourse reset` and `hookcourse workshop` ------------------------------


def _write(path: str, text: str) -> None:
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as error:
        raise InputError(path, f"cannot be written ({error.strerror})", "check the path") from None


def run_command(args: Any) -> int:
    """Run ``reset`` or ``workshop build|report`` from parsed arguments; the exit status.

    A file system error is one line (InputError); an interrupt is one line and 130.
    """
    try:
        if args.command == "reset":
            return _reset_command(args.notebooks, args.all, getattr(args, "my_hooks", False))
        if args.action == "build":
            return _build_command(args.teacher, args.student)
        return _report_command(args.paths, args.html, args.csv)
    except OSError as error:
        where = error.filename or args.command
        reason = error.strerror or str(error)
        raise InputError(str(where), reason, "check the path and its permissions") from None
    except KeyboardInterrupt:
        print("hookcourse: interrupted; what it was writing may be incomplete", file=sys.stderr)
        return INTERRUPTED


def _build_command(teacher_dir: str | None, student_dir: str | None) -> int:
    teacher = teacher_dir is not None
    target = Path(teacher_dir or student_dir or ".")
    built = build(target, teacher)
    found = {name for item in built for name in item.exercises}
    absent = [e.function for e in registry.EXERCISES if e.function not in found]
    if absent:
        raise InputError(
            str(COURSE),
            f"no notebook has the exercise cell of {', '.join(absent)}",
            "restore the notebooks from git (the registry names each exercise's notebook)",
        )
    if teacher:
        print(f"hookcourse: executing {len(built)} notebooks in {target}", file=sys.stderr)
        execute_build(built)
    solved = len(registry.EXERCISES)
    kind = f"teacher build ({solved} exercises solved, every exercise's check passed)"
    print(f"wrote the {kind if teacher else 'student build (starters)'}: {target}")
    return 0


def _reset_command(names: list[str], every: bool, module: bool = False) -> int:
    if (every and names) or not (every or names or module):
        raise InputError(
            "reset", "name the notebooks to restore, or --all", "e.g. hookcourse reset 01"
        )
    chosen = [path.name for path in course_notebooks()] if every else names
    for done in reset(chosen):
        kept = f" (yours is now {done.backup.relative_to(WORK)})" if done.backup else ""
        print(f"restored {done.notebook.relative_to(WORK.parent)} from the course{kept}")
    if module:
        backup = reset_module()
        moved = f"moved to {backup.relative_to(WORK)}" if backup else "there was none"
        print(f"my_hooks.py starts afresh at the next check ({moved})")
    return 0


def _report_command(paths: list[str], html_file: str | None, csv_file: str | None) -> int:
    from hookcourse.course import report

    sources, warnings = report.find_sources(paths)
    runs, unreadable = report.read_sources(sources)
    warnings += unreadable
    for warning in warnings:
        print(f"hookcourse: warning: {warning}", file=sys.stderr)
    if not runs:
        raise InputError(
            " ".join(paths), "holds no progress records", "pass learners' progress.jsonl files"
        )
    summary = report.ClassReport.build(runs, warnings)
    if html_file:
        _write(html_file, report.to_html(summary))
    if csv_file:
        _write(csv_file, report.to_csv(summary))
    if not html_file and not csv_file:
        print(report.text(summary))
    else:
        written = " and ".join(name for name in (html_file, csv_file) if name)
        print(f"class report: {len(summary.learners)} learners, written to {written}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(_lab_main(sys.argv[1:]))
    except InputError as error:
        print(f"hookcourse: {error}", file=sys.stderr)
        sys.exit(1)
    except OSError as error:
        print(f"hookcourse: {error.filename}: {error.strerror or error}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(INTERRUPTED)
