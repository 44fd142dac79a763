"""The tools of a scripted session, run for real in the scratch project.

Bash runs under ``bash -c`` in the project folder; Write, Edit and Read change and
read real files. What each returns is the tool_result text Claude Code 2.1.332
shows the model (``data/session_texts.json``). Other tools, and any call whose
script gives a ``result``, return what the script says.
"""

from __future__ import annotations

import json
import math
import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

from hookcourse.engine.api import CallPlace, permission_facts, permission_step
from hookcourse.system.edge import Edge
from hookcourse.system.inputs import special_kind
from hookcourse.system.interrupts import kill_traced
from hookcourse.system.processes import CannotStart, run

BASH_TIMEOUT_MS = 120_000
"""Claude Code's default Bash timeout (``BASH_DEFAULT_TIMEOUT_MS`` changes it)."""
BASH_MAX_TIMEOUT_MS = 600_000
"""The most a Bash call's ``timeout`` may ask (``BASH_MAX_TIMEOUT_MS`` changes it)."""
BASH_LINGER_S = 0.5
"""How long a finished Bash command's output is still read when something it started
in the background keeps it open; then that is ended."""
READ_CAP_BYTES = 256 * 1024
"""The largest file Read shows whole (Claude Code's Read asks for offset and limit above
its own cap; hookcourse keeps it at 256 KiB)."""
EDIT_CAP_BYTES = 16 * 1024 * 1024
"""The largest file Edit changes."""
FILE_TOOLS = ("Write", "Edit", "Read")
EDITING_TOOLS = ("Write", "Edit")

# Claude Code 2.1.332's texts for a path outside the working directories in print mode
# (nobody to ask). Evidence in the binary: `Claude requested permissions to write to ${`
# and `Claude requested permissions to read from `.
READ_REFUSAL = "Claude requested permissions to read from {path}, but you haven't granted it yet."
OUTSIDE_NOT_RUN = (
    "<tool_use_error>hookcourse session did not run this {tool} call, which reaches outside "
    "the session's folder {cwd} ({path}). Claude Code would run it (the {why}); hookcourse "
    "session runs such a call only with --allow-outside.</tool_use_error>"
)
"""hookcourse's own text (not Claude Code's), for a call Claude Code would allow."""


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


@dataclass(frozen=True)
class Grant:
    """What let a call run past the permission step, for the confinement check.

    ``granted`` names a rule, a hook's allow or bypassPermissions: with it Claude Code
    runs a file tool outside the working directories too; without it, the mode decides.
    """

    mode: str = "default"
    granted: str | None = None
    allow_outside: bool = False


def wellformed(text: str) -> str:
    """``text`` with each lone surrogate written U+FFFD, as JavaScript writes UTF-8."""
    if not any("\ud800" <= char <= "\udfff" for char in text):
        return text
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def tool_path(tool_input: Mapping[str, Any], cwd: Path) -> Path | None:
    """The file a Write, Edit or Read names, made absolute against ``cwd``; None if none."""
    name = tool_input.get("file_path")
    if not isinstance(name, str) or not name or "\0" in name:
        return None
    return Path(os.path.normpath(cwd / name))


def inside(path: Path, folder: Path) -> bool:
    """Whether ``path``, as written and with every symbolic link resolved, is in ``folder``."""

    def within(name: str, base: str) -> bool:
        return os.path.commonpath([base, name]) == base

    try:
        real_folder = os.path.realpath(folder)
        written, real = os.path.normpath(path), os.path.realpath(path)
        as_written = within(written, os.path.normpath(folder)) or within(written, real_folder)
        return as_written and within(real, real_folder)
    except (OSError, ValueError):
        return False


def confinement(
    name: str, tool_input: Mapping[str, Any], project: Path, cwd: Path, grant: Grant
) -> str | None:
    """The refusal for a file tool's call outside the project folder; None: it may run.

    Claude Code lets Write, Edit and Read run without asking only inside the working
    directories (the path checked as written and with links resolved); outside, in print
    mode, the ask is a refusal (dontAsk and plan word it their own way). What Claude Code
    would allow there (a rule, a hook's allow, bypassPermissions) runs only with
    ``allow_outside``.
    """
    if name == "Bash":
        return _bash_confinement(tool_input, project, cwd, grant)
    if name not in FILE_TOOLS:
        return None
    path = tool_path(tool_input, cwd)
    if path is None or inside(path, project):
        return None
    facts = permission_facts()
    if grant.granted is not None:
        if grant.allow_outside:
            return None
        return OUTSIDE_NOT_RUN.format(tool=name, path=path, cwd=project, why=grant.granted)
    if grant.mode == "dontAsk":
        return facts.refusal("dont_ask", tool=name)
    if grant.mode == "plan" and name in EDITING_TOOLS:
        return facts.refusal("plan_write", path=str(path))
    if name == "Read":
        return READ_REFUSAL.format(path=path)
    return facts.refusal("write_file", path=str(path))


