"""Older Claude Code releases as the version sweep measured them, without any binary.

- The changelog (``hookcourse/data/claude_versions.json``, ``versions/changes.json``, the
  generated part of docs/versions.md) is current with the stored records.
- ``fire --claude-version X`` against the stored observations of X, for every swept
  release: the fields that disagree are exactly those ``versions/open.json`` lists (the
  changes not modelled yet), so a change that starts to agree, or a new disagreement,
  fails (``oracle_sweep.replay_releases``: each distinct answer is predicted once).
- The command line: a release outside the measured span, or one npm never listed, is
  one line; one the sweep did not run answers as the changes stand around it; an event
  a release did not have runs no hook there.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from oracle_binary import pinned_version
from oracle_compare import compare, hook_part, unjoined
from oracle_predict import FireServer
from oracle_run import predict_scenario
from oracle_scenario import load_corpus
from oracle_sweep import core_ids, facets, generated, open_disagreements, replay_releases, stored

from hookcourse.engine import versions

CORPUS = load_corpus()
RECORDS = stored()
SWEPT = [version for version in RECORDS if version != pinned_version()]
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def server() -> Iterator[FireServer]:
    made = FireServer()
    yield made
    made.close()


def test_the_changelog_is_current() -> None:
    assert generated(CORPUS, write=False) == [], "run: tests/claude_code/oracle.py changelog"


def test_the_core_scenarios_exist() -> None:
    assert set(core_ids()) <= set(CORPUS)


def test_every_swept_release_is_measured_and_known() -> None:
    assert len(SWEPT) >= 1
    assert set(SWEPT) <= set(versions.releases())
    assert versions.newest() == pinned_version()


def test_a_release_without_the_probe_is_not_compared_on_calls_it_cannot_show() -> None:
    """A call with no structured result, on a release that ran no ``--settings`` probe,
    reads as refused: whether it ran is not compared there, a refusal's text still is."""
    call = {"id": "t", "name": "Bash", "input": {}, "isError": True, "result": "out"}
    observed = {
        "hooks": [],
        "probe": [],
        "tools": [{**call, "structured": False}, {**call, "structured": True}],
        "modelTexts": [],
        "notices": [],
        "requests": 1,
        "toolsOffered": [],
        "result": {},
    }
    ran = {"runs": True, "result": None, "isError": False}
    refused = {"runs": False, "result": "no", "isError": True}
    predicted = {"hooks": {}, "unfinished": [], "tools": [ran, ran], "modelTexts": []}
    predicted |= {"notices": [], "terminal": None, "requests": 1}
    fields = compare({}, predicted, observed, probe_ran=False)["fields"]
    assert fields["toolRuns"]["verdict"] == fields["toolResults"]["verdict"] == "agree"
    fields = compare({}, predicted, observed, probe_ran=True)["fields"]
    assert fields["toolRuns"]["verdict"] == "disagree"
    predicted["tools"] = [refused, ran]
    fields = compare({}, predicted, observed, probe_ran=False)["fields"]
    assert fields["toolResults"]["claude"] == [["out", True], None]
    assert fields["toolResults"]["verdict"] == "disagree"


def test_a_run_both_sides_loop_is_compared_on_its_distinct_hooks_and_texts() -> None:
    """A release with no Stop cap runs until the time limit; fire's session goes round
    until its bound: counts are the loop's, the distinct hooks and texts still compared."""
    run = {"event": "Stop", "hook": "h", "exit": 0, "cwd": "", "env": [], "payload": {}}
    observed = {
        "hooks": [run] * 300 + [{**run, "exit": None}],
        "probe": [],
        "tools": [],
        "modelTexts": ["Stop hook feedback:\nmore"] * 300,
        "notices": [],
        "requests": 301,
        "toolsOffered": [],
        "result": {},
    }
    predicted = {"hooks": {"Stop": ["h"] * 59}, "unfinished": [], "tools": []}
    predicted |= {"modelTexts": ["Stop hook feedback:\nmore"] * 59, "notices": []}
    predicted |= {"terminal": None, "requests": 60, "looped": True}
    result = compare({}, predicted, observed)
    assert result["verdict"] == "agree"
    assert {f["verdict"] for f in result["fields"].values()} == {"agree", "loops"}
    predicted["modelTexts"] = ["Stop hook feedback:\nother"] * 59
    assert compare({}, predicted, observed)["fields"]["modelTexts"]["verdict"] == "disagree"
    predicted["looped"] = False
    assert compare({}, predicted, observed)["fields"]["requests"]["verdict"] == "disagree"
    facts = facets(observed)
    assert facts["requests"] == facts["hook[Stop/h].runs"] == "loop"
    assert facts["hook[Stop/h].exit"] == '["0"]'


