"""What hooks receive and what prompt hooks do, as the reference describes (§5, §7a)."""

from __future__ import annotations

import os
from typing import Any

import pytest

Project = Any
OK_FALSE = 'echo \'{"ok": false, "reason": "not safe"}\''


@pytest.mark.parametrize(("continue_on_block", "turn_ends"), [(False, True), (True, False)])
def test_continue_on_block_on_a_prompt_hook(
    project: Project, continue_on_block: bool, turn_ends: bool
) -> None:
    """§5: PreToolUse ok:false ends the turn by default; with continueOnBlock it does not."""
    project.hooks(
        "PreToolUse",
        {"type": "prompt", "prompt": "Safe?", "continueOnBlock": continue_on_block},
        matcher="Bash",
    )
    fired = project.fire("PreToolUse", project.bash_call("ls"), "--evaluator", OK_FALSE)
    assert fired.outcome["decision"] == "deny"
    assert fired.outcome["continue"] is not turn_ends


def test_an_agent_hook_always_behaves_as_if_continue_on_block(project: Project) -> None:
    """§5: Agent hooks always behave as if continueOnBlock were true."""
    project.hooks("PreToolUse", {"type": "agent", "prompt": "Safe?"}, matcher="Bash")
    fired = project.fire("PreToolUse", project.bash_call("ls"), "--evaluator", OK_FALSE)
    assert (fired.outcome["decision"], fired.outcome["continue"]) == ("deny", True)


ENV_FILE_EVENTS = {
    "SessionStart": {"source": "startup"},
    "Setup": {"trigger": "init"},
    "CwdChanged": {"old_cwd": "/a", "new_cwd": "/b"},
    "FileChanged": {"file_path": "/p/.env", "event": "change"},
}


@pytest.mark.parametrize("event", sorted(ENV_FILE_EVENTS))
def test_claude_env_file_is_a_real_file_and_the_report_shows_its_exports(
    project: Project, event: str
) -> None:
    """§7a: CLAUDE_ENV_FILE is available to SessionStart, Setup, CwdChanged and FileChanged."""
    body = (
        'test -f "$CLAUDE_ENV_FILE" || exit 3\n'
        "echo 'export NODE_ENV=production' >> \"$CLAUDE_ENV_FILE\"\n"
        'echo \'export GREETING="hello world" PATH_EXTRA=/opt/bin\' >> "$CLAUDE_ENV_FILE"\n'
        "echo 'source ~/.nvm/nvm.sh' >> \"$CLAUDE_ENV_FILE\"\n"
        'echo "$CLAUDE_ENV_FILE" >&2'
    )
    project.hooks(event, {"type": "command", "command": str(project.script("env.sh", body))})
    fired = project.fire(event, project.payload(event, **ENV_FILE_EVENTS[event]))
    (hook,) = fired.hooks
    assert hook["exitCode"] == 0, hook["stderr"]
    written = fired.report["envFile"]
    assert written["variables"] == {
        "NODE_ENV": "production",
        "GREETING": "hello world",
        "PATH_EXTRA": "/opt/bin",
    }
    assert written["otherLines"] == ["source ~/.nvm/nvm.sh"]
    text = project.fire(event, project.payload(event, **ENV_FILE_EVENTS[event]), json_out=False)
    assert 'GREETING="hello world"' in text.stdout
    path = hook["stderr"].strip()
    assert path and not os.path.exists(path)


def test_other_events_get_no_env_file(project: Project) -> None:
    project.hooks("Stop", {"type": "command", "command": 'echo "[${CLAUDE_ENV_FILE-unset}]"'})
    fired = project.fire("Stop", project.payload("Stop", stop_hook_active=False))
    assert fired.hooks[0]["stdout"] == "[unset]\n"
    assert fired.report["envFile"] is None


def test_documented_environment_variables(project: Project) -> None:
    """§7a: CLAUDECODE, CLAUDE_CODE_CHILD_SESSION, CLAUDE_PID, session id; OTEL_* removed."""
    names = [
        "CLAUDECODE",
        "CLAUDE_CODE_CHILD_SESSION",
        "CLAUDE_CODE_SESSION_ID",
        "CLAUDE_PROJECT_DIR",
        "OTEL_EXPORTER_OTLP_ENDPOINT",
    ]
    body = " ".join(f'"{name}=${{{name}-unset}}"' for name in names)
    project.hooks(
        "Stop", {"type": "command", "command": f"printf '%s\\n' {body}; echo $CLAUDE_PID"}
    )
    fired = project.fire(
        "Stop",
        project.payload("Stop", stop_hook_active=False),
        OTEL_EXPORTER_OTLP_ENDPOINT="http://collector",
    )
    lines = fired.hooks[0]["stdout"].splitlines()
    assert lines[:5] == [
        "CLAUDECODE=1",
        "CLAUDE_CODE_CHILD_SESSION=1",
        "CLAUDE_CODE_SESSION_ID=sess-42",
        f"CLAUDE_PROJECT_DIR={project.dir}",
        "OTEL_EXPORTER_OTLP_ENDPOINT=unset",
    ]
    assert lines[5].isdigit()


def test_shell_prefix_wraps_shell_form_only(project: Project) -> None:
    """§7a: CLAUDE_CODE_SHELL_PREFIX wraps shell-form commands but not exec-form ones."""
    prefix = project.script("prefix.sh", 'echo "prefixed: $1"')
    project.hooks(
        "Stop",
        {"type": "command", "command": "echo shell"},
        {"type": "command", "command": "/bin/echo", "args": ["exec"]},
    )
    fired = project.fire(
        "Stop",
        project.payload("Stop", stop_hook_active=False),
        CLAUDE_CODE_SHELL_PREFIX=str(prefix),
    )
    assert sorted(hook["stdout"] for hook in fired.hooks) == ["exec\n", "prefixed: echo shell\n"]
