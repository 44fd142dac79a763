"""The scripted model: which of a session script's turns it plays next.

A turn is ``{"text": ..., "tools": [{"name", "input"}, ...], "if": "error"|"ok"}``.
Turns are played in order; a turn with ``"if": "error"`` is played only when a
tool_result of the turn before came back with ``is_error`` (a hook blocked the
call, or the tool failed), one with ``"if": "ok"`` only when none did. That is all
the scripted model may look at, because it is all a model is shown of a tool call.

``TurnPlayer`` answers a real Claude Code's requests (the mock Messages API calls
it); ``choose`` is the same choice for hookcourse's own loop. Standard library
only, with no imports from the rest of the package, so the mock can load it alone.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

Turn = Mapping[str, Any]
FALLBACK_TEXT = "Done."
"""What the model says once the script has no turn left (the oracle mock's fallback)."""


def tool_use_id(turn_index: int, call_index: int) -> str:
    """The id the scripted model gives a tool call: the same in both engines."""
    return f"toolu_t{turn_index}c{call_index}"


def applies(turn: Turn, errors: Sequence[bool]) -> bool:
    """Whether ``turn`` is played after a turn whose tool_results had ``errors``."""
    condition = turn.get("if")
    if condition == "error":
        return any(errors)
    if condition == "ok":
        return not any(errors)
    return True


def choose(turns: Sequence[Turn], start: int, errors: Sequence[bool]) -> int | None:
    """The index of the next turn played at or after ``start``; None when the script ends."""
    for index in range(start, len(turns)):
        if applies(turns[index], errors):
            return index
    return None


def _tool_results(messages: Sequence[Any]) -> dict[str, bool]:
    """tool_use_id -> is_error for every tool_result in a request's messages."""
    found: dict[str, bool] = {}
    for message in messages:
        content = message.get("content") if isinstance(message, dict) else None
        for block in content if isinstance(content, list) else []:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                found[str(block.get("tool_use_id"))] = block.get("is_error") is True
    return found


def _fingerprint(messages: Sequence[Any]) -> str:
    """The conversation as sent, without cache markers: a retried request has the same one."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k != "cache_control"}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    text = json.dumps(strip(list(messages)), sort_keys=True)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class TurnPlayer:
    """Plays the turns to a real Claude Code, one per new main-conversation request.

    Claude Code merges consecutive assistant messages before sending them, so the
    number of assistant messages does not tell how many turns were played; the
    player remembers instead. A request it has answered before (a retry) gets the
    same turn again.
    """

    def __init__(self, turns: Sequence[Turn]) -> None:
        self.turns = list(turns)
        self._answered: dict[str, int | None] = {}
        self._next = 0
        self._last: int | None = None

    def play(self, messages: Sequence[Any]) -> tuple[int | None, Turn]:
        """The turn index (None past the end) and the turn for a request's ``messages``."""
        key = _fingerprint(messages)
        if key not in self._answered:
            errors: list[bool] = []
            if self._last is not None:
                results = _tool_results(messages)
                calls = len(self.turns[self._last].get("tools") or [])
                errors = [results.get(tool_use_id(self._last, n), False) for n in range(calls)]
            index = choose(self.turns, self._next, errors)
            self._answered[key] = index
            if index is not None:
                self._next, self._last = index + 1, index
            else:
                self._next, self._last = len(self.turns), None
        index = self._answered[key]
        return index, ({} if index is None else self.turns[index])
