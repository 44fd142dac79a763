"""Behaviours of one kind of scenario across releases (``rules_behaviours``), without a binary.

- Each rule kind is read from records as ``rules_behaviours`` says: tiny made-up records
  of a made-up scenario give the rule, its release and its template; records that change
  back and forth give none (nothing is read that the records do not show).
- ``fire --claude-version`` answers as each rule says on the release before its change
  (or inside its window) and as the newest after it: a hook with ``args``, a write an
  allow rule covers, a Skill call, an exit 2's wording, a rewrite without a decision, a
  flag, the variables a release set itself.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from oracle_record import digest
from rules_behaviours import (
    allow_outside_windows,
    assignment_rules,
    blocked_part_windows,
    cancel_windows,
    changer_arrivals,
    check_arrivals,
    classifier_turn_windows,
    compound_rule_arrival,
    continue_deny_arrival,
    deny_rule_arrival,
    event_name_arrivals,
    exec_form_arrival,
    exit2_json_arrival,
    exit2_texts,
    feedback_texts,
    first_path_windows,
    fixed_refusal_texts,
    flag_arrivals,
    flag_unchecked_windows,
    if_arrival,
    input_read_arrival,
    json_like_arrival,
    known_variable_arrivals,
    left_out_windows,
    legacy_check_windows,
    load_arrivals,
    max_turns_windows,
    no_reason_texts,
    on_failure_arrival,
    outside_write_windows,
    part_form_windows,
    plan_check_arrival,
    quoted_variable_windows,
    read_only_arrivals,
    redirect_windows,
    refusal_texts,
    rewrite_arrival,
    settings_dirs_arrival,
    skill_ask_windows,
    stop_cap_arrival,
    stop_text_arrival,
    unknown_command_windows,
    untrusted_permission_windows,
    verb_check_windows,
    wildcard_rule_arrival,
    write_blocked_windows,
    write_need_arrival,
    write_verb_arrivals,
)

from hookcourse.engine import versions
from hookcourse.engine.catalogue import permission_facts
from hookcourse.engine.lifecycle import call_effects, loaded_before, refused_command
from hookcourse.engine.permission_rule import CallPlace
from hookcourse.engine.transcript_reads import DoneCall

REPO = Path(__file__).resolve().parents[2]
RELEASES = ("2.0.0", "2.0.1", "2.0.2", "2.0.3", "2.0.5")
"""Neighbours on npm's list (the made-up records' releases)."""


GENERIC_COMPOUND = "This Bash command contains multiple operations. The following part"


def _records(
    scenario: dict[str, Any], observations: list[dict[str, Any]]
) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """Records of ``scenario`` on the first releases of ``RELEASES``, and its corpus."""
    fingerprint = digest(scenario)
    records = {
        version: {scenario["id"]: {"scenario": fingerprint, **seen}}
        for version, seen in zip(RELEASES, observations, strict=False)
    }
    return records, {scenario["id"]: scenario}


def _bash(result: str, is_error: bool = False, name: str = "Bash") -> dict[str, Any]:
    return {
        "tools": [{"name": name, "input": {"skill": "s"}, "result": result, "isError": is_error}]
    }


def test_exec_form_arrives_where_its_hooks_first_run() -> None:
    hook = {"type": "command", "command": "sh", "args": ["x"]}
    scenario = {"id": "a", "settings": {"project": {"hooks": {"Stop": [{"hooks": [hook]}]}}}}
    ran = {"hooks": [{"event": "Stop", "hook": "x", "exit": 0}]}
    records, corpus = _records(scenario, [{"hooks": []}, {"hooks": []}, ran, ran])
    (rule,) = exec_form_arrival(records, corpus)
    assert (rule["since"], rule["previous"], rule["exact"]) == ("2.0.2", "2.0.1", True)
    assert rule["events"] == ["Stop"]
    # Runs, then none, then runs again: not one arrival, so no rule.
    records, corpus = _records(scenario, [ran, {"hooks": []}, ran])
    assert exec_form_arrival(records, corpus) == []


def test_a_blocked_write_is_a_window_with_its_text_as_a_template() -> None:
    scenario = {
        "id": "w",
        "settings": {"user": {"permissions": {"allow": ["Bash(touch:*)"]}}},
        "turns": [{"tools": [{"name": "Bash", "input": {"command": "touch m.txt"}}]}],
    }
    text = (
        "touch in '$ROOT/p/m.txt' was blocked. For security, Claude Code may only create or "
        "modify files in the allowed working directories for this session: '$ROOT/p'."
    )
    ran = _bash("RAN")
    records, corpus = _records(scenario, [ran, _bash(text, True), _bash(text, True), ran])
    (rule,) = write_blocked_windows(records, corpus)
    assert (rule["since"], rule["until"], rule["facet"]) == ("2.0.1", "2.0.3", "bash.write.covered")
    assert rule["after"].startswith("{subject} was blocked.") and rule["after"].endswith(
        "session: '{cwd}'."
    )


def test_a_blocked_write_outside_the_folders_is_no_inside_window() -> None:
    scenario = {
        "id": "w",
        "turns": [{"tools": [{"name": "Bash", "input": {"command": "touch /tmp/x"}}]}],
    }
    text = (
        "touch in '/tmp/x' was blocked. For security, Claude Code may only create or "
        "modify files in the allowed working directories for this session: '$ROOT/p'."
    )
    ran = _bash("RAN")
    records, corpus = _records(scenario, [ran, _bash(text, True), _bash(text, True), ran])
    assert write_blocked_windows(records, corpus) == []


def test_the_write_need_arrives_with_the_first_command_named_for_its_path() -> None:
    generic = permission_facts().refusals["command"]
    scenario = _calls("touch a.txt", "tee b.txt")
    inside = "{} in '$ROOT/project/{}' needs approval. The path is inside the working directories"
    touch, tee = inside.format("touch", "a.txt"), inside.format("tee", "b.txt")
    old = _seen(scenario, (generic, True), (generic, True))
    touch_named = _seen(scenario, (touch, True), (generic, True))
    both = _seen(scenario, (touch, True), (tee, True))
    records, corpus = _records(scenario, [old, touch_named, touch_named, both])
    (rule,) = write_need_arrival(records, corpus)
    # The earliest command's arrival: tee, named later, has its own (write-verb-arrives).
    assert (rule["since"], rule["previous"], rule["after"]) == ("2.0.1", "2.0.0", "path")


def test_outside_writes_are_read_apart_for_commands_and_redirections() -> None:
    scenario = _calls("touch /tmp/x", "echo hi > /tmp/o.txt")
    said = "{} was blocked. For security, Claude Code may only {} the allowed working "
    said += "directories for this session: '$ROOT/project'."
    touch = said.format("touch in '/tmp/x'", "create or modify files in")
    redirect = said.format("Output redirection to '/tmp/o.txt'", "write to files in")
    legacy = "Command contains output redirection (>) which could write to arbitrary files"
    asked = "{} needs approval. The path is outside the working directories"
    newest = _seen(
        scenario,
        (asked.format("touch in '/tmp/x'"), True),
        (asked.format("Output redirection to '/tmp/o.txt'"), True),
    )
    records, corpus = _records(
        scenario,
        [
            _seen(scenario, (touch, True), (legacy, True)),
            _seen(scenario, (touch, True), (redirect, True)),
            _seen(scenario, (touch, True), (redirect, True)),
            newest,
        ],
    )
    spans = {
        r["facet"]: (r["since"], r["previous"], r["until"])
        for r in outside_write_windows(records, corpus)
    }
    # A command's write was blocked from the oldest release; a redirection's only later.
    assert spans == {
        "bash.write.outside": ("2.0.0", "2.0.0", "2.0.3"),
        "bash.write.outside.redirect": ("2.0.1", "2.0.0", "2.0.3"),
    }


def test_plan_mode_s_check_arrives_where_its_refusals_take_auto_mode_s_words() -> None:
    scenario = {**_calls("rm -rf ~/old"), "flags": ["--permission-mode", "plan"]}
    blocked = "rm in '$ROOT/home/old' was blocked. For security, Claude Code may only remove"
    auto = "Auto mode could not evaluate this action and is blocking it for safety"
    old, new = _seen(scenario, (blocked, True)), _seen(scenario, (auto, True))
    records, corpus = _records(scenario, [old, old, new, new])
    (rule,) = plan_check_arrival(records, corpus)
    assert (rule["since"], rule["previous"], rule["exact"]) == ("2.0.2", "2.0.1", True)
    # Without the plan flag no call says anything of plan mode.
    records, corpus = _records(_calls("rm -rf ~/old"), [old, old, new, new])
    assert plan_check_arrival(records, corpus) == []


def test_a_command_writing_two_files_named_by_its_first_path_inside_a_window() -> None:
    scenario = _calls("cp a.txt /tmp/b")
    said = "cp in '{}' was blocked. For security, Claude Code may only copy files to/from"
    first, target = (
        _seen(scenario, (said.format("$ROOT/project/a.txt"), True)),
        _seen(scenario, (said.format("/tmp/b"), True)),
    )
    newest = _seen(scenario, ("cp in '/tmp/b' needs approval. The path is outside", True))
    records, corpus = _records(scenario, [target, first, first, target, newest])
    (rule,) = first_path_windows(records, corpus)
    assert (rule["since"], rule["previous"], rule["until"]) == ("2.0.1", "2.0.0", "2.0.3")


def test_a_command_s_own_check_is_a_window_with_its_words() -> None:
    scenario = _calls("sed -i s/a/b/ a.txt")
    own = "sed command requires approval (contains potentially dangerous operations)"
    generic = permission_facts().refusals["command"]
    seen = [_seen(scenario, (text, True)) for text in (generic, own, own, "sed in 'a.txt' x")]
    records, corpus = _records(scenario, seen)
    (rule,) = verb_check_windows(records, corpus)
    assert (rule["since"], rule["until"], rule["after"]) == ("2.0.1", "2.0.3", own)
    assert rule["facet"] == "bash.check.sed"


def test_json_like_stdout_arrives_where_the_model_stops_reading_it() -> None:
    group = {"hooks": [{"type": "command", "command": "@hook:h"}]}
    scenario = {
        "id": "j",
        "settings": {"project": {"hooks": {"UserPromptSubmit": [group]}}},
        "hooks": {"h": {"out": "{oops}"}},
    }
    shown = {"requests": 1, "modelTexts": ["UserPromptSubmit hook success: {oops}"]}
    hidden = {"requests": 1, "modelTexts": []}
    records, corpus = _records(scenario, [shown, shown, hidden, hidden])
    (rule,) = json_like_arrival(records, corpus)
    assert (rule["since"], rule["previous"], rule["events"]) == (
        "2.0.2",
        "2.0.1",
        ["UserPromptSubmit"],
    )
    # Valid JSON is no such text: nothing to read.
    valid = {**scenario, "hooks": {"h": {"out": '{"a": 1}'}}}
    records, corpus = _records(valid, [shown, shown, hidden, hidden])
    assert json_like_arrival(records, corpus) == []


def test_an_input_redirection_s_file_counts_as_read_from_its_release() -> None:
    scenario = {
        **_calls("cat < secrets/key.txt"),
        "settings": {"user": {"permissions": {"deny": ["Read(./secrets/**)"]}}},
    }
    legacy = "Command contains input redirection (<) which could read sensitive files"
    denied = "Permission to use Bash with command cat < secrets/key.txt has been denied."
    seen = [
        _seen(scenario, r) for r in ((legacy, True), ("k", False), ("k", False), (denied, True))
    ]
    records, corpus = _records(scenario, seen)
    (rule,) = input_read_arrival(records, corpus)
    # The old text check says nothing: the arrival is where the run gave way to the rule.
    assert (rule["since"], rule["previous"], rule["after"]) == ("2.0.3", "2.0.2", "read")


def test_a_checked_flag_that_ran_is_a_window() -> None:
    scenario = _calls("test -v X")
    generic = permission_facts().refusals["command"]
    refused, ran = _seen(scenario, (generic, True)), _seen(scenario, ("", False))
    records, corpus = _records(scenario, [refused, ran, ran, refused])
    (rule,) = flag_unchecked_windows(records, corpus)
    assert (rule["since"], rule["until"], rule["facet"]) == ("2.0.1", "2.0.3", "bash.flag.test.-v")


def test_assignments_arrive_and_each_check_the_newest_makes_is_a_window() -> None:
    scenario = _calls("LANG=C ls", "FOO=1 cat a.txt", "NODE_ENV=/tmp ls", "LANG=xx ls")
    generic = (permission_facts().refusals["command"], True)
    ran = ("a.txt", False)
    rows = [
        (generic, generic, generic, generic),
        (ran, ran, ran, ran),
        (ran, generic, ran, ran),
        (ran, generic, generic, ran),
        (ran, generic, generic, generic),
    ]
    records, corpus = _records(scenario, [_seen(scenario, *row) for row in rows])
    found = {r["facet"]: r for r in assignment_rules(records, corpus)}
    arrived = found.pop("bash.assignments")
    assert (arrived["kind"], arrived["since"], arrived["previous"]) == (
        "assignments-arrive",
        "2.0.1",
        "2.0.0",
    )
    spans = {facet: (r["since"], r["until"]) for facet, r in found.items()}
    assert spans == {
        "bash.assignment.name": ("2.0.1", "2.0.2"),
        "bash.assignment.path": ("2.0.1", "2.0.3"),
        "bash.assignment.locale": ("2.0.1", "2.0.5"),
    }


def test_a_quoted_variable_that_ran_is_a_window_a_text_check_says_nothing_of() -> None:
    scenario = _calls('grep "$FOO" a.txt')
    facts = permission_facts().refusals
    rows = [
        (facts["command"], True),
        ("grep: : No such file or directory", True),  # it ran, and failed
        ("Shell expansion syntax in paths requires manual approval", True),
        ("a", False),
        (facts["variable"], True),
    ]
    records, corpus = _records(scenario, [_seen(scenario, row) for row in rows])
    (rule,) = quoted_variable_windows(records, corpus)
    assert (rule["since"], rule["until"], rule["facet"]) == (
        "2.0.1",
        "2.0.5",
        "bash.quoted_variable.grep",
    )


def test_a_blocked_part_left_out_of_a_listing_is_a_window() -> None:
    scenario = _calls("npm test && echo hi > out.txt")
    blocked = "Output redirection to '$ROOT/project/out.txt' was blocked. For security, ..."
    one = (f"{GENERIC_COMPOUND} requires approval: npm test", True)
    both = (f"{GENERIC_COMPOUND}s require approval: npm test, echo hi", True)
    rows = [(blocked, True), one, one, both, both]
    records, corpus = _records(scenario, [_seen(scenario, row) for row in rows])
    (rule,) = left_out_windows(records, corpus)
    assert (rule["since"], rule["until"], rule["facet"]) == (
        "2.0.1",
        "2.0.3",
        "bash.left_out.redirect",
    )


AUTO = "Auto mode could not evaluate this action and is blocking it for safety"


def test_a_check_answered_by_the_next_scripted_turn_is_a_run_of_releases() -> None:
    scenario = {
        **_calls("cd .."),
        "flags": ["--permission-mode", "auto"],
        "turns": [*_calls("cd ..")["turns"], *_calls("pwd")["turns"], {"text": "done"}],
    }
    refused = {"name": "Bash", "input": {"command": "cd .."}, "result": AUTO, "isError": True}
    pwd = {"name": "Bash", "input": {"command": "pwd"}, "result": "/p", "isError": False}
    taken = {"requests": 3, "tools": [refused]}  # the check took the pwd turn
    played = {"requests": 3, "tools": [refused, pwd]}
    records, corpus = _records(scenario, [taken, taken, played, played])
    (rule,) = classifier_turn_windows(records, corpus)
    # From the first release that ran auto mode: nothing before it bounds the run.
    assert (rule["since"], rule["previous"], rule["until"], rule["exact"]) == (
        "2.0.0",
        "2.0.0",
        "2.0.2",
        False,
    )


def test_a_whole_tool_rule_letting_a_path_outside_run_in_auto_mode_is_a_window() -> None:
    scenario = {**_calls("cd .."), "flags": ["--allowedTools", "Bash", "--permission-mode", "auto"]}
    refused, ran = _seen(scenario, (AUTO, True)), _seen(scenario, ("", False))
    records, corpus = _records(scenario, [refused, ran, ran, refused, refused])
    (rule,) = allow_outside_windows(records, corpus)
    assert (rule["since"], rule["until"], rule["facet"]) == ("2.0.1", "2.0.3", "auto.allow_outside")
    # Without the rule for the whole tool the scenario says nothing.
    del scenario["flags"][:2]
    records, corpus = _records(scenario, [refused, ran, ran, refused, refused])
    assert allow_outside_windows(records, corpus) == []


def test_a_skill_ask_is_a_window_per_run_of_releases() -> None:
    scenario = {"id": "s", "turns": [{"tools": [{"name": "Skill", "input": {"skill": "s"}}]}]}
    asked, ran = (
        _bash("Execute skill: s", True, "Skill"),
        _bash("Launching skill: s", False, "Skill"),
    )
    records, corpus = _records(scenario, [ran, asked, ran, asked, ran])
    found = skill_ask_windows(records, corpus)
    assert [(r["since"], r["until"]) for r in found] == [("2.0.1", "2.0.2"), ("2.0.3", "2.0.5")]
    assert found[0]["after"] == "Execute skill: {skill}"


def test_a_rewrite_without_a_decision_arrives_where_results_become_the_newest() -> None:
    out = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"c": "b"}}}
    scenario = {"id": "r", "hooks": {"h": {"out": out}}}
    records, corpus = _records(scenario, [_bash("A"), _bash("A"), _bash("B"), _bash("B")])
    (rule,) = rewrite_arrival(records, corpus)
    assert (rule["since"], rule["previous"]) == ("2.0.2", "2.0.1")
    # With a permissionDecision the scenario says nothing about this rule.
    out["hookSpecificOutput"]["permissionDecision"] = "allow"
    records, corpus = _records(scenario, [_bash("A"), _bash("B")])
    assert rewrite_arrival(records, corpus) == []


def test_a_flag_arrives_where_a_run_given_it_first_starts() -> None:
    scenario = {"id": "f", "flags": ["--new-flag"]}
    dead = {"requests": 0, "result": {"subtype": None}}
    alive = {"requests": 1, "result": {"subtype": "success"}}
    records, corpus = _records(scenario, [dead, dead, dead, alive])
    (rule,) = flag_arrivals(records, corpus)
    assert (rule["since"], rule["after"]) == ("2.0.3", "--new-flag")


def test_an_exit2_text_change_is_read_as_templates() -> None:
    scenario = {"id": "e"}
    error = "[sh h]: no\n"
    old = _bash(f"Bash operation blocked by hook:\n- {error}", True)
    new = {
        **_bash(f"PreToolUse:Bash hook error: {error}", True),
        "hooks": [{"event": "PreToolUse", "hook": "h", "exit": 2}],
    }
    records, corpus = _records(scenario, [old, old, new])
    (rule,) = exit2_texts(records, corpus)
    assert rule["before"] == "{tool} operation blocked by hook:\n- {error}"
    assert rule["after"] == "PreToolUse:{tool} hook error: {error}"
    assert rule["since"] == "2.0.2"


@pytest.mark.parametrize(
    ("name", "kind", "events"),
    [
        ("CwdChanged", "event-name-arrives", ["CwdChanged"]),
        ("NoSuchEvent", "unknown-name-dropped", []),
    ],
)
def test_an_event_name_arrives_where_its_file_s_other_hooks_first_run(
    name: str, kind: str, events: list[str]
) -> None:
    hook = {"type": "command", "command": "x"}
    groups = {name: [{"hooks": [hook]}], "Stop": [{"hooks": [hook]}]}
    scenario = {"id": "n", "settings": {"project": {"hooks": groups}}}
    ran = {"hooks": [{"event": "Stop", "hook": "x", "exit": 0}], "requests": 1}
    unread = {"hooks": [], "requests": 1}
    # Another scenario shows the oldest release running Stop hooks.
    other = {"id": "s", "settings": {"project": {"hooks": {"Stop": [{"hooks": [hook]}]}}}}
    records, corpus = _joined((scenario, [unread, ran, ran]), (other, [ran]))
    (rule,) = event_name_arrivals(records, corpus)
    assert (rule["kind"], rule["since"], rule["after"]) == (kind, "2.0.1", name)
    assert rule["events"] == events
    # A run that did not start says nothing; hooks of no event the oldest ran, neither.
    dead = {"hooks": [], "requests": 0, "result": {"subtype": None}}
    records, corpus = _joined((scenario, [dead, ran, ran]), (other, [ran]))
    assert event_name_arrivals(records, corpus) == []
    records, corpus = _joined((scenario, [unread, ran, ran]))
    assert event_name_arrivals(records, corpus) == []


def _joined(
    *stored: tuple[dict[str, Any], list[dict[str, Any]]],
) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """Records and corpus of several made-up scenarios together."""
    records: dict[str, dict[str, Any]] = {}
    corpus: dict[str, dict[str, Any]] = {}
    for scenario, observations in stored:
        more, one = _records(scenario, observations)
        for version, record in more.items():
            records.setdefault(version, {}).update(record)
        corpus.update(one)
    return records, corpus


def test_an_option_s_value_arrives_where_the_option_alone_was_known() -> None:
    dead = {"requests": 0, "result": {"subtype": None}}
    alive = {"requests": 1, "result": {"subtype": "success"}}
    auto = {"id": "a", "flags": ["--permission-mode", "auto"]}
    plan = {"id": "p", "flags": ["--permission-mode", "plan"]}
    named = {"id": "w", "flags": ["--worktree", "wt1"]}
    stored = ((auto, [dead, dead, alive]), (plan, [alive] * 3), (named, [dead, alive]))
    records, corpus = _joined(*stored)
    found = {rule["after"]: rule["since"] for rule in flag_arrivals(records, corpus)}
    assert found == {"--permission-mode auto": "2.0.2", "--worktree": "2.0.1"}


def test_exit2_beside_json_and_continue_beside_deny_arrive_where_the_run_changes() -> None:
    allow = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}
    scenario = {"id": "x", "hooks": {"h": {"out": allow, "err": "no", "exit": 2}}}
    ran = {"hooks": [{"event": "PreToolUse"}], **_bash("TOOL-RAN")}
    refused = {"hooks": [{"event": "PreToolUse"}], **_bash("PreToolUse:Bash hook error: no", True)}
    records, corpus = _records(scenario, [{"hooks": []}, ran, refused, refused])
    (rule,) = exit2_json_arrival(records, corpus)
    assert (rule["kind"], rule["since"], rule["previous"]) == ("exit2-over-json", "2.0.2", "2.0.1")
    deny = {
        "continue": False,
        "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"},
    }
    scenario = {"id": "c", "hooks": {"h": {"out": deny}}}
    went_on = {"hooks": [{"event": "PreToolUse"}], "requests": 2}
    stopped = {"hooks": [{"event": "PreToolUse"}], "requests": 1}
    records, corpus = _records(scenario, [went_on, went_on, went_on, stopped])
    (rule,) = continue_deny_arrival(records, corpus)
    assert (rule["kind"], rule["since"]) == ("continue-beside-deny", "2.0.3")


def test_a_refusal_worded_by_its_stop_reason_is_read_even_where_the_reason_holds_it() -> None:
    answer = {
        "continue": False,
        "stopReason": "halt",
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "denied and halted",
        },
    }
    scenario = {"id": "s", "hooks": {"h": {"out": answer}}}
    old = _bash("Execution stopped by PreToolUse hook: halt", True)
    # The deny's own reason holds the stopReason: only its absence marks the old text.
    new = _bash("PreToolUse:Bash hook error: denied and halted", True)
    records, corpus = _records(scenario, [old, old, new, new])
    (rule,) = stop_text_arrival(records, corpus)
    assert (rule["kind"], rule["since"], rule["previous"]) == ("stop-text-yields", "2.0.2", "2.0.1")
    assert rule["before"] == "Execution stopped by PreToolUse hook: {stopReason}"
    records, corpus = _records(scenario, [old, new, old])
    assert stop_text_arrival(records, corpus) == []


def test_a_window_of_releases_that_did_not_find_custom_commands_is_read() -> None:
    scenario = {"id": "g", "prompt": "/greet now", "files": {".claude/commands/greet.md": "x"}}
    ran = {"hooks": [], "requests": 1, "result": {"result": "Done."}}
    refused = {"hooks": [], "requests": 0, "result": {"result": "Unknown skill: greet"}}
    records, corpus = _records(scenario, [ran, refused, refused, ran])
    (rule,) = unknown_command_windows(records, corpus)
    assert (rule["since"], rule["previous"], rule["until"]) == ("2.0.1", "2.0.0", "2.0.3")
    assert rule["after"] == "Unknown skill: {name}"
    # A prompt a hook stopped made no request either, but its hooks ran: not this.
    stopped = {**refused, "hooks": [{"event": "UserPromptSubmit"}]}
    records, corpus = _records(scenario, [ran, stopped, stopped, ran])
    assert unknown_command_windows(records, corpus) == []


def test_a_refusal_s_check_and_its_wordings_are_read_apart_from_other_causes() -> None:
    newest = permission_facts().refusals["variable"]
    scenario = {
        "id": "v",
        "turns": [{"tools": [{"name": "Bash", "input": {"command": "echo $X"}}]}],
    }
    generic, own = _bash("This command requires approval", True), _bash("Contains $X", True)
    # Auto mode's refusal, in a release that ran a session given no mode in auto mode.
    auto = _bash("Auto mode could not evaluate this action", True)
    records, corpus = _records(scenario, [generic, generic, own, auto, _bash(newest, True)])
    (check,) = check_arrivals(records, corpus)
    assert (check["since"], check["previous"], check["after"]) == ("2.0.2", "2.0.1", "variable")
    (wording,) = fixed_refusal_texts(records, corpus)
    assert (wording["before"], wording["after"]) == ("Contains $X", newest)
    assert (wording["previous"], wording["since"], wording["exact"]) == ("2.0.2", "2.0.5", False)


def test_a_wide_wording_span_is_narrowed_by_another_call_showing_the_change() -> None:
    newest = permission_facts().refusals["variable"]
    picked = {"id": "v", "turns": [{"tools": [{"name": "Bash", "input": {"command": "echo $X"}}]}]}
    # Another scenario's call the newest refuses otherwise, stored where the first is not.
    other = {"id": "o", "turns": [{"tools": [{"name": "Bash", "input": {"command": "ls $X"}}]}]}
    own, later = _bash("Contains $X", True), _bash(newest, True)
    records = {
        "2.0.0": {
            "v": {"scenario": digest(picked), **own},
            "o": {"scenario": digest(other), **own},
        },
        "2.0.2": {"o": {"scenario": digest(other), **own}},
        "2.0.3": {"o": {"scenario": digest(other), **later}},
        "2.0.5": {
            "v": {"scenario": digest(picked), **later},
            "o": {"scenario": digest(other), **_bash("x", True)},
        },
    }
    (wording,) = fixed_refusal_texts(records, {"v": picked, "o": other})
    assert (wording["previous"], wording["since"], wording["exact"]) == ("2.0.2", "2.0.3", True)
    assert wording["scenarios"] == ["o", "v"]


def _calls(*commands: str) -> dict[str, Any]:
    tools = [{"name": "Bash", "input": {"command": command}} for command in commands]
    return {"id": "c", "turns": [{"tools": tools}]}


def _seen(scenario: dict[str, Any], *results: tuple[str, bool]) -> dict[str, Any]:
    """An observation of ``scenario``'s one turn of Bash calls, with these results."""
    calls = scenario["turns"][0]["tools"]
    return {
        "tools": [
            {**call, "result": text, "isError": error}
            for call, (text, error) in zip(calls, results, strict=True)
        ]
    }


