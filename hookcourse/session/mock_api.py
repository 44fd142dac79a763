"""A scripted Anthropic Messages API on 127.0.0.1: plays assistant turns, logs every request.

Requests of the main conversation (``tools`` offered, the session's prompt in
its first message) are answered by a player: ``in-order`` (the oracle harness's:
the next turn for each request) or ``session`` (``turns.TurnPlayer``: ``"if"``
turns, and a retried request gets the same turn). Claude Code merges consecutive
assistant messages, so counting the history's assistant messages would not say
which turn is next; the players count requests instead. Side requests (titles,
summaries) and subagents get a plain text; a compaction request (``/compact``) gets
``SUMMARY``. A turn with ``error`` is answered with that API error (its ``status``,
``type`` and ``message``). A turn's ``pause`` (seconds, oracle
scenarios only) holds its answer that long. Streaming (SSE) and plain JSON answers
are both served; each logged request carries ``at``, when it came (wall-clock
nanoseconds). Standard library only (``namespace`` runs it without the rest of
the package's imports).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Mapping, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Protocol

from .turns import FALLBACK_TEXT, Turn, TurnPlayer, tool_use_id


class Player(Protocol):
    """Picks the turn for one main-conversation request: (its index or None, the turn)."""

    def play(self, messages: Sequence[Any]) -> tuple[int | None, Turn]: ...


class InOrder:
    """The next scripted turn for every request, whatever it holds (the oracle's player)."""

    def __init__(self, turns: Sequence[Turn]) -> None:
        self.turns = list(turns)
        self.played = 0

    def play(self, messages: Sequence[Any]) -> tuple[int | None, Turn]:
        index, self.played = self.played, self.played + 1
        return (index, self.turns[index]) if index < len(self.turns) else (None, {})


MAX_PAUSE = 10.0
"""The longest a turn's ``pause`` (seconds before its answer) may hold a request."""

PLAYERS: dict[str, type[InOrder] | type[TurnPlayer]] = {"in-order": InOrder, "session": TurnPlayer}


def _blocks(turn: Turn, index: int | None) -> list[dict[str, Any]]:
    """A scripted turn as content blocks: optional text, then tool_use blocks."""
    blocks: list[dict[str, Any]] = []
    if turn.get("text"):
        blocks.append({"type": "text", "text": turn["text"]})
    for number, call in enumerate(turn.get("tools", [])):
        blocks.append(
            {
                "type": "tool_use",
                "id": call.get("id", tool_use_id(-1 if index is None else index, number)),
                "name": call["name"],
                "input": call.get("input", {}),
            }
        )
    if not blocks:
        blocks.append({"type": "text", "text": FALLBACK_TEXT})
    return blocks


def _message(blocks: list[dict[str, Any]], model: str) -> dict[str, Any]:
    stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
    return {
        "id": "msg_mock",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": blocks,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 5},
    }


def _sse(message: dict[str, Any]) -> bytes:
    """The message as the SSE event stream the Messages API sends."""
    events: list[tuple[str, dict[str, Any]]] = []
    head = {**message, "content": [], "stop_reason": None}
    events.append(("message_start", {"type": "message_start", "message": head}))
    for index, block in enumerate(message["content"]):
        start: dict[str, Any]
        if block["type"] == "text":
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        else:
            start = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        events.append(
            (
                "content_block_start",
                {"type": "content_block_start", "index": index, "content_block": start},
            )
        )
        events.append(
            ("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta})
        )
        events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
    events.append(
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
                "usage": {"output_tokens": 5},
            },
        )
    )
    events.append(("message_stop", {"type": "message_stop"}))
    return b"".join(
        f"event: {name}\ndata: {json.dumps(data)}\n\n".encode() for name, data in events
    )


SUMMARY = (
    "<analysis>A short conversation.</analysis>\n"
    "<summary>The user asked; the model answered.</summary>"
)
"""The mock's answer to a compaction request."""
SUMMARY_ASK = "Respond with plain text only"
"""Words of Claude Code's compaction request (its last user message), 2.1.332."""
ERROR_STATUS = "_status"


