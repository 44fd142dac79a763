"""The checks grade the rule, not the cases: drawn cases are reproducible, the teacher's
solutions pass every seed, and a table of answers, an overfit patch or Python's ``$``
fail on every seed; node's reference agrees with every drawn answer."""

from __future__ import annotations

import collections
import copy
import gc
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hookcourse.course.checks import exercises
from hookcourse.course.checks.case_runs import WrongReturn, returned_json
from hookcourse.course.checks.cases import exercise_cases, first_difference
from hookcourse.course.checks.generators import (
    choose_seed,
    draw,
    drawn_case_file,
    drawn_cases,
    force_push_draws,
)
from hookcourse.js import json as jsjson
from hookcourse.js.regex import RegexEngine, regex_test
from hookcourse.js.values import js_to_string, js_trim
from hookcourse.stages.registry import EXERCISES, STAGES, Exercise, exercise_named, resolve
from tests.labs.test_exercises import apply_with_or
from tests.support.oracle import oracle_batch
from tests.support.runtimes import node_binary

GRADED = [e for e in EXERCISES if e.decode is not None]
SEEDS = range(1, 101)  # each cheat must fail on every one of these


def _fails_somewhere(exercise: Exercise, fn: Callable[..., object], seed: int) -> bool:
    """True when ``fn`` gets at least one drawn case of ``seed`` wrong (called directly:
    the check's thread per call is its own matter, tested elsewhere)."""
    for item in drawn_cases(exercise, seed):
        given = copy.deepcopy(exercise.read(item.case).given)
        try:
            got = returned_json(fn(*given), item.expected)
        except (WrongReturn, Exception):
            return True
        if first_difference(item.expected, got) is not None:
            return True
    return False


def test_a_seed_draws_the_same_cases_and_another_seed_others() -> None:
    for exercise in [*GRADED, exercise_named("is_force_push")]:
        assert exercise is not None
        assert draw(exercise, 7) == draw(exercise, 7), exercise.function
        assert draw(exercise, 7) != draw(exercise, 8), exercise.function


def test_the_seed_is_given_fixed_by_the_environment_or_fresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert choose_seed(42) == 42
    monkeypatch.setenv("HOOKCOURSE_SEED", "9")
    assert choose_seed() == 9
    monkeypatch.delenv("HOOKCOURSE_SEED")
    assert len({choose_seed() for _ in range(20)}) > 1


def test_the_check_prints_its_seed_and_replays_it() -> None:
    def wrong(matcher: object, tool: object) -> bool:
        return matcher == tool

    first = exercises.check_matcher(wrong, seed=314)
    again = exercises.check_matcher(wrong, seed=314)
    assert "drawn with seed 314" in first.summary()
    assert "check_matcher(match_hook, seed=314) draws the same cases again" in first.summary()
    assert [o.case.where for o in first.outcomes] == [o.case.where for o in again.outcomes]
    assert first.report().to_json() == again.report().to_json()
    assert first.report().seed == 314


@pytest.mark.parametrize("exercise", GRADED, ids=lambda e: e.function)
def test_the_teachers_solution_passes_a_thousand_seeds(exercise: Exercise) -> None:
    solution = resolve(exercise.solution)
    seen: set[str] = set()  # a case drawn by several seeds is judged once
    failing = []
    for seed in range(1, 1001):
        for case in draw(exercise, seed):
            text = jsjson.stringify(case)
            if text in seen:
                continue
            seen.add(text)
            decoded = exercise.read(case)
            expected = exercise.answer_decoded(decoded)
            got = returned_json(solution(*copy.deepcopy(decoded.given)), expected)
            if first_difference(expected, got) is not None:
                failing.append((seed, text))
    assert not failing, f"{exercise.function} fails on (seed, case) {failing[:5]}"


def _table_of_answers(exercise: Exercise) -> Callable[..., object]:
    """A function that returns what the case files expect, and their commonest answer else."""
    cases, _ = exercise_cases(exercise)
    table = {repr(c.arguments): c.expected for c in cases}
    common = collections.Counter(json.dumps(c.expected) for c in cases).most_common(1)[0][0]
    return lambda *arguments: table.get(repr(arguments), json.loads(common))