def test_a_known_variable_and_a_writing_command_arrive_where_their_calls_change() -> None:
    generic = permission_facts().refusals["command"]
    scenario = _calls("echo $HOME", "tee out.txt", "touch a.txt")
    inside = "{} in '/p/{}' needs approval. The path is inside the working directories"
    tee, touch = inside.format("tee", "out.txt"), inside.format("touch", "a.txt")
    old = _seen(scenario, ("Contains simple_expansion", True), (generic, True), (generic, True))
    touch_named = _seen(scenario, ("/home/u", False), (generic, True), (touch, True))
    new = _seen(scenario, ("/home/u", False), (tee, True), (touch, True))
    records, corpus = _records(scenario, [old, touch_named, new, new])
    (known,) = known_variable_arrivals(records, corpus)
    assert (known["since"], known["previous"], known["after"]) == ("2.0.1", "2.0.0", "HOME")
    # touch arrived with every write's need (write-need-arrives); tee, later, on its own.
    (tee_rule,) = write_verb_arrivals(records, corpus)
    assert (tee_rule["since"], tee_rule["after"]) == ("2.0.2", "tee")
    assert tee_rule["facet"] == "bash.write.verb.tee"
    # A write outside the folders was named by an older path check: it says nothing here.
    outside = "tee in '/tmp/x' needs approval. The path is outside the working directories"
    later = _seen(scenario, ("/h", False), (outside, True), (touch, True))
    records, corpus = _records(scenario, [old, touch_named, later])
    assert write_verb_arrivals(records, corpus) == []


