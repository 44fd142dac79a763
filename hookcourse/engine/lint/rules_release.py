"""Rules on a matcher group for an older Claude Code release (``--claude-version``): what
the version sweep measured that release doing differently, with the release that changed
it. Without ``--claude-version`` (the newest measured release) neither rule fires.
"""

from __future__ import annotations

from collections.abc import Iterator

from hookcourse.js.json import quote

from ..versions import answering, comma_list_note, not_fired_note
from .registry import Hit, Scope, Severity, rule
from .sites import GroupSite


@rule(
    "event-not-in-release",
    Severity.ERROR,
    "the version sweep (`hookcourse versions EVENT`): the first release that ran the event",
    Scope.GROUP,
    "hooks on an event the release chosen with --claude-version did not run yet",
)
def event_not_in_release(site: GroupSite) -> Iterator[Hit]:
    note = not_fired_note(site.spec.name)
    if note is None:
        return
    yield Hit(
        site.group.origin.path,
        note,
        f"use a release that runs {site.spec.name} hooks (`hookcourse versions "
        f"{site.spec.name}` says which)",
    )


@rule(
    "matcher-list-in-release",
    Severity.ERROR,
    "the version sweep (`hookcourse versions PreToolUse`): comma lists as names",
    Scope.GROUP,
    "a matcher list with commas, which the release chosen with --claude-version did not "
    "fire on the names in it",
)
def matcher_list_in_release(site: GroupSite) -> Iterator[Hit]:
    matcher = site.group.matcher
    note = comma_list_note(matcher)
    if matcher is None or note is None or site.spec.matcher_field is None:
        return
    names = [name.strip() for name in matcher.split(",") if name.strip()]
    yield site.hit(
        "matcher",
        note,
        f"write {quote('|'.join(names))} for Claude Code {answering()}",
    )
