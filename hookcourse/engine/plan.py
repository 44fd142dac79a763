"""Which hooks run for one event: matcher groups, handlers, ``if``, dedup, timeouts. Pure.

1. The settings' matcher groups for the event; each group's matcher is compared
   with the event's own payload field under the ``claude-code`` rules (ignored
   where the event has no matcher support), legacy tool names (``Task`` for
   ``Agent``) included.
2. In every matching group, the handlers the event accepts; on the six events
   that evaluate ``if``, a handler's rule must also select the call (elsewhere a
   handler with ``if`` never runs); identical handlers run once (async ones never
   merge with each other, and a sync copy of an async one does not run), each with its
   timeout.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TypeAlias

from hookcourse.js.values import UNDEFINED, JSValue, Undefined
from hookcourse.stages.matcher_and_dispatch.reference import (
    MatchBranch,
    MatchResult,
    RuleSet,
    explain_match,
)

from .catalogue import EventSpec, tool_aliases
from .permission_rule import CallPlace, RuleCheck, check_rule
from .settings import CommandHandler, Handler, MatcherGroup
from .versions import args_note, exact_name_note, if_read

NO_MATCHER_SUPPORT = "ignored"
"""The branch reported for a group on an event without matcher support."""


@dataclass(frozen=True)
class PlannedHandler:
    """One handler of a matching group: whether it runs, and if not, why not."""

    handler: Handler
    runs: bool
    skipped_because: str | None = None
    if_check: RuleCheck | None = None
    timeout_s: float | None = None


@dataclass(frozen=True)
class GroupPlan:
    """One matcher group of the event: did it match, by which branch, and why."""

    group: MatcherGroup
    matched: bool
    branch: str
    why: str
    handlers: tuple[PlannedHandler, ...]


def matcher_subject(spec: EventSpec, payload: Mapping[str, JSValue]) -> JSValue | Undefined:
    """The payload value an event's matcher is compared with (a basename for FileChanged)."""
    if spec.matcher_field is None:
        return UNDEFINED
    value = payload.get(spec.matcher_field, UNDEFINED)
    if spec.matcher_compares_basename and isinstance(value, str):
        return posixpath.basename(value)
    return value


Match: TypeAlias = "Callable[[str | None, JSValue | Undefined, bool], MatchResult]"


def _explain(matcher: str | None, value: JSValue | Undefined, narrow: bool) -> MatchResult:
    return explain_match(matcher, value, RuleSet.CLAUDE_CODE, narrow=narrow)


def _with_aliases(spec: EventSpec, match: Match) -> Match:
    """On tool-name matchers, also try the tool's legacy names (``Task`` for ``Agent``)."""
    if spec.matcher_field != "tool_name":
        return match

    def aliased(matcher: str | None, value: JSValue | Undefined, narrow: bool) -> MatchResult:
        result = match(matcher, value, narrow)
        if result.matched or not isinstance(value, str):
            return result
        for legacy, current in tool_aliases().items():
            if current == value:
                again = match(matcher, legacy, narrow)
                if again.matched:
                    why = f"{again.why} ({legacy} is the legacy name of {value})"
                    return MatchResult(True, again.branch, why)
        return result

    return aliased


def _as_release(match: Match) -> Match:
    """The matcher test of the release ``fire --claude-version`` answers as: exact names
    held only letters, digits, ``_`` and ``|`` until releases that added spaces, commas and
    hyphens (measured), so a matcher the newest reads as exact names was a regular
    expression there, tested as such."""

    def as_release(matcher: str | None, value: JSValue | Undefined, narrow: bool) -> MatchResult:
        result = match(matcher, value, narrow)
        note = None if narrow or result.branch != MatchBranch.EXACT else exact_name_note(matcher)
        if note is None:
            return result
        # The narrow set is the old one: what it does not hold takes the regex branch.
        as_regex = match(matcher, value, True)
        return MatchResult(as_regex.matched, as_regex.branch, f"{note}; {as_regex.why}")

    return as_release


