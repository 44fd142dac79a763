"""A matcher regex matched under a time limit: catastrophic backtracking cannot hang ``fire``.

A regex such as ``^(a+)+$`` tested against ``aaaa…a!`` takes time exponential in the
subject's length, in Bun's engine as in ``regress``, which does the matching here and
holds the interpreter lock while it works, so a thread cannot bound it. A regex
matcher is therefore matched in a forked child that is killed at the limit; the
result then says that the pattern did not finish and that Claude Code itself would
hang on it. Exact and match-all matchers never need the child.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import time
from typing import Final

from hookcourse.js.json import quote
from hookcourse.js.values import JSValue, Undefined
from hookcourse.stages.matcher_and_dispatch.reference import (
    MatchBranch,
    MatchResult,
    RuleSet,
    explain_match,
)
from hookcourse.system.interrupts import REGISTRY

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
    reader, writer = os.pipe()
    REGISTRY.begin_start()  # an interrupt now waits until the child is registered
    try:
        child = os.fork()
    except OSError:  # no process to spare: match here, unbounded, as where fork is missing
        REGISTRY.after_start()
        os.close(reader)
        os.close(writer)
        return explain_match(matcher, value, RuleSet.CLAUDE_CODE, narrow=narrow)
    if child == 0:  # pragma: no cover - runs in the child, which leaves through os._exit
        os.setpgid(0, 0)
        os.close(reader)
        try:
            result = explain_match(matcher, value, RuleSet.CLAUDE_CODE, narrow=narrow)
            os.write(writer, pickle.dumps((result.matched, str(result.branch), result.why)))
        finally:
            os._exit(0)
    with contextlib.suppress(OSError):  # the child may have done it, or exited already
        os.setpgid(child, child)
    REGISTRY.add(child)
    REGISTRY.after_start()
    os.close(writer)
    try:
        data = _read_until(reader, time.monotonic() + limit_s)
    finally:
        os.close(reader)
        with contextlib.suppress(ProcessLookupError):
            os.kill(child, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(child, 0)
        REGISTRY.discard(child)
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


def _read_until(descriptor: int, deadline: float) -> bytes | None:
    """Everything the child writes before it closes the pipe, or None past the deadline."""
    chunks: list[bytes] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        ready, _, _ = select.select([descriptor], [], [], left)
        if not ready:
            return None
        chunk = os.read(descriptor, 65_536)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
