"""Subagents and the permission mode across releases, as the stored records show them.

- The kinds of ``rules_subagents`` are read as spans from the records (each span's
  ``since``, ``previous`` and ``until`` are stored releases; nothing per scenario), and
  the engine answers as each release inside them.
- ``oracle_flaps``: a fact flaps on a release only when its runs (the stored observation
  one of them, three at least) showed two values; the comparison then takes any value
  seen there, and no other.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import oracle_flaps
import pytest
import rules_subagents
from oracle_compare import compare
from oracle_observe import _model_request
from oracle_predict import predict_here
from oracle_scenario import lay_out, load_corpus
from oracle_sweep import release_key, stored

from hookcourse.engine import versions
from hookcourse.session.script import Layout

CORPUS = load_corpus()
RECORDS = stored()
START, STOP = "x-subagent-start-context", "x-subagent-stop-exit2"


def _kind(kind: str) -> list[versions.Rule]:
    return [rule for rule in versions.rules() if rule.kind == kind]


def test_spans_are_read_between_stored_releases() -> None:
    shown = {"2.0.0": "a", "2.0.1": "b", "2.0.2": "b", "2.0.3": "a", "2.0.8": "c"}
    assert rules_subagents._spans(shown, "a") == [
        ("2.0.1", "2.0.0", "2.0.3", "a", "b"),
        ("2.0.8", "2.0.3", None, "a", "c"),
    ]
    # The oldest release's value has no release before it to change from.
    assert rules_subagents._spans({"2.0.0": "b", "2.0.1": "a"}, "a") == []


@pytest.mark.parametrize(
    "kind",
    ["default-mode", "auto-refusal-text", "agent-background", "own-subagents", "subagent-cut-off"],
)
def test_each_kind_is_modelled_and_bounded_by_stored_releases(kind: str) -> None:
    found = _kind(kind)
    assert found and kind in versions.MODELLED
    for rule in found:
        assert rule.exact, rule
        for version in filter(None, (rule.since, rule.previous, rule.until)):
            assert version in RECORDS, (kind, version)
        assert release_key(rule.previous) < release_key(rule.since)


def test_the_rules_are_what_the_records_say() -> None:
    """Read again from the stored records, the kinds give what the package holds."""
    read = rules_subagents.subagent_rules(RECORDS, CORPUS)
    held = [
        {"kind": r.kind, "since": r.since, "until": r.until, "after": r.after}
        for r in versions.rules()
        if r.kind in {rule["kind"] for rule in read}
    ]
    assert held == [
        {"kind": r["kind"], "since": r["since"], "until": r.get("until"), "after": r["after"]}
        for r in sorted(read, key=lambda r: release_key(r["since"]))
    ]


def test_auto_mode_offline_answers_as_those_releases() -> None:
    [mode] = _kind("default-mode")
    texts = _kind("auto-refusal-text")
    inside = next(v for v in versions.releases() if versions.holds(mode, v))
    with versions.answering_as(inside):
        assert versions.default_mode() == "auto"
    with versions.answering_as(mode.until):
        assert versions.default_mode() is None
    assert versions.default_mode() is None  # the newest: the engine's own
    for text in texts:
        with versions.answering_as(text.previous):
            assert versions.auto_refusal_text("Bash", "now") == str(text.before).replace(
                "{tool}", "Bash"
            )
        with versions.answering_as(text.since):
            said = versions.auto_refusal_text("Bash", "now")
            assert said == str(text.after).replace("{tool}", "Bash")
    assert versions.auto_refusal_text("Bash", "now") == "now"


def test_the_agent_tool_waits_before_it_ran_in_the_background() -> None:
    [rule] = _kind("agent-background")
    with versions.answering_as(rule.previous):
        assert not versions.agent_in_background()
    with versions.answering_as(rule.since):
        assert versions.agent_in_background()
    assert versions.agent_in_background()


def test_own_subagents_and_their_cut_off_follow_the_records() -> None:
    own = _kind("own-subagents")
    cuts = _kind("subagent-cut-off")
    for rule in own:
        with versions.answering_as(rule.since):
            agents, requests, heard = versions.own_subagents()
            assert list(agents) == rule.after["agents"]
            assert requests == (rule.after["requests"] or 0)
            assert heard == rule.after["heard"]
            cut = any(versions.holds(c, rule.since) for c in cuts)
            assert versions.subagent_cut_off() == cut
    with versions.answering_as(own[-1].until):
        assert versions.own_subagents().agents == ()
    assert versions.own_subagents().agents == ()
    assert not versions.subagent_cut_off()


def _predicted(sid: str, version: str, root: Path) -> dict[str, Any]:
    layout = Layout(root)
    lay_out(CORPUS[sid], layout)
    with versions.answering_as(version):
        return predict_here({**CORPUS[sid], "claudeVersion": version}, layout)


def test_a_release_with_own_subagents_runs_their_hooks(tmp_path: Path) -> None:
    """The first release whose own subagents SubagentStart hooks saw: each starts, and its
    hooks' context reaches no model when it asked none."""
    rule = next(r for r in _kind("own-subagents") if None not in r.after["agents"])
    predicted = _predicted(START, rule.since, tmp_path)
    assert predicted["hooks"] == {"SubagentStart": ["ss"] * len(rule.after["agents"])}
    if not rule.after["heard"]:
        assert predicted["modelTexts"] == []
    assert compare(CORPUS[START], predicted, RECORDS[rule.since][START])["verdict"] == "agree"