OUTSIDE_WORDS = ("outside the working directories", "allowed working directories")
"""What Claude Code's refusals of a command naming a path outside the project say."""


def _bash_confinement(
    tool_input: Mapping[str, Any], project: Path, cwd: Path, grant: Grant
) -> str | None:
    """A granted Bash command that names a path outside the project (``cat /etc/passwd``
    in bypassPermissions) runs only with ``allow_outside``.

    What Claude Code asks for, the permission step already refused; a command it
    cannot see into (``python3 -c ...``) is not confined: see docs/session.md.
    """
    command = tool_input.get("command")
    if grant.granted is None or grant.allow_outside or not isinstance(command, str):
        return None
    place = CallPlace(str(project), str(cwd), str(project.parent / "home"))
    step = permission_step(None, (), "Bash", {"command": command}, place, "default")
    said = step.refusal or ""
    if not any(words in said for words in OUTSIDE_WORDS):
        return None
    return OUTSIDE_NOT_RUN.format(tool="Bash", path=said, cwd=project, why=grant.granted)


def run_tool_here(
    name: str,
    tool_input: Mapping[str, Any],
    project: Path,
    env: Mapping[str, str],
    grant: Grant | None = None,
    root: Path | None = None,
) -> ToolRun:
    """Run one call in ``project`` (the shell's folder), refused first if it is not confined.

    ``root`` is the session's project folder (``project`` may be a folder below it after
    a ``cd``).
    """
    refusal = confinement(name, tool_input, root or project, project, grant or Grant())
    if refusal is not None:
        return ToolRun(refusal, True, refusal)
    if name == "Bash":
        return _bash(tool_input, project, env)
    if name in FILE_TOOLS:
        path = tool_path(tool_input, project)
        if path is None:
            return _input_error(name, "file_path", tool_input.get("file_path"), "string")
        try:
            if name == "Write":
                return _write(path, tool_input.get("content", ""))
            if name == "Edit":
                return _edit(path, tool_input)
            return _read(path)
        except (OSError, ValueError) as error:
            reason = getattr(error, "strerror", None) or str(error)
            text = f"<tool_use_error>{reason}</tool_use_error>"
            return ToolRun(text, True, text)
    return ToolRun(f"{name} is not run by hookcourse session; give its result", True, None)


run_tool: Final = Edge(run_tool_here)
"""How a session runs a call: here, for real, unless a run swaps it (``run_tool.swapped``: a
session replayed from the desktop's recorded results in the browser, or recorded)."""


def _input_error(tool: str, field: str, value: Any, expected: str) -> ToolRun:
    """Claude Code's schema check of a tool's input (InputValidationError), one field."""
    given = "undefined" if value is None else _js_type(value)
    text = (
        f"<tool_use_error>InputValidationError: {tool} failed due to the following issue:\n"
        f"The parameter `{field}` type is expected as `{expected}` but provided as `{given}`"
        "</tool_use_error>"
    )
    return ToolRun(text, True, text)


def _js_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def bash_timeout_ms(value: Any, env: Mapping[str, str]) -> float:
    """The call's ``timeout`` as Claude Code applies it: unset or 0 is the default, over
    the maximum is the maximum (``BASH_DEFAULT_TIMEOUT_MS``, ``BASH_MAX_TIMEOUT_MS``)."""
    default = _positive(env.get("BASH_DEFAULT_TIMEOUT_MS")) or BASH_TIMEOUT_MS
    most = max(_positive(env.get("BASH_MAX_TIMEOUT_MS")) or BASH_MAX_TIMEOUT_MS, default)
    asked = value if isinstance(value, int | float) and not isinstance(value, bool) else 0
    if not math.isfinite(asked) or asked <= 0:
        asked = default
    return float(min(asked, most))


def _positive(text: str | None) -> float | None:
    try:
        number = float(text or "")
    except ValueError:
        return None
    return number if math.isfinite(number) and number > 0 else None


