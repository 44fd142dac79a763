"""`hookcourse fire` through its CLI contract, with real hook scripts."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.paths import ROOT as REPO
from tests.support.processes import alive

GUARD = REPO / "fixtures" / "force-push-guard"
HOOKCOURSE = [sys.executable, "-m", "hookcourse"]
Project = Any


def command(text: str, **fields: Any) -> dict[str, Any]:
    return {"type": "command", "command": text, **fields}


def groups(event: str, *entries: tuple[str | None, list[dict[str, Any]]]) -> dict[str, Any]:
    """A settings document: ``event`` with one matcher group per (matcher, handlers) entry."""
    built = []
    for matcher, handlers in entries:
        group: dict[str, Any] = {"hooks": handlers}
        if matcher is not None:
            group["matcher"] = matcher
        built.append(group)
    return {"hooks": {event: built}}


def copy_guard(project: Project) -> None:
    shutil.copy2(GUARD / ".claude/hooks/no-force-push.sh", project.dir / ".claude/hooks")


@pytest.mark.parametrize(("payload", "status"), [("force-push.json", 2), ("push.json", 0)])
def test_seed_002_force_push_guard(project: Project, payload: str, status: int) -> None:
    copy_guard(project)
    fired = project.fire("PreToolUse", GUARD / payload, "--settings", str(GUARD / "settings.json"))
    assert fired.returncode == status, fired.stderr
    (hook,) = fired.hooks
    assert hook["exitCode"] == status
    assert hook["argv"] == [str(project.dir / ".claude/hooks/no-force-push.sh")]
    if status == 2:
        assert fired.outcome["blocked"] is True
        assert fired.outcome["decision"] == "deny"
        assert fired.outcome["reason"] == "Blocked: no force-push from Claude"
    else:
        assert fired.outcome["blocked"] is False
        assert fired.outcome["decision"] is None


def test_seed_002_from_the_fixture_project_itself_in_human_form(project: Project) -> None:
    argv = [*HOOKCOURSE, "fire", "PreToolUse", "--payload", "-"]
    argv += ["--settings", str(GUARD / "settings.json"), "--project-dir", str(GUARD)]
    fired = project.cli(argv, stdin=(GUARD / "force-push.json").read_text())
    assert fired.returncode == 2
    assert "exit 2" in fired.stdout
    assert "reason: Blocked: no force-push from Claude" in fired.stdout
    assert 'matcher "Bash": matched [exact]' in fired.stdout


def json_hook(project: Project, name: str, output: dict[str, object], delay: float = 0) -> str:
    """A Python hook that waits ``delay`` seconds, then prints ``output`` as JSON."""
    body = f"import json, sys, time\nsys.stdin.read()\ntime.sleep({delay})\n"
    body += f"print(json.dumps({output!r}))"
    return str(project.script(name, body, python=True))


def decision(word: str, reason: str = "") -> dict[str, object]:
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": word,
            "permissionDecisionReason": reason or word,
        }
    }


@pytest.mark.parametrize(
    ("words", "winner", "status"),
    [
        (["allow", "deny", "ask"], "deny", 2),
        (["allow", "ask", "defer"], "defer", 0),
        (["allow", "ask"], "ask", 0),
        (["allow"], "allow", 0),
    ],
)
def test_precedence_deny_defer_ask_allow(
    project: Project, words: list[str], winner: str, status: int
) -> None:
    handlers = [command(json_hook(project, f"{w}.py", decision(w))) for w in words]
    project.hooks("PreToolUse", *handlers, matcher="Bash")
    fired = project.fire("PreToolUse", project.bash_call("ls"))
    assert fired.returncode == status
    assert fired.outcome["decision"] == winner
    assert fired.outcome["reason"] == winner
    assert len(fired.hooks) == len(words)


def test_exit_codes_one_is_not_a_block_two_is(project: Project) -> None:
    one = project.script("one.sh", "echo 'policy says no' >&2; exit 1")
    project.hooks("PreToolUse", command(str(one)), matcher="Bash")
    fired = project.fire("PreToolUse", project.bash_call("rm -rf build"))
    assert fired.returncode == 0
    assert fired.hooks[0]["exitCode"] == 1
    assert fired.hooks[0]["classification"] == "non-blocking error"
    two = project.script("two.sh", "echo 'policy says no' >&2; exit 2")
    project.hooks("PreToolUse", command(str(two)), matcher="Bash")
    fired = project.fire("PreToolUse", project.bash_call("rm -rf build"))
    assert fired.returncode == 2
    assert fired.outcome["reason"] == "policy says no"


def test_exit_two_on_an_event_that_cannot_block_goes_ahead(project: Project) -> None:
    two = project.script("two.sh", "echo nope >&2; exit 2")
    project.hooks("Notification", command(str(two)))
    payload = project.payload("Notification", message="hi", notification_type="idle_prompt")
    fired = project.fire("Notification", payload)
    assert fired.returncode == 0
    assert fired.outcome["blocked"] is False


def test_every_additional_context_is_kept(project: Project) -> None:
    contexts = ["lint passed", "tests passed"]
    handlers = [
        command(
            json_hook(
                project,
                f"ctx{i}.py",
                {"hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": c}},
            )
        )
        for i, c in enumerate(contexts)
    ]
    project.hooks("PreToolUse", *handlers)
    fired = project.fire("PreToolUse", project.bash_call("ls"))
    assert sorted(fired.outcome["additionalContext"]) == contexts


def test_updated_input_last_to_finish_wins_and_the_conflict_is_reported(project: Project) -> None:
    def rewrite(name: str, new: str, delay: float) -> dict[str, object]:
        output = {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "allow",
                "updatedInput": {"command": new},
            }
        }
        return command(json_hook(project, name, output, delay))

    # The slow one is listed first and finishes last.
    project.hooks(
        "PreToolUse", rewrite("slow.py", "echo slow", 1.5), rewrite("fast.py", "echo fast", 0)
    )
    fired = project.fire("PreToolUse", project.bash_call("ls"))
    assert fired.returncode == 0
    assert fired.outcome["updatedInput"] == {"command": "echo slow"}
    assert [h["finishOrder"] for h in fired.hooks] == [1, 0]
    assert fired.outcome["conflicts"]


def test_continue_false_lets_the_tool_run_then_stops_the_run(project: Project) -> None:
    # Claude Code 2.1.332: the call still runs, then the run ends (hook_stopped).
    output = {**decision("allow"), "continue": False, "stopReason": "out of budget"}
    project.hooks("PreToolUse", command(json_hook(project, "stop.py", output)))
    fired = project.fire("PreToolUse", project.bash_call("ls"))
    assert fired.returncode == 0
    assert fired.outcome["continue"] is False
    assert fired.outcome["stopReason"] == "out of budget"
    mode = fired.report["printMode"]
    assert (mode["toolRuns"], mode["runStops"], mode["terminalReason"]) == (
        True,
        True,
        "hook_stopped",
    )


def marker_hook(project: Project, name: str) -> dict[str, object]:
    """A hook that records that it ran (its stdin, environment and directory)."""
    record = project.scratch / f"{name}.ran"
    body = (
        f'cat > "{record}.stdin"\n'
        f'{{ echo "PROJECT=$CLAUDE_PROJECT_DIR"; echo "SESSION=$CLAUDE_CODE_SESSION_ID"; '
        f'echo "CLAUDECODE=$CLAUDECODE"; echo "PWD=$PWD"; }} > "{record}"'
    )
    return command(str(project.script(f"{name}.sh", body)))


def ran(project: Project, name: str) -> bool:
    return (project.scratch / f"{name}.ran").exists()


@pytest.mark.parametrize(
    ("matcher", "tool", "expected"),
    [
        ("Bash", "Bash", True),
        ("Bash", "BashOutput", False),
        ("Edit|Write", "Write", True),
        ("Edit, Write", "Write", True),
        ("Edit|Write", "NotebookEdit", False),
        ("Edit.*", "NotebookEdit", True),
        ("^Edit$", "NotebookEdit", False),
        ("mcp__memory", "mcp__memory__create", False),
        ("mcp__memory__.*", "mcp__memory__create", True),
        ("*", "Anything", True),
        ("Bash(git *)", "Bash", False),
    ],
)
def test_matcher_rules_on_tool_name(
    project: Project, matcher: str, tool: str, expected: bool
) -> None:
    project.hooks("PreToolUse", marker_hook(project, "m"), matcher=matcher)
    payload = project.payload("PreToolUse", tool_name=tool, tool_input={}, tool_use_id="t")
    fired = project.fire("PreToolUse", payload)
    assert ran(project, "m") is expected
    (group,) = fired.report["groups"]
    assert group["matched"] is expected


def test_hyphen_is_exact_under_claude_code_but_regex_on_file_changed(project: Project) -> None:
    project.hooks("SubagentStart", marker_hook(project, "agent"), matcher="code-reviewer")
    payload = project.payload("SubagentStart", agent_id="a1", agent_type="senior-code-reviewer")
    fired = project.fire("SubagentStart", payload)
    assert fired.report["groups"][0]["branch"] == "exact"
    assert not ran(project, "agent")
    project.hooks("FileChanged", marker_hook(project, "file"), matcher="package-lock")
    changed = project.payload(
        "FileChanged", file_path=str(project.dir / "my-package-lock.json"), event="change"
    )
    fired = project.fire("FileChanged", changed)
    assert fired.report["groups"][0]["branch"] == "regex"
    assert fired.report["matcher"]["value"] == "my-package-lock.json"
    assert ran(project, "file")


def test_matcher_is_ignored_on_events_without_matcher_support(project: Project) -> None:
    project.hooks("Stop", marker_hook(project, "stop"), matcher="NeverMatches")
    fired = project.fire("Stop", project.payload("Stop", stop_hook_active=False))
    assert ran(project, "stop")
    assert fired.report["groups"][0]["branch"] == "ignored"


def test_handler_types_the_event_does_not_accept_never_run(project: Project) -> None:
    project.settings(
        groups(
            "SessionStart", (None, [{"type": "prompt", "prompt": "x"}, marker_hook(project, "c")])
        )
    )
    fired = project.fire("SessionStart", project.payload("SessionStart", source="startup"))
    assert [h["type"] for h in fired.hooks] == ["command"]
    skipped = fired.report["groups"][0]["handlers"][0]
    assert skipped["runs"] is False
    assert "does not run prompt hooks" in skipped["skippedBecause"]


@pytest.mark.parametrize(("call", "expected"), [("git push origin main", True), ("ls -la", False)])
def test_if_field_selects_calls_on_tool_events(project: Project, call: str, expected: bool) -> None:
    project.hooks(
        "PreToolUse", {**marker_hook(project, "git"), "if": "Bash(git *)"}, matcher="Bash"
    )
    fired = project.fire("PreToolUse", project.bash_call(call))
    assert ran(project, "git") is expected
    assert len(fired.hooks) == int(expected)


def test_if_field_on_a_non_tool_event_never_runs(project: Project) -> None:
    project.hooks("Stop", {**marker_hook(project, "stop"), "if": "Bash"})
    fired = project.fire("Stop", project.payload("Stop", stop_hook_active=False))
    assert not ran(project, "stop")
    assert "never runs" in fired.report["groups"][0]["handlers"][0]["skippedBecause"]


def test_exec_form_passes_each_arg_whole_with_no_shell(project: Project) -> None:
    printer = project.script(
        "args.py", "import json, sys\nprint(json.dumps(sys.argv[1:]), file=sys.stderr)", python=True
    )
    args = ["${CLAUDE_PROJECT_DIR}/a b", "$HOME", "; echo injected"]
    project.hooks("Stop", command(str(printer), args=args))
    fired = project.fire("Stop", project.payload("Stop", stop_hook_active=False))
    (hook,) = fired.hooks
    assert json.loads(hook["stderr"]) == [f"{project.dir}/a b", "$HOME", "; echo injected"]


def test_shell_form_goes_through_sh(project: Project) -> None:
    project.hooks("Stop", command('echo "$HOME" | tr a-z A-Z >&2; false'))
    fired = project.fire("Stop", project.payload("Stop", stop_hook_active=False))
    (hook,) = fired.hooks
    assert hook["argv"][:2] == ["/bin/sh", "-c"]
    assert hook["stderr"] == str(project.home).upper() + "\n"
    assert hook["exitCode"] == 1


def test_placeholders_environment_stdin_and_cwd(project: Project) -> None:
    project.hooks("PreToolUse", marker_hook(project, "env"))
    payload = project.bash_call("ls")
    project.fire("PreToolUse", payload)
    record = (project.scratch / "env.ran").read_text().splitlines()
    assert record == [
        f"PROJECT={project.dir}",
        "SESSION=sess-42",
        "CLAUDECODE=1",
        f"PWD={project.dir}",
    ]
    sent = json.loads((project.scratch / "env.ran.stdin").read_text())
    assert sent == json.loads(payload.read_text())


def test_hooks_run_in_parallel(project: Project) -> None:
    """Each hook waits until every hook has started; run one at a time they would all fail."""
    count = 4
    marks = project.scratch / "marks"
    marks.mkdir()
    body = f"""
