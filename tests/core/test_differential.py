"""Python against the JavaScript oracle, case by case, on the corpus in tests/oracle/.

Each family is compared twice: through the Python functions (match_hook,
interpret_exit_code, apply_pre_tool_use, and the regex engine under them) and
through the real ./your_program.sh on a generated case file. Node answers the
course profile; Bun answers the claude-code engine profile. test262's own RegExp tests, harvested
into tests/oracle/test262_regex.json, are a second regex corpus for both profiles.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from hookcourse.js import json as jsjson
from hookcourse.js.regex import RegexEngine, engine_dependent, regex_error, regex_test
from hookcourse.js.values import UNDEFINED
from hookcourse.stages.decide_and_modify.reference import apply_pre_tool_use
from hookcourse.stages.matcher_and_dispatch.reference import match_hook
from hookcourse.stages.matcher_and_dispatch.verdicts import interpret_exit_code

MIN_MATCH_PAIRS = 500
REPORT_LIMIT = 40


def _shown(value: Any) -> str:
    return "undefined" if value is UNDEFINED else json.dumps(value)


def _assert_agree(title: str, rows: list[str], total: int) -> None:
    if rows:
        lines = [f"{title}: {len(rows)} of {total} disagree with the JavaScript reference"]
        lines += [f"  {row}" for row in rows[:REPORT_LIMIT]]
        if len(rows) > REPORT_LIMIT:
            lines.append(f"  ... and {len(rows) - REPORT_LIMIT} more")
        pytest.fail("\n".join(lines), pytrace=False)


def _engine_rows_allowed(family: Any, oracle: Any) -> None:
    if family.engine_dependent and not oracle.is_reference_node:
        pytest.skip(
            f"{family.id} depends on the regex engine and the course profile is Node 20; "
            f"this oracle is {oracle.runtime}"
        )


def _reference_pairs(
    regex_pairs: Sequence[tuple[str, str]], oracle: Any, answers: list[Any]
) -> list[tuple[tuple[str, str], Any]]:
    """The regex pairs with the oracle's answers, minus engine-dependent patterns when
    the oracle is not the reference engine (those are checked on the reference only)."""
    pairs = list(zip(regex_pairs, answers, strict=True))
    if oracle.is_reference_node:
        return pairs
    return [(pair, answer) for pair, answer in pairs if not engine_dependent(pair[0])]


_NOT_COMPARED = object()


def _disagreements(
    family: Any, answers: list[Any], python: Callable[[dict[str, Any]], object]
) -> list[str]:
    """One row per case where Python's answer differs from the oracle's."""
    rows = []
    for text, js in zip(family.cases, answers, strict=True):
        case = jsjson.parse(text)
        assert isinstance(case, dict)
        got = python(case)
        if got is not _NOT_COMPARED and got != js:
            rows.append(f"case {text}: JS {json.dumps(js)}, Python {json.dumps(got)}")
    return rows


def _regex_disagreements(
    pairs: list[tuple[tuple[str, str], Any]], engine: RegexEngine, runtime: str
) -> list[str]:
    """One row per pattern whose validity differs, one per pair whose test() differs."""
    rows = []
    invalid_reported = set()
    for (pattern, subject), js in pairs:
        error = regex_error(pattern, engine)
        if (error is None) != js["valid"]:
            if pattern not in invalid_reported:
                invalid_reported.add(pattern)
                rows.append(
                    f"pattern={_shown(pattern)}: {runtime} "
                    f"{'compiles it' if js['valid'] else js['error']}, "
                    f"Python {'compiles it' if error is None else error}"
                )
            continue
        python = regex_test(pattern, subject, engine)
        if python != js["test"]:
            rows.append(
                f"pattern={_shown(pattern)} subject={_shown(subject)}: "
                f"{runtime} test() {js['test']}, Python {python}"
            )
    return rows


def test_corpus_family_is_nonempty_without_repeats(any_family: Any) -> None:
    """Sanity of the generated corpus itself: no family is empty and no case is repeated."""
    assert any_family.cases, f"{any_family.id} has no cases"
    repeated = len(any_family.cases) - len(set(any_family.cases))
    assert repeated == 0, f"{any_family.id} repeats {repeated} cases"


def test_corpus_has_enough_matcher_pairs(corpus: list[Any]) -> None:
    pairs = sum(len(family.cases) for family in corpus if family.kind == "matches")
    assert pairs >= MIN_MATCH_PAIRS


def test_match_hook_agrees_with_node(match_family: Any, node_oracle: Any) -> None:
    _engine_rows_allowed(match_family, node_oracle)

    def python(case: dict[str, Any]) -> object:
        matcher = case.get("matcher", UNDEFINED)
        reference = node_oracle.is_reference_node
        if isinstance(matcher, str) and not reference and engine_dependent(matcher):
            return _NOT_COMPARED  # checked on Node 20 only
        return match_hook(
            matcher if isinstance(matcher, str) else None, case.get("tool", UNDEFINED)
        )

    _assert_agree(
        f"match_hook on {match_family.id}",
        _disagreements(match_family, node_oracle.answers[match_family.id], python),
        len(match_family.cases),
    )


def test_regex_engine_agrees_with_node(match_family: Any, node_oracle: Any) -> None:
    """new RegExp(p) validity and .test(s) under the course profile (RegexEngine.NODE)."""
    _engine_rows_allowed(match_family, node_oracle)
    answers = node_oracle.regexes[match_family.id]
    pairs = _reference_pairs(match_family.regex_pairs(), node_oracle, answers)
    rows = _regex_disagreements(pairs, RegexEngine.NODE, "JS")
    _assert_agree(f"regex_test/regex_error (node) on {match_family.id}", rows, len(pairs))


def test_oracle_reproduces_the_b7_table(corpus: list[Any], node_oracle: Any) -> None:
    """The oracle itself: node gives the answers js-regex-semantics.md B7 documents."""
    (table,) = [f for f in corpus if f.documented is not None]
    rows = [
        f"pattern={_shown(pattern)} subject={_shown(subject)}: table {want}, node {js['test']}"
        for (pattern, subject), want, js in zip(
            table.regex_pairs(), table.documented, node_oracle.regexes[table.id], strict=True
        )
        if js["test"] != want
    ]
    _assert_agree("B7 table under node", rows, len(table.cases))


def test_interpret_exit_code_agrees_with_node(exit_family: Any, node_oracle: Any) -> None:
    def python(case: dict[str, Any]) -> object:
        stderr = case.get("stderr", UNDEFINED)
        assert isinstance(stderr, str), f"corpus case {case} belongs in a program_only family"
        return jsjson.stringify(interpret_exit_code(case.get("code", UNDEFINED), stderr).to_json())

    _assert_agree(
        f"interpret_exit_code on {exit_family.id}",
        _disagreements(exit_family, node_oracle.answers[exit_family.id], python),
        len(exit_family.cases),
    )


def test_apply_pre_tool_use_agrees_with_node(apply_family: Any, node_oracle: Any) -> None:
    def python(case: dict[str, Any]) -> object:
        output = case.get("output", UNDEFINED)
        assert isinstance(output, dict), f"corpus case {case} belongs in a program_only family"
        effect = apply_pre_tool_use(output, case.get("input", UNDEFINED))
        return jsjson.stringify(effect.to_json())

    _assert_agree(
        f"apply_pre_tool_use on {apply_family.id}",
        _disagreements(apply_family, node_oracle.answers[apply_family.id], python),
        len(apply_family.cases),
    )


def test_program_agrees_with_node(
    any_family: Any,
    node_oracle: Any,
    corpus_files: dict[str, Path],
    program: Callable[..., Any],
) -> None:
    """The real ./your_program.sh on the family's case file prints what program.ts prints."""
    _engine_rows_allowed(any_family, node_oracle)
    path = corpus_files[any_family.id]
    js = node_oracle.programs[path]
    assert isinstance(js, str), f"the oracle threw on {path}: {js}"
    run = program(any_family.command, path)
    assert run.returncode == 0, run.stderr.decode("utf-8", "replace")
    if run.stdout == f"{js}\n".encode():
        return
    expected, actual = json.loads(js), json.loads(run.stdout)
    rows = []
    for key, want in expected.items():
        got = actual.get(key, [])
        if len(got) != len(want):
            rows.append(f"{key}: JS has {len(want)} answers, Python {len(got)}")
    for key, want_list in expected.items():
        for text, want, got in zip(any_family.cases, want_list, actual.get(key, []), strict=False):
            if json.dumps(want) != json.dumps(got):
                rows.append(f"case {text}: JS {json.dumps(want)}, Python {json.dumps(got)}")
    if not rows:  # the same values in different bytes: number format or key order
        rows.append(f"bytes differ: JS {js[:300]!r}, Python {run.stdout[:300]!r}")
    title = f"./your_program.sh {any_family.command} on {any_family.id}"
    _assert_agree(title, rows, len(any_family.cases))


