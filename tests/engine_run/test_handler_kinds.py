"""Handler is a tagged union: the reader makes one class per kind, each describing and
deduplicating itself by 2.1.332's key, and the runner runs one by its class."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hookcourse.engine.catalogue import load_catalogue
from hookcourse.engine.runner import Job, RunSetting, run_jobs
from hookcourse.engine.settings import (
    CommandHandler,
    EvaluatorHandler,
    Handler,
    HttpHandler,
    McpToolHandler,
    SettingsSource,
    parse_settings,
)


def read(*handlers: dict[str, object]) -> tuple[Handler, ...]:
    document = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": list(handlers)}]}}
    layer = parse_settings(
        json.dumps(document), SettingsSource.PROJECT, "settings.json", load_catalogue()
    )
    assert not layer.warnings, layer.warnings
    (group,) = layer.groups
    return group.handlers


def test_each_kind_is_its_own_class_with_only_its_fields() -> None:
    command, http, mcp, prompt, agent = read(
        {"type": "command", "command": "x.sh", "async": True, "onFailure": "block"},
        {"type": "http", "url": "http://127.0.0.1:9/h", "onFailure": "block"},
        {"type": "mcp_tool", "server": "s", "tool": "t", "input": {"a": 1}},
        {"type": "prompt", "prompt": "Safe?", "continueOnBlock": True},
        {"type": "agent", "prompt": "Check", "timeout": 5},
    )
    assert isinstance(command, CommandHandler) and command.is_async
    assert not command.blocks_on_failure  # a background hook cannot block
    assert isinstance(http, HttpHandler) and http.blocks_on_failure and not http.is_async
    assert isinstance(mcp, McpToolHandler) and mcp.tool_input == '{"a":1}'
    assert isinstance(prompt, EvaluatorHandler) and prompt.continue_on_block
    assert isinstance(agent, EvaluatorHandler) and agent.type == "agent"
    assert agent.timeout_s == 5 and not agent.continue_on_block
    assert not hasattr(http, "command") and not hasattr(command, "url")
    assert [h.type for h in (command, http, mcp, prompt, agent)] == [
        "command",
        "http",
        "mcp_tool",
        "prompt",
        "agent",
    ]
    assert [h.named_by for h in (command, http, mcp, prompt)] == [
        "x.sh",
        "http://127.0.0.1:9/h",
        None,
        None,
    ]
    assert [h.describe() for h in (command, http, mcp, prompt)] == [
        'command "x.sh"',
        "http POST http://127.0.0.1:9/h",
        "mcp_tool s/t",
        'prompt hook "Safe?"',
    ]


@pytest.mark.parametrize(
    ("first", "second", "same"),
    [
        ({"command": "a"}, {"command": "a", "timeout": 9, "statusMessage": "x"}, True),
        ({"command": "a"}, {"command": "a", "args": []}, False),
        ({"command": "a"}, {"command": "a", "if": "Bash(git *)"}, False),
        ({"command": "a", "shell": "bash"}, {"command": "a"}, False),
    ],
)
def test_command_handlers_merge_by_shell_command_args_and_if(
    first: dict[str, object], second: dict[str, object], same: bool
) -> None:
    one, two = read({"type": "command", **first}, {"type": "command", **second})
    assert (one.dedupe_key() == two.dedupe_key()) is same


def test_other_kinds_merge_by_their_own_keys() -> None:
    handlers = read(
        {"type": "http", "url": "http://127.0.0.1:9/", "headers": {"A": "1"}},
        {"type": "http", "url": "http://127.0.0.1:9/"},
        {"type": "mcp_tool", "server": "s", "tool": "t", "input": {"a": 1}},
        {"type": "mcp_tool", "server": "s", "tool": "t", "input": {"a": 2}},
        {"type": "prompt", "prompt": "p", "model": "m"},
        {"type": "prompt", "prompt": "p"},
        {"type": "agent", "prompt": "p"},
    )
    keys = [handler.dedupe_key() for handler in handlers]
    assert keys[0] == keys[1]  # headers are not in http's key
    assert keys[2] != keys[3]  # input is in mcp_tool's
    assert keys[4] == keys[5]  # the model is not in prompt's
    assert keys[5] != keys[6]  # a prompt and an agent never merge


def test_the_runner_runs_each_kind_by_its_class(tmp_path: Path) -> None:
    command, mcp = read(
        {"type": "command", "command": "echo ran"},
        {"type": "mcp_tool", "server": "s", "tool": "t"},
    )
    setting = RunSetting(str(tmp_path), "PreToolUse", dict(os.environ), {}, {})
    ran, called = run_jobs([Job(command, 10), Job(mcp, 10)], "{}", setting)
    assert (ran.run.exit_code, ran.run.stdout, ran.run.handler_type) == (0, "ran\n", "command")
    assert called.run.start_error is not None and "MCP server" in called.run.start_error
