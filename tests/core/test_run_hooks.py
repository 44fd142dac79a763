"""Stage run-hooks in Python: the teacher's solution against the reference, the lazy
lookups a live loop relies on, every pitfall in every draw, and refused cases."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from hookcourse.js import json as jsjson
from hookcourse.stages.decoding import CaseError
from hookcourse.stages.registry import exercise_named
from hookcourse.stages.run_hooks import classify, generate
from hookcourse.stages.run_hooks.reference import run_arguments, run_hooks
from hookcourse.stages.run_hooks.solution import run_hooks as teacher

SEEDS = range(1, 21)
EXERCISE = exercise_named("run_hooks")


def _drawn(seeds: range = SEEDS) -> Iterator[Any]:
    for seed in seeds:
        yield from generate.run_cases(random.Random(seed))


class Lookups(Mapping[str, Any]):
    """A mapping that writes down every lookup, as a live loop's would start a hook."""

    def __init__(self, name: str, values: Mapping[str, Any], log: list[str]) -> None:
        self._name, self._values, self._log = name, values, log

    def __getitem__(self, key: str) -> Any:
        self._log.append(f"{self._name}[{key}]")
        value = self._values[key]
        if self._name == "results":
            return Lookups(key, value, self._log)
        return value

    def __iter__(self) -> Iterator[str]:
        raise AssertionError(f"{self._name} was listed; a live loop's mapping cannot be")

    def __len__(self) -> int:
        raise AssertionError(f"the size of {self._name} was asked; a live loop cannot tell")


def test_the_teachers_solution_agrees_with_the_reference_on_every_draw() -> None:
    for case in _drawn():
        decoded = run_arguments(case)
        expected = run_hooks(*decoded.parsed).to_json()
        got = jsjson.parse(jsjson.stringify(teacher(*decoded.given)))
        assert got == expected, jsjson.stringify(case)


def test_results_and_the_response_are_looked_up_only_as_a_live_loop_allows() -> None:
    """Each command that runs once, in ran order; results[event] only when one runs; the
    response once, only when the tool runs, after PreToolUse and before PostToolUse."""
    for case in _drawn():
        run = run_hooks(*run_arguments(case).parsed)
        log: list[str] = []
        tool = Lookups("tool", case["tool"], log)
        teacher(case["hooks"], tool, Lookups("results", case["results"], log))
        expected: list[str] = []
        if run.pre_ran:
            expected += ["results[PreToolUse]", *(f"PreToolUse[{c}]" for c in run.pre_ran)]
        if run.post is not None:
            expected.append("tool[response]")
            if run.post.ran:
                expected += ["results[PostToolUse]", *(f"PostToolUse[{c}]" for c in run.post.ran)]
        read = [entry for entry in log if entry not in ("tool[name]", "tool[input]")]
        assert read == expected, jsjson.stringify(case)


def test_every_draw_holds_each_pitfall_of_the_page() -> None:
    assert EXERCISE is not None
    shaped = {seed: generate._shaped(random.Random(seed)) for seed in SEEDS}
    for seed, cases in shaped.items():
        families = [classify.run_family(run_arguments(case)) for case in cases]
        assert families == [
            "run-once",
            "only-matching-run",
            "settings-order",
            "ask-or-defer",
            "deny",
            "post-exit-2",
            "only-matching-run",
            "no-post-hooks",
        ], seed
        drawn = [jsjson.stringify(case) for case in generate.run_cases(random.Random(seed))]
        assert all(jsjson.stringify(case) in drawn for case in cases), seed


def test_draws_reach_every_family_and_only_registered_ones() -> None:
    assert EXERCISE is not None
    seen = {classify.run_family(run_arguments(case)) for case in _drawn(range(1, 31))}
    assert seen == set(EXERCISE.families)


@pytest.mark.parametrize(
    ("case", "steps"),
    [
        ({"hooks": {}, "tool": {"name": "Bash", "input": {}}}, ("results",)),
        ({"hooks": {"PreToolUse": {}}, "tool": {}, "results": {}}, ("hooks", "PreToolUse")),
        (
            {"hooks": {"PostToolUse": [{"hooks": [{"type": "command"}]}]}, "tool": {}},
            ("hooks", "PostToolUse", 0, "hooks", 0, "command"),
        ),
        ({"hooks": {}, "tool": {"name": "Bash"}, "results": {}}, ("tool", "input")),
        (
            {
                "hooks": {},
                "tool": {"name": "Bash", "input": 1},
                "results": {"PostToolUse": {"./a.sh": {"stderr": 2}}},
            },
            ("results", "PostToolUse", "./a.sh", "stderr"),
        ),
        (
            {
                "hooks": {"PreToolUse": [{"matcher": "Ba", "hooks": [{"command": "./a.sh"}]}]},
                "tool": {"name": "Bash", "input": {}},
                "results": {"PreToolUse": {"./a.sh": {"code": 0}}},
            },
            None,
        ),
        (
            {
                "hooks": {"PreToolUse": [{"matcher": "Ba", "hooks": [{"command": "./a.sh"}]}]},
                "tool": {"name": "Ba", "input": {}},
                "results": {},
            },
            ("results", "PreToolUse"),
        ),
    ],
)
def test_refused_cases_name_the_field(case: Any, steps: tuple[str | int, ...] | None) -> None:
    if steps is None:  # a handler that does not run needs no result; one that runs does
        assert run_arguments(case).given[0] is case["hooks"]
        return
    with pytest.raises(CaseError) as refused:
        run_arguments(case)
    assert refused.value.steps == steps
    assert refused.value.fix
