"""check(...) passes right implementations and catches deliberately wrong ones precisely."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from hookcourse import solutions
from hookcourse.course.checks import exercises
from hookcourse.course.checks.case_runs import run_case
from hookcourse.course.checks.cases import exercise_cases as load_cases
from hookcourse.course.checks.exercises import check, check_apply, check_exit_code, check_matcher
from hookcourse.course.checks.hints import hints
from hookcourse.js.regex import RegexEngine, regex_test
from hookcourse.js.values import (
    UNDEFINED,
    is_nullish,
    js_to_string,
    js_trim,
    strict_equals_number,
)
from hookcourse.stages.decide_and_modify import reference as effects
from hookcourse.stages.matcher_and_dispatch import reference as matcher
from hookcourse.stages.matcher_and_dispatch import verdicts
from hookcourse.stages.registry import STAGES, Exercise, exercise_named

WriteStage = Callable[[str, dict[str, object]], Path]

# One case per family the checker knows, so each hint is reachable (see test_every_family...).
MATCHER_STAGE: dict[str, object] = {
    "cases": [
        {"tool": "Bash"},
        {"matcher": "*", "tool": "Read"},
        {"matcher": "Bash", "tool": "Bash"},
        {"matcher": "Edit|Write", "tool": "MultiEdit"},
        {"matcher": "Bash", "tool": "BashOutput"},
        {"matcher": "Edit.*", "tool": "NotebookEdit"},
        {"matcher": "Édit|Write", "tool": "XÉdit"},
        {"matcher": "Bash(", "tool": "Bash"},
        {"matcher": "(?<n>Bash)", "tool": "Bash"},
        {"matcher": "^Bash$", "tool": "Bash\n"},
        {"matcher": "^Edit$", "tool": "Edit"},
        {"matcher": "^5$", "tool": 5},
    ],
    "exitCases": [
        {"code": 0},
        {"code": 2, "stderr": "  no force-push\n"},
        {"code": 2, "stderr": " \n"},
        {"code": 1, "stderr": "warn"},
        {"code": 1, "stderr": ""},
        {"code": False, "stderr": "false is not 0"},
        {"code": True, "stderr": "true is not 1"},
        {"code": "2", "stderr": "a string is not 2"},
        {"code": 2, "stderr": "\ufeffbom-wrapped\ufeff"},
        {"code": 1, "stderr": "\x1c"},
    ],
}
APPLY_STAGE: dict[str, object] = {
    "cases": [
        {"output": {"decision": "block", "reason": "no rm"}, "input": {"command": "rm -rf /"}},
        {"output": {"updatedInput": {"command": "ls"}}, "input": {"command": "rm"}},
        {"output": {"additionalContext": "lint passed"}, "input": {"path": "a.ts"}},
        {"output": {"decision": "block"}, "input": {"command": "rm"}},
        {"output": {"decision": "block", "updatedInput": {"command": "ls"}}, "input": {"c": "rm"}},
        {"output": {"decision": "block", "additionalContext": "x"}, "input": {"c": "rm"}},
        {"output": {"decision": "block", "reason": ""}, "input": {"c": "rm"}},
        {"output": {"decision": "Block", "reason": "case matters"}, "input": {"c": "rm"}},
        {"output": {"updatedInput": None, "additionalContext": None}, "input": {"c": "ls"}},
        {"output": {"updatedInput": {}}, "input": {"c": "ls"}},
        {"output": {"additionalContext": ""}, "input": {"c": "ls"}},
        {"output": {}},
    ],
}


@pytest.fixture
def matcher_fixtures(write_stage: WriteStage) -> Path:
    return write_stage("matcher-and-dispatch", MATCHER_STAGE)


@pytest.fixture
def apply_fixtures(write_stage: WriteStage) -> Path:
    return write_stage("decide-and-modify", APPLY_STAGE)


# -- deliberately wrong implementations: each makes one classic mistake -------------------------


def match_all_as_regex(matcher: str | None, tool_name: str) -> bool:
    if matcher is None or matcher in ("", "*"):
        return True
    return regex_test(matcher, tool_name, RegexEngine.NODE)  # Edit|Write as an alternation


def match_with_python_re(matcher: str | None, tool_name: str) -> bool:
    if matcher is None or matcher in ("", "*"):
        return True
    if re.fullmatch(r"[A-Za-z0-9_|]+", matcher):
        return tool_name in matcher.split("|")
    try:
        return re.search(matcher, tool_name) is not None
    except re.error:
        return False


def match_anchored(matcher: str | None, tool_name: str) -> bool:
    if matcher is None or matcher in ("", "*"):
        return True
    if re.fullmatch(r"[A-Za-z0-9_|]+", matcher):
        return tool_name in matcher.split("|")
    return regex_test(f"^(?:{matcher})$", tool_name, RegexEngine.NODE)


def match_unicode_word(matcher: str | None, tool_name: str) -> bool:
    if matcher is None or matcher in ("", "*"):
        return True
    if re.fullmatch(r"[\w|]+", matcher):
        return tool_name in matcher.split("|")
    return regex_test(matcher, js_to_string(tool_name), RegexEngine.NODE)


def match_without_catch(matcher: str | None, tool_name: str) -> bool:
    if matcher is None or matcher in ("", "*"):
        return True
    if re.fullmatch(r"[A-Za-z0-9_|]+", matcher):
        return tool_name in matcher.split("|")
    return re.compile(matcher).search(tool_name) is not None


def match_forgets_a_return(matcher: str | None, tool_name: str) -> bool | None:
    if matcher is None or matcher in ("", "*"):
        return True
    return None


def exit_with_loose_equality(code: object, stderr: str) -> dict[str, object]:
    if code == 0:
        return {"block": False, "warn": False, "reason": None}
    if code == 2:
        return {"block": True, "warn": False, "reason": js_trim(stderr) or "hook blocked"}
    return {"block": False, "warn": True, "reason": js_trim(stderr) or None}


def exit_with_str_strip(code: object, stderr: str) -> dict[str, object]:
    if strict_equals_number(code, 0):
        return {"block": False, "warn": False, "reason": None}
    if strict_equals_number(code, 2):
        return {"block": True, "warn": False, "reason": stderr.strip() or "hook blocked"}
    return {"block": False, "warn": True, "reason": stderr.strip() or None}


def exit_as_tuple(code: object, stderr: str) -> tuple[bool, bool, str]:
    return (False, False, stderr)


def apply_with_or(output: dict[str, object], tool_input: object) -> dict[str, object]:
    if output.get("decision") == "block":
        reason = output.get("reason") or "blocked by hook"
        return {"allowed": False, "input": tool_input, "injectedContext": None, "reason": reason}
    return {
        "allowed": True,
        "input": output.get("updatedInput") or tool_input,
        "injectedContext": output.get("additionalContext") or None,
        "reason": None,
    }


def apply_right(output: dict[str, object], tool_input: object) -> dict[str, object]:
    """A learner's right answer: the mistakes below are made on top of it (a check refuses a
    function that calls the teacher's solution)."""
    fallback = {"allowed": True, "input": tool_input, "injectedContext": None, "reason": None}
    if output.get("decision", UNDEFINED) == "block":
        reason = output.get("reason", UNDEFINED)
        said = "blocked by hook" if is_nullish(reason) else reason
        return fallback | {"allowed": False, "reason": said}
    rewritten = output.get("updatedInput", UNDEFINED)
    context = output.get("additionalContext", UNDEFINED)
    return fallback | {
        "input": tool_input if is_nullish(rewritten) else rewritten,
        "injectedContext": None if is_nullish(context) else context,
    }


