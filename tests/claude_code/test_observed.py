"""Every catalogue event is seen firing in the real binary's record, or named unreachable."""

from __future__ import annotations

import json
from pathlib import Path

from observed import observed_events, readme_lines, recorded, stale

HERE = Path(__file__).resolve().parent
UNREACHABLE = json.loads((HERE / "unreachable.json").read_text(encoding="utf-8"))["events"]
CATALOGUE = json.loads(
    (HERE.parents[1] / "hookcourse" / "data" / "events.json").read_text(encoding="utf-8")
)
SEEN = recorded()
AT_LEAST = 2
"""Scenarios per observed event (issue: each event reached at least twice)."""


def test_every_reachable_event_is_observed_at_least_twice() -> None:
    short = {
        event["name"]: sum(len(ids) for ids in SEEN.get(event["name"], {}).values())
        for event in CATALOGUE["events"]
        if event["name"] not in UNREACHABLE
    }
    assert {name: n for name, n in short.items() if n < AT_LEAST} == {}, (
        "observe these in more scenarios, or say in unreachable.json why they cannot be"
    )


def test_nothing_observed_is_named_unreachable() -> None:
    assert not set(SEEN) & set(UNREACHABLE)


def test_events_are_told_apart_by_mode() -> None:
    corpus = {"p": {}, "i": {"interactive": []}}
    record = {"p": {"hooks": [{"event": "Stop"}]}, "i": {"hooks": [{"event": "Stop"}] * 2}}
    assert observed_events(corpus, record) == {"Stop": {"print": ["p"], "interactive": ["i"]}}


def test_the_package_and_readme_say_what_the_record_says() -> None:
    assert stale(write=False) == [], "run: python tests/claude_code/observed.py write"


def test_the_readme_lines_part_events_by_mode() -> None:
    seen = {
        "Stop": {"print": ["p"], "interactive": ["i"]},
        "Notification": {"print": [], "interactive": ["i"]},
    }
    assert readme_lines(seen, ["Stop", "Notification", "TeammateIdle"]) == [
        "- In print mode (1): Stop.",
        "- Only in the interactive interface (1): Notification.",
        "- Not observed (1): TeammateIdle.",
    ]


def test_each_events_checked_line_says_where_it_was_seen_or_that_it_was_not() -> None:
    from hookcourse.engine.api import event_facts, get_event

    def checked(name: str) -> str:
        spec = get_event(name)
        assert spec is not None
        return dict(event_facts(spec))["checked"]

    assert checked("TeammateIdle").startswith("not observed on Claude Code 2.1.332")
    assert checked("Notification").endswith("seen firing in the interactive interface")
    assert checked("PreToolUse").endswith("seen firing in print mode")
