"""A session script through the real Claude Code, and its transcript read back.

Claude Code runs in print mode (``claude -p PROMPT --output-format stream-json
--verbose --include-hook-events``) through ``hookcourse.session.namespace``: in a
network namespace that has nothing but loopback (``unshare -n``, ``lo`` up,
refused if any other interface exists), against the scripted mock Messages API on
127.0.0.1, with a scratch HOME and TMPDIR and non-essential traffic off. Where no
such namespace can be made it refuses (one line), unless ``--isolation auto`` (or
``env``) asks for the environment-only fallback; the transcript says which it got.

The transcript is read from what the mock received (exactly what the model was
shown: tool_result blocks, system texts, reminders) and from the stream's hook
events, in the format of ``hookcourse.session.transcript``.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hookcourse.errors import InputError
from hookcourse.system.processes import CannotStart, Finished, run_process

from . import namespace
from .script import Layout, SessionScript, claude_flags, laid_out, script_env, substitute
from .traces import block_text as block_text
from .traces import json_lines as json_lines
from .traces import read_run
from .transcript import Transcript, relative

BINARY_ENV = "HOOKCOURSE_CLAUDE"
PLATFORM_BINARY = Path("node_modules") / "@anthropic-ai" / "claude-code-linux-x64" / "claude"
RUN_TIMEOUT_S = 120.0
CLAUDE_ENV = {
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "DISABLE_AUTOUPDATER": "1",
    "DISABLE_TELEMETRY": "1",
    "DISABLE_ERROR_REPORTING": "1",
    "CLAUDE_CODE_DISABLE_TERMINAL_TITLE": "1",
    "ENABLE_TOOL_SEARCH": "false",
}
"""Every run's environment besides PATH, the scratch folders and the dummy API key; the
base URL is added inside the namespace, where the mock listens."""
SESSION_API_KEY = "sk-ant-hookcourse-session-dummy"
HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
ISOLATIONS = ("namespace", "auto", "env")
"""``--isolation``: a namespace or refuse (the default), a namespace where one can be
made else the environment, or the environment only (``namespace.ISOLATION``)."""


def find_claude(given: str | None) -> str:
    """``--claude PATH``, else $HOOKCOURSE_CLAUDE, else the pinned install, else ``claude``."""
    candidates = [given] if given else []
    if not given:
        if os.environ.get(BINARY_ENV):
            candidates.append(os.environ[BINARY_ENV])
        candidates.append(str(REPO / ".venv" / "claude-code" / PLATFORM_BINARY))
        found = shutil.which("claude")
        if found:
            candidates.append(found)
    for candidate in candidates:
        path = Path(candidate)
        if path.is_file() and os.access(path, os.X_OK):
            return str(path.resolve())
    where = "--claude" if given else "--real"
    raise InputError(
        where,
        f"no Claude Code binary at {candidates[0] if candidates else 'claude'}",
        "pass --claude PATH to the claude binary (scripts/claude-code.sh installs the pinned one)",
    )


def claude_version(binary: str) -> str:
    """The version in the platform package's package.json beside the binary, else "?".

    Read from the file rather than ``claude --version``, which would start the binary
    outside the namespace.
    """
    try:
        package = json.loads((Path(binary).parent / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return "?"
    version = package.get("version") if isinstance(package, dict) else None
    return version if isinstance(version, str) else "?"


def _argv(binary: str, script: SessionScript, layout: Layout) -> list[str]:
    # One prompt is claude -p's argument; several are user messages on stdin, the next
    # one written once the run's result for the one before is out.
    given = [script.prompt] if len(script.prompts) == 1 else ["--input-format", "stream-json"]
    argv = [
        binary,
        "-p",
        *given,
        "--output-format",
        "stream-json",
        "--verbose",
        "--include-hook-events",
        *claude_flags(script, layout),
    ]
    return argv


def _messages(script: SessionScript) -> dict[str, Any]:
    """``messages`` for the runner when the script has more than one prompt."""
    if len(script.prompts) == 1:
        return {}
    lines = [
        json.dumps({"type": "user", "message": {"role": "user", "content": prompt}})
        for prompt in script.prompts
    ]
    return {"messages": lines}


def run_env(
    layout: Layout, extra: Mapping[str, str], api_key: str = SESSION_API_KEY
) -> dict[str, str]:
    """The binary's environment: nothing of the caller's but PATH and the user name, the
    scratch HOME and TMPDIR, ``CLAUDE_ENV`` with ``api_key``, then ``extra``."""
    env = {
        "PATH": os.environ.get("PATH", os.defpath),
        "LANG": "C.UTF-8",
        "HOME": str(layout.home),
        "TMPDIR": str(layout.tmp),
        "USER": os.environ.get("USER", "root"),
        "SHELL": "/bin/sh",
        **CLAUDE_ENV,
        "ANTHROPIC_API_KEY": api_key,
    }
    env.update(extra)
    return env


def write_run_spec(
    layout: Layout,
    argv: Sequence[str],
    env: Mapping[str, str],
    turns: Any,
    prompt: str,
    timeout: float,
    **more: Any,
) -> Path:
    """Write ``run.json``, what ``hookcourse.session.namespace`` runs, and where it
    leaves the request log, the stream, stderr and its status; ``more`` adds keys
    (``player``, ``stdin``, ``isolation``); the file's path."""
    spec = {
        "argv": list(argv),
        "env": dict(env),
        "cwd": str(layout.project),
        "turns": turns,
        "prompt": prompt,
        "log": str(layout.root / "requests.jsonl"),
        "stdout": str(layout.root / "stream.jsonl"),
        "stderr": str(layout.root / "stderr.txt"),
        "timeout": timeout,
        "result": str(layout.root / "status.json"),
        **more,
    }
    spec_path = layout.root / "run.json"
    spec_path.write_text(json.dumps(spec), encoding="utf-8")
    return spec_path