def apply_rewrites_blocked(output: dict[str, object], tool_input: object) -> dict[str, object]:
    effect = apply_right(output, tool_input)
    rewritten = output.get("updatedInput", UNDEFINED)
    return effect | {"input": tool_input if is_nullish(rewritten) else rewritten}


def apply_case_insensitive(output: dict[str, object], tool_input: object) -> dict[str, object]:
    decision = output.get("decision")
    lowered = {**output, "decision": decision.lower()} if isinstance(decision, str) else output
    return apply_right(lowered, tool_input)


def apply_returns_set(output: dict[str, object], tool_input: object) -> dict[str, object]:
    return {"allowed": True, "input": {"a", "b"}, "injectedContext": None, "reason": None}


# -- right implementations pass ----------------------------------------------------------------

RIGHT: list[tuple[Callable[..., object], Callable[..., object], str]] = [
    (check_matcher, solutions.match_hook, "matcher"),
    (check_exit_code, solutions.interpret_exit_code, "matcher"),
    (check_apply, solutions.apply_pre_tool_use, "apply"),
    (check_apply, apply_right, "apply"),
]
COURSE_OWN: list[tuple[Callable[..., object], Callable[..., object], str]] = [
    (check_matcher, matcher.match_hook, "matcher.match_hook"),
    (check_exit_code, verdicts.interpret_exit_code, "verdicts.interpret_exit_code"),
    (check_apply, effects.apply_pre_tool_use, "effects.apply_pre_tool_use"),
]


