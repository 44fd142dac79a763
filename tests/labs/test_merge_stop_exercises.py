"""check_merge and check_stop: the teacher's solutions pass, classic mistakes fail precisely."""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import pytest

from hookcourse import solutions
from hookcourse.course.checks.case_runs import run_case
from hookcourse.course.checks.cases import exercise_cases
from hookcourse.course.checks.diagnosis import hint_keys
from hookcourse.course.checks.exercises import check_merge, check_stop
from hookcourse.course.checks.hints import hints
from hookcourse.js import json as jsjson
from hookcourse.js.values import js_trim
from hookcourse.stages.merge_decisions import solution as merge_decisions
from hookcourse.stages.merge_decisions.reference import merge_pre_tool_use
from hookcourse.stages.registry import exercise_named
from hookcourse.stages.stop_loop import solution as stop_solution
from hookcourse.stages.stop_loop.reference import run_stop_loop

Result = Mapping[str, Any]
F = TypeVar("F", bound=Callable[..., Any])


def typed_in_a_cell(fn: F, copies: dict[object, object] | None = None) -> F:
    """The teacher's ``fn`` (and the solution helpers it calls) as if a learner had typed it
    into a cell: the mistakes below are made on top of it, since a check refuses a function
    that calls the teacher's solution."""
    copies = {} if copies is None else copies
    if fn not in copies:
        scope: dict[str, object] = {"__name__": "__main__"}
        code = fn.__code__  # type: ignore[attr-defined]
        copies[fn] = types.FunctionType(code, scope, fn.__name__, fn.__defaults__)  # type: ignore[attr-defined]
        for name, value in fn.__globals__.items():  # type: ignore[attr-defined]
            module = getattr(value, "__module__", None) or ""
            if isinstance(value, types.FunctionType) and (
                module.startswith("hookcourse.solutions") or module.endswith(".solution")
            ):
                value = typed_in_a_cell(value, copies)
            scope.setdefault(name, value)
    return copies[fn]  # type: ignore[return-value]


merge_right = typed_in_a_cell(solutions.merge_pre_tool_use)
stop_right = typed_in_a_cell(solutions.run_stop_loop)
read_one = typed_in_a_cell(merge_decisions.read_one)
stdout_json = typed_in_a_cell(merge_decisions.stdout_json)
read_answer = typed_in_a_cell(stop_solution.read_answer)

# -- merge_pre_tool_use: each wrong version makes one mistake the page names ---------------------


def merge_reading_stdout_first(results: list[Result], tool_input: Any) -> object:
    """Reads the JSON of an exit-2 hook, so its allow beats its own exit 2."""
    rewritten = [{**r, "code": 0} if stdout_json(r.get("stdout") or "") else r for r in results]
    return merge_right(rewritten, tool_input)


def merge_finding_json_anywhere(results: list[Result], tool_input: Any) -> object:
    """Parses the JSON that follows shell-profile noise."""
    cleaned = []
    for result in results:
        stdout = result.get("stdout") or ""
        cleaned.append({**result, "stdout": stdout[stdout.find("{") :] if "{" in stdout else ""})
    return merge_right(cleaned, tool_input)


def merge_only_on_exit_0(results: list[Result], tool_input: Any) -> object:
    """Ignores JSON on exit 1."""
    kept = [r if r.get("code") in (0, 2) else {**r, "stdout": ""} for r in results]
    return merge_right(kept, tool_input)


def merge_first_rewrite_wins(results: list[Result], tool_input: Any) -> object:
    merged = dict(merge_right(results, tool_input))
    rewrites = [read["updatedInput"] for read in map(read_one, results) if "updatedInput" in read]
    if merged["decision"] != "deny" and rewrites:
        merged["input"] = rewrites[0]
    return merged


def merge_last_reason_wins(results: list[Result], tool_input: Any) -> object:
    merged = dict(merge_right(results, tool_input))
    reads = map(read_one, results)
    same = [read for read in reads if "decision" in read and read["decision"] == merged["decision"]]
    if same:
        merged["reason"] = same[-1]["reason"]
    return merged


def merge_keeping_rewrite_on_deny(results: list[Result], tool_input: Any) -> object:
    merged = dict(merge_right(results, tool_input))
    if merged["decision"] == "deny":
        reads = [read for read in map(read_one, results) if read.get("decision") != "deny"]
        rest = merge_right([], tool_input)
        rewrites = [read["updatedInput"] for read in reads if "updatedInput" in read]
        merged["input"] = rewrites[-1] if rewrites else rest["input"]
        merged["contexts"] = [
            read["context"] for read in map(read_one, results) if "context" in read
        ]
    return merged


