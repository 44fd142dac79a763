"""Installed plugins, real transcripts, events that need a condition, and what a command or
Stop script says before it runs, each on real files (CRLF bytes, modes, a PATH without the
interpreter)."""

from __future__ import annotations

import json
from pathlib import Path

from hookcourse.doctor.diagnose import Question, diagnose
from hookcourse.doctor.places import Machine

HERE = Path(__file__).resolve().parent
SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"


def _machine(tmp_path: Path, hook_path: str = SYSTEM_PATH) -> Machine:
    for folder in ("project/.claude", "home/.claude", "managed"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
    return Machine(tmp_path / "project", tmp_path / "home", tmp_path / "managed", hook_path)


def _write(path: Path, data: object, mode: int = 0o644) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = data if isinstance(data, bytes) else json.dumps(data).encode()
    path.write_bytes(raw)
    path.chmod(mode)
    return path


def _plugin(tmp_path: Path, script: bytes, enabled: object = True, **record: str) -> Path:
    """An installed plugin (registry, cache folder, manifest) with one Stop hook script."""
    root = tmp_path / "home/.claude/plugins/cache/market/tool/1.0.0"
    _write(root / ".claude-plugin/plugin.json", {"name": "tool", "version": "1.0.0"})
    command = '"${CLAUDE_PLUGIN_ROOT}"/hooks/stop.sh'
    hooks = {"Stop": [{"hooks": [{"type": "command", "command": command}]}]}
    _write(root / "hooks/hooks.json", {"hooks": hooks})
    _write(root / "hooks/stop.sh", script, 0o755)
    entry = {"scope": "user", "installPath": str(root), "version": "1.0.0", **record}
    registry = {"version": 2, "plugins": {"tool@market": [entry]}}
    _write(tmp_path / "home/.claude/plugins/installed_plugins.json", registry)
    _write(tmp_path / "home/.claude/settings.json", {"enabledPlugins": {"tool@market": enabled}})
    return root


def _causes(question: Question) -> list[str]:
    return [finding.cause for finding in diagnose(question).findings]


def test_an_enabled_plugins_crlf_script_is_found_through_its_plugin_root(tmp_path: Path) -> None:
    root = _plugin(tmp_path, b"#!/bin/bash\r\necho '{}'\r\n")
    first = diagnose(Question(_machine(tmp_path))).findings[0]
    assert first.cause == "script-crlf"
    assert first.where.startswith(str(root / "hooks/hooks.json"))


def test_a_plugin_turned_off_in_local_settings_is_named_with_the_deciding_file(
    tmp_path: Path,
) -> None:
    _plugin(tmp_path, b"#!/bin/bash\r\necho '{}'\r\n")
    local = _write(
        tmp_path / "project/.claude/settings.local.json", {"enabledPlugins": {"tool@market": False}}
    )
    findings = diagnose(Question(_machine(tmp_path))).findings
    assert findings[0].cause == "plugin-not-enabled"
    assert findings[0].where == f"{local}: $.enabledPlugins"
    assert "script-crlf" not in [f.cause for f in findings]  # a plugin that is off never runs


def test_a_list_of_versions_leaves_a_plugin_off(tmp_path: Path) -> None:
    _plugin(tmp_path, b"#!/bin/sh\nexit 0\n", enabled=["1.0.0"])
    assert _causes(Question(_machine(tmp_path)))[0] == "plugin-not-enabled"


def test_a_project_scope_install_for_another_project_is_not_read(tmp_path: Path) -> None:
    _plugin(tmp_path, b"#!/bin/bash\r\n", scope="project", projectPath=str(tmp_path / "other"))
    assert _causes(Question(_machine(tmp_path))) == []


def test_a_plugin_scripts_interpreter_off_the_hooks_path(tmp_path: Path) -> None:
    """The #! line asks env for python3, which only a shell's startup puts on PATH."""
    _plugin(tmp_path, b"#!/usr/bin/env python3\nprint('{}')\n")
    _write(tmp_path / "home/.pyenv/shims/python3", b"#!/bin/sh\n", 0o755)
    (tmp_path / "emptybin").mkdir()
    causes = _causes(Question(_machine(tmp_path, str(tmp_path / "emptybin"))))
    assert causes[0] == "interpreter-not-on-hook-path"


def test_a_stop_script_that_blocks_without_reading_stop_hook_active(tmp_path: Path) -> None:
    _plugin(tmp_path, b'#!/bin/sh\ncat >/dev/null\necho "keep going" >&2\nexit 2\n')
    assert "stop-hook-ignores-active" in _causes(Question(_machine(tmp_path)))


def test_a_stop_script_that_reads_stop_hook_active_is_fine(tmp_path: Path) -> None:
    script = b"#!/bin/sh\ngrep -q '\"stop_hook_active\": *true' && exit 0\necho go >&2\nexit 2\n"
    _plugin(tmp_path, script)
    assert _causes(Question(_machine(tmp_path))) == []


def test_a_placeholder_written_without_its_dollar(tmp_path: Path) -> None:
    command = "bash CLAUDE_PROJECT_DIR/.claude/hooks/check.sh"
    hooks = {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]
    }
    _write(tmp_path / "project/.claude/settings.json", {"hooks": hooks})
    first = diagnose(Question(_machine(tmp_path))).findings[0]
    assert first.cause == "placeholder-without-dollar"
    assert '"${CLAUDE_PROJECT_DIR}/"' in first.fix


