"""Rules of the version sweep about subagents and the permission mode a session starts in.

Each kind is read from the stored records as a span: the stored releases, in npm's order,
whose records show a value other than the newest release's, from ``since`` (the first of
them) to ``until`` (the first stored release after them showing another value; None when
the span reaches the newest). ``previous`` is the stored release before ``since`` that
showed a value; ``exact`` says they are consecutive on npm. None is written per scenario
or per release: a scenario shows a kind when it has what the kind reads.

- ``default-mode``: the permission mode a session given none runs in (hooks' payloads in
  scenarios that set no mode: no ``--permission-mode``, no ``defaultMode``, no
  ``--dangerously-skip-permissions``).
- ``auto-refusal-text``: the tool_result of a call auto mode refused because its safety
  check gave no verdict (the sweep runs offline, so it never gives one).
- ``agent-background``: from ``since`` the Agent tool launches its subagent in the
  background ("Async agent launched successfully"); before, the call waited for it and
  answered with its reply.
- ``own-subagents``: the release started subagents of its own at startup (agent types no
  scripted call asked for, seen by SubagentStart hooks), and how many model requests each
  made.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from oracle_sweep import core_ids, release_key

MAIN_EVENTS = frozenset({"PreToolUse", "PostToolUse", "PostToolUseFailure", "Stop"})
MAIN_EVENTS |= {"UserPromptSubmit", "PostToolBatch"}
"""Events of the main conversation: their payloads carry the session's permission mode."""
MODE_SET = re.compile(r'"--permission-mode"|"--dangerously-skip-permissions"|"defaultMode"')
"""How a scenario sets the permission mode itself."""
AUTO_REFUSAL = re.compile(r"^Auto mode ")
"""How Claude Code's refusals in auto mode begin (2.1.285 to 2.1.332)."""
AGENT = "Agent"


def _spans(shown: Mapping[str, Any], newest: Any) -> list[tuple[str, str, str | None, Any, Any]]:
    """Over the releases of ``shown`` (in npm's order, each with the value its records
    show), the spans whose value is not ``newest``: (since, previous, until, before,
    value)."""
    found = []
    ordered = sorted(shown, key=release_key)
    start = None
    for i, version in enumerate([*ordered, None]):
        value = newest if version is None else shown[version]
        if start is not None and (version is None or value != shown[ordered[start]]):
            until = version
            previous = ordered[start - 1]
            found.append((ordered[start], previous, until, shown[previous], shown[ordered[start]]))
            start = None
        if version is not None and start is None and value != newest and i > 0:
            start = i
    return found


def _rule(
    kind: str,
    says: str,
    span: tuple[str, str, str | None, Any, Any],
    events: list[str],
    scenarios: set[str],
    facet: str,
) -> dict[str, Any]:
    since, previous, until, before, after = span
    rule: dict[str, Any] = {
        "kind": kind,
        "says": says,
        "events": events,
        "since": since,
        "previous": previous,
        "exact": release_key(since)[0] - release_key(previous)[0] == 1,
        "facet": facet,
        "before": before,
        "after": after,
        "scenarios": sorted(scenarios),
    }
    if until is not None:
        rule["until"] = until
    return rule


def _per_release(
    records: Mapping[str, Mapping[str, Any]],
    corpus: Mapping[str, Mapping[str, Any]],
    read: Callable[[Mapping[str, Any], Mapping[str, Any]], Any],
) -> tuple[dict[str, Any], dict[str, set[str]]]:
    """Per stored release, the one value ``read`` finds in its core scenarios' records
    (None: nothing to read), and the scenarios that showed it; a release whose records
    show two values is left out (nothing to say for it)."""
    core = set(core_ids()) & set(corpus)
    shown: dict[str, Any] = {}
    showing: dict[str, set[str]] = {}
    for version, record in records.items():
        values: dict[str, set[str]] = {}
        for sid, observed in record.items():
            if sid not in core:
                continue
            value = read(corpus[sid], observed)
            if value is not None:
                values.setdefault(json.dumps(value, sort_keys=True), set()).add(sid)
        if len(values) == 1:
            [(text, sids)] = values.items()
            shown[version] = json.loads(text)
            showing[version] = sids
    return shown, showing


