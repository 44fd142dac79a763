"""A process edge that a run may swap: the same call, answered another way for a while.

Where a program meets the world (hooks started as processes, tools run in a shell), the
code around it must stay one: a recorded run replayed in the browser, where nothing can
start, or a real run recorded, changes only what answers at the edge. An ``Edge`` is
called like the function it wraps; ``swapped(other)`` makes ``other`` answer instead
until the ``with`` block ends (the innermost swap wins), and it is undone on any exit.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Generic, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


class Edge(Generic[P, R]):
    """``real`` unless a swap is in force, then the innermost swap's function."""

    def __init__(self, real: Callable[P, R]) -> None:
        self.real = real
        self._instead: list[Callable[P, R]] = []

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        answer = self._instead[-1] if self._instead else self.real
        return answer(*args, **kwargs)

    @property
    def swapped_now(self) -> bool:
        return bool(self._instead)

    @contextlib.contextmanager
    def swapped(self, instead: Callable[P, R]) -> Iterator[None]:
        """``instead`` answers every call made inside the block."""
        self._instead.append(instead)
        try:
            yield
        finally:
            self._instead.remove(instead)
