"""An interactive session script through the real Claude Code, and its transcript read back.

Claude Code runs without ``-p``, on a pseudo-terminal (``terminal``), through
``namespace``: the same loopback-only network namespace, mock Messages API and scratch
HOME as print mode. The script's actions become the terminal's steps with the waits a
person makes (``interactive.session_steps``), and ``~/.claude.json`` skips the first-run
screens. The interface has no stream-json, so the transcript is read from three traces,
each in the format of ``hookcourse.session.transcript``:

- the mock's request log: what each request showed the model, and the turn it got;
- the hook scripts' own dumps (``RECORDING_PRELUDE`` heads each: payload, stdout,
  stderr, exit status, start time): which hooks ran for which event;
- the session's transcript file (``~/.claude/projects/...``): which tool calls ran.

A hook run belongs to the last user action that began before it (the terminal says
when each step began): a slash command's runs are that command's; a prompt's
UserPromptSubmit belongs to the prompt; any other run to the last model request before
it (the mock logs when each came), or before the first request to the start.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hookcourse.engine.api import event_spec

from .interactive import first_run_done, session_steps
from .mock_api import is_main, is_summary_request
from .script import Layout, SessionScript, claude_flags, substitute
from .traces import json_lines, new_items, ran_calls, scripted_calls
from .transcript import Transcript, event_run
from .turns import FALLBACK_TEXT, TurnPlayer

INTERACTIVE_TIMEOUT_S = 180.0
"""The whole interactive run's bound (each wait has its own, shorter one)."""
RECORDING_PRELUDE = """#!/bin/sh
__d=@dumps; __id="%(name)s.$(date +%%s%%N).$$"
cat > "$__d/$__id.in"
exec 3>&1 4>&2 <"$__d/$__id.in" >"$__d/$__id.out" 2>"$__d/$__id.err"
trap '__s=$?; cat "$__d/$__id.out" >&3; cat "$__d/$__id.err" >&4
echo "$__s" > "$__d/$__id.end"; exit "$__s"' EXIT
"""
"""Heads each hook script of an interactive run: the hook reads its payload and writes
its output as before, and leaves them in the dump folder, with its exit status."""
PROMPT_EVENTS = ("UserPromptSubmit", "UserPromptExpansion")


def interactive_argv(binary: str, script: SessionScript, layout: Layout) -> list[str]:
    """The interface's command line (no ``-p``)."""
    return [binary, "--debug-file", str(layout.root / "debug.log"), *claude_flags(script, layout)]


def interactive_spec(script: SessionScript, layout: Layout, api_key: str) -> dict[str, Any]:
    """The runner's further keys for an interactive run: its steps, where the screen and
    the dumps go; and ``~/.claude.json`` written so no first-run screen shows."""
    first_run_done(layout.home, layout.project, api_key)
    actions = substitute(list(script.data["interactive"]), layout)
    steps, _firsts = session_steps(actions)
    return {
        "interactive": steps,
        "screen": str(layout.root / "screen.txt"),
        "dumps": str(layout.dumps),
    }


# --- reading a run back -------------------------------------------------------------------


def transcript_items(home: Path) -> list[dict[str, Any]]:
    """The user and assistant entries of every session transcript under ``home``, oldest
    first (``/clear`` starts a new one), with the structured tool result under the name
    stream-json gives it (``tool_use_result``)."""
    files = sorted(
        (home / ".claude" / "projects").glob("*/*.jsonl"), key=lambda path: path.stat().st_mtime_ns
    )
    items = []
    for path in files:
        for item in json_lines(path):
            if item.get("type") not in ("user", "assistant") or item.get("isSidechain"):
                continue
            items.append({**item, "tool_use_result": item.get("toolUseResult")})
    return items


