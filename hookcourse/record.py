"""Small value types for the grader's import path.

``dataclasses`` and ``enum`` cost the grader more start-up time than everything
else it imports together (they pull in ``inspect``, ``re`` and ``functools``),
so the course's result types use these instead: a ``Record`` is an immutable
value object whose fields are its ``__slots__``; a ``Choice`` is a string with
a fixed set of named values.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any, Self


class Record:
    """Base for immutable records.

    A subclass names its fields, in order, as ``_fields = (...)`` and sets
    ``__slots__ = _fields``; its ``__init__`` calls ``self._fill(...)`` once.
    """

    __slots__ = ()
    _fields: tuple[str, ...] = ()

    def _fill(self, *values: Any) -> None:
        """Set every field once, in ``_fields`` order (call from the subclass's ``__init__``)."""
        for name, value in zip(self._fields, values, strict=True):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot set {name}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot delete {name}")

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self._fields)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        # Equal records hash alike: fields compare with ==, under which {"n": 1} equals
        # {"n": 1.0} and key order does not count, so dicts and lists are frozen the same way.
        return hash((type(self).__name__, *map(_frozen, self._values())))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({fields})"


def _frozen(value: object) -> object:
    """A hashable stand-in for ``value`` that is equal exactly when the values are equal."""
    if isinstance(value, dict):
        return frozenset((key, _frozen(item)) for key, item in value.items())
    if isinstance(value, list):
        return ("list", *map(_frozen, value))
    return value


class _ChoiceType(type):
    def __iter__(cls) -> Iterator[Choice]:
        """The named values, in definition order."""
        return iter([value for value in vars(cls).values() if isinstance(value, cls)])


class Choice(str, metaclass=_ChoiceType):
    """A string from a fixed set.

    A subclass lists its strings as ``_allowed = ("a", "b")`` and names them as class
    attributes; constructing it from any other string raises ValueError.
    """

    __slots__ = ()
    _allowed: tuple[str, ...] = ()

    def __new__(cls, value: str) -> Self:
        if value not in cls._allowed:
            choices = ", ".join(map(repr, cls._allowed))
            raise ValueError(f"{value!r} is not a {cls.__name__}; choose one of {choices}")
        return super().__new__(cls, value)

    @property
    def value(self) -> str:
        """The plain string, as ``Enum.value`` gives it."""
        return str(self)
