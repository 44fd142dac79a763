"""The MCP stub the elicitation scenarios start: its JSON-RPC exchange, without Claude Code."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from oracle_compare import ELICITED

STUB = Path(__file__).resolve().parent / "mcp_stub.py"


class Client:
    """The stub as a subprocess, spoken to one JSON line at a time."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(STUB)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()

    def receive(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        message: dict[str, Any] = json.loads(self.process.stdout.readline())
        return message

    def close(self) -> int:
        assert self.process.stdin is not None
        self.process.stdin.close()
        return self.process.wait(timeout=10)


def _start(capabilities: dict[str, Any]) -> Client:
    client = Client()
    client.send(
        {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": capabilities},
        }
    )
    assert client.receive()["result"]["protocolVersion"] == "2025-11-25"
    client.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    return client


def _call(client: Client, arguments: dict[str, Any]) -> None:
    client.send(
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "ask", "arguments": arguments},
        }
    )


def test_a_call_elicits_and_returns_the_answer() -> None:
    client = _start({"elicitation": {}})
    client.send({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    assert [tool["name"] for tool in client.receive()["result"]["tools"]] == ["ask"]
    schema = {"type": "object", "properties": {"n": {"type": "string"}}}
    _call(client, {"message": "Your name?", "schema": schema})
    asked = client.receive()
    assert asked["method"] == "elicitation/create"
    assert asked["params"] == {"message": "Your name?", "requestedSchema": schema}
    client.send(
        {"jsonrpc": "2.0", "id": asked["id"], "result": {"action": "accept", "content": {"n": "A"}}}
    )
    text = client.receive()["result"]["content"][0]["text"]
    assert text == 'action=accept content={"n": "A"}'
    match = ELICITED.match(text)
    assert match is not None and match.group(1) == "accept"
    assert client.close() == 0


def test_a_client_that_cannot_elicit_is_told_so() -> None:
    client = _start({})
    _call(client, {})
    assert client.receive()["result"]["content"][0]["text"] == "no elicitation"
    client.send({"jsonrpc": "2.0", "id": 3, "method": "resources/list"})
    assert client.receive()["error"]["code"] == -32601
    assert client.close() == 0
