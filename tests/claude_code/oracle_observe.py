"""What Claude Code did in one run, as plain data (JSON), read from its traces.

Sources: the hook scripts' dumps (which hooks started, their payload, env, cwd,
argv, and whether they finished), the stream-json output (``--include-hook-events``:
tool results, hook responses, notices, the result line), and the mock's request
log (the exact text the model was shown). Paths under the scratch root are
written as ``$ROOT`` so observations of two runs compare equal.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from oracle_scenario import PROBE

from hookcourse.session.real import block_text, json_lines
from hookcourse.session.script import Layout

ENV_SHOWN = re.compile(r"^(CLAUDE|CLAUDECODE$|AI_AGENT$|COLUMNS$|LINES$|OTEL_)")
"""The variables of a hook's environment an observation keeps."""
HOOK_START = r"(?:[A-Z][A-Za-z]+(?::\S*)? (?:hook |says:)|[A-Z][A-Za-z]+ operation blocked by hook)"
HOOK_TEXT = re.compile("^" + HOOK_START, re.M)
"""Where a hook-made text starts: ``PreToolUse:Bash hook additional context: ...``."""
NEXT_PART = re.compile(r"\n\n(?=" + HOOK_START + r"|# |Today's date is )")
"""Where a paragraph of the environment system message ends: at the next hook text, or at
one of the message's own sections (2.1.332 joins them with a blank line)."""
REMINDER_END = "\n</system-reminder>"
"""How a ``<system-reminder>`` block closes: a newline the wrapper adds, then the tag."""


def _normal(value: Any, root: str) -> Any:
    if isinstance(value, str):
        return value.replace(root, "$ROOT")
    if isinstance(value, list):
        return [_normal(item, root) for item in value]
    if isinstance(value, dict):
        return {key: _normal(item, root) for key, item in value.items()}
    return value


def hook_runs(dumps: Path) -> list[dict[str, Any]]:
    """Every hook script start, in start order: name, event, payload, env, cwd, argv, exit."""
    runs = []
    for stdin in sorted(dumps.glob("*.in"), key=lambda p: int(p.name.split(".")[1])):
        base = str(stdin)[: -len(".in")]
        name = stdin.name.split(".")[0]
        try:
            payload = json.loads(stdin.read_text(encoding="utf-8"))
        except ValueError:
            payload = {"unparsed": stdin.read_text(encoding="utf-8", errors="replace")}
        env_path, end = Path(base + ".env"), Path(base + ".end")
        env = {}
        if env_path.exists():
            for line in env_path.read_text(encoding="utf-8", errors="replace").splitlines():
                key, eq, value = line.partition("=")
                if eq and ENV_SHOWN.match(key):
                    env[key] = value
        cwd, argv = Path(base + ".cwd"), Path(base + ".argv")
        runs.append(
            {
                "hook": name,
                "event": payload.get("hook_event_name") if isinstance(payload, dict) else None,
                "payload": payload,
                "env": env,
                "cwd": cwd.read_text(encoding="utf-8").strip() if cwd.exists() else None,
                "argv": argv.read_text(encoding="utf-8").splitlines() if argv.exists() else None,
                "exit": int(end.read_text(encoding="utf-8").strip() or -1)
                if end.exists()
                else None,
            }
        )
    return runs