touch "{marks}/$1"
for _ in $(seq 100); do
  [ "$(ls "{marks}" | wc -l)" -ge {count} ] && exit 0
  sleep 0.1
done
echo "only $(ls "{marks}" | wc -l) hooks had started" >&2
exit 1
"""
    rendezvous = project.script("rendezvous.sh", body)
    project.hooks("Stop", *(command(str(rendezvous), args=[str(i)]) for i in range(count)))
    fired = project.fire("Stop", project.payload("Stop", stop_hook_active=False))
    assert [h["exitCode"] for h in fired.hooks] == [0] * count, fired.hooks


def test_timeout_kills_the_process_group_and_drops_output(project: Project) -> None:
    pid_file = project.scratch / "grandchild.pid"
    body = f'echo started; echo on-stderr >&2; sleep 60 & echo $! > "{pid_file}"; sleep 60'
    slow = project.script("slow.sh", body)
    project.hooks("PreToolUse", command(str(slow), timeout=3), matcher="Bash")
    fired = project.fire("PreToolUse", project.bash_call("rm -rf /"))
    assert fired.returncode == 0, "a timed-out PreToolUse hook does not block"
    (hook,) = fired.hooks
    assert hook["timedOut"] is True
    assert hook["exitCode"] is None
    assert (hook["stdout"], hook["stderr"]) == ("", "")
    assert not alive(int(pid_file.read_text()))


def test_default_timeouts_by_type_and_event(project: Project) -> None:
    project.settings(
        groups("UserPromptSubmit", (None, [command("true"), {"type": "prompt", "prompt": "ok?"}]))
    )
    fired = project.fire("UserPromptSubmit", project.payload("UserPromptSubmit", prompt="hi"))
    assert [h["timeoutSeconds"] for h in fired.hooks] == [30, 30]
    project.hooks("Stop", command("true"), {"type": "agent", "prompt": "done?"})
    fired = project.fire("Stop", project.payload("Stop", stop_hook_active=False))
    assert [h["timeoutSeconds"] for h in fired.hooks] == [600, 60]


def test_session_end_hooks_share_one_budget(project: Project) -> None:
    project.hooks("SessionEnd", command("true"), command("true ", timeout=5))
    fired = project.fire("SessionEnd", project.payload("SessionEnd", reason="other"))
    assert [h["timeoutSeconds"] for h in fired.hooks] == [5, 5]


def test_output_past_the_cap_is_cut_and_the_report_says_so(project: Project) -> None:
    """Reference §3a: Claude Code reads all of stdout; past hookcourse's cap it cannot."""
    project.hooks("Stop", command("head -c 17000000 /dev/zero | tr '\\0' x"))
    fired = project.fire("Stop", project.payload("Stop", stop_hook_active=False))
    (hook,) = fired.hooks
    assert len(hook["stdout"]) == 16 * 1_048_576
    assert hook["truncated"] == ["stdout"]
    assert hook["classification"] == "output cut"
    assert "could not be read" in hook["how"]