@pytest.mark.parametrize("exercise", GRADED, ids=lambda e: e.function)
def test_a_table_of_the_seen_answers_fails_on_every_seed(exercise: Exercise) -> None:
    table = _table_of_answers(exercise)
    assert exercises.check(exercise, table, seed=None).report().state != "passed"
    passing = [seed for seed in SEEDS if not _fails_somewhere(exercise, table, seed)]
    assert not passing, f"a table of answers passes {exercise.function} on seeds {passing}"


def _python_dollar(matcher: str | None, tool_name: object) -> bool:
    """Notebook 01's trap: Python's $ also matches before a final newline."""
    if matcher is None or matcher in ("", "*"):
        return True
    if re.match(r"^[A-Za-z0-9_|]+$", matcher):
        return tool_name in matcher.split("|")
    return regex_test(matcher, js_to_string(tool_name), RegexEngine.NODE)


def _overfit(
    exercise: Exercise, buggy: Callable[..., object]
) -> tuple[Callable[..., object], Callable[..., object]]:
    """``buggy``, and ``buggy`` patched case by case ("if matcher == ...") until it passes
    every case of the case files."""
    cases, _ = exercise_cases(exercise)
    patches = {}
    for case in cases:
        try:
            right = first_difference(
                case.expected, returned_json(buggy(*case.arguments), case.expected)
            )
        except Exception:
            right = True
        if right is not None:
            patches[repr(case.arguments)] = case.expected

    def patched(*arguments: object) -> object:
        key = repr(arguments)
        return patches[key] if key in patches else buggy(*arguments)

    return buggy, patched


def _strip_exit(code: object, stderr: str) -> dict[str, Any]:
    """interpret_exit_code with Python's strip() for JavaScript's trim()."""
    if code == 0 and code is not False:
        return {"block": False, "warn": False, "reason": None}
    reason = stderr.strip()
    if code == 2 and code is not True:
        return {"block": True, "warn": False, "reason": reason or "hook blocked"}
    return {"block": False, "warn": True, "reason": reason or None}


BUGS = {
    "match_hook": _python_dollar,
    "interpret_exit_code": _strip_exit,
    "apply_pre_tool_use": apply_with_or,
}


@pytest.mark.parametrize("function", sorted(BUGS))
def test_a_bug_patched_to_pass_every_visible_case_fails_on_every_seed(function: str) -> None:
    exercise = exercise_named(function)
    assert exercise is not None
    _buggy, patched = _overfit(exercise, BUGS[function])
    result = exercises.check(exercise, patched, Path(exercises.FIXTURES), seed=5)
    assert not result.all_pass
    assert all(o.passed for o in result.outcomes if not o.case.drawn)  # the patch holds...
    passing = [seed for seed in SEEDS if not _fails_somewhere(exercise, patched, seed)]
    assert not passing, f"the patched {function} passes on seeds {passing}"  # ...the rule not


def test_the_python_dollar_name_list_fails_on_every_seed() -> None:
    exercise = exercise_named("match_hook")
    assert exercise is not None
    assert _python_dollar("Bash\n", "xBash\ny") is False  # node says true
    assert exercise.answer({"matcher": "Bash\n", "tool": "xBash\ny"}) is True
    passing = [seed for seed in SEEDS if not _fails_somewhere(exercise, _python_dollar, seed)]
    assert not passing


def test_js_trim_is_what_the_exit_cases_draw_around() -> None:
    exercise = exercise_named("interpret_exit_code")
    assert exercise is not None
    stderrs = [c.get("stderr") for c in draw(exercise, 3) if isinstance(c, dict)]
    assert any(isinstance(s, str) and js_trim(s) != s.strip() for s in stderrs)


@pytest.mark.parametrize("seed", range(1, 51))
def test_the_drawn_guard_commands_are_what_the_teachers_guard_says(seed: int) -> None:
    """The generator's own intent (built as a force-push or not) and the teacher's guard,
    the check's ground truth, agree on every drawn command."""
    import random

    from hookcourse.solutions.force_push_guard import is_force_push

    exercise = exercise_named("is_force_push")
    assert exercise is not None and exercise.generate is not None
    rng = random.Random(f"{exercise.function}:{seed}")
    wrong = [(c, intent) for c, intent in force_push_draws(rng) if is_force_push(c) != intent]
    assert not wrong, wrong


