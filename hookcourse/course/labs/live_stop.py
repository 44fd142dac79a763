"""The graded ``run_stop_loop`` driving a live Stop hook (the Stop lab and notebook 08).

The stage stop-loop hands ``run_stop_loop(hook, cap)`` a hook described by its two
canned answers, ``{"whenInactive": {...}, "whenActive": {...}}``. A ``LiveStopHook`` is
the same mapping with answers worked out when they are read: the function, graded as
it is, then runs a real hook, once per stop attempt. Light to import (the session
runner of ``hookcourse session --engine`` uses it too).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Final

from hookcourse.js.values import JSValue
from hookcourse.stages.stop_loop.reference import DEFAULT_CAP

LiveAnswer = Callable[[bool], Mapping[str, JSValue]]
"""A live Stop hook: given ``stop_hook_active``, run it, return ``{code, stdout, stderr}``."""
ANSWER_KEYS: Final = ("whenInactive", "whenActive")


class LiveStopHook(Mapping[str, Mapping[str, JSValue]]):
    """A Stop hook in the graded stage's shape whose answers come from a live hook.

    ``hook["whenInactive"]`` runs the hook with ``stop_hook_active`` false and
    ``hook["whenActive"]`` with true: every lookup is one stop attempt, run when it is
    read. A ``run_stop_loop`` that reads one answer per attempt, as the stage's page
    walks it, drives the live hook unchanged; ``asked`` records each attempt.
    """

    def __init__(self, answer: LiveAnswer) -> None:
        self._answer = answer
        self.asked: list[tuple[bool, dict[str, JSValue]]] = []

    def __getitem__(self, key: str) -> Mapping[str, JSValue]:
        if key not in ANSWER_KEYS:
            raise KeyError(key)
        active = key == "whenActive"
        result = dict(self._answer(active))
        self.asked.append((active, result))
        return dict(result)  # a copy: the learner's loop may change what it reads

    def __iter__(self) -> Iterator[str]:
        return iter(ANSWER_KEYS)

    def __len__(self) -> int:
        return len(ANSWER_KEYS)

    def __repr__(self) -> str:
        return f"LiveStopHook({len(self.asked)} attempt(s) so far)"


StopLoop = Callable[[Mapping[str, Mapping[str, JSValue]], int], object]
"""The graded stage's function: ``run_stop_loop(hook, cap)``."""


def live_stop_loop(
    answer: LiveAnswer, cap: int = DEFAULT_CAP, run_stop_loop: StopLoop | None = None
) -> tuple[object, LiveStopHook]:
    """``run_stop_loop(hook, cap)`` (yours, else the teacher's) with ``hook`` a live Stop hook
    that runs ``answer`` at each attempt; what it returned, and the hook with its attempts."""
    if run_stop_loop is None:
        from hookcourse.stages.stop_loop.solution import run_stop_loop as teachers

        run_stop_loop = teachers
    hook = LiveStopHook(answer)
    return run_stop_loop(hook, cap), hook