def test_a_json_answer_of_several_mebibytes_is_read(project: Project) -> None:
    """Reference §3a: stdout starting with { is parsed whole; the old 1 MiB cap lost this deny."""
    answer = decision("deny", "too big to lose")
    answer["hookSpecificOutput"]["additionalContext"] = "x" * 3_000_000  # type: ignore[index]
    project.hooks("PreToolUse", command(json_hook(project, "big.py", answer)), matcher="Bash")
    fired = project.fire("PreToolUse", project.bash_call("ls"))
    assert fired.returncode == 2, fired.stderr
    assert fired.outcome["decision"] == "deny"
    assert fired.hooks[0]["truncated"] == []


def test_a_hook_that_never_reads_stdin_does_not_deadlock(project: Project) -> None:
    project.hooks("Stop", command("echo done", timeout=60))
    big = project.payload("Stop", stop_hook_active=False, last_assistant_message="x" * 2_000_000)
    fired = project.fire("Stop", big)
    (hook,) = fired.hooks
    assert (hook["timedOut"], hook["exitCode"], hook["stdout"]) == (False, 0, "done\n")


def test_a_hook_that_cannot_start_is_a_non_blocking_error(project: Project) -> None:
    project.hooks("PreToolUse", command(str(project.dir / "missing.sh"), args=[]))
    fired = project.fire("PreToolUse", project.bash_call("ls"))
    assert fired.returncode == 0
    (hook,) = fired.hooks
    assert "No such file or directory" in hook["startError"]
    assert hook["classification"] == "could not start"