def conversation_requests(requests: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The main conversation's requests: tools offered, not a summary request, and a
    request sent again with the same messages (a retry) counted once."""
    kept: list[Mapping[str, Any]] = []
    last: Any = None
    for request in requests:
        body = request.get("body", {})
        if request.get("method") != "POST" or not isinstance(body, dict) or not body.get("tools"):
            continue
        if is_summary_request(body):
            continue
        messages = json.dumps(body.get("messages"), sort_keys=True)
        if messages == last:
            continue
        last = messages
        kept.append(request)
    return kept


def hook_dumps(dumps: Path) -> list[dict[str, Any]]:
    """Each hook run ``RECORDING_PRELUDE`` left, in start order: its event label, start
    and end (ns), exit status, stdout and stderr."""
    runs = []
    for stdin in dumps.glob("*.in"):
        base = str(stdin)[: -len(".in")]
        try:
            started = int(stdin.name.split(".")[1])
            payload = json.loads(stdin.read_text(encoding="utf-8"))
        except (ValueError, IndexError, OSError):
            continue
        if not isinstance(payload, dict):
            continue
        end = Path(base + ".end")
        exit_text = end.read_text(encoding="utf-8").strip() if end.exists() else ""
        runs.append(
            {
                "hook": stdin.name.split(".")[0],
                "label": _label(payload),
                "payload": payload,
                "started": started,
                "ended": end.stat().st_mtime_ns if end.exists() else started,
                "exitCode": int(exit_text) if exit_text.lstrip("-").isdigit() else None,
                "stdout": _text(Path(base + ".out")),
                "stderr": _text(Path(base + ".err")),
            }
        )
    return sorted(runs, key=lambda run: run["started"])


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""


def _label(payload: Mapping[str, Any]) -> str:
    """How Claude Code names an event's hooks: ``PreToolUse:Bash``, ``Stop``."""
    event = str(payload.get("hook_event_name"))
    try:
        field = event_spec(event).matcher_field
    except (KeyError, ValueError):
        return event
    subject = payload.get(field) if field is not None else None
    return f"{event}:{subject}" if isinstance(subject, str) else event


def _firings(runs: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The runs grouped into firings: runs of one event label that overlap in time are one
    firing (Claude Code runs an event's hooks side by side)."""
    firings: list[dict[str, Any]] = []
    for run in runs:
        last = firings[-1] if firings else None
        if last is not None and last["label"] == run["label"] and run["started"] <= last["ended"]:
            last["runs"].append(run)
            last["ended"] = max(last["ended"], run["ended"])
            continue
        firings.append(
            {"label": run["label"], "started": run["started"], "ended": run["ended"], "runs": [run]}
        )
    return firings


def _event(firing: Mapping[str, Any], layout: Layout) -> dict[str, Any]:
    hooks = [
        {
            # The dump is named after the script that ran: the command @hook:NAME became.
            "command": f'command "{layout.hook_command(run["hook"])}"',
            "exitCode": run["exitCode"],
            "stdout": run["stdout"],
            "stderr": run["stderr"],
            "read": "Claude Code (interactive): not reported",
        }
        for run in firing["runs"]
    ]
    event = str(firing["label"]).split(":", 1)[0]
    return event_run(event, str(firing["label"]), hooks)


def read_interactive(root: Path, script: SessionScript, status: Mapping[str, Any]) -> Transcript:
    """The transcript of a finished interactive run from its traces under ``root``."""
    layout = Layout(root)
    requests = conversation_requests(json_lines(root / "requests.jsonl"))
    actions = substitute(list(script.data["interactive"]), layout)
    _steps, firsts = session_steps(actions)
    began = list(status.get("stepsBegan") or [])
    # When each action began; one the run never reached begins after everything.
    action_at = [began[i] if i < len(began) else 2**63 for i in firsts]
    times = [int(request.get("at", 0)) for request in requests]
    start: list[dict[str, Any]] = []
    rounds_events: list[list[dict[str, Any]]] = [[] for _ in requests]
    prompt_numbers = _prompt_numbers(actions)
    later: dict[int, list[dict[str, Any]]] = {n: [] for n in prompt_numbers.values() if n > 0}
    done: dict[int, list[dict[str, Any]]] = {
        n: [] for n, action in enumerate(actions) if "command" in action or "write" in action
    }
    for firing in _firings(hook_dumps(root / "dumps")):
        event = _event(firing, layout)
        at = firing["started"]
        acting = max((n for n, when in enumerate(action_at) if when <= at), default=None)
        if acting is not None and acting in done:
            done[acting].append(event)
            continue
        if acting is not None and event["event"] in PROMPT_EVENTS and acting in prompt_numbers:
            number = prompt_numbers[acting]
            (start if number == 0 else later[number]).append(event)
            continue
        request = max((n for n, when in enumerate(times) if when <= at), default=None)
        (start if request is None else rounds_events[request]).append(event)
    items = transcript_items(layout.home)
    rounds = _rounds(requests, script, layout, items, rounds_events)
    ended = _prompt_ends(items, times, action_at, actions)
    end = ended[-1] if ended else {"reason": "no prompt"}
    if "stuck" in status:
        end = {"reason": "stuck", "notes": [f"the terminal waited in vain for {status['waiting']}"]}
    transcript: Transcript = {
        "script": script.name,
        "engine": "Claude Code",
        "mode": "interactive",
        "start": start,
        "rounds": rounds,
        "end": end,
        "actions": [
            {
                "action": _said(actions[n]),
                "round": sum(1 for when in times if when < action_at[n]),
                "events": events,
            }
            for n, events in done.items()
        ],
    }
    prompts = [
        {
            "prompt": str(actions[n]["prompt"]),
            "round": sum(1 for when in times if when < action_at[n]),
            "events": later[number],
            "before": ended[number - 1] if number - 1 < len(ended) else {"reason": "no result"},
        }
        for n, number in prompt_numbers.items()
        if number > 0
    ]
    if prompts:
        transcript["prompts"] = prompts
    return transcript


def untraced_hooks(script: SessionScript) -> list[str]:
    """The hook commands in the script's settings that are not one of its own ``hooks``
    (``@hook:NAME``): an interactive run leaves no trace of them."""
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            command = value.get("command")
            is_command = value.get("type", "command") == "command" and isinstance(command, str)
            if is_command and not str(command).strip().startswith("@hook:"):
                found.append(str(command))
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(script.data.get("settings", {}))
    return found


def _said(action: Mapping[str, Any]) -> str:
    return str(action["command"]) if "command" in action else f"writes {action.get('write')}"


def _prompt_numbers(actions: Sequence[Mapping[str, Any]]) -> dict[int, int]:
    """Action index -> which prompt of the session it is (from 0)."""
    numbers: dict[int, int] = {}
    for n, action in enumerate(actions):
        if "prompt" in action:
            numbers[n] = len(numbers)
    return numbers


def _rounds(
    requests: Sequence[Mapping[str, Any]],
    script: SessionScript,
    layout: Layout,
    items: Sequence[Mapping[str, Any]],
    events: Sequence[list[dict[str, Any]]],
) -> list[dict[str, Any]]:
    """One round per model request, as ``real.read_run`` reads print mode's."""
    player = TurnPlayer(substitute(script.turns, layout))
    news = new_items(requests)
    ran = ran_calls(items)
    rounds = []
    for number, request in enumerate(requests):
        body = request["body"]
        index: int | None = None
        turn: Mapping[str, Any] = {}
        # The mock plays the script's turns in the conversation its first prompt began;
        # once /compact or /clear replaced it, the fallback text.
        if is_main(body, script.prompt):
            index, turn = player.play(body.get("messages", []))
        calls = scripted_calls(turn, index, ran)
        text = turn.get("text") or (None if calls else FALLBACK_TEXT)
        rounds.append(
            {
                "turn": index,
                "text": text,
                "shown": news[number],
                "calls": calls,
                "events": events[number],
            }
        )
    return rounds


def _prompt_ends(
    items: Sequence[Mapping[str, Any]],
    times: Sequence[int],
    action_at: Sequence[int],
    actions: Sequence[Mapping[str, Any]],
) -> list[dict[str, Any]]:
    """How each prompt ended: ``prompt_blocked`` when it made no model request (a
    UserPromptSubmit hook blocked it), ``interrupted`` when the session's transcript shows
    the user interrupted it (a dialog answered no without feedback), else ``completed``."""
    interruptions = [
        item
        for item in items
        if item.get("type") == "user" and "[Request interrupted by user" in json.dumps(item)
    ]
    ends = []
    prompts = [n for n, action in enumerate(actions) if "prompt" in action]
    for position, n in enumerate(prompts):
        until = action_at[prompts[position + 1]] if position + 1 < len(prompts) else 2**63
        interrupted = any(
            _item_time(item) is not None and action_at[n] <= (_item_time(item) or 0) < until
            for item in interruptions
        )
        asked = any(action_at[n] <= when < until for when in times)
        reason = "interrupted" if interrupted else "completed"
        ends.append({"reason": reason if asked else "prompt_blocked"})
    return ends


def _item_time(item: Mapping[str, Any]) -> int | None:
    """A transcript entry's timestamp (ISO 8601), as wall-clock nanoseconds."""
    import datetime

    stamp = item.get("timestamp")
    if not isinstance(stamp, str):
        return None
    try:
        moment = datetime.datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None
    return int(moment.timestamp() * 1_000_000_000)