def choose_isolation(asked: str) -> tuple[str, list[str]]:
    """The isolation a run gets (``namespace.NAMESPACE`` or ``ENV``) and the runner's
    prefix; InputError when ``namespace`` is asked for and none can be made."""
    if asked not in ISOLATIONS:
        raise InputError(
            "--isolation", f"unknown isolation {asked!r}", "use " + ", ".join(ISOLATIONS)
        )
    if asked == namespace.ENV:
        return namespace.ENV, []
    prefix, refusal = namespace.namespace_prefix()
    if prefix is not None:
        return namespace.NAMESPACE, prefix
    if asked == "auto":
        return namespace.ENV, []
    raise InputError(
        "--real",
        f"no loopback-only network namespace can be made: {refusal}",
        "run as root or where unprivileged user namespaces are allowed, or pass "
        "--isolation auto to run Claude Code with only its environment pointing it at "
        "127.0.0.1",
    )


def run_real(
    script: SessionScript,
    claude: str | None = None,
    keep: bool = False,
    isolation: str = "namespace",
) -> Transcript:
    """The transcript of ``script`` through the real Claude Code (InputError if it cannot run)."""
    from . import real_interactive as interactive

    binary = find_claude(claude)
    chosen, prefix = choose_isolation(isolation)
    is_interactive = script.data.get("interactive") is not None
    prelude = interactive.RECORDING_PRELUDE if is_interactive else ""
    with laid_out(script, "-real", keep, prelude) as layout:
        if is_interactive:
            argv = interactive.interactive_argv(binary, script, layout)
            more = interactive.interactive_spec(script, layout, SESSION_API_KEY)
            timeout = interactive.INTERACTIVE_TIMEOUT_S
        else:
            argv, more, timeout = _argv(binary, script, layout), _messages(script), RUN_TIMEOUT_S
        spec_path = write_run_spec(
            layout,
            argv,
            run_env(layout, script_env(script, layout)),
            substitute(script.turns, layout),
            script.prompt,
            timeout,
            player="session",
            isolation=chosen,
            **more,
        )
        # Through the engine's process registry: an interrupt kills the namespace's
        # processes too, and a run past its time is killed whole.
        try:
            done = asyncio.run(
                run_process(
                    namespace.command(spec_path, prefix),
                    stdin=b"",
                    env=dict(os.environ),
                    cwd=str(namespace.PACKAGE_PARENT),
                    timeout_s=timeout + 30,
                )
            )
        except CannotStart as error:
            raise InputError(
                "--real", f"cannot start the runner: {error}", "install util-linux"
            ) from None
        status = _status(layout, done)
        how = "claude -p"
        if is_interactive:
            _played_through(script, status)
            transcript = interactive.read_interactive(layout.root, script, status)
            how = "interactive, in a pseudo-terminal"
        else:
            transcript = read_run(layout.root, script, status)
        transcript["engine"] = f"Claude Code {claude_version(binary)} ({how}, scripted model)"
        transcript["isolation"] = chosen
        transcript["network"] = namespace.ISOLATION[chosen]
        return relative(transcript, str(layout.root), keep)


def _status(layout: Layout, done: Finished) -> dict[str, Any]:
    path = layout.root / "status.json"
    if not path.exists():
        said = done.stderr.decode("utf-8", "replace").strip()[:300]
        raise InputError(
            "--real",
            f"the runner failed (exit {done.exit_code}): {said}",
            "run as root, or where user namespaces are allowed",
        )
    status: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    if "refused" in status:
        raise InputError(
            "--real",
            f"refused to run Claude Code: {status['refused']}",
            "Claude Code runs only in a namespace with nothing but loopback",
        )
    if "failed" in status:
        raise InputError(
            "--real",
            f"could not start Claude Code: {status['failed']}",
            "check --claude PATH and the script's env",
        )
    return status


def _played_through(script: SessionScript, status: Mapping[str, Any]) -> None:
    """InputError when the terminal waited in vain (a dialog that never showed, an
    interface that hung) or the run ran out of time; it names the action it was at."""
    from .interactive import session_steps

    if "stuck" in status:
        _steps, firsts = session_steps(script.data["interactive"])
        stuck = int(status["stuck"])
        at = max((n for n, first in enumerate(firsts) if first <= stuck), default=None)
        doing = (
            "its start"
            if at is None
            else f"interactive[{at}] {json.dumps(script.data['interactive'][at])}"
        )
        raise InputError(
            "--real",
            f"Claude Code's interface stopped at {doing}: it waited in vain "
            f"({status.get('waiting')})",
            "check the script's actions against what the session does (--keep keeps "
            "screen.txt, the last screen)",
        )
    if status.get("timedOut"):
        raise InputError("--real", "the interactive run ran out of time", "shorten the script")