def test_identical_handlers_across_files_run_once(project: Project) -> None:
    counter = project.script("count.sh", f'echo x >> "{project.scratch}/count"')
    project.hooks("Stop", command(str(counter)))
    project.settings(groups("Stop", ("*", [command(str(counter))])), "user")
    project.settings(groups("Stop", (None, [command(str(counter), args=["other"])])), "local")
    fired = project.fire("Stop", project.payload("Stop", stop_hook_active=False))
    assert (project.scratch / "count").read_text() == "x\nx\n"
    assert len(fired.hooks) == 2
    skipped = [h for g in fired.report["groups"] for h in g["handlers"] if not h["runs"]]
    assert "runs once" in skipped[0]["skippedBecause"]


def test_disable_all_hooks_for_one_run_and_managed_hooks(project: Project) -> None:
    project.hooks("Stop", marker_hook(project, "project"))
    managed = project.settings(
        groups("Stop", (None, [marker_hook(project, "managed")])), "managed.json"
    )
    off = '{"disableAllHooks": true}'
    fired = project.fire(
        "Stop",
        project.payload("Stop", stop_hook_active=False),
        "--settings",
        off,
        "--managed-settings",
        str(managed),
    )
    assert not ran(project, "project")
    assert ran(project, "managed")
    assert "only managed hooks run" in fired.report["settings"]["notes"][0]