def test_a_guard_listing_the_visible_commands_fails_check_guard() -> None:
    """A guard that blocks exactly the corpus's force-pushes misses the drawn ones."""
    from hookcourse.course.labs.guard import check_guard_in_process
    from hookcourse.course.labs.guard_corpus import BLOCK, load_corpus

    blocked = {c for f in load_corpus() if f.expect == BLOCK for c in f.commands}
    for seed in (1, 2, 3):
        report = check_guard_in_process(blocked.__contains__, seed=seed)
        assert not report.passed and report.missed > 0, seed


# -- the drawn cases against the JavaScript reference ---------------------------------------


def test_every_drawn_case_agrees_with_node(tmp_path: Path) -> None:
    """Each graded stage's drawn case files for 20 seeds, through tests/oracle/program.mjs:
    node prints exactly the expected output the checks and `hookcourse test` use."""
    programs = []
    expected = []
    for stage in STAGES:
        for seed in range(1, 21):
            case_file, answer = drawn_case_file(stage, seed)
            path = tmp_path / f"{stage.slug}-{seed}.json"
            path.write_text(jsjson.stringify(case_file), encoding="utf-8")
            programs.append({"command": stage.command, "path": str(path)})
            expected.append((path.name, answer))
    answer = oracle_batch([node_binary()], json.dumps({"programs": programs}))
    wrong = []
    for (name, want), got in zip(expected, answer["programs"], strict=True):
        assert isinstance(got, str), f"node threw on {name}: {got}"
        difference = first_difference(want, jsjson.parse(got))
        if difference is not None:
            wrong.append(f"{name}: {difference.text()}")
    assert not wrong, "\n".join(wrong[:20])


# -- cheats that reach for the answers while the check runs -----------------------------------


def _answer_in_frames(arguments: tuple[object, ...]) -> object:
    """The answer of the case being run, looked up in every thread's frames."""
    import sys

    for frame in [sys._getframe(1), *sys._current_frames().values()]:
        while frame is not None:
            case = frame.f_locals.get("case")  # read as data: its properties are the course's
            decoded = vars(case).get("decoded") if hasattr(case, "__dict__") else None
            if getattr(decoded, "given", None) == arguments and case.expected is not None:
                return case.expected
            frame = frame.f_back  # type: ignore[assignment]
    return None


_EARLIER_CASES: set[int] = set()
"""Cases alive before the check began: earlier checks in this process answered theirs."""


def _answer_on_the_heap(arguments: tuple[object, ...]) -> object:
    """The answer of the case being run, looked up among every object alive."""
    for found in gc.get_objects():
        case = type(found).__name__ == "FixtureCase" and id(found) not in _EARLIER_CASES
        if case and found.decoded.given == arguments and found.expected is not None:
            return found.expected
    return None


@pytest.mark.parametrize("look_up", [_answer_in_frames, _answer_on_the_heap])
def test_a_drawn_answer_exists_only_after_the_learner_answered(
    look_up: Callable[[tuple[object, ...]], object],
) -> None:
    """A function that looks for the answer of a drawn case it was not shown (in its
    callers' frames, on the heap) finds none: it is worked out after the call."""
    exercise = exercise_named("merge_pre_tool_use")
    assert exercise is not None
    shown = [c.arguments for c in exercise_cases(exercise)[0]]
    found: list[object] = []

    def cheat(*arguments: object) -> object:
        if arguments not in shown and len(found) < 5:
            found.append(look_up(arguments))
        return None

    # Earlier checks in this process (other tests on this worker) may leave their answered
    # cases alive, some with the same arguments; the claim is about this check's own cases.
    gc.collect()
    _EARLIER_CASES.clear()
    _EARLIER_CASES.update(id(o) for o in gc.get_objects() if type(o).__name__ == "FixtureCase")
    result = exercises.check(exercise, cheat, seed=11)
    assert len(found) == 5 and not result.all_pass
    assert found == [None] * 5


def _import_module(matcher: object, tool: object) -> object:
    import importlib

    return importlib.import_module(
        "hookcourse.stages.matcher_and_dispatch." + "reference"
    ).match_hook(matcher, tool)


def _dunder_import(matcher: object, tool: object) -> object:
    name = "hookcourse.stages.matcher_and_dispatch." + "solution"
    return __import__(name, fromlist=["x"]).match_hook(matcher, tool)


