"""The teacher build's splice: each exercise cell's starter function replaced by the teacher's
solution, in the starter's shape, with the imports, constants and helpers it needs.
"""

from __future__ import annotations

import ast
import builtins
import copy
import inspect
import sys
import textwrap
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Final, cast

from hookcourse.course.teaching.notebook_files import Notebook, source
from hookcourse.errors import InputError
from hookcourse.stages import registry
from hookcourse.stages.registry import exercise_named, resolve

EXERCISE_TAG: Final = "exercise"
BEGIN: Final = "# BEGIN SOLUTION"
END: Final = "# END SOLUTION"


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


def teachers_solution(name: str, notebook: Path, index: int) -> Callable[..., object]:
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