MERGE_MISTAKES = [
    (merge_reading_stdout_first, "exit-2-beats-json"),
    (merge_finding_json_anywhere, "stdout-not-json"),
    (merge_only_on_exit_0, "json-on-any-exit"),
    (merge_first_rewrite_wins, "last-rewrite"),
    (merge_last_reason_wins, "first-reason"),
    (merge_keeping_rewrite_on_deny, "deny-drops-rewrite"),
]

ANSWERS = ("whenInactive", "whenActive")

# -- run_stop_loop ---------------------------------------------------------------------------


def stop_off_by_one(hook: Mapping[str, Result], cap: int) -> object:
    """Overrides the cap-th block instead of the one after it."""
    return stop_right(hook, cap - 1) if cap > 1 else stop_right(hook, 0)


def stop_never_sets_the_flag(hook: Mapping[str, Result], cap: int) -> object:
    turns = stop_right({**hook, "whenActive": hook["whenInactive"]}, cap)
    return [{**turn, "stopHookActive": index > 0} for index, turn in enumerate(turns)]


def stop_block_beats_halt(hook: Mapping[str, Result], cap: int) -> object:
    def without_halt(answer: Result) -> Result:
        out = stdout_json(answer.get("stdout") or "")
        if out and out.get("decision") == "block":
            out.pop("continue", None)
            return {**answer, "stdout": jsjson.stringify(out)}
        return answer

    return stop_right({k: without_halt(hook[k]) for k in ANSWERS}, cap)


def stop_accepting_blank_reasons(hook: Mapping[str, Result], cap: int) -> object:
    def loose(answer: Result) -> Result:
        out = stdout_json(answer.get("stdout") or "")
        if out and out.get("decision") == "block" and out.get("continue") is not False:
            return {"code": 2, "stderr": "x"} if read_answer(answer)[0] != "block" else answer
        return answer

    return stop_right({k: loose(hook[k]) for k in ANSWERS}, cap)


def stop_trimming_the_reason(hook: Mapping[str, Result], cap: int) -> object:
    turns = stop_right(hook, cap)
    return [{**t, "reason": js_trim(t["reason"]) if t["reason"] else t["reason"]} for t in turns]


STOP_MISTAKES = [
    (stop_off_by_one, "the-cap"),
    (stop_never_sets_the_flag, "flag-after-block"),
    (stop_block_beats_halt, "halt-beats-block"),
    (stop_accepting_blank_reasons, "block-needs-reason"),
    (stop_trimming_the_reason, "reason-as-written"),
]


@pytest.mark.parametrize(
    ("check", "solution"),
    [(check_merge, solutions.merge_pre_tool_use), (check_stop, solutions.run_stop_loop)],
)
def test_the_teachers_solution_passes_every_case(
    check: Callable[..., Any], solution: Callable[..., object]
) -> None:
    result = check(solution)
    assert result.passed, result.text()
    assert len(result.outcomes) >= 40
    assert check(typed_in_a_cell(solution)).passed  # as a learner would type it


@pytest.mark.parametrize(
    ("check", "package_function"),
    [(check_merge, merge_pre_tool_use), (check_stop, run_stop_loop)],
)
def test_the_package_function_does_not_pass_for_the_learner(
    check: Callable[..., Any], package_function: Callable[..., object]
) -> None:
    """The package's own function takes records, not the case's dicts: never a green table."""
    assert not check(package_function).passed


@pytest.mark.parametrize(
    ("check", "wrong", "family"),
    [(check_merge, w, f) for w, f in MERGE_MISTAKES]
    + [(check_stop, w, f) for w, f in STOP_MISTAKES],
    ids=[f for _, f in MERGE_MISTAKES + STOP_MISTAKES],
)
def test_a_classic_mistake_fails_with_its_own_hint(
    check: Callable[..., Any], wrong: Callable[..., object], family: str
) -> None:
    result = check(wrong)
    assert not result.passed
    failing = {outcome.family for outcome in result.outcomes if not outcome.passed}
    assert family in failing, (family, failing, result.text())
    rows = dict(result.failure_rows())
    assert {"case", "call", "expected", "got", "hint"} <= rows.keys()
    assert rows["hint"].startswith(f"({family}) "), rows  # named from what differs


@pytest.mark.parametrize("function", ["merge_pre_tool_use", "run_stop_loop"])
def test_every_family_has_a_hint_and_every_hint_a_case(function: str) -> None:
    exercise = exercise_named(function)
    assert exercise is not None
    cases, problems = exercise_cases(exercise)
    assert problems == []
    families = {run_case(exercise, solutions.match_hook, case).family for case in cases}
    assert families == set(exercise.families)
    assert set(hints()[function]) == set(hint_keys(function))


def test_a_wrong_return_shape_is_named() -> None:
    result = check_stop(lambda hook, cap: {"turns": []})
    assert "return a list" in result.first_failure.got
    result = check_merge(lambda results, tool_input: [])
    assert "return a dict with the keys decision, reason, input, contexts" in (
        result.first_failure.got
    )