def _sys_modules(matcher: object, tool: object) -> object:
    import sys

    module = sys.modules["hookcourse.stages.matcher_and_dispatch.reference"]
    return vars(module)["match_" + "hook"](matcher, tool)


@pytest.mark.parametrize("road", [_import_module, _dunder_import, _sys_modules])
def test_a_road_to_the_course_built_while_running_is_refused(road: Callable[..., object]) -> None:
    result = exercises.check_matcher(road, seed=3)
    assert result.outcomes == () and not result.passed
    assert result.text().startswith(
        "match_hook: your function hands the work to the course's own hookcourse."
    )
    assert result.text().endswith("; write it yourself, then run your cell and this check again.")


# -- each pitfall of a stage, as a learner writes it, patched to pass the case files ---------

PITFALLS = {
    "match_hook": [
        (
            "String() in the name list",
            'tool_name in matcher.split("|")',
            'js_to_string(tool_name) in matcher.split("|")',
        ),
        (
            "no String() for the regex",
            "regex_test(matcher, js_to_string(tool_name), RegexEngine.NODE)",
            "isinstance(tool_name, str) and regex_test(matcher, tool_name, RegexEngine.NODE)",
        ),
        (
            "Python's re for the regex",
            "return regex_test(matcher, js_to_string(tool_name), RegexEngine.NODE)",
            "from hookcourse.course.checks.pitfalls import python_re_search\n"
            "    return python_re_search(matcher, js_to_string(tool_name))",
        ),
    ],
    "interpret_exit_code": [
        ("strip() for trim()", "reason = js_trim(stderr)", "reason = stderr.strip()"),
        ("a trim of spaces", "reason = js_trim(stderr)", 'reason = stderr.strip(" ")'),
        ("== for ===", "if strict_equals_number(code, 0):", "if code == 0:"),
    ],
    "merge_pre_tool_use": [
        ("the first rewrite", "rewrites[-1] if rewrites", "rewrites[0] if rewrites"),
        (
            "the last reason",
            "winner = next(r for r in decided",
            "winner = next(r for r in decided[::-1]",
        ),
        (
            "JSON on exit 0 only",
            '    out = stdout_json(stream(result, "stdout"))',
            '    out = stdout_json(stream(result, "stdout")) if result.get("code") == 0 else None',
        ),
        (
            "JSON.parse of the raw text",
            "        value = parse(text)",
            "        value = parse(stdout)",
        ),
        ("no trimStart()", "    text = js_trim_start(stdout)", "    text = stdout"),
        (
            "a rewrite kept on deny",
            '"input": tool_input, "contexts": []}',
            '"input": ([r["updatedInput"] for r in reads if "updatedInput" in r] or [tool_input])[-1], "contexts": []}',  # noqa: E501
        ),
        ("any event", 'or specific.get("hookEventName") != "PreToolUse"', "or False"),
    ],
    "run_stop_loop": [
        ("the cap off by one", "blocks > cap", "blocks >= cap"),
        (
            "no flag",
            'hook["whenActive"] if active else hook["whenInactive"]',
            'hook["whenInactive"]',
        ),
        (
            "a block over continue: false",
            'if out.get("continue") is False:',
            'if out.get("continue") is False and out.get("decision") != "block":',
        ),
        (
            "a blank reason blocks",
            "isinstance(reason, str) and js_trim(reason)",
            "isinstance(reason, str)",
        ),
        ("any reason blocks", "isinstance(reason, str) and js_trim(reason)", "True"),
    ],
}


@pytest.mark.parametrize(
    ("function", "right", "wrong"),
    [(f, right, wrong) for f, bugs in PITFALLS.items() for _, right, wrong in bugs],
    ids=[f"{f}: {name}" for f, bugs in PITFALLS.items() for name, _, _ in bugs],
)
def test_each_pitfall_patched_to_pass_the_case_files_fails_on_every_seed(
    function: str, right: str, wrong: str
) -> None:
    import importlib
    import inspect

    exercise = exercise_named(function)
    assert exercise is not None
    source = inspect.getsource(importlib.import_module(exercise.solution.partition(":")[0]))
    assert right in source
    scope: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(source.replace(right, wrong), f"<{function}>", "exec"), scope)
    _buggy, patched = _overfit(exercise, scope[function])
    passing = [seed for seed in SEEDS if not _fails_somewhere(exercise, patched, seed)]
    assert not passing, f"{function} patched passes on seeds {passing}"