def test_managed_settings_from_the_environment(project: Project) -> None:
    managed = project.settings(
        {"allowManagedHooksOnly": True, **groups("Stop", (None, [marker_hook(project, "m")]))},
        "managed.json",
    )
    project.hooks("Stop", marker_hook(project, "p"))
    payload = project.payload("Stop", stop_hook_active=False)
    project.fire("Stop", payload, HOOKCOURSE_MANAGED_SETTINGS=str(managed))
    assert (ran(project, "m"), ran(project, "p")) == (True, False)


def test_stop_block_keeps_claude_going_until_the_cap(project: Project) -> None:
    project.hooks("Stop", command("echo 'finish the tests first' >&2; exit 2"))
    payload = project.payload("Stop", stop_hook_active=True)
    fired = project.fire("Stop", payload, "--stop-blocks", "3")
    assert fired.returncode == 2
    assert fired.outcome["decision"] == "block"
    assert fired.outcome["reason"] == "finish the tests first"
    assert fired.outcome["stopHookActive"] is True
    capped = project.fire("Stop", payload, "--stop-blocks", "8")
    assert capped.returncode == 0
    assert capped.outcome["blocked"] is False
    from_env = project.fire(
        "Stop", payload, "--stop-blocks", "8", CLAUDE_CODE_STOP_HOOK_BLOCK_CAP="0"
    )
    assert from_env.returncode == 2


def test_http_hook_is_a_real_post(project: Project, hook_server: Any) -> None:
    deny = json.dumps(decision("deny", "the server says no"))
    url = hook_server.answer("/guard", 200, deny)
    handler = {
        "type": "http",
        "url": url,
        "headers": {"Authorization": "Bearer $TOKEN", "X-Leak": "${SECRET}!"},
        "allowedEnvVars": ["TOKEN"],
    }
    project.hooks("PreToolUse", handler, matcher="Bash")
    payload = project.bash_call("git push --force")
    fired = project.fire("PreToolUse", payload, TOKEN="t0k", SECRET="s3cret")
    assert fired.returncode == 2
    assert fired.outcome["reason"] == "the server says no"
    (request,) = hook_server.received
    assert json.loads(request.body) == json.loads(payload.read_text())
    assert request.headers["Authorization"] == "Bearer t0k"
    assert request.headers["X-Leak"] == "!"
    assert request.headers["Content-Type"] == "application/json"


