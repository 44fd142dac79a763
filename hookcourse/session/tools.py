"""The tools of a scripted session, run for real in the scratch project.

Bash runs under ``bash -c`` in the project folder; Write, Edit and Read change and
read real files. What each returns is the tool_result text Claude Code 2.1.332
shows the model (``data/session_texts.json``). Other tools, and any call whose
script gives a ``result``, return what the script says.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from hookcourse.engine.processes import CannotStart, run_process

BASH_TIMEOUT_S = 120.0
"""Claude Code's default Bash timeout is two minutes."""


@cache
def session_texts() -> dict[str, Any]:
    """``data/session_texts.json``: Claude Code's words around hooks and tools."""
    text = resources.files("hookcourse").joinpath("data/session_texts.json").read_text("utf-8")
    document: dict[str, Any] = json.loads(text)
    return document


def _text(name: str, **fields: object) -> str:
    template: str = session_texts()["tools"][name]
    return template.format(**fields)


@dataclass(frozen=True)
class ToolRun:
    """What one tool call did: the model's tool_result, and the hooks' ``tool_response``."""

    text: str
    is_error: bool
    response: Any
    """The PostToolUse payload's ``tool_response`` (or the error, on PostToolUseFailure)."""


def run_tool(
    name: str, tool_input: Mapping[str, Any], project: Path, env: Mapping[str, str]
) -> ToolRun:
    """Run one call in ``project``."""
    if name == "Bash":
        return _bash(str(tool_input.get("command", "")), project, env)
    if name in ("Write", "Edit", "Read"):
        path = Path(str(tool_input.get("file_path", "")))
        if not path.is_absolute():
            path = project / path
        if name == "Write":
            return _write(path, str(tool_input.get("content", "")))
        if name == "Edit":
            return _edit(path, tool_input)
        return _read(path)
    return ToolRun(f"{name} is not run by hookcourse session; give its result", True, None)


def _bash(command: str, project: Path, env: Mapping[str, str]) -> ToolRun:
    try:
        done = asyncio.run(
            run_process(
                # Claude Code's Bash tool shows stdout and stderr as one stream.
                ["bash", "-c", "exec 2>&1\n" + command],
                stdin=b"",
                env=dict(env),
                cwd=str(project),
                timeout_s=BASH_TIMEOUT_S,
            )
        )
    except CannotStart as error:
        return ToolRun(f"Error: {error}", True, str(error))
    stdout = done.stdout.decode("utf-8", "replace")
    stderr = done.stderr.decode("utf-8", "replace")
    output = "\n".join(part for part in (stdout.strip(), stderr.strip()) if part)
    response = {
        "stdout": stdout.rstrip("\n"),
        "stderr": stderr.rstrip("\n"),
        "interrupted": False,
        "isImage": False,
    }
    code = done.exit_code
    if code != 0:
        shown = -1 if code is None else code
        return ToolRun(
            _text("bash_exit_code", code=shown, output=output),
            True,
            _text("bash_exit_code", code=shown, output=output),
        )
    return ToolRun(output or _text("bash_no_output"), False, response)


def _write(path: Path, content: str) -> ToolRun:
    existed = path.exists()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    except OSError as error:
        return ToolRun(f"Error: {error.strerror}", True, str(error.strerror))
    kind = "update" if existed else "create"
    text = _text("write_updated" if existed else "write_created", path=path)
    return ToolRun(text, False, {"type": kind, "filePath": str(path), "content": content})


def _edit(path: Path, tool_input: Mapping[str, Any]) -> ToolRun:
    old, new = str(tool_input.get("old_string", "")), str(tool_input.get("new_string", ""))
    try:
        before = path.read_text(encoding="utf-8")
    except OSError:
        return ToolRun(_text("not_found"), True, _text("not_found"))
    if old not in before:
        text = _text("edit_no_match", old=old)
        return ToolRun(text, True, text)
    after = (
        before.replace(old, new) if tool_input.get("replace_all") else before.replace(old, new, 1)
    )
    path.write_text(after, encoding="utf-8")
    response = {"filePath": str(path), "oldString": old, "newString": new}
    return ToolRun(_text("edit_updated", path=path), False, response)


def _read(path: Path) -> ToolRun:
    try:
        content = path.read_text(encoding="utf-8")
    except OSError:
        return ToolRun(_text("not_found"), True, _text("not_found"))
    lines = content.split("\n")
    text = "\n".join(_text("read_line", number=n, line=line) for n, line in enumerate(lines, 1))
    response = {"type": "text", "file": {"filePath": str(path), "content": content}}
    return ToolRun(text, False, response)


def hook_environment(base: Mapping[str, str], home: Path, tmp: Path) -> dict[str, str]:
    """The environment a session's tools and hooks get: scratch HOME and TMPDIR."""
    env = {key: value for key, value in base.items() if key in ("PATH", "LANG", "USER", "LC_ALL")}
    env.setdefault("PATH", os.defpath)
    env.update(HOME=str(home), TMPDIR=str(tmp), SHELL="/bin/sh")
    return env