def test_a_directory_changer_and_a_flag_check_arrive_where_their_calls_change() -> None:
    facts = permission_facts()
    several, generic = facts.refusals["several_directory_changes"], facts.refusals["command"]
    listed = f"{GENERIC_COMPOUND}s require approval: pushd sub, popd"
    flag = facts.refusal("flag_runs_code", verb="find", flag="-delete")
    scenario = _calls("pushd sub && popd", "cd sub && cd ..", "find . -delete")
    old = _seen(scenario, (listed, True), (several, True), (generic, True))
    new = _seen(scenario, (several, True), (several, True), (flag, True))
    records, corpus = _records(scenario, [old, old, new, new])
    found = {(r["after"], r["since"], r["previous"]) for r in changer_arrivals(records, corpus)}
    # cd was counted from the oldest on: only pushd and popd arrive.
    assert found == {("pushd", "2.0.2", "2.0.1"), ("popd", "2.0.2", "2.0.1")}
    # Two changes refused as several from the oldest on are no check's arrival.
    checks = {(r["after"], r["since"]) for r in check_arrivals(records, corpus)}
    assert checks == {("flag_runs_code", "2.0.2")}


def test_checks_of_a_command_s_text_a_blocked_part_first_and_spacing_are_windows() -> None:
    backticks = "Command contains backticks (`) for command substitution"
    blocked = (
        "cat in '/etc/hostname' was blocked. For security, Claude Code may only concatenate "
        "files from the allowed working directories for this session: '/p'."
    )
    scenario = _calls(
        "echo `date`", "npm test && cat /etc/hostname", "npm test &&  npm run  b", "ls && b ${X}"
    )
    old = _seen(
        scenario,
        (backticks, True),
        (blocked, True),
        (f"{GENERIC_COMPOUND}s require approval: npm test, npm run b", True),
        (f"{GENERIC_COMPOUND} requires approval: b $X", True),
    )
    new = _seen(
        scenario,
        ("Contains command_substitution", True),
        (f"{GENERIC_COMPOUND}s require approval: npm test, cat /etc/hostname", True),
        (f"{GENERIC_COMPOUND}s require approval: npm test, npm run  b", True),
        ("A variable in braces in this command can't be checked before it runs", True),
    )
    records, corpus = _records(scenario, [old, old, new, new])
    windows = [
        (r["kind"], r["facet"], r["since"], r["previous"], r["until"], r["after"])
        for r in (
            *legacy_check_windows(records, corpus),
            *blocked_part_windows(records, corpus),
            *part_form_windows(records, corpus),
        )
    ]
    # From the oldest stored release on: it starts there, with no release before it.
    assert windows == [
        ("legacy-check", "legacy.backticks", "2.0.0", "2.0.0", "2.0.2", backticks),
        ("blocked-part-first", "bash.first.outside", "2.0.0", "2.0.0", "2.0.2", "outside"),
        ("part-spacing", "bash.part.spacing", "2.0.0", "2.0.0", "2.0.2", "collapsed"),
        # No later record lists the part: the window ends at the next one stored.
        ("part-braces", "bash.part.braces", "2.0.0", "2.0.0", "2.0.2", "dropped"),
    ]
    # Records that change back and forth show two windows, each bounded.
    records, corpus = _records(scenario, [new, old, new, old])
    assert [(r["since"], r["until"]) for r in legacy_check_windows(records, corpus)] == [
        ("2.0.1", "2.0.2"),
        ("2.0.3", None),
    ]