def _transcript(name: str, tmp_path: Path) -> str:
    text = (HERE / "transcripts" / name).read_text(encoding="utf-8")
    return text.replace("@ROOT@", str(tmp_path))


def test_a_real_transcript_of_an_exit_2_with_json(tmp_path: Path) -> None:
    """Claude Code 2.1.332's own transcript: the PreToolUse hook printed JSON and exited 2."""
    question = Question(_machine(tmp_path), transcript=_transcript("exit2-json.jsonl", tmp_path))
    diagnosis = diagnose(question)
    assert any("PreToolUse" in run and "exit 2" in run for run in diagnosis.runs)
    assert any("PostToolUse:Write blocked" in run for run in diagnosis.runs)
    json_on_2 = [f for f in diagnosis.findings if f.cause == "json-on-exit-2"]
    assert json_on_2 and json_on_2[0].where.startswith("transcript line ")


def test_a_real_transcript_of_exit_1_and_top_level_context(tmp_path: Path) -> None:
    text = _transcript("exit1-top-level-context.jsonl", tmp_path)
    causes = _causes(Question(_machine(tmp_path), event="PostToolUse", transcript=text))
    assert {"non-blocking-exit", "field-at-top-level"} <= set(causes)
    assert "never-ran" not in causes


def test_a_transcript_without_the_event_does_not_claim_it_never_ran(tmp_path: Path) -> None:
    """2.1.332 wrote no entry for two hooks that exited 0 silently (silent-success.jsonl,
    recorded with PreToolUse and PostToolUse hooks that both ran), so absence is a note."""
    text = _transcript("silent-success.jsonl", tmp_path)
    causes = _causes(Question(_machine(tmp_path), event="PreToolUse", transcript=text))
    assert causes == ["not-in-transcript"]


def test_setup_in_an_interactive_session_never_fires(tmp_path: Path) -> None:
    question = Question(_machine(tmp_path), event="Setup", mode="interactive")
    assert _causes(question)[0] == "event-not-in-mode"
    print_mode = Question(_machine(tmp_path), event="Setup", mode="print")
    assert _causes(print_mode) == ["event-needs-condition"]


def test_post_tool_use_says_to_check_the_call_succeeded(tmp_path: Path) -> None:
    finding = diagnose(Question(_machine(tmp_path), event="PostToolUse")).findings[0]
    assert finding.cause == "event-needs-condition"
    assert "PostToolUseFailure" in finding.why and "check" in finding.why


def test_an_interactive_session_notes_the_trust_dialog_only_when_hooks_exist(
    tmp_path: Path,
) -> None:
    machine = _machine(tmp_path)
    assert _causes(Question(machine, mode="interactive")) == []
    hooks = {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}
    _write(tmp_path / "project/.claude/settings.json", {"hooks": hooks})
    assert _causes(Question(machine, mode="interactive")) == ["workspace-trust"]
    assert _causes(Question(machine, mode="print")) == []


def test_placeholders_with_their_dollar_or_powershell_env_are_fine(tmp_path: Path) -> None:
    commands = [
        '"$CLAUDE_PROJECT_DIR"/x.sh',
        '"${CLAUDE_PROJECT_DIR}/x.sh"',
        "& $env:CLAUDE_PROJECT_DIR/x.ps1",
        "node $MY_PROJECT_DIR/x.js",
    ]
    hooks = {"Stop": [{"hooks": [{"type": "command", "command": c} for c in commands]}]}
    _write(tmp_path / "project/.claude/settings.json", {"hooks": hooks})
    assert "placeholder-without-dollar" not in _causes(Question(_machine(tmp_path)))