def test_a_text_joined_to_the_next_in_one_message_is_that_text() -> None:
    """2.1.78 to 2.1.330 ended a text with a newline when another followed it in the same
    message: that copy goes where the text is there too; a text that ends so alone stays."""
    feedback = "Stop hook feedback:\nnever done"
    assert unjoined([feedback, feedback + "\n", feedback]) == [feedback]
    assert unjoined(["go on\n\n"]) == ["go on\n\n"]
    assert unjoined(["a\n", "b"]) == ["a\n", "b"]


def test_the_context_a_release_appends_is_not_the_hook_s_text() -> None:
    hook = "PreToolUse:Bash hook additional context: one\n\ntwo"
    assert hook_part(hook) == hook
    assert hook_part(hook + "\n\n<total_tokens>15000000 tokens left</total_tokens>") == hook
    skills = "\n\nThe following skills are available for use with the Skill tool:\n\n- x: y"
    assert hook_part(hook + skills) == hook


# Slow (436 s of one worker on 5 December 2026): every core scenario predicted once per
# distinct set of the modelled rules that hold, across every swept release.
@pytest.mark.slow
def test_fire_as_each_release_disagrees_only_where_listed(server: FireServer) -> None:
    listed = open_disagreements()
    swept = {version: RECORDS[version] for version in SWEPT}
    found = replay_releases(lambda asked: predict_scenario(server, asked), CORPUS, swept)
    wrong = {
        version: {
            sid: (fields, listed.get(version, {}).get(sid))
            for sid, fields in found[version].items()
            if listed.get(version, {}).get(sid) != fields
        }
        for version in SWEPT
    }
    gone = {
        version: sorted(set(listed.get(version, {})) - set(found[version])) for version in SWEPT
    }
    assert not any(wrong.values()), (
        f"new or changed disagreements (found, listed): {wrong}; "
        "fix the model, or regenerate: oracle.py replay --version all --write-open"
    )
    assert not any(gone.values()), f"listed but now agreeing: {gone}"


def _hookcourse(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hookcourse", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
    )


def test_an_unknown_release_is_one_line_naming_the_measured(tmp_path: Path) -> None:
    (tmp_path / "p.json").write_text("{}", encoding="utf-8")
    done = _hookcourse(
        "fire", "Stop", "--payload", "p.json", "--claude-version", "0.0.1", cwd=tmp_path
    )
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "0.0.1" in lines[0] and versions.newest() in lines[0]


def test_an_event_a_release_lacked_runs_no_hook_there(tmp_path: Path) -> None:
    arrived = [r for r in versions.rules() if r.kind == "event-arrives"]
    if not arrived:
        pytest.skip("no event arrival measured")
    rule = arrived[-1]
    event = rule.events[0]
    (tmp_path / ".claude").mkdir()
    hook = {"type": "command", "command": "echo ran > ran.txt"}
    (tmp_path / ".claude" / "settings.json").write_text(
        json.dumps({"hooks": {event: [{"hooks": [hook]}]}}), encoding="utf-8"
    )
    payload = {"session_id": "s", "transcript_path": "t", "cwd": str(tmp_path)}
    (tmp_path / "p.json").write_text(json.dumps(payload), encoding="utf-8")
    args = ("fire", event, "--payload", "p.json", "--project-dir", ".", "--json")
    before = _hookcourse(*args, "--claude-version", rule.previous, cwd=tmp_path)
    assert not (tmp_path / "ran.txt").exists(), before.stderr
    assert json.loads(before.stdout)["hooks"] == []
    assert f"first ran in {rule.since}" in before.stderr
    since = _hookcourse(*args, "--claude-version", rule.since, cwd=tmp_path)
    assert (tmp_path / "ran.txt").exists(), since.stderr


