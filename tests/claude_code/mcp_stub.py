"""A stdio MCP server for the oracle: one tool, ``ask``, that asks the user for input.

Claude Code starts it as a local command (``--mcp-config``); it speaks JSON-RPC, one
message a line, on stdin and stdout, and touches no network. A call of ``ask`` (its
arguments: ``message`` and ``schema``, the form's JSON schema) sends the client an
``elicitation/create`` request, waits for the answer, and returns it as the tool's
text: ``action=<action> content=<content as JSON>``, so the tool_result shows what the
server was sent back. A client that did not declare the elicitation capability gets the
text ``no elicitation``. Standard library only.
"""

from __future__ import annotations

import json
import sys
from typing import Any

SCHEMA = {
    "type": "object",
    "properties": {"name": {"type": "string", "title": "Name"}},
    "required": ["name"],
}
"""The form asked for when a call gives no ``schema``."""
TOOL = {
    "name": "ask",
    "description": "Ask the user to fill in a short form.",
    "inputSchema": {
        "type": "object",
        "properties": {"message": {"type": "string"}, "schema": {"type": "object"}},
    },
}


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def receive() -> dict[str, Any] | None:
    """The next message (None at the end of input); a line that is not one is skipped."""
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if isinstance(message, dict):
            return message
    return None


def elicit(arguments: dict[str, Any], asked: int) -> str:
    """Send ``elicitation/create`` and wait for its answer; the answer as the tool's text."""
    request_id = f"elicit-{asked}"
    params = {
        "message": str(arguments.get("message") or "Who are you?"),
        "requestedSchema": arguments.get("schema") or SCHEMA,
    }
    send({"jsonrpc": "2.0", "id": request_id, "method": "elicitation/create", "params": params})
    while (message := receive()) is not None:
        if message.get("id") != request_id or "method" in message:
            continue  # the client sends nothing else while it waits; a stray line is ignored
        if "error" in message:
            return f"error={json.dumps(message['error'], sort_keys=True)}"
        result = message.get("result") or {}
        content = json.dumps(result.get("content"), sort_keys=True)
        return f"action={result.get('action')} content={content}"
    return "no answer"


def serve() -> None:
    """Answer the client until its input ends."""
    can_elicit = False
    asked = 0
    while (message := receive()) is not None:
        method, request_id = message.get("method"), message.get("id")
        if request_id is None:
            continue  # a notification (initialized, cancelled): nothing to answer
        result: dict[str, Any]
        if method == "initialize":
            params = message.get("params") or {}
            can_elicit = "elicitation" in (params.get("capabilities") or {})
            result = {
                "protocolVersion": params.get("protocolVersion", "2025-06-18"),
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "oracle-asker", "version": "1.0.0"},
            }
        elif method == "tools/list":
            result = {"tools": [TOOL]}
        elif method == "tools/call":
            asked += 1
            arguments = (message.get("params") or {}).get("arguments") or {}
            text = elicit(arguments, asked) if can_elicit else "no elicitation"
            result = {"content": [{"type": "text", "text": text}]}
        elif method == "ping":
            result = {}
        else:
            send(
                {
                    "jsonrpc": "2.0",
                    "id": request_id,
                    "error": {"code": -32601, "message": f"no method {method}"},
                }
            )
            continue
        send({"jsonrpc": "2.0", "id": request_id, "result": result})


if __name__ == "__main__":
    serve()