def test_read_only_commands_and_redirections_are_read_per_command_word() -> None:
    generic = permission_facts().refusals["command"]
    scenario = _calls("node --version", "cat a.txt | wc -l", "echo hi > out.txt", "ls")
    named_file = f"{GENERIC_COMPOUND} requires approval: out.txt"
    old = _seen(
        scenario,
        (generic, True),
        (f"{GENERIC_COMPOUND} requires approval: cat a.txt", True),
        (named_file, True),
        ("a.txt", False),
    )
    unchecked = _seen(scenario, (generic, True), ("1", False), ("", False), ("a.txt", False))
    new = _seen(scenario, ("v20", False), ("1", False), ("blocked", True), ("a.txt", False))
    records, corpus = _records(scenario, [old, unchecked, new, new])
    read_only = read_only_arrivals(records, corpus)
    arrivals = {(r["after"], r["since"], r["previous"]) for r in read_only}
    # `ls` ran everywhere and `wc` was never named: neither arrives.
    assert arrivals == {("node", "2.0.2", "2.0.1"), ("cat.compound", "2.0.1", "2.0.0")}
    windows = {
        (r["kind"], r["facet"], r["since"], r["until"]) for r in redirect_windows(records, corpus)
    }
    assert windows == {
        ("redirect-as-part", "bash.redirect.part", "2.0.0", "2.0.1"),
        ("redirect-unchecked", "bash.redirect.inside", "2.0.1", "2.0.2"),
    }


def test_fire_judges_read_only_commands_and_redirections_as_each_release_did(
    tmp_path: Path,
) -> None:
    node = _rule("read-only-arrives", "bash.read_only.node")
    cat = _rule("read-only-arrives", "bash.read_only.cat.compound")
    test = _rule("read-only-arrives", "bash.read_only.test")
    as_part = _rule("redirect-as-part")
    unchecked = _rule("redirect-unchecked", "bash.redirect.inside")
    parse_error = _rule("check-arrives", "refusal.parse_error")
    _settings(tmp_path, {})
    facts = permission_facts()

    def refusal(release: str, command: str) -> str | None:
        return _bash_refusal(tmp_path, release, command)

    assert refusal(node.previous, "node --version") == facts.refusals["command"]
    assert refusal(node.since, "node --version") is None
    assert refusal(cat.previous, "cat a.txt | wc -l") == facts.refusal("compound", part="cat a.txt")
    assert refusal(cat.since, "cat a.txt | wc -l") is None
    # Not read-only alone before its arrival: not in a compound command either.
    both = facts.refusal("compound_parts", parts="npm test, test a = b")
    assert refusal(test.previous, "npm test && test a = b") == both
    # Between the arrival and the parser's check, judged by the word lists alone: it ran.
    assert refusal(test.since, "test a = b") is None
    assert refusal(parse_error.since, "test a = b") == facts.refusals["parse_error"]
    assert refusal(as_part.since, "echo hi > out.txt") == facts.refusal("compound", part="out.txt")
    assert refusal(as_part.since, "npm test > out.txt && git push") == facts.refusal(
        "compound_parts", parts="npm test, out.txt, git push"
    )
    assert refusal(unchecked.since, "echo hi > out.txt") is None
    assert refusal(str(unchecked.until), "echo hi > out.txt") is not None


def test_fire_checks_a_command_s_text_as_each_release_did(tmp_path: Path) -> None:
    """Before the parsed checks: constructs in the text, a blocked part first, parts
    spaced singly; after their windows, the newest's answers."""
    backticks = _rule("legacy-check", "legacy.backticks")
    path_variable = _rule("legacy-check", "legacy.path_variable")
    braced = _rule("legacy-check", "legacy.braced_variable")
    outside = _rule("blocked-part-first", "bash.first.outside")
    spacing = _rule("part-spacing")
    _settings(tmp_path, {})
    facts = permission_facts()

    def refusal(release: str, command: str) -> str:
        return str(_bash_refusal(tmp_path, release, command))

    assert refusal(backticks.since, "echo `date`") == backticks.after
    assert refusal(str(backticks.until), "echo `date`") != backticks.after
    # Two constructs: the first whose check the release made (a variable in braces in a
    # path argument is a path's variable before the check of braces arrived).
    assert refusal(path_variable.since, 'cat "${FOO}/x"') == path_variable.after
    assert refusal(braced.since, 'cat "${FOO}/x"') == braced.after
    assert refusal(outside.since, "npm test && cat /etc/hostname").startswith(
        "cat in '/etc/hostname' was blocked."
    )
    listed = facts.refusal("compound_parts", parts="npm test, cat /etc/hostname")
    assert refusal(str(outside.until), "npm test && cat /etc/hostname") == listed
    spaced = "npm test &&  npm run  build"
    assert refusal(spacing.since, spaced).endswith("npm test, npm run build")
    assert refusal(str(spacing.until), spaced).endswith("npm test, npm run  build")
    braces = _rule("part-braces")
    assert refusal(braces.since, "npm test && echo ${FOO}").endswith("npm test, echo $FOO")
    # A quoted `>` needed approval as any command while the text was checked.
    quoted = _rule("legacy-check", "legacy.quoted_redirection")
    assert refusal(quoted.since, 'echo "a > b"') == facts.refusals["command"]
    assert _bash_refusal(tmp_path, str(quoted.until), 'echo "a > b"') is None  # it runs
    # Before a compound's backticks were checked, its parts were listed as written.
    compound = _rule("legacy-check", "legacy.backticks.compound")
    listed = facts.refusal("compound_parts", parts="npm test, echo `date`")
    assert refusal(compound.previous, "npm test && echo `date`") == listed
    assert refusal(compound.since, "npm test && echo `date`") == compound.after


def test_a_project_s_permissions_held_untrusted_inside_a_window() -> None:
    outside = "cd in '/h' was blocked. For security, Claude Code may only change directories"
    scenario = {
        **_calls("cd /h"),
        "settings": {"project": {"permissions": {"additionalDirectories": ["/h"]}}},
    }
    refused, ran = _seen(scenario, (outside, True)), _seen(scenario, ("", False))
    records, corpus = _records(scenario, [refused, ran, ran, refused])
    (rule,) = untrusted_permission_windows(records, corpus)
    assert (rule["since"], rule["previous"], rule["until"]) == ("2.0.1", "2.0.0", "2.0.3")
    # A trusted folder shows nothing of it.
    assert untrusted_permission_windows(records, {"c": {**scenario, "trust": True}}) == []


def test_a_project_s_allow_rule_held_untrusted_from_the_oldest_release() -> None:
    scenario = {
        **_calls("touch made.txt"),
        "settings": {"project": {"permissions": {"allow": ["Bash(touch:*)"]}}},
    }
    inside = "touch in '$ROOT/project/made.txt' needs approval. The path is inside"
    blocked = (
        "touch in '$ROOT/project/made.txt' was blocked. For security, Claude Code may only "
        "create or modify files in the allowed working directories for this session: '$ROOT'."
    )
    ran, refused = _seen(scenario, ("", False)), _seen(scenario, (inside, True))
    # A refusal as blocked of a path inside the project says nothing of the rule.
    records, corpus = _records(scenario, [ran, _seen(scenario, (blocked, True)), ran, refused])
    (rule,) = untrusted_permission_windows(records, corpus)
    assert (rule["since"], rule["previous"], rule["until"]) == ("2.0.0", "2.0.0", "2.0.3")


def test_settings_dirs_arrive_and_say_nothing_of_trust_before() -> None:
    outside = "cd in '/h' was blocked. For security, Claude Code may only change directories"
    dirs = {"project": {"permissions": {"additionalDirectories": ["/h"]}}}
    trusted = {**_calls("cd /h", "echo next"), "id": "t", "settings": dirs, "trust": True}
    untrusted = {**_calls("cd /h"), "id": "u", "settings": dirs}
    refused, ran = (outside, True), ("", False)
    seen_trusted = [_seen(trusted, r, ran) for r in (refused, refused, ran, ran, ran)]
    seen_untrusted = [_seen(untrusted, r) for r in (refused, refused, ran, ran, refused)]
    records = {
        version: {
            "t": {"scenario": digest(trusted), **a},
            "u": {"scenario": digest(untrusted), **b},
        }
        for version, a, b in zip(RELEASES, seen_trusted, seen_untrusted, strict=True)
    }
    corpus = {"t": trusted, "u": untrusted}
    (arrived,) = settings_dirs_arrival(records, corpus)
    assert (arrived["since"], arrived["previous"], arrived["exact"]) == ("2.0.2", "2.0.1", True)
    # Before the arrival the untrusted folder's refusals say nothing: the window starts
    # where the directories were first read, not after a refusal.
    (window,) = untrusted_permission_windows(records, corpus)
    assert (window["since"], window["previous"], window["until"]) == ("2.0.2", "2.0.2", "2.0.5")


def test_max_turns_unchecked_is_a_window_apart_from_the_stop_cap() -> None:
    stop = {"Stop": [{"hooks": [{"type": "command", "command": "@hook:again"}]}]}
    scenario = {
        "id": "m",
        "flags": ["--max-turns", "1"],
        "settings": {"project": {"hooks": stop}},
        "hooks": {"again": {"out": {"decision": "block", "reason": "go on"}}},
    }
    ended = {"requests": 1, "result": {"subtype": "error_max_turns"}}
    looped = {"requests": 500, "result": {}}
    records, corpus = _records(scenario, [ended, looped, looped, ended])
    (rule,) = max_turns_windows(records, corpus)
    assert (rule["since"], rule["previous"], rule["until"]) == ("2.0.1", "2.0.0", "2.0.3")
    assert stop_cap_arrival(records, corpus) == []  # a turn limit's loop is not the cap's


def test_a_window_of_cancelled_calls_is_read_with_the_call_as_a_placeholder() -> None:
    generic = permission_facts().refusals["command"]
    scenario = _calls("env", "ls")
    cancelled = "<tool_use_error>Cancelled: parallel tool call Bash(env) errored</tool_use_error>"
    apart = _seen(scenario, (generic, True), ("a.txt", False))
    together = _seen(scenario, (generic, True), (cancelled, True))
    records, corpus = _records(scenario, [apart, together, together, apart])
    (rule,) = cancel_windows(records, corpus)
    assert (rule["since"], rule["until"]) == ("2.0.1", "2.0.3")
    assert rule["after"] == cancelled.replace("Bash(env)", "{call}")