def plan_hooks(
    spec: EventSpec,
    groups: Sequence[MatcherGroup],
    payload: Mapping[str, JSValue],
    place: CallPlace,
    match: Match = _explain,
) -> tuple[GroupPlan, ...]:
    """Which groups match and which of their handlers run (steps 1 and 2 above).

    ``match`` is the matcher test; ``fire`` passes one bounded in time.
    """
    subject = matcher_subject(spec, payload)
    match = _as_release(_with_aliases(spec, match))
    matches: list[tuple[MatcherGroup, bool, str, str]] = []
    for group in groups:
        if spec.matcher_field is None:
            matched, branch = True, NO_MATCHER_SUPPORT
            why = f"{spec.name} has no matcher support, so the matcher is ignored"
            if group.matcher is None:
                why = f"{spec.name} has no matcher support: every group fires"
        else:
            result = match(group.matcher, subject, spec.narrow_exact)
            matched, branch, why = result.matched, str(result.branch), result.why
        matches.append((group, matched, branch, why))
    # A handler that is also given as async (in another file, say) runs once, as the
    # async copy (2.1.332): the sync one counts as already seen.
    seen: dict[tuple[object, ...], Handler] = {
        _identity(handler): handler
        for group, matched, _, _ in matches
        if matched
        for handler in group.handlers
        if handler.is_async
    }
    plans: list[GroupPlan] = []
    for group, matched, branch, why in matches:
        handlers = (
            tuple(_plan_handler(spec, handler, payload, place, seen) for handler in group.handlers)
            if matched
            else ()
        )
        plans.append(GroupPlan(group, matched, branch, why, handlers))
    return _with_timeouts(spec, plans)


def _identity(handler: Handler) -> tuple[object, ...]:
    """What makes two handlers one (``dedupe_key``, whose last item is ``if``); an older
    release answered as that ignored ``if`` merged handlers differing only there (seen
    live on 2.0.60: settings-dedup-different-if)."""
    key = handler.dedupe_key()
    return key if if_read() else key[:-1]


def _plan_handler(
    spec: EventSpec,
    handler: Handler,
    payload: Mapping[str, JSValue],
    place: CallPlace,
    seen: dict[tuple[object, ...], Handler],
) -> PlannedHandler:
    if handler.type not in spec.handler_types:
        return PlannedHandler(
            handler,
            False,
            f"{spec.name} does not run {handler.type} hooks "
            f"(it runs {', '.join(spec.handler_types)})",
        )
    if isinstance(handler, CommandHandler) and handler.args is not None:
        # An older release answered as (fire --claude-version) ran none of such a hook.
        ignored = args_note()
        if ignored is not None:
            return PlannedHandler(handler, False, ignored)
    check = None
    # An older release answered as (fire --claude-version) ran the hook whatever its if.
    if handler.if_rule is not None and if_read():
        if not spec.if_condition:
            return PlannedHandler(
                handler,
                False,
                f'"if" is evaluated only on the six tool events, and on {spec.name} a '
                "handler with it never runs",
            )
        tool_name = payload.get("tool_name")
        check = check_rule(
            handler.if_rule,
            tool_name if isinstance(tool_name, str) else "",
            payload.get("tool_input", {}),
            place,
        )
        if not check.applies:
            return PlannedHandler(handler, False, check.why, check)
    # Async hooks are never merged with an identical one (2.1.332).
    first = handler if handler.is_async else seen.setdefault(_identity(handler), handler)
    if first is not handler:
        once = "runs once for both" if not first.is_async else "runs once for both, as async"
        return PlannedHandler(
            handler, False, f"identical to the handler at {first.origin}, which {once}", check
        )
    return PlannedHandler(handler, True, None, check)


def _with_timeouts(spec: EventSpec, plans: list[GroupPlan]) -> tuple[GroupPlan, ...]:
    """Give each running handler its timeout: its own, else the type's default for the event."""
    running = [p.handler for plan in plans for p in plan.handlers if p.runs]
    shared = spec.shared_budget_for([h.timeout_s for h in running if h.timeout_s is not None])

    def timeout(handler: Handler) -> float:
        if shared is not None:
            return shared
        if handler.timeout_s is not None:
            return handler.timeout_s
        return spec.default_timeout_s(handler.type)

    return tuple(
        replace(
            plan,
            handlers=tuple(
                replace(p, timeout_s=timeout(p.handler)) if p.runs else p for p in plan.handlers
            ),
        )
        for plan in plans
    )