def test_regex_engine_agrees_with_bun(match_family: Any, bun_oracle: Any) -> None:
    """RegexEngine.BUN (the claude-code profile) against Bun, Claude Code's runtime."""
    pairs = list(zip(match_family.regex_pairs(), bun_oracle.regexes[match_family.id], strict=True))
    rows = _regex_disagreements(pairs, RegexEngine.BUN, "Bun")
    _assert_agree(f"regex_test/regex_error (bun) on {match_family.id}", rows, len(pairs))


def test_engine_dependent_flags_exactly_where_node_and_bun_differ(
    match_family: Any, node_oracle: Any, bun_oracle: Any
) -> None:
    if not node_oracle.is_reference_node:
        pytest.skip(
            f"engine_dependent() describes Node 20 against Bun; node is {node_oracle.runtime}"
        )
    node_answers = node_oracle.regexes[match_family.id]
    bun_answers = bun_oracle.regexes[match_family.id]
    rows = []
    seen = set()
    for (pattern, _), on_node, on_bun in zip(
        match_family.regex_pairs(), node_answers, bun_answers, strict=True
    ):
        if pattern in seen:
            continue
        seen.add(pattern)
        differs = on_node["valid"] != on_bun["valid"]
        if engine_dependent(pattern) != differs:
            rows.append(
                f"pattern={_shown(pattern)}: engines differ {differs}, flagged {not differs}"
            )
    _assert_agree(f"engine_dependent on {match_family.id}", rows, len(seen))