def test_a_tool_s_loads_arrive_only_where_the_event_itself_was_known() -> None:
    scenario = {"id": "w", "turns": [{"tools": [{"name": "Write", "input": {}}]}]}
    loaded = {
        "hooks": [{"event": "InstructionsLoaded", "payload": {"load_reason": "path_glob_match"}}]
    }
    other = {"id": "s", "prompt": "x"}
    started = {
        "hooks": [{"event": "InstructionsLoaded", "payload": {"load_reason": "session_start"}}]
    }
    records, corpus = _records(scenario, [{"hooks": []}, {"hooks": []}, {"hooks": []}, loaded])
    # The event arrives on 2.0.2 (another scenario's session start): 2.0.0 and 2.0.1 say nothing.
    for version in ("2.0.2", "2.0.3"):
        records[version]["s"] = {"scenario": digest(other), **started}
    corpus["s"] = other
    (rule,) = load_arrivals(records, corpus)
    assert (rule["since"], rule["previous"], rule["after"]) == ("2.0.3", "2.0.2", "Write")


def test_a_plan_mode_refusal_is_read_as_templates() -> None:
    scenario = {"id": "p", "flags": ["--permission-mode", "plan"]}
    old = _bash(
        "Claude requested permissions to write to /p/a.txt, but you haven't granted it yet.", True
    )
    new = _bash("Cannot write to /p/a.txt while in plan mode.", True)
    records, corpus = _records(scenario, [old, new, new])
    (rule,) = refusal_texts(records, corpus)
    assert rule["facet"] == "refusal.plan_write"
    assert (
        rule["before"]
        == "Claude requested permissions to write to {path}, but you haven't granted it yet."
    )
    assert (rule["after"], rule["since"]) == ("Cannot write to {path} while in plan mode.", "2.0.1")


def test_handler_fields_arrive_where_calls_or_runs_become_the_newest_s() -> None:
    hook = {"type": "http", "url": "u", "onFailure": "block", "if": "Bash(rm *)"}
    scenario = {"id": "h", "settings": {"project": {"hooks": {"PreToolUse": [{"hooks": [hook]}]}}}}
    records, corpus = _records(scenario, [_bash("RAN"), _bash("RAN"), _bash("NO", True)])
    (rule,) = on_failure_arrival(records, corpus)
    assert (rule["since"], rule["after"]) == ("2.0.2", "onFailure")
    twice = {"hooks": [{"event": "PreToolUse"}] * 2}
    once = {"hooks": [{"event": "PreToolUse"}]}
    records, corpus = _records(scenario, [twice, once, once])
    assert if_arrival(records, corpus)[0]["since"] == "2.0.1"


def test_a_deny_rule_over_a_hook_s_allow_skips_releases_that_ran_no_hook() -> None:
    out = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}
    hook = {"type": "command", "command": "x"}
    settings = {
        "permissions": {"deny": ["Bash(rm *)"]},
        "hooks": {"PreToolUse": [{"hooks": [hook]}]},
    }
    scenario = {"id": "d", "settings": {"user": settings}, "hooks": {"x": {"out": out}}}
    ran = {"hooks": [{"event": "PreToolUse"}], **_bash("")}
    denied = {"hooks": [{"event": "PreToolUse"}], **_bash("denied", True)}
    unread = {"hooks": [], **_bash("This command requires approval", True)}
    records, corpus = _records(scenario, [unread, ran, ran, denied])
    (rule,) = deny_rule_arrival(records, corpus)
    assert (rule["since"], rule["previous"]) == ("2.0.3", "2.0.2")
    (read,) = wildcard_rule_arrival(records, corpus)
    assert (read["since"], read["previous"]) == ("2.0.1", "2.0.0")


@pytest.mark.parametrize(
    ("rule", "refused"),
    [
        ("Bash(rm *)", True),
        ("Bash(rm:*)", False),
        ("Bash(ls *.txt)", False),
        ("Bash(cat /tmp/*)", False),
        ("Read(*)", False),
        ("Bash", False),
    ],
)
def test_the_rules_old_releases_refused(rule: str, refused: bool) -> None:
    assert versions.star_not_prefix(rule) is refused


def test_a_stop_feedback_change_is_read_as_templates() -> None:
    old = {"modelTexts": ["Stop hook feedback:\n- Run the tests."]}
    new = {"modelTexts": ["Stop hook feedback:\nRun the tests.", "Stop hook success"]}
    records, corpus = _records({"id": "f"}, [old, new, new])
    (rule,) = feedback_texts(records, corpus)
    assert (rule["before"], rule["after"]) == (
        "{event} hook feedback:\n- {reason}",
        "{event} hook feedback:\n{reason}",
    )
    measured = _rule("feedback-text")
    with versions.answering_as(measured.previous):
        worded = versions.feedback_text("Stop", "R", "now")
    assert worded == str(measured.before).format(event="Stop", reason="R")
    with versions.answering_as(measured.since):
        assert versions.feedback_text("Stop", "R", "now") == "Stop hook feedback:\nR"


def _rule(kind: str, facet: str | None = None) -> versions.Rule:
    found = [r for r in versions.rules() if r.kind == kind and facet in (None, r.facet)]
    if not found:
        pytest.skip(f"no {kind} rule measured")
    return found[0]


def test_each_behaviour_follows_its_release() -> None:
    exec_form, flag, exit2 = _rule("exec-form-arrives"), _rule("flag-arrives"), _rule("exit2-text")
    rewrite, write, skill = (
        _rule("rewrite-arrives"),
        _rule("write-blocked", "bash.write.covered"),
        _rule("skill-asks"),
    )
    with versions.answering_as(exec_form.previous):
        assert f"changed in {exec_form.since}" in str(versions.args_note())
    with versions.answering_as(exec_form.since):
        assert versions.args_note() is None
    with versions.answering_as(flag.previous):
        assert versions.flag_note(["-p", str(flag.after)]) is not None
    with versions.answering_as(flag.since):
        assert versions.flag_note([str(flag.after)]) is None
    with versions.answering_as(rewrite.previous):
        assert versions.rewrite_note() is not None
    with versions.answering_as(rewrite.since):
        assert versions.rewrite_note() is None
    with versions.answering_as(exit2.previous):
        assert versions.exit2_text("Bash", "E", "now") == str(exit2.before).format(
            tool="Bash", error="E"
        )
    with versions.answering_as(exit2.since):
        assert versions.exit2_text("Bash", "E", "now") != str(exit2.before).format(
            tool="Bash", error="E"
        )
    windows: list[tuple[versions.Rule, Callable[[], str | None]]] = [
        (write, lambda: versions.write_blocked_text("touch in 'x'", "/p", "covered")),
        (skill, lambda: versions.skill_ask_text("s")),
    ]
    for window, check in windows:
        with versions.answering_as(window.previous):
            assert check() is None
        with versions.answering_as(window.since):
            assert check() is not None
        if window.until is not None:
            with versions.answering_as(window.until):
                assert check() is None
    # The newest answers as the engine models it.
    assert versions.args_note() is None and versions.skill_ask_text("s") is None


def test_a_variable_a_release_set_itself_reaches_the_events_it_reached() -> None:
    name = next(iter(versions.RELEASE_SET))
    changes = [
        r for r in versions.rules() if r.kind == "env-var" and r.facet == f"hook[*].env.{name}"
    ]
    if not changes:
        pytest.skip(f"no {name} change measured")
    gone = next(r for r in changes if r.after is None)
    with versions.answering_as(gone.previous):
        assert versions.release_variables("SessionStart") == {name: versions.RELEASE_SET[name]}
    with versions.answering_as(gone.since):
        assert versions.release_variables("SessionStart") == {}
    # An event whose hooks got it later than others' (Setup) follows its own change.
    for rule in (r for r in changes if r.after is not None and r.events != gone.events):
        with versions.answering_as(rule.previous):
            assert versions.env_exported_on(name, rule.events[0]) is False
        with versions.answering_as(rule.since):
            assert versions.env_exported_on(name, rule.events[0]) is True
    assert versions.release_variables("SessionStart") == {}


FLAGS = ("--project-dir", ".", "--json", "--claude-version")