def test_versions_prints_the_changelog_for_one_event() -> None:
    done = _hookcourse("versions", "PreToolUse", cwd=REPO)
    assert done.returncode == 0
    assert done.stdout.strip() == "\n".join(versions.changelog_lines("PreToolUse"))


def test_versions_of_an_unknown_event_is_one_line() -> None:
    done = _hookcourse("versions", "Nope", cwd=REPO)
    assert done.returncode == 1
    assert len(done.stderr.strip().splitlines()) == 1 and "Nope" in done.stderr


@pytest.mark.parametrize(
    ("command", "status"),
    [
        (("fire", "Stop", "--payload", "p.json"), 1),
        (("doctor",), 1),
        (("validate",), 2),
        (("session", "s.json"), 2),
    ],
)
def test_every_versioned_command_refuses_an_unknown_release_in_one_line(
    tmp_path: Path, command: tuple[str, ...], status: int
) -> None:
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text("{}", encoding="utf-8")
    (tmp_path / "p.json").write_text("{}", encoding="utf-8")
    (tmp_path / "s.json").write_text("{}", encoding="utf-8")
    # A release npm lists from before the sweep's first: the measured span is named.
    older = versions.releases_on_npm()[0]
    done = _hookcourse(*command, "--claude-version", older, cwd=tmp_path)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == status, done.stderr
    assert len(lines) == 1 and f"Claude Code {older} is outside the releases measured" in lines[0]
    assert versions.releases()[0] in lines[0] and done.stdout == ""