@pytest.mark.parametrize(("checker", "fn", "stage"), RIGHT)
def test_right_implementation_passes_every_case(
    checker: Callable[..., object],
    fn: Callable[..., object],
    stage: str,
    matcher_fixtures: Path,
    apply_fixtures: Path,
) -> None:
    result = checker(fn, matcher_fixtures if stage == "matcher" else apply_fixtures)
    assert result.passed, result.text()  # type: ignore[attr-defined]
    assert "passed, all" in result.text()  # type: ignore[attr-defined]


@pytest.mark.parametrize(("checker", "fn", "stage"), RIGHT)
def test_right_implementation_passes_the_repository_fixtures(
    checker: Callable[..., object], fn: Callable[..., object], stage: str
) -> None:
    result = checker(fn)
    assert result.passed, result.text()  # type: ignore[attr-defined]
    assert len(result.outcomes) >= 3  # type: ignore[attr-defined]


@pytest.mark.parametrize(("checker", "fn", "dotted"), COURSE_OWN)
def test_the_course_own_function_never_passes(
    checker: Callable[..., object], fn: Callable[..., object], dotted: str
) -> None:
    result = checker(fn)
    assert not result.passed  # type: ignore[attr-defined]
    text = result.text()  # type: ignore[attr-defined]
    assert f"this is the course's own function ({fn.__module__}.{fn.__name__}), not yours" in text
    assert "passed" not in text


def test_every_registry_exercise_has_its_check() -> None:
    for exercise in EXERCISES:
        checker = getattr(exercises, exercise.check)
        assert checker(starter).name == exercise.function


# -- wrong implementations fail on the right case, with a precise message ------------------------


def first_failure_rows(result: object) -> dict[str, str]:
    return dict(result.failure_rows())  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("wrong", "family", "call", "expected", "got"),
    [
        (match_all_as_regex, "name-list", "match_hook('Bash', 'BashOutput')", "false", "true"),
        (match_with_python_re, "js-not-python", "match_hook('^Bash$', 'Bash\\n')", "false", "true"),
        # Both a Unicode \w and an anchored regex fail this case; the learner's other
        # answers tell which mistake it is.
        (match_anchored, "unanchored", "match_hook('Édit|Write', 'XÉdit')", "true", "false"),
        (match_unicode_word, "ascii-word", "match_hook('Édit|Write', 'XÉdit')", "true", "false"),
    ],
)
def test_wrong_matcher_is_caught_with_call_expected_got_and_hint(
    wrong: Callable[..., object],
    family: str,
    call: str,
    expected: str,
    got: str,
    matcher_fixtures: Path,
) -> None:
    result = check_matcher(wrong, matcher_fixtures)
    assert not result.passed
    rows = first_failure_rows(result)
    assert rows["call"] == call
    assert (rows["expected"], rows["got"]) == (expected, got)
    assert rows["hint"] == f"({family}) {hints()['match_hook'][family]}"
    assert f"✗ {family}" in result.text()