def _fire(
    cwd: Path, release: str, event: str, payload: dict[str, Any], flags: Sequence[str] = ()
) -> dict[str, Any]:
    payload = {"session_id": "s", "transcript_path": "t", "cwd": str(cwd), **payload}
    (cwd / "p.json").write_text(json.dumps(payload), encoding="utf-8")
    command = [sys.executable, "-m", "hookcourse", "fire", event, "--payload", "p.json"]
    done = subprocess.run(
        [*command, *flags, *FLAGS, release],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def _settings(cwd: Path, settings: dict[str, Any], name: str = "settings.json") -> None:
    (cwd / ".claude").mkdir(exist_ok=True)
    (cwd / ".claude" / name).write_text(json.dumps(settings), encoding="utf-8")


BASH = {"tool_name": "Bash", "tool_use_id": "t1"}


def _bash_refusal(cwd: Path, release: str, command: str) -> str | None:
    """What fire answering as ``release`` says a Bash call of ``command`` is refused with
    (None: it runs; default mode named: some releases ran a session given none in auto
    mode)."""
    call = {**BASH, "tool_input": {"command": command}}
    fired = _fire(cwd, release, "PreToolUse", call, ["--permission-mode", "default"])
    result = fired["printMode"]["toolResult"]
    return None if result is None else str(result["text"])


def test_fire_runs_no_exec_form_hook_before_its_release(tmp_path: Path) -> None:
    rule = _rule("exec-form-arrives")
    hook = {"type": "command", "command": "sh", "args": ["-c", "echo ran >> ran.txt"]}
    _settings(tmp_path, {"hooks": {"PreToolUse": [{"hooks": [hook]}]}})
    call = {**BASH, "tool_input": {"command": "ls"}}
    before = _fire(tmp_path, rule.previous, "PreToolUse", call)
    assert not (tmp_path / "ran.txt").exists()
    assert f"changed in {rule.since}" in json.dumps(before["groups"])
    _fire(tmp_path, rule.since, "PreToolUse", call)
    assert (tmp_path / "ran.txt").read_text(encoding="utf-8") == "ran\n"


def test_fire_refuses_a_covered_write_and_a_skill_in_their_windows(tmp_path: Path) -> None:
    write, skill = _rule("write-blocked", "bash.write.covered"), _rule("skill-asks")
    _settings(tmp_path, {"permissions": {"allow": ["Bash(touch:*)"]}}, "settings.local.json")
    call = {**BASH, "tool_input": {"command": "touch made.txt && echo hi"}}
    refused = _fire(tmp_path, write.since, "PreToolUse", call)["printMode"]
    assert refused["toolRuns"] is False
    assert refused["toolResult"]["text"].startswith(f"touch in '{tmp_path}/made.txt' was blocked")
    assert _fire(tmp_path, write.previous, "PreToolUse", call)["printMode"]["toolRuns"] is True
    launch = {"tool_name": "Skill", "tool_use_id": "t2", "tool_input": {"skill": "status"}}
    asked = _fire(tmp_path, skill.since, "PreToolUse", launch)["printMode"]
    assert asked["toolResult"]["text"] == "Execute skill: status"
    # Before the window the Skill tool took `command`, not `skill` (input-field-arrives).
    before = _fire(tmp_path, skill.previous, "PreToolUse", launch)["printMode"]
    assert "The required parameter `command` is missing" in before["toolResult"]["text"]
    assert _fire(tmp_path, str(skill.until), "PreToolUse", launch)["printMode"]["toolRuns"] is True


def test_fire_words_an_exit2_and_drops_a_bare_rewrite_as_the_release_did(tmp_path: Path) -> None:
    exit2, rewrite = _rule("exit2-text"), _rule("rewrite-arrives")
    hook = {"type": "command", "command": "echo no >&2; exit 2"}
    _settings(tmp_path, {"hooks": {"PreToolUse": [{"hooks": [hook]}]}})
    call = {**BASH, "tool_input": {"command": "ls"}}
    old = _fire(tmp_path, exit2.previous, "PreToolUse", call)["printMode"]["toolResult"]["text"]
    assert old == str(exit2.before).format(tool="Bash", error="[echo no >&2; exit 2]: no\n")
    out = {
        "hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"command": "pwd"}}
    }
    hook["command"] = f"echo '{json.dumps(out)}'"
    _settings(tmp_path, {"hooks": {"PreToolUse": [{"hooks": [hook]}]}})
    assert _fire(tmp_path, rewrite.previous, "PreToolUse", call)["outcome"]["updatedInput"] is None
    now = _fire(tmp_path, rewrite.since, "PreToolUse", call)["outcome"]["updatedInput"]
    assert now == {"command": "pwd"}


@pytest.mark.parametrize("kind", ["event-name-arrives", "unknown-name-dropped"])
def test_fire_reads_no_hook_of_a_file_naming_an_event_the_release_did_not_know(
    tmp_path: Path, kind: str
) -> None:
    rule = _rule(kind)
    name = str(rule.after) if kind == "event-name-arrives" else "NoSuchEvent"
    hook = {"type": "command", "command": "echo ran >> ran.txt"}
    groups = {name: [{"hooks": [hook]}], "Stop": [{"hooks": [hook]}]}
    _settings(tmp_path, {"hooks": groups})
    stop = {"stop_hook_active": False}
    before = _fire(tmp_path, rule.previous, "Stop", stop)
    assert not (tmp_path / "ran.txt").exists()
    assert f"changed in {rule.since}" in json.dumps(before)
    _fire(tmp_path, rule.since, "Stop", stop)
    assert (tmp_path / "ran.txt").read_text(encoding="utf-8") == "ran\n"


def test_fire_ignores_if_and_lets_an_allow_beat_a_deny_rule_before_their_releases(
    tmp_path: Path,
) -> None:
    if_rule, deny = _rule("if-arrives"), _rule("deny-rule-over-allow")
    hook = {"type": "command", "command": "echo ran >> ran.txt", "if": "Bash(rm:*)"}
    _settings(tmp_path, {"hooks": {"PreToolUse": [{"hooks": [hook]}]}})
    call = {**BASH, "tool_input": {"command": "ls"}}
    _fire(tmp_path, if_rule.since, "PreToolUse", call)
    assert not (tmp_path / "ran.txt").exists()
    _fire(tmp_path, if_rule.previous, "PreToolUse", call)
    assert (tmp_path / "ran.txt").exists()
    out = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}
    allow = {"type": "command", "command": f"echo '{json.dumps(out)}'"}
    settings = {
        "permissions": {"deny": ["Bash(rm:*)"]},
        "hooks": {"PreToolUse": [{"hooks": [allow]}]},
    }
    _settings(tmp_path, settings, "settings.local.json")
    (tmp_path / ".claude" / "settings.json").unlink()
    rm = {**BASH, "tool_input": {"command": "rm -f junk.txt"}}
    assert _fire(tmp_path, deny.previous, "PreToolUse", rm)["printMode"]["toolRuns"] is True
    assert _fire(tmp_path, deny.since, "PreToolUse", rm)["printMode"]["toolRuns"] is False


def test_fire_reads_nothing_of_a_file_with_a_rule_the_release_refused(tmp_path: Path) -> None:
    rule = _rule("wildcard-rule-arrives")
    hook = {"type": "command", "command": "echo ran >> ran.txt"}
    settings = {
        "permissions": {"deny": ["Bash(rm *)"]},
        "hooks": {"PreToolUse": [{"hooks": [hook]}]},
    }
    _settings(tmp_path, settings, "settings.local.json")
    rm = {**BASH, "tool_input": {"command": "rm -f junk.txt"}}
    before = _fire(tmp_path, rule.previous, "PreToolUse", rm)
    assert not (tmp_path / "ran.txt").exists()
    assert (
        before["printMode"]["toolResult"]["text"]
        != "Permission to use Bash with command rm -f junk.txt has been denied."
    )
    _fire(tmp_path, rule.since, "PreToolUse", rm)
    assert (tmp_path / "ran.txt").exists()


def test_fire_words_an_uncovered_write_as_each_release_did(tmp_path: Path) -> None:
    need, blocked = _rule("write-need-arrives"), _rule("write-blocked", "bash.write.uncovered")
    call = {**BASH, "tool_input": {"command": "touch made.txt"}}
    (tmp_path / ".claude").mkdir()
    texts = {
        release: _fire(tmp_path, release, "PreToolUse", call)["printMode"]["toolResult"]["text"]
        for release in (need.previous, blocked.since, str(blocked.until))
    }
    assert texts[need.previous] == "This command requires approval"
    assert texts[blocked.since].startswith(f"touch in '{tmp_path}/made.txt' was blocked.")
    assert "needs approval. The path is inside" in texts[str(blocked.until)]


def test_an_event_name_without_its_own_measure_arrives_with_its_hooks_first_run() -> None:
    dropped = _rule("unknown-name-dropped")
    named = {r.after for r in versions.rules() if r.kind == "event-name-arrives"}
    early = [
        r
        for r in versions.rules()
        if r.kind == "event-arrives"
        and r.events[0] not in named
        and versions.order(r.since) < versions.order(dropped.since)
    ]
    if not early:
        pytest.skip("no event arrived before unknown names were dropped alone")
    event = early[-1].events[0]
    with versions.answering_as(early[-1].previous):
        note = versions.unknown_event_note(event)
        assert note is not None and f"its hooks first ran in {early[-1].since}" in note
    with versions.answering_as(early[-1].since):
        assert versions.unknown_event_note(event) is None


def test_fire_reads_exit2_beside_json_and_continue_beside_deny_as_each_release_did(
    tmp_path: Path,
) -> None:
    exit2, heeded = _rule("exit2-over-json"), _rule("continue-beside-deny")
    allow = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}
    hook = {"type": "command", "command": f"echo '{json.dumps(allow)}'; echo no >&2; exit 2"}
    _settings(tmp_path, {"hooks": {"PreToolUse": [{"hooks": [hook]}]}})
    call = {**BASH, "tool_input": {"command": "ls"}}
    assert _fire(tmp_path, exit2.previous, "PreToolUse", call)["printMode"]["toolRuns"] is True
    assert _fire(tmp_path, exit2.since, "PreToolUse", call)["printMode"]["toolRuns"] is False
    deny = {
        "continue": False,
        "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"},
    }
    hook["command"] = f"echo '{json.dumps(deny)}'"
    _settings(tmp_path, {"hooks": {"PreToolUse": [{"hooks": [hook]}]}})
    assert _fire(tmp_path, heeded.previous, "PreToolUse", call)["outcome"]["continue"] is True
    assert _fire(tmp_path, heeded.since, "PreToolUse", call)["outcome"]["continue"] is False


def test_fire_words_a_refusal_beside_continue_false_by_its_stop_reason_before_its_release(
    tmp_path: Path,
) -> None:
    yields = _rule("stop-text-yields")
    answer = {
        "continue": False,
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "no",
        },
    }
    call = {**BASH, "tool_input": {"command": "ls"}}
    for reason, text in (("halt", ": halt"), (None, "")):
        said = {**answer, **({"stopReason": reason} if reason else {})}
        hook = {"type": "command", "command": f"echo '{json.dumps(said)}'"}
        _settings(tmp_path, {"hooks": {"PreToolUse": [{"hooks": [hook]}]}})
        old = _fire(tmp_path, yields.previous, "PreToolUse", call)
        expected = str(yields.before).partition(": {stopReason}")[0] + text
        assert old["printMode"]["toolResult"]["text"] == expected
        # That release did not stop for it either: the explanation says since when it does.
        assert "is not heeded" in json.dumps(old["outcome"]["explanation"])
        new = _fire(tmp_path, yields.since, "PreToolUse", call)["printMode"]["toolResult"]
        assert "no" in new["text"] and "stopped" not in new["text"]


def test_a_command_holding_a_variable_is_refused_as_each_release_did(tmp_path: Path) -> None:
    check = _rule("check-arrives", "refusal.variable")
    wordings = [r for r in versions.rules() if r.kind == "refusal-text" and r.facet == check.facet]
    call = {**BASH, "tool_input": {"command": "echo $FOO"}}
    _settings(tmp_path, {})

    def refusal(release: str) -> str:
        # Default mode named: some releases ran a session given none in auto mode.
        fired = _fire(tmp_path, release, "PreToolUse", call, ["--permission-mode", "default"])
        text: str = fired["printMode"]["toolResult"]["text"]
        return text

    assert refusal(check.previous) == permission_facts().refusals["command"]
    assert refusal(versions.newest()) == permission_facts().refusals["variable"]
    # A wording from before the check arrived was a path argument's own (2.0.33 on).
    for rule in (r for r in wordings if versions.order(r.previous) >= versions.order(check.since)):
        assert refusal(rule.previous) == rule.before
        assert refusal(rule.since) == rule.after


def test_fire_judges_pushd_and_find_delete_as_each_release_did(tmp_path: Path) -> None:
    pushd = _rule("changer-arrives", "bash.changer.pushd")
    flag = _rule("check-arrives", "refusal.flag_runs_code")
    _settings(tmp_path, {})
    facts = permission_facts()

    def refusal(release: str, command: str) -> str:
        return str(_bash_refusal(tmp_path, release, command))

    several = facts.refusals["several_directory_changes"]
    assert refusal(pushd.previous, "pushd sub && popd") == (
        f"{GENERIC_COMPOUND}s require approval: pushd sub, popd"
    )
    assert refusal(pushd.previous, "cd sub && cd ..") == several
    assert refusal(pushd.since, "pushd sub && popd") == several
    assert refusal(flag.previous, "find . -delete") == facts.refusals["command"]
    assert refusal(flag.since, "find . -delete").startswith("find with '-delete' executes")


