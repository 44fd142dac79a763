"""Whose code a check is about: the learner's own, or the course's reached through a wrapper.

A check passes only the learner's own code. The course's implementations (everything in
``hookcourse`` but the JavaScript helpers of ``hookcourse.js``, which the notebooks hand
out) compute every answer, so a function that calls one of them, even through a lambda,
an inner function, a helper of the notebook, a module attribute, a closure cell or a
default, is not the learner's. The search follows what the code can reach by name
(the names its code objects load, their string constants for ``getattr``), not every
path Python allows: it catches a wrapper, not a determined disguise. A road built while
the code runs (``importlib.import_module``, ``__import__``, ``sys.modules``, ``getattr``
of a computed name) is seen as it is taken: ``Watch`` follows the calls of a running check.
"""

from __future__ import annotations

import functools
import sys
import types
from collections.abc import Iterator
from typing import Final

COURSE: Final = "hookcourse"
# What the notebooks hand out: the JavaScript semantics they teach with, and notebook 07's
# tokenizer of simple commands.
HELPERS: Final = ("hookcourse.js", "hookcourse.course.labs.shell_words")
TEACHER: Final = "hookcourse.solutions"  # and each graded stage's own solution module
_MOST_OBJECTS: Final = 20_000  # a bound on the search, far above any notebook's reach


def _module_of(value: object) -> str:
    module = getattr(value, "__module__", None)
    return module if isinstance(module, str) else ""


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def _is_teacher(module: str) -> bool:
    stage_solution = _within(module, "hookcourse.stages") and module.endswith(".solution")
    return _within(module, TEACHER) or stage_solution


def _is_course(module: str) -> bool:
    return _within(module, COURSE) and not any(_within(module, h) for h in HELPERS)


def dotted_name(fn: object) -> str:
    """``hookcourse.stages.matcher_and_dispatch.reference.match_hook``: a course function's name."""
    return f"{_module_of(fn)}.{getattr(fn, '__qualname__', type(fn).__name__)}"


def course_function(fn: object) -> str | None:
    """The dotted name of ``fn`` when it is itself the course's implementation, else None.

    The teacher's solutions (``hookcourse.solutions``, each stage's ``solution``) are
    checked like a learner's.
    """
    module = _module_of(fn)
    if not _is_course(module) or _is_teacher(module):
        return None
    return dotted_name(fn)


def _code_names(code: types.CodeType) -> tuple[set[str], set[str]]:
    """The names ``code`` and every code object nested in it load, and their string
    constants (which ``getattr`` may look up)."""
    loaded, constants = set(code.co_names), set()
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            inner_loaded, inner_constants = _code_names(constant)
            loaded |= inner_loaded
            constants |= inner_constants
        elif isinstance(constant, str) and constant.isidentifier():
            constants.add(constant)
    return loaded, constants


def _cell_contents(cell: types.CellType) -> list[object]:
    try:
        return [cell.cell_contents]
    except ValueError:  # a cell not filled yet
        return []


def _reached(value: object, names: set[str]) -> Iterator[tuple[object, set[str]]]:
    """What ``value`` can call: each object, with the names that may be looked up in it."""
    if isinstance(value, types.FunctionType):
        loaded, constants = _code_names(value.__code__)
        own = loaded | constants
        for name in loaded:
            if name in value.__globals__:
                yield value.__globals__[name], own
            if name in sys.modules:  # ``import hookcourse.stages.<stage>.reference`` in its body
                yield sys.modules[name], own
        for cell in value.__closure__ or ():
            yield from ((content, own) for content in _cell_contents(cell))
        yield from ((default, own) for default in value.__defaults__ or ())
        yield from ((default, own) for default in (value.__kwdefaults__ or {}).values())
        if hasattr(value, "__wrapped__"):  # functools.wraps
            yield value.__wrapped__, own
    elif isinstance(value, types.ModuleType | type):
        members = vars(value)
        yield from ((members[name], names) for name in names if name in members)
    elif isinstance(value, functools.partial):
        yield from ((part, names) for part in (value.func, *value.args, *value.keywords.values()))
    elif isinstance(value, types.MethodType | staticmethod | classmethod):
        yield value.__func__, names
    elif isinstance(value, tuple | list | set | frozenset):
        yield from ((item, names) for item in value)
    elif isinstance(value, dict):
        yield from ((item, names) for item in value.values())
    elif callable(value) and isinstance(vars(type(value)).get("__call__"), types.FunctionType):
        yield type(value), names | {"__call__"}  # an instance of a class with __call__


def handed_to(fn: object) -> str | None:
    """The dotted name of a course function that the learner's ``fn`` calls, else None."""
    if _within(_module_of(fn), COURSE):  # the course's own or the teacher's: judged as is
        return None
    seen: set[object] = set()
    waiting: list[tuple[object, set[str]]] = [(fn, set())]
    while waiting and len(seen) < _MOST_OBJECTS:
        value, names = waiting.pop()
        # A function looks up its own names; a module or class, those of what reached it.
        key = id(value) if isinstance(value, types.FunctionType) else (id(value), *sorted(names))
        if key in seen:
            continue
        seen.add(key)
        module = _module_of(value)
        calls_course = callable(value) and not isinstance(value, type) and _is_course(module)
        if calls_course and not isinstance(value, types.ModuleType):
            return dotted_name(value)
        if not any(_within(module, helper) for helper in HELPERS):
            waiting.extend(_reached(value, names))
    return None


class Watch:
    """The first course function a running call of the learner's code reached, or None.

    ``profile`` is a ``sys.setprofile`` hook. A call counts when it enters the course's
    implementations or one of the teacher's graded functions (``teacher``, as
    ``module:qualname``), unless it is made from inside a helper the notebooks hand out.
    The teacher's own helpers (which the teacher build's cells import) and imports (a
    module's body) do not count.
    """

    def __init__(self, teacher: frozenset[str]) -> None:
        self.teacher = teacher
        self.reached: str | None = None

    def profile(self, frame: types.FrameType, event: str, _arg: object) -> None:
        if event != "call" or self.reached is not None:
            return
        module, code = frame.f_globals.get("__name__"), frame.f_code
        if not isinstance(module, str) or not _is_course(module) or code.co_name == "<module>":
            return
        if _is_teacher(module) and f"{module}:{code.co_qualname}" not in self.teacher:
            return
        back = frame.f_back
        while back is not None:
            caller = back.f_globals.get("__name__")
            if isinstance(caller, str) and any(_within(caller, h) for h in HELPERS):
                return
            back = back.f_back
        self.reached = f"{module}.{code.co_qualname}"


def watch_for(fn: object, teacher: frozenset[str]) -> Watch | None:
    """A watch for a learner's ``fn``; None for the course's own and the teacher's, which
    are judged as they are."""
    return None if _within(_module_of(fn), COURSE) else Watch(teacher)