def test_a_raising_function_is_a_failing_case_not_a_traceback(matcher_fixtures: Path) -> None:
    result = check_matcher(match_without_catch, matcher_fixtures)
    rows = first_failure_rows(result)
    assert rows["call"] == "match_hook('Bash(', 'Bash')"
    assert rows["case"] == "one of the invalid-regex cases"  # its table row, not its file
    assert rows["got"].startswith("raised PatternError:") or rows["got"].startswith("raised error:")
    assert rows["hint"].startswith("Your match_hook raised an exception on this case")
    assert "family invalid-regex" in rows["hint"]


def test_a_lost_import_is_hinted_as_such_not_as_the_case_family(matcher_fixtures: Path) -> None:
    def match_without_import(matcher: object, tool_name: object) -> bool:
        return regex_test_lost(matcher, tool_name)  # type: ignore[name-defined]  # noqa: F821

    rows = first_failure_rows(check_matcher(match_without_import, matcher_fixtures))
    assert rows["got"] == "raised NameError: name 'regex_test_lost' is not defined"
    assert rows["hint"] == hints()["raised"]["NameError"].format(name="match_hook")


def test_a_missing_return_is_named(matcher_fixtures: Path) -> None:
    rows = first_failure_rows(check_matcher(match_forgets_a_return, matcher_fixtures))
    assert rows["got"] == "returned None: does every branch return True or False?"


@pytest.mark.parametrize(
    ("wrong", "family", "call", "difference"),
    [
        (
            exit_with_loose_equality,
            "strict-equality",
            "interpret_exit_code(False, 'false is not 0')",
            "Expected true, got false at $.warn",
        ),
        (
            exit_with_str_strip,
            "js-trim",
            "interpret_exit_code(1.0, '\\x1c')",
            'Expected "\\u001c", got null at $.reason',
        ),
    ],
)
def test_wrong_exit_code_is_caught_with_the_differing_key(
    wrong: Callable[..., object], family: str, call: str, difference: str, matcher_fixtures: Path
) -> None:
    rows = first_failure_rows(check_exit_code(wrong, matcher_fixtures))
    assert rows["call"] == call
    assert rows["difference"] == difference
    assert rows["hint"] == f"({family}) {hints()['interpret_exit_code'][family]}"


def test_wrong_return_type_is_a_clear_message(matcher_fixtures: Path) -> None:
    rows = first_failure_rows(check_exit_code(exit_as_tuple, matcher_fixtures))
    assert rows["got"] == "returned a tuple; return a dict with the keys block, warn, reason"


@pytest.mark.parametrize(
    ("wrong", "family", "difference"),
    [
        (apply_with_or, "nullish-not-falsy", 'Expected no key at $.input.c, got "ls"'),
        (
            apply_rewrites_blocked,
            "block-keeps-input",
            'Expected "rm" at $.input.c, got nothing (the key is missing)',
        ),
        (apply_case_insensitive, "only-block-blocks", "Expected true, got false at $.allowed"),
    ],
)
def test_wrong_apply_is_caught_with_the_differing_key(
    wrong: Callable[..., object], family: str, difference: str, apply_fixtures: Path
) -> None:
    result = check_apply(wrong, apply_fixtures)
    rows = first_failure_rows(result)
    assert rows["difference"] == difference
    assert rows["hint"] == f"({family}) {hints()['apply_pre_tool_use'][family]}"


def test_or_instead_of_nullish_fails_every_falsy_case(apply_fixtures: Path) -> None:
    result = check_apply(apply_with_or, apply_fixtures)
    failing = [o.case.where for o in result.outcomes if not o.passed]
    assert failing == ["case.json cases[6]", "case.json cases[9]", "case.json cases[10]"]


def test_a_value_json_cannot_hold_is_a_clear_message(apply_fixtures: Path) -> None:
    rows = first_failure_rows(check_apply(apply_returns_set, apply_fixtures))
    assert rows["got"].startswith("returned a dict JSON cannot hold (not a JSON value: set")


# -- the starter, and bad calls to check itself ------------------------------------------------


def starter(*_: object) -> object:
    raise NotImplementedError("write it")


EXERCISES = [exercise for stage in STAGES for exercise in stage.exercises]


