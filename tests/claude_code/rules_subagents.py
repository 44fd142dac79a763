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
  scripted call asked for, seen by SubagentStart hooks; before those ran, as many as
  stopped), how many model requests each made, and whether their hooks' texts reached a
  model.
- ``subagent-cut-off``: the run ended before a subagent a SubagentStop hook blocked
  stopped again (no SubagentStop with ``stop_hook_active`` after the block).
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from oracle_record import digest
from oracle_sweep import core_ids, release_key

from hookcourse.engine.catalogue import permission_facts
from hookcourse.engine.versions import text_form

MAIN_EVENTS = frozenset({"PreToolUse", "PostToolUse", "PostToolUseFailure", "Stop"})
MAIN_EVENTS |= {"UserPromptSubmit", "PostToolBatch"}
"""Events of the main conversation: their payloads carry the session's permission mode."""
MODE_SET = re.compile(r'"--permission-mode"|"--dangerously-skip-permissions"|"defaultMode"')
"""How a scenario sets the permission mode itself."""
AUTO_REFUSAL = re.compile(r"^Auto mode |Reason: (Classifier |Auto mode could not)")
"""Claude Code's refusals of a call auto mode's check gave no verdict on, in each wording
measured (2.1.71 to 2.1.332)."""
AGENT = "Agent"
SUBAGENT_EVENTS = ("SubagentStart", "SubagentStop")


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
    """Per stored release, the one value ``read`` finds in its core scenarios' current
    records (None: nothing to read), and the scenarios that showed it; a release whose
    records show two values is left out (nothing to say for it)."""
    core = set(core_ids()) & set(corpus)
    shown: dict[str, Any] = {}
    showing: dict[str, set[str]] = {}
    for version, record in records.items():
        values: dict[str, set[str]] = {}
        for sid, observed in record.items():
            # A record of an earlier form of the scenario says nothing about this one.
            if sid not in core or observed.get("scenario") != digest(corpus[sid]):
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
    if not shown:
        return []  # no record shows a mode: records without hooks' payloads
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


def auto_refusal_texts(
    records: Mapping[str, Mapping[str, Any]], corpus: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """``auto-refusal-text``: how a call auto mode refused for want of a verdict was worded.
    Per stored release, the one text its core scenarios' such calls got (the tool's name as
    ``{tool}``; a release showing two says nothing): a text in auto mode's words, or in a
    session given ``--permission-mode auto`` a first refusal in the plain words of any
    command needing approval.
    A rule per change between neighbouring releases that show one (``before``, ``after``)."""
    core = set(core_ids()) & set(corpus)
    shown: dict[str, str] = {}
    showing: dict[str, set[str]] = {}
    for version, record in records.items():
        texts: dict[str, set[str]] = {}
        for sid, observed in record.items():
            if sid not in core or observed.get("scenario") != digest(corpus[sid]):
                continue
            auto = "auto" in (corpus[sid].get("flags") or [])
            refused = [
                call
                for call in observed.get("tools") or []
                if call.get("isError") and isinstance(call.get("result"), str)
            ]
            for at, call in enumerate(refused):
                text = str(call.get("result"))
                # In a session run in auto mode, a first refusal in the permission step's
                # plain words is auto mode's too (2.1.75 to 2.1.89 did not ask its check:
                # as default mode does); later ones may be the step's own where the release
                # fell back to asking (``denial-fallback``).
                plain = auto and at == 0 and text == permission_facts().refusals["command"]
                if AUTO_REFUSAL.search(text) or plain:
                    template = text.replace(str(call.get("name")), "{tool}")
                    texts.setdefault(template, set()).add(sid)
        if len(texts) == 1:
            [(shown[version], showing[version])] = texts.items()
    ordered = sorted(shown, key=release_key)
    return [
        _rule(
            "auto-refusal-text",
            "a call auto mode's check gave no verdict on is refused as `" + shown[high][:60] + "…`",
            (high, low, None, shown[low], shown[high]),
            ["PreToolUse"],
            showing[high],
            "tool[*]",
        )
        for low, high in itertools.pairwise(ordered)
        if shown[low] != shown[high]
    ]


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
        *own_subagents(records, corpus),
        *subagent_cut_off(records, corpus),
    ]


def _own_agents(scenario: Mapping[str, Any], observed: Mapping[str, Any]) -> list[str] | None:
    """The agent types SubagentStart hooks saw that no scripted call asked for: subagents
    the release started on its own (None: the scenario has no SubagentStart hook)."""
    if '"SubagentStart"' not in json.dumps(scenario.get("settings", {})):
        return None
    asked = {
        call.get("input", {}).get("subagent_type")
        for turn in scenario.get("turns", [])
        for call in turn.get("tools") or []
    }
    return sorted(
        str(run["payload"].get("agent_type"))
        for run in observed.get("hooks") or []
        if run["event"] == "SubagentStart"
        and isinstance(run.get("payload"), dict)
        and run["payload"].get("agent_type") not in asked
    )


