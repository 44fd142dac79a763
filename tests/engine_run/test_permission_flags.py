"""claude's command-line permission flags as ``fire`` takes them (--allowedTools,
--disallowedTools, --max-turns, --dangerously-skip-permissions), and the Agent tool.

Each behaviour was observed on Claude Code 2.1.332 (corpus ids in the docstrings).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from hookcourse.cli import main
from hookcourse.engine.api import event_spec
from hookcourse.engine.catalogue import permission_facts
from hookcourse.engine.outcome import merge_readings
from hookcourse.engine.permission_rule import CallPlace, split_deny_list, split_rule_list
from hookcourse.engine.permissions import (
    command_line_rules,
    permission_step,
    refused_before_hooks,
)
from hookcourse.engine.reading import HookRun, read_hook_result
from hookcourse.engine.settings import Origin, PermissionEntry, SettingsSource
from hookcourse.engine.transcript import print_mode
from hookcourse.errors import InputError

Project = Any
PLACE = CallPlace("/p", "/p", "/home/u")
TOUCH = {"command": "touch a.txt"}


@pytest.mark.parametrize(
    ("values", "rules"),
    [
        (["Bash(git *) Edit,Read"], ["Bash(git *)", "Edit", "Read"]),
        (["Read,Bash(touch *)", "Bash(mkdir *)"], ["Read", "Bash(touch *)", "Bash(mkdir *)"]),
        ([" Bash(a, b) ,, Edit "], ["Bash(a, b)", "Edit"]),
        # Claude Code's own splitter: the first ) closes whatever opened before it.
        (["Bash(echo (a) b)"], ["Bash(echo (a)", "b)"]),
        # A tab is no separator; JavaScript's trim takes a BOM off the ends.
        (["\ufeffRead\tEdit"], ["Read\tEdit"]),
        (["Bash(unclosed"], ["Bash(unclosed"]),
        (["", " , "], []),
    ],
)
def test_rule_lists_split_as_claude_code_splits_them(values: list[str], rules: list[str]) -> None:
    assert split_rule_list(values) == rules


def test_a_deny_list_also_reads_nested_parentheses_whole() -> None:
    assert split_deny_list(["Bash(echo (a) b)", "Bash"]) == [
        "Bash(echo (a)",
        "b)",
        "Bash",
        "Bash(echo (a) b)",
    ]
    # A rule whose content starts with ! is not read whole; nor is one nothing nests in.
    assert split_deny_list(["Bash(!x (a) b)"]) == ["Bash(!x (a)", "b)"]
    assert split_deny_list(["Bash(rm *),Bash(rm *)"]) == ["Bash(rm *)"]


def test_command_line_rules_name_their_flag_and_read_empty_parentheses_as_the_tool() -> None:
    deny, allow = command_line_rules(["Bash()"], ["Edit"])[::-1]
    assert (deny.behaviour, str(deny.rule), deny.rule.specifier) == ("allow", "Bash", None)
    assert allow.origin == Origin(SettingsSource.FLAG, "--disallowedTools", (0,))
    with pytest.raises(InputError) as raised:
        command_line_rules(["Bash(echo"], [])
    assert raised.value.where == "--allowedTools"


def test_an_allowed_tools_rule_applies_in_a_folder_that_is_not_trusted() -> None:
    """flag-allowed-untrusted-project: the project's rule does not apply, the flag's does."""
    project_rule = PermissionEntry(
        "allow",
        command_line_rules(["Bash(mkdir *)"])[0].rule,
        Origin(SettingsSource.PROJECT, ".claude/settings.json", ("permissions", "allow", 0)),
    )
    rules = (project_rule, *command_line_rules(["Bash(touch *)"]))
    touch = permission_step(None, rules, "Bash", TOUCH, PLACE, "default", trusted=False)
    assert touch.decision == "allow"
    assert touch.decided_by == (
        'the allow rule "Bash(touch *)" given by --allowedTools lets the call run without a prompt'
    )
    mkdir = {"command": "mkdir made"}
    refused = permission_step(None, rules, "Bash", mkdir, PLACE, "default", trusted=False)
    assert refused.decision == "ask"
    assert any("not applied, the folder is not trusted" in line for line in refused.considered)


def test_a_disallowed_tool_is_removed_and_glob_is_offered_then() -> None:
    """hidden-flag-disallowed-tools, flag-disallowed-bash-offers-glob."""
    rules = command_line_rules((), ["Bash"])
    removed = refused_before_hooks(rules, "Bash", {"command": "echo hi"}, PLACE)
    assert removed is not None
    assert removed.result == permission_facts().refusal("no_such_tool", tool="Bash")
    assert removed.why == 'the deny rule "Bash" given by --disallowedTools removes the tool'
    assert refused_before_hooks(rules, "Glob", {"pattern": "*"}, PLACE) is None
    offered = refused_before_hooks((), "Glob", {"pattern": "*"}, PLACE)
    assert offered is not None and "not available in this session" in offered.result


def test_a_disallowed_rule_with_a_specifier_denies_after_the_hooks() -> None:
    """flag-disallowed-specifier."""
    rules = command_line_rules((), ["Bash(rm *)"])
    command = {"command": "rm -f gone.txt"}
    assert refused_before_hooks(rules, "Bash", command, PLACE) is None
    step = permission_step("allow", rules, "Bash", command, PLACE, "bypassPermissions")
    assert step.decision == "deny"
    assert step.refusal == permission_facts().refusal(
        "deny_rule_command", tool="Bash", command="rm -f gone.txt"
    )


AGENT = {"description": "look", "prompt": "Say hi", "subagent_type": "general-purpose"}


@pytest.mark.parametrize(
    ("mode", "decision"),
    [
        ("default", "allow"),
        ("dontAsk", "allow"),
        ("acceptEdits", "allow"),
        ("plan", "deny"),
        ("auto", "classifier"),
    ],
)
def test_the_agent_tool_needs_no_rule_but_in_plan_and_auto_mode(mode: str, decision: str) -> None:
    """hidden-subagent-stop, flag-agent-dont-ask, flag-agent-plan-mode."""
    step = permission_step(None, (), "Agent", AGENT, PLACE, mode)
    assert step.decision == decision
    if mode == "plan":
        assert step.refusal == permission_facts().refusal("plan", tool="Agent")


def test_rules_still_hold_for_the_agent_tool() -> None:
    rule = PermissionEntry(
        "ask", command_line_rules(["Agent"])[0].rule, Origin(SettingsSource.USER, "u", ())
    )
    assert permission_step(None, (rule,), "Agent", AGENT, PLACE, "default").decision == "ask"
    removed = refused_before_hooks(command_line_rules((), ["Agent"]), "Agent", AGENT, PLACE)
    assert removed is not None


def _stop_outcome(event: str, stdout: str) -> Any:
    spec = event_spec(event)
    reading = read_hook_result(spec, HookRun("command", 0, stdout, "", False, None))
    payload = {"hook_event_name": event, "stop_hook_active": False}
    return spec, payload, merge_readings(spec, [reading], payload)


def test_the_last_turn_ends_a_stop_continuation_with_max_turns() -> None:
    """hidden-flag-max-turns: the block's feedback is never sent."""
    spec, payload, outcome = _stop_outcome("Stop", '{"decision":"block","reason":"again"}')
    going = print_mode(spec, payload, outcome)
    assert (going.turn_continues, going.run_stops, going.terminal_reason) == (True, False, None)
    ended = print_mode(spec, payload, outcome, last_turn=True)
    assert (ended.turn_continues, ended.run_stops, ended.terminal_reason) == (
        False,
        True,
        "max_turns",
    )
    assert ended.stop_feedback is None and ended.system_reminders == ()
    _, _, quiet = _stop_outcome("Stop", "")
    assert print_mode(spec, payload, quiet, last_turn=True).terminal_reason is None