def test_a_release_the_sweep_did_not_run_answers_as_the_changes_stand_around_it(
    tmp_path: Path,
) -> None:
    """Every change is bisected to two consecutive npm releases, so a release between two
    measured ones is on a known side of each: it answers as its measured predecessor, and
    says it was not run."""
    names, known = versions.releases_on_npm(), versions.releases()
    inside = [v for v in names[names.index(known[0]) : names.index(known[-1])] if v not in known]
    assert inside, "every npm release in the span was measured"
    for version in inside:
        below, _ = versions.measured_around(version) or ("", "")
        assert [versions.holds(r, version) for r in versions.rules()] == [
            versions.holds(r, below) for r in versions.rules()
        ], version
    # fire answers as the predecessor, saying where its answers come from.
    version = inside[len(inside) // 2]
    below, above = versions.measured_around(version) or ("", "")
    (tmp_path / "p.json").write_text('{"tool_name": "Bash", "tool_input": {}}', encoding="utf-8")
    args = ("fire", "PreToolUse", "--payload", "p.json", "--json")
    mine = _hookcourse(*args, "--claude-version", version, cwd=tmp_path)
    theirs = _hookcourse(*args, "--claude-version", below, cwd=tmp_path)
    assert mine.returncode == theirs.returncode == 0, mine.stderr
    said, answered = json.loads(mine.stdout), json.loads(theirs.stdout)
    assert f"between {below} and {above}" in said.pop("checkedAgainst")
    answered.pop("checkedAgainst")
    assert said == answered


def test_a_release_npm_never_listed_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "p.json").write_text("{}", encoding="utf-8")
    done = _hookcourse(
        "fire", "Stop", "--payload", "p.json", "--claude-version", "2.1.99", cwd=tmp_path
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 1 and len(lines) == 1, done.stderr
    assert "npm lists no Claude Code 2.1.99" in lines[0]


def _validate_as(version: str | None, settings: dict[str, object], tmp_path: Path) -> list[str]:
    from hookcourse.engine.validate import ValidateOptions, validate_files

    path = tmp_path / "settings.json"
    path.write_text(json.dumps(settings), encoding="utf-8")
    with versions.answering_as(version):
        report = validate_files([path], ValidateOptions(project_dir=tmp_path))
    return [f"{finding.rule}: {finding.message}" for finding in report.findings]


def test_validate_names_the_release_an_event_arrived_in(tmp_path: Path) -> None:
    rule = [r for r in versions.rules() if r.kind == "event-arrives"][-1]
    event = rule.events[0]
    group = {"hooks": [{"type": "command", "command": "true"}]}
    settings: dict[str, object] = {"hooks": {event: [group]}}
    before = _validate_as(rule.previous, settings, tmp_path)
    assert [f for f in before if f.startswith("event-not-in-release")] == [
        f"event-not-in-release: {versions.not_fired_note(event, rule.previous)}"
    ]
    assert f"changed in {rule.since}" in before[0]
    assert not any("in-release" in f for f in _validate_as(rule.since, settings, tmp_path))
    assert not any("in-release" in f for f in _validate_as(None, settings, tmp_path))


def test_validate_says_a_release_read_no_hook_of_a_file_naming_an_unknown_event(
    tmp_path: Path,
) -> None:
    rule = next((r for r in versions.rules() if r.kind == "unknown-name-dropped"), None)
    if rule is None:
        pytest.skip("no release measured dropping an unknown event name alone")
    group = {"hooks": [{"type": "command", "command": "true"}]}
    settings: dict[str, object] = {"hooks": {"NoSuchEvent": [group], "Stop": [group]}}
    before = [f for f in _validate_as(rule.previous, settings, tmp_path) if "in-release" in f]
    assert before == ["file-unread-in-release: " + str(versions_note(rule.previous, "NoSuchEvent"))]
    assert f"changed in {rule.since}" in before[0]
    assert not any("in-release" in f for f in _validate_as(rule.since, settings, tmp_path))


def versions_note(version: str, event: str) -> str | None:
    with versions.answering_as(version):
        return versions.unknown_event_note(event, known=False)


def _fire_pre_tool_use(tmp_path: Path, matcher: str, tool: str, version: str) -> tuple[bool, str]:
    """Whether a PreToolUse group with ``matcher`` runs its hook on a call to ``tool`` when
    fire answers as ``version``, and fire's report."""
    group = {"matcher": matcher, "hooks": [{"type": "command", "command": "echo ran >> ran.txt"}]}
    (tmp_path / ".claude").mkdir(exist_ok=True)
    (tmp_path / ".claude" / "settings.json").write_text(
        json.dumps({"hooks": {"PreToolUse": [group]}}), encoding="utf-8"
    )
    payload = {"session_id": "s", "transcript_path": "t", "cwd": str(tmp_path)}
    payload |= {"tool_name": tool, "tool_input": {"command": "ls"}, "tool_use_id": "t1"}
    (tmp_path / "p.json").write_text(json.dumps(payload), encoding="utf-8")
    (tmp_path / "ran.txt").unlink(missing_ok=True)
    args = ("fire", "PreToolUse", "--payload", "p.json", "--project-dir", ".")
    done = _hookcourse(*args, "--claude-version", version, cwd=tmp_path)
    return (tmp_path / "ran.txt").exists(), done.stdout


def test_matcher_lists_and_hyphens_were_regexes_before_their_releases(tmp_path: Path) -> None:
    """Exact names held only letters, digits, ``_`` and ``|`` at first; the releases that
    added spaces, commas and hyphens are measured. Before them such a matcher is a
    regular expression, tested unanchored, and validate says so."""
    arrived = {c: r for r in versions.rules() if r.kind == "matcher-exact-chars" for c in r.after}
    assert set(arrived) == {" ", ",", "-"}, arrived
    comma = arrived[","]
    for matcher, tool, ran_before in (
        ("Edit, Bash", "Bash", False),  # no tool is called "Edit, Bash"
        ("Edit | Bash", "Bash", False),  # neither "Edit " nor " Bash" is in "Bash"
        ("note-store", "mcp__note-store__remember", True),  # a part of the name
    ):
        rule = arrived[next(c for c in matcher if c in arrived)]
        ran, said = _fire_pre_tool_use(tmp_path, matcher, tool, rule.previous)
        assert ran is ran_before and f"changed in {rule.since}" in said, (matcher, said)
        ran, said = _fire_pre_tool_use(tmp_path, matcher, tool, rule.since)
        assert ran is not ran_before, (matcher, said)
    # A regex in every release is tested as one in every release.
    assert _fire_pre_tool_use(tmp_path, "^(Edit|Bash)$", "Bash", comma.previous)[0]
    group = {"matcher": "Edit, Bash", "hooks": [{"type": "command", "command": "true"}]}
    settings: dict[str, object] = {"hooks": {"PreToolUse": [group]}}
    found = _validate_as(comma.previous, settings, tmp_path)
    assert any(
        f.startswith("matcher-list-in-release") and f"changed in {comma.since}" in f for f in found
    ), found
    assert not any("in-release" in f for f in _validate_as(comma.since, settings, tmp_path))


def test_each_variable_comes_and_goes_as_measured() -> None:
    for rule in (r for r in versions.rules() if r.kind == "env-var"):
        name = rule.facet.rsplit(".", 1)[1]
        later = [
            r
            for r in versions.rules()
            if r.kind == "env-var" and r.facet == rule.facet and r.since == rule.since
        ]
        assert versions.env_exported(name, rule.since) == (later[-1].after is not None)


def test_a_run_before_the_reason_arrived_ends_without_one() -> None:
    arrived = next(r for r in versions.rules() if r.kind == "reason-arrives")
    with versions.answering_as(arrived.previous):
        assert versions.terminal_reason("completed") is None
        assert versions.terminal_reason("prompt_blocked") == "prompt_blocked"
    with versions.answering_as(arrived.since):
        assert versions.terminal_reason("completed") == "completed"


def test_session_says_which_release_it_answers_as() -> None:
    rule = next(r for r in versions.rules() if r.kind == "deny-text")
    script = REPO / "fixtures" / "sessions" / "exit2-json.json"
    done = _hookcourse("session", str(script), "--claude-version", rule.since, cwd=REPO)
    assert f"model of Claude Code {rule.since} (its measured changes" in done.stdout, done.stderr
    real = _hookcourse("session", str(script), "--real", "--claude-version", rule.since, cwd=REPO)
    assert real.returncode == 2 and len(real.stderr.strip().splitlines()) == 1


def test_each_payload_key_comes_and_goes_as_measured() -> None:
    for rule in (r for r in versions.rules() if r.kind == "payload-key"):
        key = rule.facet.rsplit(".", 1)[1]
        same = [r for r in versions.rules() if r.kind == "payload-key" and r.facet == rule.facet]
        at = [r for r in same if r.since == rule.since]
        assert versions.payload_key_sent(key, rule.since) == (at[-1].after is not None)
        if rule is same[0]:
            assert versions.payload_key_sent(key, rule.previous) == (rule.before is not None)


def _kind(kind: str) -> versions.Rule:
    found = [r for r in versions.rules() if r.kind == kind]
    if not found:
        pytest.skip(f"no {kind} rule measured")
    return found[0]


def test_a_tool_a_release_lacked_is_refused_before_any_hook() -> None:
    rule = _kind("tool-arrives")
    with versions.answering_as(rule.previous):
        refused = versions.missing_tool(str(rule.after))
        assert refused is not None and f"changed in {rule.since}" in refused[1]
        assert refused[0] == str(rule.before).replace("{tool}", str(rule.after))
    with versions.answering_as(rule.since):
        assert versions.missing_tool(str(rule.after)) is None


def test_a_decision_a_release_did_not_heed_leaves_the_call_to_the_permission_step() -> None:
    rule = _kind("decision-arrives")
    with versions.answering_as(rule.previous):
        note = versions.decision_note(str(rule.after))
        assert note is not None and f"changed in {rule.since}" in note
    with versions.answering_as(rule.since):
        assert versions.decision_note(str(rule.after)) is None
    assert versions.decision_note(str(rule.after)) is None


def test_notices_text_forms_and_mismatches_follow_their_releases() -> None:
    notice = _kind("notice-arrives")
    mismatch = _kind("mismatch-keeps-decision")
    message = _kind("prompt-message-arrives")
    form = _kind("text-form")
    event, shown = form.events[0], form.facet.split("/", 1)[1].rstrip("]")
    for rule, check in (
        (notice, versions.notices_shown),
        (mismatch, versions.mismatch_keeps_decision),
        (message, lambda: versions.prompt_message_shown(message.events[0])),
        (form, lambda: bool(versions.text_shown(event, shown))),
    ):
        with versions.answering_as(rule.previous):
            assert check() == (rule.before not in (None, ""))
        with versions.answering_as(rule.since):
            assert check() == (rule.after is not None)
    assert versions.text_shown(event, shown) is None  # the newest: as the engine models it


def test_several_contexts_were_one_text_each_before_their_release(tmp_path: Path) -> None:
    """Two PreToolUse hooks' additionalContexts: one text each before the measured
    release, one text joined with a newline from it."""
    rule = next(r for r in versions.rules() if r.kind == "contexts-joined")
    event = rule.events[0]
    hooks = [
        {"type": "command", "command": f"echo '{json.dumps(_context(event, text))}'"}
        for text in ("CTX-A", "CTX-B")
    ]
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text(
        json.dumps({"hooks": {event: [{"hooks": hooks}]}}), encoding="utf-8"
    )
    payload = {"session_id": "s", "transcript_path": "t", "cwd": str(tmp_path)}
    payload |= {"tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "t1"}
    (tmp_path / "p.json").write_text(json.dumps(payload), encoding="utf-8")
    args = ("fire", event, "--payload", "p.json", "--project-dir", ".", "--json")

    def shown(version: str) -> list[str]:
        done = _hookcourse(*args, "--claude-version", version, cwd=tmp_path)
        texts: list[str] = json.loads(done.stdout)["printMode"]["systemReminders"]
        return sorted(t.split(": ", 1)[1] for t in texts if "additional context" in t)

    assert shown(rule.previous) == ["CTX-A", "CTX-B"]
    assert shown(rule.since) in (["CTX-A\nCTX-B"], ["CTX-B\nCTX-A"])


def _context(event: str, text: str) -> dict[str, object]:
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}


def _fire_json(tmp_path: Path, event: str, hooks: list[str], version: str) -> dict[str, Any]:
    """fire's JSON report for ``event`` with one group of command ``hooks``, as ``version``."""
    group = {"hooks": [{"type": "command", "command": command} for command in hooks]}
    (tmp_path / ".claude").mkdir(exist_ok=True)
    (tmp_path / ".claude" / "settings.json").write_text(
        json.dumps({"hooks": {event: [group]}}), encoding="utf-8"
    )
    payload = {"session_id": "s", "transcript_path": "t", "cwd": str(tmp_path)}
    payload |= {"prompt": "hi", "stop_hook_active": False}
    (tmp_path / "p.json").write_text(json.dumps(payload), encoding="utf-8")
    args = ("fire", event, "--payload", "p.json", "--project-dir", ".", "--json")
    done = _hookcourse(*args, "--claude-version", version, cwd=tmp_path)
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def test_a_stop_context_ended_the_turn_before_its_release(tmp_path: Path) -> None:
    rule = next(r for r in versions.rules("Stop") if r.kind == "stop-context-continues")
    said = json.dumps(_context("Stop", "STOP-CTX"))
    hooks = [f"echo '{said}'"]
    before = _fire_json(tmp_path, "Stop", hooks, rule.previous)["printMode"]
    since = _fire_json(tmp_path, "Stop", hooks, rule.since)["printMode"]
    assert before["turnContinues"] is False and since["turnContinues"] is True


def test_an_exit_2_let_its_siblings_finish_before_its_release(tmp_path: Path) -> None:
    rule = next(r for r in versions.rules() if r.kind == "exit2-cancels")
    hooks = ["echo refused >&2; exit 2", "sleep 1; echo slow"]

    def unfinished(version: str) -> int:
        report = _fire_json(tmp_path, rule.events[0], hooks, version)
        return sum(1 for hook in report["hooks"] if hook["cancelled"])

    assert unfinished(rule.previous) == 0 and unfinished(rule.since) == 1
    assert len(_fire_json(tmp_path, rule.events[0], hooks, rule.previous)["hooks"]) == 2