def test_fire_judges_home_tee_and_a_write_s_loads_as_each_release_did(tmp_path: Path) -> None:
    known, tee = _rule("known-variable-arrives"), _rule("write-verb-arrives", "bash.write.verb.tee")
    loads = _rule("loads-arrive", "loads.Write")
    _settings(tmp_path, {})
    facts = permission_facts()

    def refusal(release: str, command: str) -> str | None:
        return _bash_refusal(tmp_path, release, command)

    with versions.answering_as(known.previous):
        variable, quoted = facts.refusal("variable"), facts.refusal("quoted_text")
    assert refusal(known.previous, "echo $HOME") == variable
    assert refusal(known.previous, 'echo "$HOME"') == quoted
    assert refusal(known.since, "echo $HOME") is None
    assert refusal(tee.previous, "tee out.txt") == facts.refusals["command"]
    assert str(refusal(tee.since, "tee out.txt")).startswith("tee in '")
    rules_folder = tmp_path / ".claude" / "rules"
    rules_folder.mkdir(parents=True)
    (rules_folder / "py.md").write_text("---\npaths: src/*.py\n---\nUse types.\n", "utf-8")
    place = CallPlace(str(tmp_path), str(tmp_path), str(tmp_path / "home"))
    write = {"file_path": str(tmp_path / "src" / "a.py"), "content": ""}
    done = [DoneCall("Write", write, "t1", True)]
    for release, fires in ((loads.previous, False), (loads.since, True)):
        with versions.answering_as(release):
            events = call_effects("Write", write, "t1", place).events
            # What a Write did not load, a later Read there loads (seen live on 2.1.131).
            loaded = loaded_before(done, place)
        assert any(e.event == "InstructionsLoaded" for e in events) is fires
        assert (str(rules_folder / "py.md") in loaded) is fires


def test_a_custom_command_is_refused_inside_its_window_only(tmp_path: Path) -> None:
    rule = _rule("command-unknown")
    (tmp_path / ".claude" / "commands").mkdir(parents=True)
    (tmp_path / ".claude" / "commands" / "greet.md").write_text("Say hello.\n", encoding="utf-8")
    place = CallPlace(str(tmp_path), str(tmp_path), str(tmp_path / "home"))
    with versions.answering_as(rule.since):
        refused = refused_command("/greet now", place)
        assert refused is not None and refused[0] == str(rule.after).replace("{name}", "greet")
        assert f"changed in {rule.since}" in refused[1]
        # A prompt that names no command file (a skill, a typo) is not this refusal.
        assert refused_command("/other now", place) is None
    for release in (rule.previous, rule.until or versions.newest()):
        with versions.answering_as(release):
            assert refused_command("/greet now", place) is None