@pytest.mark.parametrize(
    ("status", "body", "classification"),
    [
        (500, "", "non-blocking error"),
        (200, "", "success"),
        (200, "not json", "non-blocking error"),
    ],
)
def test_http_status_alone_cannot_block(
    project: Project, hook_server: Any, status: int, body: str, classification: str
) -> None:
    url = hook_server.answer("/h", status, body)
    project.hooks("PreToolUse", {"type": "http", "url": url})
    fired = project.fire("PreToolUse", project.bash_call("ls"))
    assert fired.returncode == 0
    (hook,) = fired.hooks
    assert (hook["httpStatus"], hook["classification"]) == (status, classification)


def test_http_hook_that_cannot_connect_is_non_blocking(project: Project) -> None:
    project.hooks("PreToolUse", {"type": "http", "url": "http://127.0.0.1:9/nothing", "timeout": 5})
    fired = project.fire("PreToolUse", project.bash_call("ls"))
    assert fired.returncode == 0
    # Node's wording, as 2.1.332 shows it after "onFailure is \"block\"".
    assert fired.hooks[0]["startError"] == "connect ECONNREFUSED 127.0.0.1:9"


def test_prompt_hook_without_an_evaluator_says_so(project: Project) -> None:
    project.hooks("Stop", {"type": "prompt", "prompt": "Is the work done? $ARGUMENTS"})
    fired = project.fire("Stop", project.payload("Stop", stop_hook_active=False))
    assert fired.returncode == 0
    (hook,) = fired.hooks
    assert hook["evaluatorMissing"] is True
    assert hook["evaluator"] is None
    assert "no evaluator" in hook["how"]


def test_prompt_hook_with_a_command_evaluator(project: Project) -> None:
    seen = project.scratch / "prompt.txt"
    evaluator = f'cat > "{seen}"; echo \'{{"ok": false, "reason": "tests are red"}}\''
    project.hooks("Stop", {"type": "prompt", "prompt": "Done? $ARGUMENTS", "model": "haiku"})
    payload = project.payload("Stop", stop_hook_active=False)
    fired = project.fire("Stop", payload, "--evaluator", evaluator)
    assert fired.returncode == 2
    assert fired.outcome["reason"] == "tests are red"
    prompt = seen.read_text()
    assert prompt.startswith("Done? {")
    assert json.loads(prompt[len("Done? ") :]) == json.loads(payload.read_text())


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["fire", "PreToolUs", "--payload", "-"], "did you mean PreToolUse?"),
        (["fire", "Stop"], "--payload"),
        (["fire", "Stop", "--payload", "/nonexistent/p.json"], "/nonexistent/p.json"),
        (["events", "Nope"], "is not a hook event"),
    ],
)
def test_bad_input_exits_1_with_one_line(project: Project, argv: list[str], expected: str) -> None:
    fired = project.cli([*HOOKCOURSE, *argv], stdin="{}")
    assert fired.returncode == 1
    assert expected in fired.stderr
    assert len(fired.stderr.strip().splitlines()) == 1
    assert "Traceback" not in fired.stderr


@pytest.mark.parametrize(
    ("payload_text", "expected"),
    [("{not json", "not valid JSON"), ("[1]", "not a JSON object")],
)
def test_bad_payload_exits_1(project: Project, payload_text: str, expected: str) -> None:
    path = project.scratch / "bad.json"
    path.write_text(payload_text)
    fired = project.fire("Stop", path)
    assert fired.returncode == 1
    assert expected in fired.stderr
    assert str(path) in fired.stderr


def test_a_project_settings_file_that_is_not_json_is_skipped_with_a_warning(
    project: Project,
) -> None:
    # Claude Code 2.1.332 skips the file; the local file's hooks still run.
    path = project.dir / ".claude" / "settings.json"
    path.write_text('{"hooks": {"Stop": [}')
    local = project.dir / ".claude" / "settings.local.json"
    local.write_text('{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "exit 2"}]}]}}')
    fired = project.fire("Stop", project.payload("Stop", stop_hook_active=False), json_out=False)
    assert fired.returncode == 2
    assert fired.stderr.startswith(f"hookcourse: warning: {path}: not valid JSON")
    assert "checked against Claude Code 2.1.332" in fired.stdout


def test_a_settings_flag_file_that_is_not_json_exits_1_naming_it(project: Project) -> None:
    path = project.dir / "extra.json"
    path.write_text('{"hooks": {"Stop": [}')
    payload = project.payload("Stop", stop_hook_active=False)
    fired = project.fire("Stop", payload, "--settings", str(path))
    assert fired.returncode == 1
    assert fired.stderr.startswith(f"hookcourse: {path}: not valid JSON")


