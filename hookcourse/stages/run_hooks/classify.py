"""The family of a ``run-hooks`` case: the pitfall of the page it catches, most specific
first (the registry lists the families; hints.json has a hint for each)."""

from __future__ import annotations

from hookcourse.js.regex import RegexEngine, regex_test
from hookcourse.js.values import UNDEFINED, js_trim, strict_equals_number
from hookcourse.stages.answers import json_output
from hookcourse.stages.decoding import Decoded
from hookcourse.stages.matcher_and_dispatch.reference import RuleSet, exact_names, match_hook
from hookcourse.stages.merge_decisions.reference import merge_pre_tool_use
from hookcourse.stages.run_hooks.reference import EVENTS, POST, PRE, run_hooks


def _matching(case: Decoded, event: str) -> list[str]:
    hooks, tool, _ = case.parsed
    return [c for g in hooks[event] if match_hook(g.matcher, tool.name) for c in g.commands]


def run_family(case: Decoded) -> str:
    """The pitfall a ``run_hooks`` case catches (a key of hints.json)."""
    hooks, tool, results = case.parsed
    run = run_hooks(hooks, tool, results)
    fired = (PRE, POST) if run.runs else (PRE,)
    ran = {PRE: run.pre_ran, POST: () if run.post is None else run.post.ran}
    if any(len(_matching(case, event)) > len(ran[event]) for event in fired):
        return "run-once"
    by_keys = [results[PRE][c] for c in results.get(PRE, {}) if c in run.pre_ran]
    if merge_pre_tool_use(by_keys, tool.input) != merge_pre_tool_use(
        [results[PRE][c] for c in run.pre_ran], tool.input
    ):
        return "settings-order"
    if run.decision in ("ask", "defer"):
        return "ask-or-defer"
    if run.decision == "deny":
        return "deny"
    every = {event: {c for g in hooks[event] for c in g.commands} for event in EVENTS}
    if any(c not in results.get(e, {}) for e in fired for c in every[e] - set(ran[e])):
        return "only-matching-run"
    for group in (g for event in EVENTS for g in hooks[event]):
        names = None if group.matcher is None else exact_names(group.matcher, RuleSet.COURSE)
        if names is not None and regex_test(group.matcher, tool.name, RegexEngine.NODE) != (
            tool.name in names
        ):
            return "name-list"
    assert run.post is not None
    post_results = [results[POST][c] for c in run.post.ran]
    if any(strict_equals_number(r.code, 2) for r in post_results):
        return "post-exit-2"
    outputs = [out for r in post_results if (out := json_output(r.stdout)) is not None]
    for out in outputs:
        reason = out.get("reason", UNDEFINED)
        if out.get("decision") == "block" and (
            not isinstance(reason, str) or not js_trim(reason) or reason != reason.strip()
        ):
            return "post-block-reason"
    for out in outputs:
        specific = out.get("hookSpecificOutput")
        if isinstance(specific, dict) and specific.get("hookEventName") != POST:
            return "post-context-event"
    if run.post.feedback or run.post.contexts:
        return "post-feedback"
    if run.input != tool.input:
        return "rewrite"
    return "runs" if run.post.ran else "no-post-hooks"