def is_summary_request(body: Mapping[str, Any]) -> bool:
    """Whether a request asks for the conversation's summary (``/compact``)."""
    messages = body.get("messages") or []
    last = messages[-1] if messages and isinstance(messages[-1], dict) else {}
    content = last.get("content")
    texts = (
        [content]
        if isinstance(content, str)
        else [str(b.get("text", "")) for b in content or [] if isinstance(b, dict)]
    )
    return any(SUMMARY_ASK in text and "<summary>" in text for text in texts)


def _error(error: Mapping[str, Any]) -> dict[str, Any]:
    """A scripted turn's ``error`` (``status``, ``type``, ``message``) as the API's error body."""
    return {
        ERROR_STATUS: int(error.get("status", 400)),
        "type": "error",
        "error": {
            "type": str(error.get("type", "invalid_request_error")),
            "message": str(error.get("message", "The scripted model refused the request.")),
        },
    }


def is_main(body: Mapping[str, Any], prompt: str) -> bool:
    """Whether a Messages request belongs to the main conversation: tools are offered and
    its first message holds the session's (first) prompt."""
    if not body.get("tools"):
        return False
    messages = body.get("messages") or [{}]
    content = messages[0].get("content") if isinstance(messages[0], dict) else None
    if isinstance(content, str):
        return prompt in content
    return any(isinstance(b, dict) and prompt in str(b.get("text", "")) for b in content or [])


class MockAPI:
    """The server: ``turns`` are the scripted turns, played by ``player`` (a ``PLAYERS``
    name); ``log`` gets one JSON line a request."""

    def __init__(
        self, turns: Sequence[Turn], log: Path, prompt: str, player: str = "in-order"
    ) -> None:
        self.player: Player = PLAYERS[player](turns)
        self.prompt = prompt
        self.log = log
        self._lock = threading.Lock()
        self._failed: dict[int, Mapping[str, Any]] = {}
        """The error each failed conversation (by its length) got."""
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]

    def _record(self, entry: dict[str, Any]) -> None:
        # When it came (wall clock, ns): a reader places the hooks' dumps between requests.
        stamped = {**entry, "at": time.time_ns()}
        with self._lock, self.log.open("a", encoding="utf-8") as out:
            out.write(json.dumps(stamped) + "\n")

    def answer(self, body: dict[str, Any]) -> dict[str, Any]:
        """The message for one Messages request (an ``ERROR_STATUS`` key: an API error)."""
        model = str(body.get("model", "claude-mock"))
        if is_summary_request(body):
            # /compact: the summary Claude Code asks for, in the tags it reads it from.
            return _message([{"type": "text", "text": SUMMARY}], model)
        if not is_main(body, self.prompt):
            return _message([{"type": "text", "text": FALLBACK_TEXT}], model)
        messages = body.get("messages") or []
        with self._lock:
            failed = self._failed.get(len(messages))
            if failed is not None:
                # Claude Code sends a failed request again (without a beta, after a backoff):
                # the same conversation gets the same error, as a real API would give it.
                return _error(failed)
            index, turn = self.player.play(messages)
            error = turn.get("error")
            if isinstance(error, dict):
                self._failed[len(messages)] = error
                return _error(error)
        pause = turn.get("pause")
        if isinstance(pause, (int, float)) and not isinstance(pause, bool) and pause > 0:
            # A model that takes its time: Claude Code's hooks that it does not wait for
            # (InstructionsLoaded) then finish before the session ends, as they do in use.
            time.sleep(min(float(pause), MAX_PAUSE))
        return _message(_blocks(turn, index), model)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        api = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:
                return

            def _send(self, status: int, payload: bytes, kind: str) -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def do_GET(self) -> None:
                api._record({"method": "GET", "path": self.path})
                self._send(200, b"{}", "application/json")

            do_HEAD = do_GET

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {"unparsed": raw.decode("utf-8", "replace")}
                api._record({"method": "POST", "path": self.path, "body": body})
                if not self.path.startswith("/v1/messages") or "count_tokens" in self.path:
                    self._send(200, json.dumps({"input_tokens": 10}).encode(), "application/json")
                    return
                message = api.answer(body)
                if ERROR_STATUS in message:
                    status = int(message.pop(ERROR_STATUS))
                    self._send(status, json.dumps(message).encode(), "application/json")
                elif body.get("stream"):
                    self._send(200, _sse(message), "text/event-stream")
                else:
                    self._send(200, json.dumps(message).encode(), "application/json")

        return Handler

    def start(self) -> None:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
