"""A harmless tool for the agent-loop demo: it appends one line of text to a file."""

from __future__ import annotations

from pathlib import Path

from hookcourse.js import json as jsjson
from hookcourse.js.values import JSValue, Undefined


class Journal:
    """The tool ``{"text": "..."}`` -> the text appended as one line of ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __call__(self, tool_input: JSValue | Undefined) -> str:
        text = tool_input.get("text") if isinstance(tool_input, dict) else None
        if not isinstance(text, str) or "\n" in text:
            return f'error: expected {{"text": "one line"}}, got {jsjson.stringify(tool_input)}'
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(text + "\n")
        return f"appended {jsjson.quote(text)}"

    def lines(self) -> list[str]:
        """The journal's lines so far (none before the first append)."""
        if not self.path.exists():
            return []
        return self.path.read_text(encoding="utf-8").splitlines()
