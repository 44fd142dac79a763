"""A matcher regex matched under a time limit: catastrophic backtracking cannot hang ``fire``.

A regex such as ``^(a+)+$`` tested against ``aaaa…a!`` takes time exponential in the
subject's length, in Bun's engine as in ``regress``, which does the matching here and
holds the interpreter lock while it works, so a thread cannot bound it. A regex
matcher is therefore matched in a forked child that is killed at the limit; the
result then says that the pattern did not finish and that Claude Code itself would
hang on it. Exact and match-all matchers never need the child.
"""

from __future__ import annotations

import os
import pickle
from typing import Final

from hookcourse.js.json import quote
from hookcourse.js.values import JSValue, Undefined
from hookcourse.stages.matcher_and_dispatch.reference import (
    MatchBranch,
    MatchResult,
    RuleSet,
    explain_match,
)
from hookcourse.system.processes import call_in_child

MATCH_LIMIT_S: Final = 2.0
_PLAIN_EXTRA: Final = "|_- ,"


def _is_plain(matcher: str | None) -> bool:
    """Match-all or exact-list characters only: no regex engine is involved."""
    if matcher is None:
        return True
    rest = matcher.translate({ord(ch): None for ch in _PLAIN_EXTRA})
    return rest == "" or (rest.isascii() and rest.isalnum())


def bounded_explain(
    matcher: str | None,
    value: JSValue | Undefined,
    *,
    narrow: bool = False,
    limit_s: float = MATCH_LIMIT_S,
) -> MatchResult:
    """``explain_match`` under the ``claude-code`` rules, stopped after ``limit_s`` seconds."""
    if _is_plain(matcher) or not hasattr(os, "fork"):
        return explain_match(matcher, value, RuleSet.CLAUDE_CODE, narrow=narrow)

    def work() -> bytes:
        result = explain_match(matcher, value, RuleSet.CLAUDE_CODE, narrow=narrow)
        return pickle.dumps((result.matched, str(result.branch), result.why))

    try:
        data = call_in_child(work, limit_s)
    except OSError:  # no process to spare: match here, unbounded, as where fork is missing
        return explain_match(matcher, value, RuleSet.CLAUDE_CODE, narrow=narrow)
    if data is None:
        why = (
            f"{quote(matcher or '')} is a JavaScript regex that did not finish within "
            f"{limit_s:g} s on this value (catastrophic backtracking): Claude Code itself "
            "would hang on it; counted as no match"
        )
        return MatchResult(False, MatchBranch.REGEX, why)
    if not data:  # the child failed before answering: let the error show here
        return explain_match(matcher, value, RuleSet.CLAUDE_CODE, narrow=narrow)
    matched, branch, why = pickle.loads(data)
    return MatchResult(bool(matched), MatchBranch(branch), str(why))