def test_the_last_turn_ends_the_run_after_a_tool_batch() -> None:
    """flag-max-turns-after-tools: the batch's hooks run, no Stop follows."""
    spec, payload, outcome = _stop_outcome("PostToolBatch", "")
    assert print_mode(spec, payload, outcome).run_stops is False
    ended = print_mode(spec, payload, outcome, last_turn=True)
    assert (ended.run_stops, ended.terminal_reason) == (True, "max_turns")


# --- through the command line (in this process: each fire would cost a second) ---------


def _fire(
    project: Project, monkeypatch: pytest.MonkeyPatch, capsys: Any, *argv: str
) -> tuple[int, str, str]:
    """``hookcourse fire ... --json`` run by ``cli.main`` with the project's home."""
    monkeypatch.setenv("HOME", str(project.home))
    for name in (
        "CLAUDE_PROJECT_DIR",
        "HOOKCOURSE_MANAGED_SETTINGS",
        "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP",
    ):
        monkeypatch.delenv(name, raising=False)
    capsys.readouterr()
    status = main(["fire", *argv, "--project-dir", str(project.dir), "--json"])
    out, err = capsys.readouterr()
    return status, out, err


def test_fire_takes_the_flags_in_both_spellings(
    project: Project, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    project.hooks("PreToolUse", {"type": "command", "command": "true"}, matcher="*")
    call = str(project.bash_call("touch a.txt && mkdir b"))
    rules = ("--allowedTools", "Bash(touch *),Read", "--allowed-tools", "Bash(mkdir *)")
    status, out, err = _fire(project, monkeypatch, capsys, "PreToolUse", "--payload", call, *rules)
    report = json.loads(out)
    assert status == 0, err
    assert report["printMode"]["toolRuns"] is True
    assert report["permission"]["ruleFile"] == "--allowedTools"
    status, out, _ = _fire(
        project,
        monkeypatch,
        capsys,
        "PreToolUse",
        "--payload",
        call,
        "--disallowed-tools",
        "Read",
        "Bash",
    )
    removed = json.loads(out)
    assert status == 2 and removed["hooks"] == []
    assert removed["printMode"]["toolResult"]["text"].startswith(
        "<tool_use_error>Error: No such tool available: Bash."
    )


def test_fire_max_turns_ends_a_blocked_stop(
    project: Project, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    script = project.script("again.sh", """echo '{"decision":"block","reason":"again"}'""")
    project.hooks("Stop", {"type": "command", "command": str(script)})
    stop = str(project.payload("Stop", stop_hook_active=False, last_assistant_message="one"))

    def mode(*extra: str) -> dict[str, Any]:
        _, out, _ = _fire(project, monkeypatch, capsys, "Stop", "--payload", stop, *extra)
        shown: dict[str, Any] = json.loads(out)["printMode"]
        return shown

    assert mode("--max-turns", "2", "--turn", "1")["turnContinues"] is True
    last = mode("--max-turns", "2", "--turn", "2")
    assert (last["turnContinues"], last["terminalReason"]) == (False, "max_turns")
    assert mode("--max-turns", "0", "--turn", "9")["turnContinues"] is True


@pytest.mark.parametrize(
    ("extra", "where"),
    [
        (("--max-turns", "-1"), "--max-turns"),
        (("--turn", "0"), "--turn"),
        (("--allowedTools", "Bash(x"), "--allowedTools"),
    ],
)
def test_fire_refuses_bad_flag_values_in_one_line(
    project: Project,
    monkeypatch: pytest.MonkeyPatch,
    capsys: Any,
    extra: tuple[str, ...],
    where: str,
) -> None:
    call = str(project.bash_call("ls"))
    status, out, err = _fire(project, monkeypatch, capsys, "PreToolUse", "--payload", call, *extra)
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and where in err and "Traceback" not in err


def test_skip_permissions_is_bypass_mode_over_permission_mode(project: Project) -> None:
    """flag-skip-permissions: the hooks see bypassPermissions (a real ``fire`` process)."""
    dump = project.scratch / "seen.json"
    project.hooks("PreToolUse", {"type": "command", "command": f"cat > {dump}"}, matcher="*")
    fired = project.fire(
        "PreToolUse",
        project.bash_call("touch a.txt"),
        "--permission-mode",
        "plan",
        "--dangerously-skip-permissions",
    )
    assert fired.report["permission"]["mode"] == "bypassPermissions"
    assert fired.report["printMode"]["toolRuns"] is True
    assert json.loads(dump.read_text())["permission_mode"] == "bypassPermissions"


def test_a_legacy_tool_name_in_a_rule_names_the_current_tool() -> None:
    """flag-disallowed-legacy-name: --disallowedTools Task removes Agent."""
    (entry,) = command_line_rules((), ["Task"])
    assert str(entry.rule) == "Agent"
    removed = refused_before_hooks((entry,), "Agent", AGENT, PLACE)
    assert removed is not None and "No such tool available: Agent." in removed.result
    assert str(command_line_rules(["KillBash(x)"])[0].rule) == "TaskStop(x)"
