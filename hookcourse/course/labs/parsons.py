"""``parsons``: put the given lines of a function in order before writing it.

A Parsons problem (notebooks 05 and 06, before the merge and the Stop loop) shows a
function's steps shuffled and numbered; the learner answers with the numbers in the
order the steps run, and ``check`` says how many come first in the right place and, for
the first one that does not, what has to come there first. The right order lives in
package data (``hookcourse/data/parsons.json``), so the notebook's source shows none.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any


@dataclass(frozen=True)
class Step:
    """One line of the puzzle, and why it comes where it does."""

    line: str
    why: str


@dataclass(frozen=True)
class Parsons:
    """The steps in their right order, and the order they are shown in (a shuffle)."""

    name: str
    steps: tuple[Step, ...]
    shown: tuple[int, ...]  # shown[k] is the index in ``steps`` of the line numbered k + 1

    def text(self) -> str:
        """The shuffled lines, numbered from 1."""
        return "\n".join(
            f"{number:>2}  {self.steps[index].line}" for number, index in enumerate(self.shown, 1)
        )

    def __repr__(self) -> str:
        return self.text()

    def check(self, order: object) -> str:
        """What the order ``order`` (line numbers, first step first) gets right, and the hint
        for the first step out of place."""
        count = len(self.steps)
        numbers = list(order) if isinstance(order, list | tuple) else None
        if numbers is None or not all(
            isinstance(n, int) and not isinstance(n, bool) for n in numbers
        ):
            return f"give a list of line numbers, such as {list(range(1, count + 1))}"
        if sorted(numbers) != list(range(1, count + 1)):
            missing = sorted(set(range(1, count + 1)) - set(numbers))
            twice = sorted({n for n in numbers if numbers.count(n) > 1})
            extra = sorted({n for n in numbers if not 1 <= n <= count})
            said = [
                f"{label} {', '.join(map(str, found))}"
                for label, found in (
                    ("missing", missing),
                    ("twice", twice),
                    ("no such line", extra),
                )
                if found
            ]
            return f"use each of the lines 1 to {count} once ({'; '.join(said)})"
        placed = [self.shown[n - 1] for n in numbers]
        right = next((k for k, index in enumerate(placed) if index != k), count)
        if right == count:
            return f"right: all {count} steps in order"
        step = self.steps[right]
        placed_so_far = {0: "", 1: "the first step is in place; "}.get(
            right, f"the first {right} steps are in place; "
        )
        return (
            f"{placed_so_far}step {right + 1} is not line {numbers[right]}. "
            f"What must come next: {step.why}"
        )


@cache
def _puzzles() -> dict[str, Any]:
    text = resources.files("hookcourse").joinpath("data/parsons.json").read_text("utf-8")
    puzzles: dict[str, Any] = json.loads(text)["puzzles"]
    return puzzles


def parsons(name: str) -> Parsons:
    """The puzzle ``name`` from the course's data, its lines shuffled the same way each time."""
    entry = _puzzles().get(name)
    if entry is None:
        raise KeyError(f"no puzzle {name!r}; the puzzles are {', '.join(_puzzles())}")
    steps = tuple(Step(step["line"], step["why"]) for step in entry["steps"])
    shown = list(range(len(steps)))
    shuffle = random.Random(name)
    while shown == sorted(shown):  # a shuffle that happens to be the answer would give it away
        shuffle.shuffle(shown)
    return Parsons(name, steps, tuple(shown))
