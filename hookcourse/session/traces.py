"""A real Claude Code run read back: its stream, the mock's request log, what each request showed.

``read_run`` makes a print-mode run's transcript (``hookcourse.session.transcript``'s
format) from the stream-json output and the mock's log; ``json_lines``,
``shown_items`` and ``new_items`` are what the interactive reader
(``real_interactive``) shares with it.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from .mock_api import is_main
from .script import Layout, SessionScript, substitute
from .tools import session_texts
from .transcript import Transcript, event_run
from .turns import TurnPlayer, tool_use_id


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


def new_items(requests: Sequence[Mapping[str, Any]]) -> list[list[dict[str, Any]]]:
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


def ran_calls(stream: Sequence[Mapping[str, Any]]) -> dict[str, bool]:
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


def scripted_calls(
    turn: Mapping[str, Any], index: int | None, ran: Mapping[str, bool]
) -> list[dict[str, Any]]:
    """The calls of the scripted turn ``index`` as a transcript shows them, each with
    whether it ran (``ran``, by call id)."""
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
    return calls


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
    news = new_items(requests)
    ran = ran_calls(stream)
    rounds = []
    for number, request in enumerate(requests):
        index, turn = player.play(request["body"].get("messages", []))
        calls = scripted_calls(turn, index, ran)
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
