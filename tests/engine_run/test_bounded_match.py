"""A matcher regex matched in a forked child under a time limit (engine/bounded_match.py)."""

from __future__ import annotations

import os
import time

import pytest

from hookcourse.engine.bounded_match import bounded_explain
from hookcourse.stages.matcher_and_dispatch.reference import MatchBranch, RuleSet, explain_match
from hookcourse.system.interrupts import REGISTRY


def test_a_regex_answers_as_explain_match_and_leaves_nothing_registered() -> None:
    for matcher, value in (("^Bash$", "Bash"), ("mcp__.*__write", "mcp__x__read")):
        assert bounded_explain(matcher, value) == explain_match(matcher, value, RuleSet.CLAUDE_CODE)
    assert REGISTRY.starting == 0 and not REGISTRY.groups


def test_a_backtracking_regex_is_stopped_at_the_limit() -> None:
    start = time.monotonic()
    result = bounded_explain("^(a+)+$", "a" * 40 + "b", limit_s=0.2)
    assert time.monotonic() - start < 5
    assert (result.matched, result.branch) == (False, MatchBranch.REGEX)
    assert "did not finish within 0.2 s" in result.why
    assert REGISTRY.starting == 0 and not REGISTRY.groups


def test_when_fork_fails_it_matches_here_and_interrupts_still_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_fork() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_fork)
    opened = len(os.listdir("/proc/self/fd"))
    result = bounded_explain("^Ed(it)?$", "Edit")
    assert result == explain_match("^Ed(it)?$", "Edit", RuleSet.CLAUDE_CODE)
    # A start left counted would make every later interrupt wait forever.
    assert REGISTRY.starting == 0
    assert len(os.listdir("/proc/self/fd")) == opened  # the pipe is closed