def _mode_of(scenario: Mapping[str, Any], observed: Mapping[str, Any]) -> str | None:
    """The permission mode a scenario that sets none ran in (its main hooks' payloads)."""
    if scenario.get("interactive") is not None or MODE_SET.search(json.dumps(scenario)):
        return None
    modes = {
        run["payload"].get("permission_mode")
        for run in observed.get("hooks") or []
        if run["event"] in MAIN_EVENTS and isinstance(run.get("payload"), dict)
    }
    modes.discard(None)
    return str(modes.pop()) if len(modes) == 1 else None


def default_modes(
    records: Mapping[str, Mapping[str, Any]], corpus: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """``default-mode``: the spans of releases whose sessions, given no permission mode,
    ran in another mode than the newest's."""
    shown, showing = _per_release(records, corpus, _mode_of)
    newest = shown[max(shown, key=release_key)]
    return [
        _rule(
            "default-mode",
            f"a session given no permission mode runs in {span[4]} mode (was {span[3]})",
            span,
            sorted(MAIN_EVENTS),
            showing[span[0]],
            "permission_mode",
        )
        for span in _spans(shown, newest)
    ]


def _auto_refusal(scenario: Mapping[str, Any], observed: Mapping[str, Any]) -> str | None:
    """The text of a call refused in auto mode for want of a verdict, if one was."""
    for call in observed.get("tools") or []:
        text = call.get("result")
        if call.get("isError") and isinstance(text, str) and AUTO_REFUSAL.match(text):
            return text
    return None


def auto_refusal_texts(
    records: Mapping[str, Mapping[str, Any]], corpus: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """``auto-refusal-text``: the spans of releases whose records show a call auto mode
    refused for want of a verdict, with its text; the
    releases that ran those scenarios without such a refusal bound them."""
    shown, showing = _per_release(records, corpus, _auto_refusal)
    ran = {sid for sids in showing.values() for sid in sids}
    # A release that ran the scenarios without an auto-mode refusal ends a span.
    for version, record in records.items():
        if version not in shown and ran & set(record):
            shown[version] = None
    rules = []
    for span in _spans(shown, None):
        if span[4] is None:
            continue
        says = "a call auto mode's check gave no verdict on is refused as `" + span[4][:60] + "…`"
        rules.append(
            _rule("auto-refusal-text", says, span, ["PreToolUse"], showing[span[0]], "tool[*]")
        )
    return rules


def _agent_waits(scenario: Mapping[str, Any], observed: Mapping[str, Any]) -> bool | None:
    """Whether an Agent call that ran waited for its subagent: its result is not the
    launch notice the newest release answers with (None: no Agent call ran)."""
    for call in observed.get("tools") or []:
        if call.get("name") == AGENT and call.get("structured") and not call.get("isError"):
            return not str(call.get("result", "")).startswith("Async agent launched")
    return None


def agent_background(
    records: Mapping[str, Mapping[str, Any]], corpus: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """``agent-background``: the first stored release from which every Agent call that ran
    launched its subagent in the background (one more main turn when it finishes), the
    release before having waited for it."""
    shown, showing = _per_release(records, corpus, _agent_waits)
    ordered = sorted(shown, key=release_key)
    waited = [i for i, version in enumerate(ordered) if shown[version]]
    if not waited or waited[-1] == len(ordered) - 1:
        return []
    since, previous = ordered[waited[-1] + 1], ordered[waited[-1]]
    says = "the Agent tool launches its subagent in the background: one more main turn when "
    says += "it finishes (before, the call waited and answered with the subagent's reply)"
    span = (since, previous, None, "waits", "background")
    events = ["SubagentStart", "SubagentStop"]
    return [_rule("agent-background", says, span, events, showing[since], "tool[Agent]")]


def subagent_rules(
    records: Mapping[str, Mapping[str, Any]], corpus: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Every rule of this module, read from the stored records."""
    return [
        *default_modes(records, corpus),
        *auto_refusal_texts(records, corpus),
        *agent_background(records, corpus),
    ]
