"""What a graded stage's folder says about itself: its ``Stage`` and the ``Exercise`` in it.

A stage folder's ``reference.py`` ends with ``STAGE = Stage(__name__, title, command,
Exercise(...), ...)``; the registry finds it there (``registry.discover``). The slug is
the folder's name with ``-`` for ``_``; a dotted path without a package (``"classify:
match_family"``) names a module of the stage's own folder. What lives above this layer
(classifiers, generators, solutions) is named by such paths and imported only when asked
(``resolve``), so the grader's cold start imports the references alone.

Kept to ``record``: the grader's cold path imports this.
"""

from __future__ import annotations

from hookcourse.record import Record

TYPE_CHECKING = False  # typing would cost the grader's cold start
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Final

    from hookcourse.js.values import JSValue
    from hookcourse.stages.decoding import Decoded

    Dotted = str  # "package.module:attribute", resolved by ``resolve``

DEFAULT_FAMILY: Final = "cases"


def resolve(dotted: Dotted) -> Any:
    """The object a ``"module:attribute"`` path names (imported on first use)."""
    module_name, _, attribute = dotted.partition(":")
    module = __import__(module_name, fromlist=["_"])  # the builtin: no importlib at cold start
    return getattr(module, attribute)


def _within(package: str, dotted: Dotted | None) -> Dotted | None:
    """``dotted`` with a module of the stage folder ``package`` spelt out in full."""
    if dotted is None or "." in dotted.partition(":")[0]:
        return dotted
    return f"{package}.{dotted}"


def js_name(function: str) -> str:
    """The function's name in the stage pages' JavaScript: ``match_hook`` is ``matchHook``."""
    head, *rest = function.split("_")
    return head + "".join(word[:1].upper() + word[1:] for word in rest)