def _record(requests: int) -> dict[str, Any]:
    return {**RECORDS["2.1.332"][START], "requests": requests}


def _runs(*requests: int) -> list[dict[str, Any]]:
    return [{"date": "2026-12-04", "facts": {"requests": n}} for n in requests]


def _data(recorded: Mapping[str, Any], *requests: int) -> dict[str, Any]:
    entry = {"scenario": recorded["scenario"], "runs": _runs(*requests)}
    return {"releases": {"2.1.332": {START: entry}}}


def test_a_fact_flaps_only_when_measured_so() -> None:
    recorded = _record(3)
    assert oracle_flaps.seen(_data(recorded, 4, 4), "2.1.332", START, recorded) == {
        "requests": [3, 4]
    }
    # Two runs are too few; one value is no flap; another scenario's digest is stale.
    assert oracle_flaps.seen(_data(recorded, 4), "2.1.332", START, recorded) == {}
    assert oracle_flaps.seen(_data(recorded, 3, 3), "2.1.332", START, recorded) == {}
    stale = json.loads(json.dumps(_data(recorded, 4, 4)))
    stale["releases"]["2.1.332"][START]["scenario"] = "0" * 16
    assert oracle_flaps.seen(stale, "2.1.332", START, recorded) == {}


def test_the_comparison_takes_a_value_seen_on_a_flapping_release(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    recorded = _record(3)
    monkeypatch.setattr(oracle_flaps, "stored_runs", lambda: _data(recorded, 4, 4))
    predicted = {**RECORDS["2.1.332"][START], "requests": 4}
    prediction = _as_prediction(predicted)
    flapping = compare(CORPUS[START], prediction, recorded, release="2.1.332")
    assert flapping["fields"]["requests"]["verdict"] == "flaps"
    assert compare(CORPUS[START], prediction, recorded)["fields"]["requests"]["verdict"] == (
        "disagree"
    )
    unseen = compare(CORPUS[START], {**prediction, "requests": 5}, recorded, release="2.1.332")
    assert unseen["fields"]["requests"]["verdict"] == "disagree"


def _as_prediction(observed: Mapping[str, Any]) -> dict[str, Any]:
    """A prediction that says what ``observed`` shows, field by field."""
    hooks: dict[str, list[str]] = {}
    for run in observed["hooks"]:
        hooks.setdefault(run["event"], []).append(run["hook"])
    return {
        "hooks": hooks,
        "unfinished": [],
        "tools": [
            {"runs": True, "result": None, "isError": None, "input": t["input"]}
            for t in observed["tools"]
        ],
        "modelTexts": list(observed["modelTexts"]),
        "notices": [],
        "userNotes": [],
        "terminal": observed["result"].get("terminal_reason"),
        "requests": observed["requests"],
        "userMessage": None,
    }


def _request(*texts: str) -> dict[str, Any]:
    content = [{"type": "text", "text": text} for text in texts]
    body = {"tools": [{"name": "Bash"}], "messages": [{"role": "user", "content": content}]}
    return {"method": "POST", "path": "/v1/messages", "body": body}


def test_a_warm_up_is_no_model_request_with_or_without_a_hook_s_context() -> None:
    """2.0.77 to 2.1.5 send each subagent of their own ``Warmup``; a SubagentStart hook's
    context comes before the word (the mock's log of a 2.1.1 run)."""
    context = "<system-reminder>\nSubagentStart hook additional context: be brief\n"
    assert not _model_request(_request("Warmup"))
    assert not _model_request(_request(context, "Warmup"))
    assert _model_request(_request("Run the oracle scenario."))
    assert _model_request(_request("Warmup", "Run the oracle scenario."))