def _played(folder: Path, script: dict[str, Any], release: str) -> str:
    """What ``hookcourse session`` prints for ``script`` answering as ``release``."""
    (folder / "script.json").write_text(json.dumps(script), encoding="utf-8")
    command = [sys.executable, "-m", "hookcourse", "session", "script.json"]
    done = subprocess.run(
        [*command, "--claude-version", release],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_session_shows_a_refused_command_and_a_cancelled_turn_as_their_releases_did(
    tmp_path: Path,
) -> None:
    unknown, cancel = _rule("command-unknown"), _rule("sibling-cancel")
    calls = [{"name": "Bash", "input": {"command": c}} for c in ("env", "ls")]
    script = {
        "name": "greet",
        "about": "a custom command, then a turn whose first call needs approval",
        "files": {".claude/commands/greet.md": "Say hello.\n"},
        "prompts": ["/greet now", "list things"],
        "turns": [{"tools": calls}, {"text": "done"}],
    }

    def played(release: str) -> str:
        return _played(tmp_path, script, release)

    refused = played(unknown.since)
    assert "the user is shown: " + str(unknown.after).replace("{name}", "greet") in refused
    assert f"changed in {unknown.since}" in refused
    assert "Unknown skill" not in played(str(unknown.until))
    cancelled = played(cancel.since)
    assert str(cancel.after).replace("{call}", "Bash(env)") in cancelled
    assert "cancelled: " in cancelled and "Cancelled" not in played(str(cancel.until))


def test_a_session_in_auto_mode_falls_back_to_asking_as_its_release_did(tmp_path: Path) -> None:
    rule = _rule("denial-fallback")
    commands = ("npm test", "npm run build", "npm run lint", "touch made.txt", "npm run e2e")
    calls = [{"name": "Bash", "input": {"command": c}, "classifier": "none"} for c in commands]
    script = {
        "name": "auto",
        "about": "auto mode's check gives no verdict on call after call; an edit runs between",
        "permissionMode": "auto",
        "prompt": "check everything",
        "turns": [*({"tools": [call]} for call in calls), {"text": "done"}],
    }
    generic = permission_facts().refusals["command"]

    def refusals(release: str) -> list[str]:
        pairs = itertools.pairwise(_played(tmp_path, script, release).splitlines())
        return [after.strip() for line, after in pairs if "(is_error: true)" in line]

    after = int(str(rule.after))

    def asks_its_check(release: str) -> bool:
        """Whether the release asked auto mode's check on a request of its own, and worded
        its refusal in its own words."""
        with versions.answering_as(release):
            auto = versions.auto_refusal_text("Bash", "newest")
            return not versions.classifier_takes_turn() and auto != generic

    release = next(r for r in versions.releases() if versions.holds(rule, r) and asks_its_check(r))
    # Two refusals in a row in auto mode's words, the third asked as default mode asks;
    # the edit auto mode let run starts the streak again.
    inside = refusals(release)
    assert [text == generic for text in inside] == [False] * after + [True, False]
    assert generic not in refusals(str(rule.until))


def test_fire_caps_stop_continuations_only_from_the_cap_s_release(tmp_path: Path) -> None:
    cap = _rule("stop-cap-arrives")
    block = {"decision": "block", "reason": "more"}
    hook = {"type": "command", "command": f"echo '{json.dumps(block)}'"}
    _settings(tmp_path, {"hooks": {"Stop": [{"hooks": [hook]}]}})
    stop = {"stop_hook_active": True}
    flags = ["--stop-blocks", "20"]
    old = _fire(tmp_path, cap.previous, "Stop", stop, flags)
    assert old["outcome"]["blocked"] is True
    assert f"changed in {cap.since}" in json.dumps(old["outcome"]["explanation"])
    assert _fire(tmp_path, cap.since, "Stop", stop, flags)["outcome"]["blocked"] is False


def test_fire_words_plan_mode_and_a_skill_s_input_as_each_release_did(tmp_path: Path) -> None:
    plan, skill = _rule("refusal-text", "refusal.plan_write"), _rule("input-field-arrives")
    with versions.answering_as(plan.previous):
        text = permission_facts().refusal("plan_write", path="/p/a.txt")
    assert text == str(plan.before).replace("{path}", "/p/a.txt")
    with versions.answering_as(plan.since):
        assert permission_facts().refusal("plan_write", path="/p/a.txt") == str(plan.after).replace(
            "{path}", "/p/a.txt"
        )
    (tmp_path / ".claude").mkdir()
    call = {"tool_name": "Skill", "tool_use_id": "t1", "tool_input": {"skill": "guard"}}
    refused = _fire(tmp_path, skill.previous, "PreToolUse", call)["printMode"]
    assert refused["toolRuns"] is False
    assert "The required parameter `command` is missing" in refused["toolResult"]["text"]
    later = _fire(tmp_path, skill.since, "PreToolUse", call)["printMode"]["toolResult"]["text"]
    assert "InputValidationError" not in later


def test_an_option_s_value_is_refused_before_its_release() -> None:
    rules = [r for r in versions.rules() if r.kind == "flag-arrives" and " " in str(r.after)]
    if not rules:
        pytest.skip("no option value measured arriving")
    option, value = str(rules[0].after).split(" ", 1)
    with versions.answering_as(rules[0].previous):
        assert versions.flag_note([option, value]) is not None
        assert versions.flag_note([f"{option}={value}"]) is not None
        assert versions.flag_note([option, "default"]) is None
    with versions.answering_as(rules[0].since):
        assert versions.flag_note([option, value]) is None


def test_a_denial_without_reason_is_read_as_templates_and_worded_so(tmp_path: Path) -> None:
    scenario = {"id": "r", "hooks": {"h": {"out": {"decision": "block"}}}}
    ran = {"hooks": [{"event": "PreToolUse"}]}
    old = {**ran, **_bash("Hook PreToolUse:Bash denied this tool", True)}
    new = {**ran, **_bash("PreToolUse:Bash hook error: Blocked by hook", True)}
    records, corpus = _records(scenario, [old, old, new])
    (rule,) = no_reason_texts(records, corpus)
    assert (rule["before"], rule["after"]) == (
        "Hook {hook} denied this tool",
        "{hook} hook error: Blocked by hook",
    )
    assert rule["since"] == "2.0.2"
    measured = _rule("no-reason-text")
    block = {"type": "command", "command": 'echo \'{"decision": "block"}\''}
    _settings(tmp_path, {"hooks": {"PreToolUse": [{"hooks": [block]}]}})
    call = {**BASH, "tool_input": {"command": "ls"}}
    text = _fire(tmp_path, measured.previous, "PreToolUse", call)["printMode"]["toolResult"]
    assert text["text"] == str(measured.before).replace("{hook}", "PreToolUse:Bash").replace(
        "{tool}", "Bash"
    )


def test_an_allow_rule_naming_a_compound_whole_runs_it_only_before_its_release(
    tmp_path: Path,
) -> None:
    command = "touch made.txt && echo hi"
    settings = {"user": {"permissions": {"allow": [f"Bash({command})"]}}}
    turns = [{"tools": [{"name": "Bash", "input": {"command": command}}]}]
    scenario = {"id": "c", "settings": settings, "turns": turns}
    ran, refused = _bash("hi"), _bash("This Bash command contains ...", True)
    records, corpus = _records(scenario, [ran, ran, refused])
    (rule,) = compound_rule_arrival(records, corpus)
    assert (rule["kind"], rule["since"]) == ("compound-rule-arrives", "2.0.2")
    measured = _rule("compound-rule-arrives")
    _settings(tmp_path, {"permissions": {"allow": [f"Bash({command})"]}}, "settings.local.json")
    call = {**BASH, "tool_input": {"command": command}}
    assert _fire(tmp_path, measured.previous, "PreToolUse", call)["printMode"]["toolRuns"] is True
    assert _fire(tmp_path, measured.since, "PreToolUse", call)["printMode"]["toolRuns"] is False


def test_fire_lets_a_stop_continuation_past_max_turns_inside_its_window(tmp_path: Path) -> None:
    window = _rule("max-turns-unchecked")
    block = {"decision": "block", "reason": "more"}
    hook = {"type": "command", "command": f"echo '{json.dumps(block)}'"}
    _settings(tmp_path, {"hooks": {"Stop": [{"hooks": [hook]}]}})
    flags = ["--max-turns", "1", "--turn", "1"]
    inside = _fire(tmp_path, window.since, "Stop", {"stop_hook_active": False}, flags)
    assert inside["printMode"]["turnContinues"] is True
    assert f"from {window.since}" in json.dumps(inside["outcome"]["explanation"])
    for release in (window.previous, str(window.until)):
        ended = _fire(tmp_path, release, "Stop", {"stop_hook_active": False}, flags)
        assert ended["printMode"]["terminalReason"] == "max_turns"


def test_fire_takes_settings_dirs_as_working_directories_from_their_release(
    tmp_path: Path,
) -> None:
    arrived = _rule("settings-dirs-arrive")
    other = tmp_path / "other"
    other.mkdir()
    project = tmp_path / "project"
    project.mkdir()
    _settings(project, {"permissions": {"additionalDirectories": [str(other)]}})
    call = {**BASH, "tool_input": {"command": f"cd {other}"}}
    flags = ["--permission-mode", "default", "--trusted"]
    before = _fire(project, arrived.previous, "PreToolUse", call, flags)["printMode"]
    assert before["toolRuns"] is False
    assert "was blocked" in str(before["toolResult"]["text"])
    assert _fire(project, arrived.since, "PreToolUse", call, flags)["printMode"]["toolRuns"]
    # The local settings' took effect from the oldest release measured (x-cd-local-add-dir).
    assert arrived.after == "project"
    (project / ".claude" / "settings.json").unlink()
    _settings(
        project, {"permissions": {"additionalDirectories": [str(other)]}}, "settings.local.json"
    )
    local = _fire(project, arrived.previous, "PreToolUse", call, flags[:2])["printMode"]
    assert local["toolRuns"] is True


def test_fire_refuses_in_plan_mode_as_default_mode_before_plan_s_check(tmp_path: Path) -> None:
    arrived = _rule("plan-check-arrives")
    call = {**BASH, "tool_input": {"command": "rm -rf /tmp/elsewhere/old"}}
    flags = ["--permission-mode", "plan"]
    before = _fire(tmp_path, arrived.previous, "PreToolUse", call, flags)
    assert "was blocked" in str(before["printMode"]["toolResult"]["text"])
    after = _fire(tmp_path, arrived.since, "PreToolUse", call, flags)
    assert "was blocked" not in str(after["printMode"]["toolResult"]["text"])


def test_fire_names_the_first_path_and_a_command_s_own_check_in_their_windows(
    tmp_path: Path,
) -> None:
    first = _rule("first-path-named")
    (tmp_path / "a.txt").write_text("a", encoding="utf-8")
    inside = str(tmp_path / "a.txt")
    assert f"cp in '{inside}'" in str(_bash_refusal(tmp_path, first.since, "cp a.txt /tmp/b"))
    newest = str(_bash_refusal(tmp_path, str(first.until), "cp a.txt /tmp/b"))
    assert newest.startswith("cp in '/tmp/b'")
    check = _rule("verb-check", "bash.check.sed")
    assert _bash_refusal(tmp_path, check.since, "sed -i s/a/b/ a.txt") == check.after
    assert _bash_refusal(tmp_path, check.previous, "sed -i s/a/b/ a.txt") != check.after


def test_fire_merges_handlers_differing_only_in_if_where_if_was_ignored(tmp_path: Path) -> None:
    arrived = _rule("if-arrives")
    hooks = [
        {"type": "command", "command": "echo ran >> ran.txt", "if": rule}
        for rule in ("Bash(ls:*)", "Bash(git:*)")
    ]
    _settings(tmp_path, {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": hooks}]}})
    call = {**BASH, "tool_input": {"command": "ls"}}
    _fire(tmp_path, arrived.previous, "PreToolUse", call)
    assert (tmp_path / "ran.txt").read_text(encoding="utf-8") == "ran\n"  # one run, not two
    (tmp_path / "ran.txt").unlink()
    _fire(tmp_path, arrived.since, "PreToolUse", call)  # only the ls handler's if holds
    assert (tmp_path / "ran.txt").read_text(encoding="utf-8") == "ran\n"


def test_fire_shows_json_like_stdout_as_plain_before_its_release(tmp_path: Path) -> None:
    arrived = _rule("json-like-arrives")
    hook = {"type": "command", "command": "echo '{oops}'"}
    _settings(tmp_path, {"hooks": {"UserPromptSubmit": [{"hooks": [hook]}]}})
    prompt = {"prompt": "hi"}
    before = _fire(tmp_path, arrived.previous, "UserPromptSubmit", prompt)["printMode"]
    assert any("{oops}" in text for text in before["systemReminders"])
    after = _fire(tmp_path, arrived.since, "UserPromptSubmit", prompt)["printMode"]
    assert not any("{oops}" in text for text in after["systemReminders"])


def test_fire_lets_an_input_redirection_past_a_read_deny_rule_before_its_release(
    tmp_path: Path,
) -> None:
    arrived = _rule("input-read-arrives")
    (tmp_path / "secrets").mkdir()
    (tmp_path / "secrets" / "key.txt").write_text("k", encoding="utf-8")
    _settings(tmp_path, {"permissions": {"deny": ["Read(./secrets/**)"]}})
    command = "cat < secrets/key.txt"
    assert _bash_refusal(tmp_path, arrived.previous, command) is None
    assert "has been denied" in str(_bash_refusal(tmp_path, arrived.since, command))


def test_fire_judges_a_command_after_assignments_as_each_release_did(tmp_path: Path) -> None:
    generic = permission_facts().refusals["command"]
    arrived = _rule("assignments-arrive")
    assert _bash_refusal(tmp_path, arrived.previous, "LANG=C ls") == generic
    assert _bash_refusal(tmp_path, arrived.since, "LANG=C ls") is None
    for facet, command in (
        ("name", "FOO=1 ls"),
        ("path", "NODE_ENV=/tmp ls"),
        ("locale", "LANG=xx ls"),
    ):
        window = _rule("assignment-unchecked", f"bash.assignment.{facet}")
        assert _bash_refusal(tmp_path, window.since, command) is None, command
        assert _bash_refusal(tmp_path, str(window.until), command) == generic, command
    # The newest: a variable some tools read, its value checked.
    newest = versions.newest()
    assert _bash_refusal(tmp_path, newest, "TZ=UTC ls") is None
    assert _bash_refusal(tmp_path, newest, "LANG= ls") is None
    assert _bash_refusal(tmp_path, newest, "LANG=C FOO=1 ls") == generic


def test_fire_runs_grep_with_a_quoted_variable_inside_its_window(tmp_path: Path) -> None:
    window = _rule("quoted-variable-unchecked", "bash.quoted_variable.grep")
    assert _bash_refusal(tmp_path, window.since, 'grep "$FOO" a.txt') is None
    generic = permission_facts().refusals["command"]
    assert _bash_refusal(tmp_path, str(window.until), 'grep "$FOO" a.txt') == generic
    # A text check of path arguments refused the variable as a file, not as the pattern.
    legacy = "Shell expansion syntax in paths requires manual approval"
    check = _rule("legacy-check", "legacy.path_variable")
    assert _bash_refusal(tmp_path, check.since, 'grep x "$FOO"') == legacy


def test_fire_leaves_a_blocked_part_out_of_a_listing_inside_its_window(tmp_path: Path) -> None:
    window = _rule("blocked-part-left-out", "bash.left_out.redirect")
    command = "npm test && echo hi > out.txt"
    left_out = _bash_refusal(tmp_path, window.since, command)
    assert left_out == f"{GENERIC_COMPOUND} requires approval: npm test"
    listed = _bash_refusal(tmp_path, str(window.until), command)
    assert listed == f"{GENERIC_COMPOUND}s require approval: npm test, echo hi"
    # A part that needs approval for its command too stays listed.
    both = _bash_refusal(tmp_path, window.since, "npm test > out.txt && git push")
    assert both == f"{GENERIC_COMPOUND}s require approval: npm test, git push"


def test_fire_names_a_command_not_yet_read_only_beside_its_redirection(tmp_path: Path) -> None:
    printf = _rule("read-only-arrives", "bash.read_only.printf")
    generic = permission_facts().refusals["command"]
    assert _bash_refusal(tmp_path, printf.previous, "printf hi") == generic
    assert _bash_refusal(tmp_path, printf.since, "printf hi") is None
    as_part = _rule("redirect-as-part")
    named = _bash_refusal(tmp_path, as_part.since, "printf hi > out.txt")
    assert named == f"{GENERIC_COMPOUND}s require approval: printf hi, out.txt"


def test_fire_leaves_a_path_outside_to_auto_mode_s_check_under_a_whole_tool_rule(
    tmp_path: Path,
) -> None:
    window = _rule("allow-outside-unchecked")
    call = {**BASH, "tool_input": {"command": "cd .."}}
    flags = ["--permission-mode", "auto", "--allowed-tools", "Bash"]

    def runs(release: str) -> bool | None:
        verdict: bool | None = _fire(tmp_path, release, "PreToolUse", call, flags)["printMode"][
            "toolRuns"
        ]
        return verdict

    # None: auto mode's check decides (a model's verdict fire does not play).
    assert runs(window.previous) is None
    assert runs(window.since) is True
    assert runs(str(window.until)) is None
    assert runs(versions.newest()) is None


def test_fire_heeds_disable_all_hooks_in_settings_only_where_their_hooks_run(
    tmp_path: Path,
) -> None:
    rule = next((r for r in versions.rules() if r.kind == "flag-hooks-arrive"), None)
    if rule is None:
        pytest.skip("no flag-hooks-arrive rule measured")
    hook = {"type": "command", "command": "echo ran >> ran.txt"}
    _settings(tmp_path, {"hooks": {"PreToolUse": [{"hooks": [hook]}]}})
    call = {**BASH, "tool_input": {"command": "ls"}}
    flags = ["--settings", json.dumps({"disableAllHooks": True})]
    _fire(tmp_path, rule.since, "PreToolUse", call, flags)
    assert not (tmp_path / "ran.txt").exists()
    # The release before read no hook setting of --settings: the project's hook ran.
    _fire(tmp_path, rule.previous, "PreToolUse", call, flags)
    assert (tmp_path / "ran.txt").read_text(encoding="utf-8") == "ran\n"


def test_fire_runs_a_read_only_command_with_a_flag_inside_its_unchecked_window(
    tmp_path: Path,
) -> None:
    window = _rule("flag-unchecked", "bash.flag.test.-v")
    assert _bash_refusal(tmp_path, window.since, "test -v X") is None
    generic = permission_facts().refusals["command"]
    assert _bash_refusal(tmp_path, str(window.until), "test -v X") == generic
