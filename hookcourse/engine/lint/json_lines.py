"""The line each JSON path of a document starts on, for annotations (``--format github``)."""

from __future__ import annotations

import bisect
import contextlib
import json
from typing import Final

from hookcourse.errors import json_path

from .registry import JSONPath

_DECODER: Final = json.JSONDecoder()
_WHITESPACE: Final = " \t\n\r"


def json_path_lines(text: str) -> dict[str, int]:
    """``$.hooks.PreToolUse[0]`` -> 1-based line of its value, for a document that parsed.

    A document this cannot walk (it parsed under JavaScript rules) gives what was found so far.
    """
    lines: dict[str, int] = {}
    with contextlib.suppress(ValueError, IndexError, RecursionError):
        _Walker(text, lines).value(0, ())
    return lines


class _Walker:
    def __init__(self, text: str, lines: dict[str, int]) -> None:
        self.text = text
        self.lines = lines
        self.breaks = [i for i, ch in enumerate(text) if ch == "\n"]

    def skip(self, i: int) -> int:
        text = self.text
        while i < len(text) and (text[i] in _WHITESPACE or text[i] == "\ufeff"):
            i += 1
        return i

    def value(self, i: int, path: JSONPath) -> int:
        i = self.skip(i)
        self.lines.setdefault(json_path(path), bisect.bisect_left(self.breaks, i) + 1)
        ch = self.text[i]
        if ch == "{":
            return self.members(i + 1, path)
        if ch == "[":
            return self.items(i + 1, path)
        _value, end = _DECODER.raw_decode(self.text, i)
        return int(end)

    def members(self, i: int, path: JSONPath) -> int:
        i = self.skip(i)
        if self.text[i] == "}":
            return i + 1
        while True:
            key, i = _DECODER.raw_decode(self.text, self.skip(i))
            i = self.skip(i)
            if self.text[i] != ":":
                raise ValueError("expected :")
            i = self.skip(self.value(i + 1, (*path, str(key))))
            if self.text[i] == "}":
                return i + 1
            i += 1  # ","

    def items(self, i: int, path: JSONPath) -> int:
        i = self.skip(i)
        if self.text[i] == "]":
            return i + 1
        index = 0
        while True:
            i = self.skip(self.value(i, (*path, index)))
            index += 1
            if self.text[i] == "]":
                return i + 1
            i += 1
