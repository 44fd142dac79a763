"""The grader's small value types: equal records hash alike, a Choice holds only its values."""

from __future__ import annotations

import pytest

from hookcourse.js.regex import RegexEngine
from hookcourse.stages.decide_and_modify.reference import HookEffect, apply_pre_tool_use
from hookcourse.stages.matcher_and_dispatch.reference import MatchBranch, RuleSet, explain_match
from hookcourse.stages.matcher_and_dispatch.verdicts import ExitVerdict


def test_equal_records_hash_alike() -> None:
    one = apply_pre_tool_use({"updatedInput": {"n": 1, "m": [1, {"k": 2}]}}, {})
    other = apply_pre_tool_use({"updatedInput": {"m": [1.0, {"k": 2.0}], "n": 1.0}}, {})
    assert isinstance(one, HookEffect) and one == other
    assert hash(one) == hash(other)
    assert len({one, other}) == 1
    assert ExitVerdict(True, False, "x") != ExitVerdict(True, False, "y")


def test_a_choice_rejects_values_it_does_not_list() -> None:
    assert RuleSet("course") == RuleSet.COURSE
    assert list(RegexEngine) == ["node", "bun"]
    assert list(MatchBranch) == ["all", "exact", "regex"]
    for kind, wrong in [(RuleSet, "COURSE"), (RegexEngine, "v8"), (MatchBranch, "")]:
        with pytest.raises(ValueError, match=f"is not a {kind.__name__}; choose one of"):
            kind(wrong)


def test_explain_match_reads_rules_as_a_rule_set() -> None:
    # "a-b" is a name under Claude Code's wider list characters, a regex under the course's.
    assert explain_match("a-b", "a-b", RuleSet.CLAUDE_CODE).branch == MatchBranch.EXACT
    assert explain_match("a-b", "a-b", "claude-code").branch == MatchBranch.EXACT  # type: ignore[arg-type]
    assert explain_match("a-b", "a-b").branch == MatchBranch.REGEX
    with pytest.raises(ValueError, match="'COURSE' is not a RuleSet"):
        explain_match("a-b", "a-b", "COURSE")  # type: ignore[arg-type]