def _first_stops(scenario: Mapping[str, Any], observed: Mapping[str, Any]) -> int | None:
    """How many subagents stopped (SubagentStop hooks without ``stop_hook_active``) in a
    run where every scripted call was refused: each was one the release started on its own
    (None: the scenario has no SubagentStop hook, or a call ran)."""
    if '"SubagentStop"' not in json.dumps(scenario.get("settings", {})):
        return None
    if not all(call.get("isError") for call in observed.get("tools") or []):
        return None
    return sum(
        1
        for run in observed.get("hooks") or []
        if run["event"] == "SubagentStop"
        and isinstance(run.get("payload"), dict)
        and not run["payload"].get("stop_hook_active")
    )


def own_subagents(
    records: Mapping[str, Mapping[str, Any]], corpus: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """``own-subagents``: the spans of releases that started subagents of their own: their
    agent types as SubagentStart hooks saw them, or, before any SubagentStart hook saw
    one, as many as stopped (each type unseen: null), and the model requests each made
    (``after``: ``agents``, ``requests``, None where the span's releases do not agree on
    a whole number, and ``heard``: whether their hooks' texts reached a model). The
    requests are the scenario's beyond those it made on the newest stored release before
    the span that started none."""
    typed, by_type = _per_release(records, corpus, _own_agents)
    counted, by_count = _per_release(records, corpus, _first_stops)
    seen_from = min((v for v in typed if typed[v]), key=release_key, default=None)
    shown: dict[str, Any] = {}
    showing: dict[str, set[str]] = {}
    for version in sorted({*typed, *counted}, key=release_key):
        if seen_from is not None and release_key(version) >= release_key(seen_from):
            if version in typed:
                shown[version], showing[version] = typed[version], by_type[version]
        elif version in counted:
            shown[version] = [None] * counted[version]
            showing[version] = by_count[version]
    rules = []
    for span in _spans(shown, []):
        since, previous, until, before, agents = span
        # Per scenario, its requests on the newest release before the span that ran it
        # and started no subagent of its own.
        base = {
            sid: next(
                (
                    v
                    for v in sorted(shown, key=release_key, reverse=True)
                    if release_key(v) < release_key(since) and shown[v] == [] and sid in records[v]
                ),
                None,
            )
            for sid in {sid for sids in showing.values() for sid in sids}
        }
        inside = [
            v
            for v in shown
            if release_key(since) <= release_key(v)
            and (until is None or release_key(v) < release_key(until))
        ]
        each = {
            (records[v][sid]["requests"] - records[str(base[sid])][sid]["requests"]) / len(agents)
            for v in inside
            for sid in showing[v]
            if base[sid] is not None
        }
        [per] = each if len(each) == 1 else [None]
        requests = int(per) if per is not None and per >= 0 and per == int(per) else None
        # Their hooks' texts reach a model when some record of the span shows one.
        heard = any(
            (form := text_form(text)) is not None and form[0] in SUBAGENT_EVENTS
            for v in inside
            for sid in showing[v]
            for text in records[v][sid].get("modelTexts") or []
        )
        names = ", ".join(str(a) for a in agents) if None not in agents else "types unseen"
        says = f"the release starts {len(agents)} subagent(s) of its own ({names})"
        says += f", {requests} model request(s) each" if requests is not None else ""
        says += "; their hooks' texts reach a model" if heard else "; their hooks' texts reach none"
        after = {"agents": agents, "requests": requests, "heard": heard}
        span = (since, previous, until, {"agents": before}, after)
        rules.append(
            _rule(
                "own-subagents",
                says,
                span,
                ["SubagentStart", "SubagentStop"],
                showing[since],
                "hook[SubagentStart].agent_type",
            )
        )
    return rules


def _stops_again(scenario: Mapping[str, Any], observed: Mapping[str, Any]) -> bool | None:
    """Whether a subagent a SubagentStop hook blocked stopped again in the run (its next
    SubagentStop says ``stop_hook_active``); None where no hook blocked one."""
    runs = [
        run
        for run in observed.get("hooks") or []
        if run["event"] == "SubagentStop" and isinstance(run.get("payload"), dict)
    ]
    if not any(run["exit"] == 2 for run in runs):
        return None
    return any(run["payload"].get("stop_hook_active") for run in runs)


def subagent_cut_off(
    records: Mapping[str, Mapping[str, Any]], corpus: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """``subagent-cut-off``: the spans of releases whose run ended before a subagent a
    SubagentStop hook blocked stopped again (the newest sends it back to work until it
    stops)."""
    shown, showing = _per_release(records, corpus, _stops_again)
    rules = []
    for span in _spans(shown, True):
        says = "a subagent a SubagentStop hook blocked is cut off by the run's end: no "
        says += "request or SubagentStop after the block"
        events = ["SubagentStop"]
        rules.append(
            _rule("subagent-cut-off", says, span, events, showing[span[0]], "hook[SubagentStop]")
        )
    return rules
