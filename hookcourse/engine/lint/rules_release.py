"""Rules for an older Claude Code release (``--claude-version``): what the version sweep
measured that release doing differently with a settings file or a matcher group, with
the release that changed it. Without ``--claude-version`` (the newest measured release)
none of them fires.
"""

from __future__ import annotations

from collections.abc import Iterator

from hookcourse.js.json import quote
from hookcourse.stages.matcher_and_dispatch.reference import RuleSet, exact_names

from ..versions import answering, exact_name_note, not_fired_note, unknown_event_note
from .registry import Hit, Scope, Severity, rule
from .sites import DocumentSite, GroupSite


@rule(
    "file-unread-in-release",
    Severity.ERROR,
    "the version sweep (`hookcourse versions`): a settings file naming an event the release "
    "did not know",
    Scope.DOCUMENT,
    "a settings file naming an event the release chosen with --claude-version did not know, "
    "which that release read none of the file's hooks for",
)
def file_unread_in_release(site: DocumentSite) -> Iterator[Hit]:
    hooks = site.document.get("hooks") if isinstance(site.document, dict) else None
    if not isinstance(hooks, dict):
        return
    for event in hooks:
        note = unknown_event_note(event, known=event in site.events)
        if note is not None:
            yield Hit(
                ("hooks", event),
                note,
                f"move the {event} hooks to a settings file of their own, so Claude Code "
                f"{answering()} still runs the others",
            )


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
    "the version sweep (`hookcourse versions PreToolUse`): the characters exact names hold",
    Scope.GROUP,
    "a matcher the newest release reads as exact names (with spaces, commas or hyphens) "
    "that the release chosen with --claude-version read as a regular expression",
)
def matcher_list_in_release(site: GroupSite) -> Iterator[Hit]:
    matcher = site.group.matcher
    if matcher is None or site.spec.matcher_field is None or site.spec.narrow_exact:
        return
    names = exact_names(matcher, RuleSet.CLAUDE_CODE)
    note = exact_name_note(matcher)
    if names is None or note is None:
        return
    yield site.hit(
        "matcher",
        note,
        f"write {quote('^(' + '|'.join(names) + ')$')} for Claude Code {answering()}",
    )
