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
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from hookcourse.errors import InputError
from hookcourse.system.processes import CannotStart, Finished, run_process

from . import namespace
from .mock_api import is_main
from .script import Layout, SessionScript, flag_settings, laid_out, script_env, substitute
from .tools import session_texts
from .transcript import Transcript, event_run, relative
from .turns import TurnPlayer, tool_use_id

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
    ]
    flag = flag_settings(script, layout)
    if flag is not None:
        argv += ["--settings", flag]
    mode = script.data.get("permissionMode")
    if mode:
        argv += ["--permission-mode", str(mode)]
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
            _played_through(status)
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


def _played_through(status: Mapping[str, Any]) -> None:
    """InputError when the terminal waited in vain (a dialog that never showed, an
    interface that hung) or the run ran out of time."""
    if "stuck" in status:
        raise InputError(
            "--real",
            f"the interface stopped at step {status['stuck']}: {status.get('waiting')}",
            "check the script's actions against what the session does (--keep keeps "
            "screen.txt, the last screen)",
        )
    if status.get("timedOut"):
        raise InputError("--real", "the interactive run ran out of time", "shorten the script")


# --- reading a run back -------------------------------------------------------------------


def json_lines(path: Path) -> list[dict[str, Any]]:
    """The JSON objects of a JSON-lines file (a stream, a request log), in order; lines
    that are not one (a run cut short mid-line) are passed over, a missing file is none."""
    if not path.exists():
        return []
    found = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if isinstance(item, dict):
            found.append(item)
    return found


def block_text(content: Any) -> str:
    """A message content's text: the string, or its text blocks joined by newlines."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(b.get("text", "") for b in content if isinstance(b, dict))
    return ""


def _hook_paragraph(text: str) -> bool:
    """A paragraph a hook made: ``Event[:query] hook ...`` or ``Event[:query] says: ...``."""
    head = text.split(" ", 1)[0]
    event = head.split(":", 1)[0]
    rest = text[len(head) :]
    return (
        event[:1].isupper()
        and event.isalpha()
        and (rest.startswith(" hook ") or rest.startswith(" says: "))
    )


def shown_items(messages: Sequence[Any]) -> Iterator[dict[str, Any]]:
    """Everything a request shows the model that hooks or tools made."""
    texts = session_texts()
    opening = texts["reminder_open"] + texts["hook_reminder_preamble"]
    for message in messages:
        if not isinstance(message, dict):
            continue
        content = message.get("content")
        blocks = content if isinstance(content, list) else [{"type": "text", "text": content}]
        for block in blocks:
            if not isinstance(block, dict):
                continue
            if block.get("type") == "tool_result":
                yield {
                    "kind": "tool_result",
                    "id": block.get("tool_use_id"),
                    "text": block_text(block.get("content")),
                    "isError": block.get("is_error") is True,
                }
                continue
            text = str(block.get("text") or "")
            if message.get("role") == "user" and text.startswith(opening):
                # The body is followed by "\n</system-reminder>", sometimes with one more "\n".
                body = text[len(opening) :].removesuffix("\n")
                body = body.removesuffix("\n" + texts["reminder_close"])
                yield {"kind": "reminder", "text": body}
            elif message.get("role") == "system":
                for paragraph in text.split("\n\n"):
                    if _hook_paragraph(paragraph):
                        yield {"kind": "system", "text": paragraph}


def _key(item: Mapping[str, Any]) -> str:
    return json.dumps(item, sort_keys=True)


def _new_items(requests: Sequence[Mapping[str, Any]]) -> list[list[dict[str, Any]]]:
    """Per request, what it shows that the one before did not (as a multiset)."""
    news, before = [], Counter[str]()
    for request in requests:
        items = list(shown_items(request["body"].get("messages", [])))
        now = Counter(_key(item) for item in items)
        fresh = now - before
        new = []
        for item in items:
            key = _key(item)
            if fresh[key] > 0:
                fresh[key] -= 1
                new.append(item)
        news.append(new)
        before = now
    return news


def _stream_rounds(
    stream: Sequence[Mapping[str, Any]],
) -> tuple[list[Any], list[list[Any]], list[dict[str, Any]]]:
    """The hook events before the first model turn, those after each turn, and each later
    prompt's (``{"round", "events"}``: the events after a ``result``, before the next turn)."""
    start: list[Any] = []
    rounds: list[list[Any]] = []
    later: list[dict[str, Any]] = []
    responses = {
        item.get("hook_id"): item for item in stream if item.get("subtype") == "hook_response"
    }
    current = start
    previous_assistant = False
    group: dict[str, Any] | None = None
    for item in stream:
        if item.get("type") == "assistant" and not item.get("parent_tool_use_id"):
            if not previous_assistant:
                rounds.append([])
                current = rounds[-1]
            previous_assistant = True
            group = None
            continue
        previous_assistant = False
        if item.get("type") == "result":
            later.append({"round": len(rounds), "events": []})
            current, group = later[-1]["events"], None
        elif item.get("subtype") == "hook_started":
            name = str(item.get("hook_name"))
            if group is None or group["label"] != name or group["closed"]:
                group = {
                    "event": str(item.get("hook_event")),
                    "label": name,
                    "ids": [],
                    "closed": False,
                }
                current.append(group)
            group["ids"].append(item.get("hook_id"))
        elif item.get("subtype") == "hook_response" and group is not None:
            group["closed"] = True
    runs = [[_event(g, responses) for g in groups] for groups in [start, *rounds]]
    for entry in later:
        entry["events"] = [_event(g, responses) for g in entry["events"]]
    # After the last prompt's result nothing follows; zipped with the prompts, it drops out.
    return runs[0], runs[1:], later