def exercise(function: str) -> Exercise:
    found = exercise_named(function)
    assert found is not None
    return found


@pytest.mark.parametrize("exercise", EXERCISES, ids=[e.function for e in EXERCISES])
def test_the_starter_shows_not_yet(exercise: Exercise) -> None:
    result = check(exercise, starter)
    assert result.not_yet and not result.passed
    expected = (
        f"{exercise.function}: not yet. Your function still raises NotImplementedError: "
        "write its body, then run this cell again."
    )
    assert repr(result) == expected
    assert "not yet" in result._repr_html_()


def test_check_never_raises_on_bad_calls(tmp_path: Path) -> None:
    unknown = check("match", solutions.match_hook)
    assert unknown.text() == (
        "no exercise named 'match'; choose one of match_hook, interpret_exit_code, "
        "apply_pre_tool_use, merge_pre_tool_use, run_stop_loop, run_hooks"
    )
    missing = check_matcher(solutions.match_hook, tmp_path)
    assert missing.problems[0].startswith("no fixtures for matcher-and-dispatch at ")
    assert "cannot run" in missing.text()


def test_each_call_gets_its_own_copy_of_the_case(apply_fixtures: Path) -> None:
    def mutating(output: dict[str, object], tool_input: object) -> object:
        effect = apply_right(output, tool_input)
        output.clear()
        if isinstance(tool_input, dict):
            tool_input.clear()
        return effect

    assert not check_apply(mutating, apply_fixtures).passed  # the effect shares input's dict
    assert check_apply(solutions.apply_pre_tool_use, apply_fixtures).passed


def test_extra_fixture_folders_are_read_and_their_problems_reported(
    matcher_fixtures: Path,
) -> None:
    extra = matcher_fixtures / "matcher-and-dispatch" / "extra"
    (extra / "good").mkdir(parents=True)
    (extra / "good" / "case.json").write_text('{"cases": [{"matcher": "A|B", "tool": "B"}]}')
    (extra / "good" / "expected.json").write_text('{"matches": [true]}')
    (extra / "broken").mkdir()
    (extra / "broken" / "case.json").write_text("{cases: []}")
    (extra / "broken" / "expected.json").write_text("{}")
    cases, problems = load_cases(exercise("match_hook"), matcher_fixtures)
    assert cases[-1].where == "extra/good cases[0]"
    assert problems == [
        "extra/broken/case.json is not valid JSON "
        "(Expecting property name enclosed in double quotes at line 1, column 2)"
    ]
    result = check_matcher(solutions.match_hook, matcher_fixtures)
    assert not result.passed  # a broken fixture never reads as a pass
    assert "fixture problem: extra/broken/case.json" in result.text()


def test_html_rendering_escapes_what_the_learner_returned(matcher_fixtures: Path) -> None:
    def shouting(code: object, stderr: str) -> dict[str, object]:
        return {"block": "<script>", "warn": False, "reason": None}

    page = check_exit_code(shouting, matcher_fixtures)._repr_html_()
    assert "&lt;script&gt;" in page and "<script>" not in page


# -- hints are data, and every family has one ----------------------------------------------------


@pytest.mark.parametrize(
    ("function", "stage"),
    [
        ("match_hook", "matcher"),
        ("interpret_exit_code", "matcher"),
        ("apply_pre_tool_use", "apply"),
    ],
)
def test_every_family_has_a_hint_and_every_hint_a_family(
    function: str, stage: str, matcher_fixtures: Path, apply_fixtures: Path
) -> None:
    chosen = exercise(function)
    cases, _ = load_cases(chosen, matcher_fixtures if stage == "matcher" else apply_fixtures)
    families = {run_case(chosen, starter, case).family for case in cases}
    assert families == set(hints()[function])


def test_the_repository_fixtures_include_the_seed_cases(repo_root: Path) -> None:
    cases, problems = load_cases(exercise("match_hook"))
    assert problems == []
    assert [case.where for case in cases[:4]] == [f"case.json cases[{i}]" for i in range(4)]
    assert (repo_root / "fixtures" / "matcher-and-dispatch" / "case.json").is_file()