def test_test262_harvest_is_recorded_with_its_source(test262: Any) -> None:
    assert len(test262.commit) == 40 and set(test262.commit) <= set("0123456789abcdef")
    assert "BSD License" in test262.license and "Ecma International" in test262.license
    assert len(test262.patterns) >= 700 and len(test262.parse_negative) >= 100
    assert len(test262.pairs) >= 30000


def _profile_agrees(
    title: str, pairs: Sequence[tuple[str, str]], run: Any, engine: RegexEngine
) -> None:
    """Validity and test() of every pair under ``engine`` against what ``run`` answered."""
    answers = run.regexes["pairs"]
    if engine == RegexEngine.NODE:
        checked = _reference_pairs(pairs, run, answers)
    else:
        checked = list(zip(pairs, answers, strict=True))
    rows = _regex_disagreements(checked, engine, run.runtime)
    _assert_agree(f"{title} under RegexEngine.{engine}", rows, len(checked))


def test_course_profile_agrees_with_node_on_test262(test262: Any, test262_node: Any) -> None:
    _profile_agrees("test262", test262.pairs, test262_node, RegexEngine.NODE)


def test_claude_code_profile_agrees_with_bun_on_test262(test262: Any, test262_bun: Any) -> None:
    _profile_agrees("test262", test262.pairs, test262_bun, RegexEngine.BUN)


def test_case_folding_agrees_with_bun(case_fold: Any, case_fold_bun: Any) -> None:
    """(?i:...) on every character with a case partner, and the case exceptions' stand-ins."""
    _profile_agrees("case folding", case_fold, case_fold_bun, RegexEngine.BUN)


def test_case_folding_agrees_with_node(case_fold: Any, case_fold_node: Any) -> None:
    """The same pairs under the course profile: Node 20 rejects (?i:...), but \\xdf, \\337
    and [\\W] go through the stand-ins there too."""
    _profile_agrees("case folding", case_fold, case_fold_node, RegexEngine.NODE)


def test_test262_parse_negative_patterns_throw(
    test262: Any, test262_node: Any, test262_bun: Any
) -> None:
    """The harvest itself: a pattern from a parse-negative test is a SyntaxError in both."""
    rows = [
        f"pattern={_shown(pattern)}: {run.runtime} compiles it"
        for run in (test262_node, test262_bun)
        for (pattern, _), js in zip(test262.pairs, run.regexes["pairs"], strict=True)
        if pattern in test262.parse_negative and js["valid"]
    ]
    _assert_agree("parse-negative test262 patterns", sorted(set(rows)), len(test262.parse_negative))