def _event(group: Mapping[str, Any], responses: Mapping[Any, Mapping[str, Any]]) -> dict[str, Any]:
    hooks = []
    for hook_id in group["ids"]:
        response = responses.get(hook_id, {})
        hooks.append(
            {
                "command": None,
                "exitCode": response.get("exit_code"),
                "stdout": response.get("stdout", ""),
                "stderr": response.get("stderr", ""),
                "read": f"Claude Code: {response.get('outcome', 'no response (cancelled?)')}",
            }
        )
    return event_run(group["event"], group["label"], hooks)


def _ran(stream: Sequence[Mapping[str, Any]]) -> dict[str, bool]:
    """tool_use_id -> whether the tool ran (its result is the tool's own, not a refusal)."""
    ran: dict[str, bool] = {}
    for item in stream:
        message = item.get("message")
        if item.get("type") != "user" or not isinstance(message, dict):
            continue
        for block in message.get("content") or []:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                result = item.get("tool_use_result")
                failed_run = isinstance(result, str) and result.startswith("Error: Exit code ")
                ran[str(block.get("tool_use_id"))] = isinstance(result, dict) or failed_run
    return ran


def read_run(root: Path, script: SessionScript, status: Mapping[str, Any]) -> Transcript:
    """The transcript of a finished run from its request log and stream."""
    requests = [
        r
        for r in json_lines(root / "requests.jsonl")
        if r.get("method") == "POST"
        and isinstance(r.get("body"), dict)
        and is_main(r["body"], script.prompt)
    ]
    stream = json_lines(root / "stream.jsonl")
    start, round_events, later = _stream_rounds(stream)
    player = TurnPlayer(substitute(script.turns, Layout(root)))
    news = _new_items(requests)
    ran = _ran(stream)
    rounds = []
    for number, request in enumerate(requests):
        index, turn = player.play(request["body"].get("messages", []))
        calls = []
        for c, call in enumerate(turn.get("tools") or []):
            call_id = tool_use_id(index or 0, c)
            calls.append(
                {
                    "id": call_id,
                    "name": call["name"],
                    "input": call.get("input", {}),
                    "inputText": json.dumps(
                        call.get("input", {}), separators=(",", ":"), ensure_ascii=False
                    ),
                    "runs": ran.get(call_id),
                }
            )
        text = turn.get("text") or (None if calls else "Done.")
        events = round_events[number] if number < len(round_events) else []
        rounds.append(
            {"turn": index, "text": text, "shown": news[number], "calls": calls, "events": events}
        )
    ends = [_end(item) for item in stream if item.get("type") == "result"]
    end = ends[-1] if ends else {"reason": "no result"}
    if status.get("timedOut"):
        end = {"reason": "timed out"}
    transcript: Transcript = {
        "script": script.name,
        "engine": "Claude Code",
        "start": start,
        "rounds": rounds,
        "end": end,
    }
    if len(script.prompts) > 1:
        transcript["prompts"] = [
            {"prompt": prompt, **entry, "before": before}
            for prompt, entry, before in zip(script.prompts[1:], later, ends, strict=False)
        ]
    return transcript


def _end(result: Mapping[str, Any]) -> dict[str, Any]:
    """How one prompt's loop ended, from its stream ``result``."""
    said = str(result.get("result", ""))
    if said.startswith("UserPromptSubmit operation blocked by hook"):
        return {"reason": "prompt_blocked", "notes": [f"the user is shown: {said}"]}
    return {"reason": str(result.get("terminal_reason") or "no result")}