def test_malformed_entry_warns_and_strict_makes_it_an_error(project: Project) -> None:
    project.hooks("Stop", command("true"), command("true", timeout=0))
    payload = project.payload("Stop", stop_hook_active=False)
    fired = project.fire("Stop", payload, json_out=False)
    assert fired.returncode == 0
    assert "$.hooks.Stop[0].hooks[1].timeout" in fired.stderr
    strict = project.fire("Stop", payload, "--strict")
    assert strict.returncode == 1
    assert "$.hooks.Stop[0].hooks[1].timeout" in strict.stderr


def test_events_lists_the_catalogue(project: Project) -> None:
    listed = project.cli([*HOOKCOURSE, "events"])
    assert listed.returncode == 0
    assert len(listed.stdout.strip().splitlines()) == 35
    one = project.cli([*HOOKCOURSE, "events", "Stop"])
    assert one.stdout.startswith("Stop: ")


def test_console_script_is_the_same_cli(project: Project) -> None:
    script = Path(sys.executable).with_name("hookcourse")
    if not script.exists():
        pytest.skip("the hookcourse console script is not installed in this environment")
    listed = project.cli([str(script), "events", "PreToolUse"])
    assert listed.returncode == 0
    assert listed.stdout.startswith("PreToolUse: ")


def test_hooks_field_contract(project: Project) -> None:
    project.hooks("Stop", command("echo out; echo err >&2"))
    fired = project.fire("Stop", project.payload("Stop", stop_hook_active=False))
    outcome_keys = {
        "blocked",
        "decision",
        "reason",
        "additionalContext",
        "updatedInput",
        "continue",
    }
    assert outcome_keys <= fired.outcome.keys()
    (hook,) = fired.hooks
    assert (hook["exitCode"], hook["stdout"], hook["stderr"], hook["timedOut"]) == (
        0,
        "out\n",
        "err\n",
        False,
    )
    assert isinstance(hook["durationMs"], int | float) and hook["durationMs"] >= 0
    assert os.path.isabs(fired.report["cwd"])


def test_async_hooks_run_but_cannot_block(project: Project) -> None:
    project.hooks("PreToolUse", command("echo later >&2; exit 2", **{"async": True}))
    fired = project.fire("PreToolUse", project.bash_call("ls"))
    assert fired.returncode == 0
    (hook,) = fired.hooks
    assert (hook["async"], hook["exitCode"]) == (True, 2)
    # 2.1.332 kills an async hook still running when claude -p exits; fire says so.
    text = project.fire("PreToolUse", project.bash_call("ls"), json_out=False).stdout
    assert "a print-mode session that ends first kills it" in text


def test_mcp_tool_hooks_report_that_no_server_is_connected(project: Project) -> None:
    project.hooks("PreToolUse", {"type": "mcp_tool", "server": "memory", "tool": "check"})
    fired = project.fire("PreToolUse", project.bash_call("ls"))
    assert fired.returncode == 0
    assert "MCP server" in fired.hooks[0]["startError"]


@pytest.mark.parametrize(("tool", "appends"), [("Edit", True), ("Write", True), ("Edit", False)])
def test_a_post_tool_use_hook_that_changes_the_written_file_gets_the_formatter_note(
    project: Project, tool: str, appends: bool
) -> None:
    # 2.1.332 (hidden-formatter-note): the model is told a hook changed the file it wrote.
    target = project.dir / "c.txt"
    target.write_text("beta\n")
    body = f"printf 'formatted\\n' >> {target}" if appends else "cat > /dev/null"
    project.hooks("PostToolUse", command(str(project.script("fmt", body))))
    tool_input = {"file_path": str(target), "old_string": "alpha", "new_string": "beta"}
    payload = project.payload(
        "PostToolUse", tool_name=tool, tool_input=tool_input, tool_response={}, tool_use_id="t1"
    )
    fired = project.fire("PostToolUse", payload)
    assert fired.returncode == 0
    notes = [t for t in fired.report["printMode"]["systemReminders"] if "likely a formatter" in t]
    expected = f"PostToolUse:{tool} hook additional context: PostToolUse hook modified {target}"
    assert [n.startswith(expected) for n in notes] == ([True] if appends else [])