def _bash(tool_input: Mapping[str, Any], project: Path, env: Mapping[str, str]) -> ToolRun:
    command = tool_input.get("command", "")
    if not isinstance(command, str):
        return _input_error("Bash", "command", command, "string")
    timeout = tool_input.get("timeout")
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, int | float)):
        return _input_error("Bash", "timeout", timeout, "number")
    timeout_ms = bash_timeout_ms(timeout, env)
    try:
        done = run(
            # Claude Code's Bash tool shows stdout and stderr as one stream.
            ["bash", "-c", "exec 2>&1\n" + wellformed(command)],
            stdin=b"",
            env=dict(env),
            cwd=str(project),
            timeout_s=timeout_ms / 1000,
            linger_s=BASH_LINGER_S,
        )
    except CannotStart as error:
        return ToolRun(f"Error: {error}", True, str(error))
    # What the command started in a session of its own (setsid) ends with the call.
    kill_traced([done.trace])
    stdout = done.stdout.decode("utf-8", "replace")
    stderr = done.stderr.decode("utf-8", "replace")
    output = "\n".join(part for part in (stdout.strip(), stderr.strip()) if part)
    if done.timed_out:
        text = f"Command timed out after {timeout_ms / 1000:g} s\n{output}".rstrip("\n")
        return ToolRun(text, True, text)
    response = {
        "stdout": stdout.rstrip("\n"),
        "stderr": stderr.rstrip("\n"),
        "interrupted": False,
        "isImage": False,
    }
    code = done.exit_code
    if code != 0:
        shown = -1 if code is None else code
        text = _text("bash_exit_code", code=shown, output=output)
        return ToolRun(text, True, text)
    return ToolRun(output or _text("bash_no_output"), False, response)


def _special(path: Path) -> str | None:
    """Why ``path`` cannot be opened as a file: a directory, FIFO or device (None: it can)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    if stat.S_ISDIR(mode):
        return "is a directory"
    kind = special_kind(mode)
    return None if kind is None else f"is {kind}, not a regular file"


def _refused(path: Path, why: str) -> ToolRun:
    # hookcourse's words: a scripted session never blocks on a FIFO or reads a device.
    text = (
        f"<tool_use_error>{path} {why}: hookcourse session reads and writes regular "
        "files only</tool_use_error>"
    )
    return ToolRun(text, True, text)


def _read_bytes(path: Path, cap: int) -> bytes | None:
    """At most ``cap + 1`` bytes of the regular file ``path``; None when it does not exist."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise IsADirectoryError(21, "not a regular file")
        chunks, size = [], 0
        while size <= cap:
            chunk = os.read(descriptor, 65_536)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(descriptor)


def decoded(data: bytes) -> str:
    """File bytes as Claude Code's tools read them: UTF-16LE after its byte-order mark,
    else UTF-8 with each undecodable sequence as U+FFFD (as Node's Buffer decodes)."""
    if data.startswith(b"\xff\xfe"):
        return data[2:].decode("utf-16-le", "replace")
    return data.decode("utf-8", "replace")


def _write(path: Path, content: Any) -> ToolRun:
    if not isinstance(content, str):
        return _input_error("Write", "content", content, "string")
    why = _special(path)
    if why is not None:
        return _refused(path, why)
    existed = path.exists()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(wellformed(content).encode("utf-8"))
    kind = "update" if existed else "create"
    text = _text("write_updated" if existed else "write_created", path=path)
    return ToolRun(text, False, {"type": kind, "filePath": str(path), "content": content})


def _edit(path: Path, tool_input: Mapping[str, Any]) -> ToolRun:
    old, new = tool_input.get("old_string", ""), tool_input.get("new_string", "")
    for field, value in (("old_string", old), ("new_string", new)):
        if not isinstance(value, str):
            return _input_error("Edit", field, value, "string")
    why = _special(path)
    if why is not None:
        return _refused(path, why)
    data = _read_bytes(path, EDIT_CAP_BYTES)
    if data is None:
        return ToolRun(_text("not_found"), True, _text("not_found"))
    if len(data) > EDIT_CAP_BYTES:
        return _refused(path, f"is larger than {EDIT_CAP_BYTES // 1_048_576} MiB")
    before = decoded(data)
    old, new = wellformed(old), wellformed(new)
    if old not in before:
        text = _text("edit_no_match", old=old)
        return ToolRun(text, True, text)
    after = (
        before.replace(old, new) if tool_input.get("replace_all") else before.replace(old, new, 1)
    )
    path.write_bytes(after.encode("utf-8"))
    response = {"filePath": str(path), "oldString": old, "newString": new}
    return ToolRun(_text("edit_updated", path=path), False, response)


def _read(path: Path) -> ToolRun:
    why = _special(path)
    if why is not None:
        return _refused(path, why)
    data = _read_bytes(path, READ_CAP_BYTES)
    if data is None:
        return ToolRun(_text("not_found"), True, _text("not_found"))
    if len(data) > READ_CAP_BYTES:
        text = (
            f"<tool_use_error>File content ({os.path.getsize(path)} bytes) exceeds maximum "
            f"allowed size ({READ_CAP_BYTES} bytes). Use offset and limit parameters to read "
            "specific portions of the file, or search for specific content instead of "
            "reading the whole file.</tool_use_error>"
        )
        return ToolRun(text, True, text)
    content = decoded(data)
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