def probe_rows(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The harness's probe runs: each tool that finished, with the input it ran with."""
    return [
        {
            "event": run["event"],
            "tool": run["payload"].get("tool_name"),
            "input": run["payload"].get("tool_input"),
        }
        for run in runs
        if run["hook"] == PROBE
    ]


def tool_results(stream: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each tool call the model made and what came back (from stream-json)."""
    calls: dict[str, dict[str, Any]] = {}
    for item in stream:
        message = item.get("message") if isinstance(item.get("message"), dict) else {}
        if item.get("parent_tool_use_id"):
            continue
        for block in message.get("content", []) if isinstance(message.get("content"), list) else []:
            if not isinstance(block, dict):
                continue
            if item.get("type") == "assistant" and block.get("type") == "tool_use":
                calls[block["id"]] = {
                    "id": block["id"],
                    "name": block.get("name"),
                    "input": block.get("input"),
                    "result": None,
                    "isError": None,
                    "structured": None,
                }
            if item.get("type") == "user" and block.get("type") == "tool_result":
                call = calls.setdefault(block.get("tool_use_id"), {"id": block.get("tool_use_id")})
                call["result"] = block_text(block.get("content"))
                call["isError"] = bool(block.get("is_error"))
                structured = item.get("tool_use_result")
                call["structured"] = isinstance(structured, dict)
    return list(calls.values())


def hook_texts(piece: str) -> list[str]:
    """The hook texts in one text block, exactly as written: each runs to the end of the
    block, of its system reminder, or of its paragraph of the environment message."""
    found = []
    for match in HOOK_TEXT.finditer(piece):
        start = match.start()
        end = len(piece)
        close = piece.find(REMINDER_END, start)
        if close != -1:
            end = close
        part = NEXT_PART.search(piece, start + 1)
        if part is not None and part.start() < end:
            end = part.start()
        found.append(piece[start:end])
    return found


def model_texts(requests: list[dict[str, Any]], prompt: str) -> list[str]:
    """Hook-made texts the model was shown: system messages and reminders, each once."""
    seen: list[str] = []
    for request in requests:
        body = request.get("body", {})
        if request.get("method") != "POST" or not body.get("tools"):
            continue
        for message in body.get("messages", []):
            content = message.get("content")
            pieces = (
                [content]
                if isinstance(content, str)
                else [
                    block.get("text", "")
                    for block in content or []
                    if isinstance(block, dict) and block.get("type") == "text"
                ]
            )
            for piece in pieces:
                for text in hook_texts(piece):
                    if text not in seen:
                        seen.append(text)
    return seen


WARMUP = "Warmup"
"""The one user message some releases (2.0.77 to 2.1.5) send each built-in subagent at start."""


def _model_request(request: Mapping[str, Any]) -> bool:
    """A request the scripted model answers as a turn: a POST offering tools, not a token
    count (``/v1/messages/count_tokens``, sent per turn by 2.0.0 to 2.0.11) and not a
    release's warm-up of its own subagents (measured 4 December 2026: the mock's request
    log of 2.0.10 and 2.1.1 runs)."""
    body = request.get("body")
    if request.get("method") != "POST" or not isinstance(body, dict) or not body.get("tools"):
        return False
    if "count_tokens" in str(request.get("path", "")):
        return False
    messages = body.get("messages") or []
    if len(messages) == 1 and isinstance(messages[0], dict):
        content = messages[0].get("content")
        texts = (
            [content]
            if isinstance(content, str)
            else [b.get("text") for b in content or [] if isinstance(b, dict)]
        )
        # The hooks' context for the subagent (a SubagentStart hook's) comes before it.
        if texts and texts[-1] == WARMUP:
            return False
    return True


def observe(layout: Layout, status: dict[str, Any], prompt: str) -> dict[str, Any]:
    """The observation of one run (JSON data, paths as ``$ROOT``)."""
    stream = json_lines(layout.root / "stream.jsonl")
    requests = json_lines(layout.root / "requests.jsonl")
    main = [r for r in requests if _model_request(r)]
    result = next((item for item in stream if item.get("type") == "result"), {})
    runs = hook_runs(layout.dumps)
    debug = layout.root / "debug.log"
    debug_text = debug.read_text(encoding="utf-8", errors="replace") if debug.exists() else ""
    observation = {
        "status": status,
        "hooks": [run for run in runs if run["hook"] != PROBE],
        "probe": probe_rows(runs),
        "hookEvents": [
            {key: item.get(key) for key in ("hook_name", "hook_event", "outcome", "exit_code")}
            for item in stream
            if item.get("type") == "system" and item.get("subtype") == "hook_response"
        ],
        "tools": tool_results(stream),
        "modelTexts": model_texts(requests, prompt),
        "notices": [
            item.get("content")
            for item in stream
            if item.get("type") == "system" and item.get("subtype") == "informational"
        ],
        "requests": len(main),
        "toolsOffered": sorted(t.get("name") for t in main[0]["body"]["tools"]) if main else [],
        "result": {
            key: result.get(key)
            for key in (
                "subtype",
                "is_error",
                "terminal_reason",
                "stop_reason",
                "num_turns",
                "result",
            )
        },
        "cancelled": sorted(set(re.findall(r"(?i)hook[^\n]*cancel[^\n]*", debug_text)))[:20],
    }
    normal: dict[str, Any] = _normal(observation, str(layout.root))
    return normal