class Exercise(Record):
    """One function the learner writes, and everything the course knows about it.

    ``function`` is its Python name (``js_name`` gives the JavaScript one); ``stage`` the
    slug its progress is recorded under (a graded stage's, filled in by its ``Stage``, or
    its own); ``notebook`` (without ``.ipynb``) holds its exercise cell, and the notebooks'
    order is the course order; ``check`` is the name of its self-check in
    ``hookcourse.course.checks.exercises``. ``reference`` is the course's answer, called on
    ``decode(case).parsed``; the learner's function gets ``decode(case).given``.
    ``case_key`` and ``output_key`` ("" outside a graded stage) are its lists in the case
    file and the printed document, ``fields`` the keys of one case in argument order, and
    ``defaults`` what a field left out (or null) reads as, as the program's ``x.cap ?? 8``.
    ``families`` are its hint families; ``classify`` (dotted) tells a decoded case's
    family; ``generate`` (dotted) draws fresh cases from a ``random.Random``; ``solution``
    (dotted; default ``solution:<function>`` in a stage folder) is the teacher's function;
    ``hinted`` (dotted), when set, picks the family whose hint fits one wrong field;
    ``runner`` (dotted), when set, is a check of its own instead of the case loop.
    """

    _fields = (
        "function",
        "stage",
        "notebook",
        "check",
        "reference",
        "decode",
        "case_key",
        "output_key",
        "fields",
        "defaults",
        "families",
        "classify",
        "generate",
        "solution",
        "hinted",
        "runner",
    )
    __slots__ = _fields
    function: str
    stage: str
    notebook: str
    check: str
    reference: Callable[..., Any] | Dotted
    decode: Callable[[JSValue], Decoded] | None
    case_key: str
    output_key: str
    fields: tuple[str, ...]
    defaults: dict[str, JSValue]
    families: tuple[str, ...]
    classify: Dotted | None
    generate: Dotted | None
    solution: Dotted
    hinted: Dotted | None
    runner: Dotted | None

    def __init__(
        self,
        function: str,
        *,
        notebook: str,
        check: str,
        reference: Callable[..., Any] | Dotted,
        families: tuple[str, ...],
        stage: str = "",
        solution: Dotted | None = None,
        decode: Callable[[JSValue], Decoded] | None = None,
        case_key: str = "",
        output_key: str = "",
        fields: tuple[str, ...] = (),
        defaults: dict[str, JSValue] | None = None,
        classify: Dotted | None = None,
        generate: Dotted | None = None,
        hinted: Dotted | None = None,
        runner: Dotted | None = None,
    ) -> None:
        self._fill(
            function,
            stage,
            notebook,
            check,
            reference,
            decode,
            case_key,
            output_key,
            fields,
            defaults or {},
            families,
            classify,
            generate,
            solution or f"solution:{function}",
            hinted,
            runner,
        )

    def in_stage(self, slug: str, package: str) -> Exercise:
        """This exercise as the stage ``slug`` (folder ``package``) holds it: its paths full."""
        values = dict(zip(self._fields, self._values(), strict=True))
        values.update(
            stage=slug,
            classify=_within(package, self.classify),
            generate=_within(package, self.generate),
            solution=_within(package, self.solution),
            hinted=_within(package, self.hinted),
            runner=_within(package, self.runner),
        )
        held = object.__new__(Exercise)
        held._fill(*(values[name] for name in self._fields))
        return held

    @property
    def js_name(self) -> str:
        """Its name in the stage pages' JavaScript (``matchHook`` for ``match_hook``)."""
        return js_name(self.function)

    def reference_function(self) -> Callable[..., Any]:
        """The course's own implementation (resolved when named by path)."""
        reference = self.reference
        return resolve(reference) if isinstance(reference, str) else reference

    def read(self, case: JSValue) -> Decoded:
        """One case read once (``CaseError`` where the JavaScript reference throws)."""
        if self.decode is None:
            raise TypeError(f"{self.function} has no case files to decode")
        return self.decode(case)

    def answer(self, case: JSValue) -> JSValue:
        """The reference's answer to one case, as the JSON value the program prints."""
        return self.answer_decoded(self.read(case))

    def answer_decoded(self, decoded: Decoded) -> JSValue:
        """The reference's answer to a case already read."""
        return as_json(self.reference_function()(*decoded.parsed))

    def family(self, decoded: Decoded) -> str:
        """The hint family of one decoded case (``cases`` when it has no classifier)."""
        if self.classify is None:
            return DEFAULT_FAMILY
        family: str = resolve(self.classify)(decoded)
        return family


def as_json(result: Any) -> JSValue:
    """A reference's result as JSON: records by their ``to_json``, lists item by item."""
    if isinstance(result, list):
        return [as_json(item) for item in result]
    to_json = getattr(result, "to_json", None)
    answered: JSValue = to_json() if to_json is not None else result
    return answered


class Stage(Record):
    """One graded stage: ``slug`` (its folder's name, ``-`` for ``_``), title, grader
    command, its exercises in the order the program prints them, and ``package``, its
    folder as a Python package (``hookcourse.stages.matcher_and_dispatch``)."""

    _fields = ("slug", "title", "command", "exercises", "package")
    __slots__ = _fields
    slug: str
    title: str
    command: str
    exercises: tuple[Exercise, ...]
    package: str

    def __init__(self, module: str, title: str, command: str, *exercises: Exercise) -> None:
        """``module`` is the ``__name__`` of the folder's ``reference.py``."""
        package = module.rpartition(".")[0] if module.endswith(".reference") else module
        slug = package.rpartition(".")[2].replace("_", "-")
        held = tuple(exercise.in_stage(slug, package) for exercise in exercises)
        self._fill(slug, title, command, held, package)

    @property
    def output_keys(self) -> tuple[str, ...]:
        """The printed document's keys, in the order the program writes them."""
        return tuple(exercise.output_key for exercise in self.exercises)

    @property
    def notebook(self) -> str:
        """The notebook of its first exercise: where the stage stands in the course."""
        return min(exercise.notebook for exercise in self.exercises)
