"""The YAML frontmatter of a skill, command or rules file, read as the block subset such
files are written in: nested mappings (``key: value``), sequences (``- item``), flow lists
(``[a, "b"]``) and scalars (quoted or plain; ``true``, ``false``, ``null``, numbers).

Pure. Anything outside that subset is read as a plain string rather than refused: Claude
Code's own reader is a full YAML parser, and a file it reads differently is outside what
the course models.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Final

from hookcourse.js.values import JSValue

_NUMBER: Final = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?")
_PLAIN: Final = {"true": True, "false": False, "null": None, "~": None}


@dataclass(frozen=True)
class _Line:
    indent: int
    text: str


def split_frontmatter(text: str) -> tuple[dict[str, JSValue], str]:
    """The frontmatter mapping (empty without one) and the body after it."""
    lines = text.lstrip("\ufeff").split("\n")
    if not lines or lines[0].rstrip() != "---":
        return {}, text.lstrip("\ufeff")
    for end in range(1, len(lines)):
        if lines[end].rstrip() == "---":
            value = parse_block_yaml("\n".join(lines[1:end]))
            body = "\n".join(lines[end + 1 :])
            return (value if isinstance(value, dict) else {}), body
    return {}, text.lstrip("\ufeff")


def parse_block_yaml(text: str) -> JSValue:
    """The value of a block-YAML document (None when it holds nothing)."""
    lines = [
        _Line(len(raw) - len(raw.lstrip(" ")), _uncommented(raw.strip()))
        for raw in text.split("\n")
        if raw.strip() and not raw.strip().startswith("#")
    ]
    if not lines:
        return None
    try:
        value, _ = _block(lines, 0, lines[0].indent)
    except RecursionError:
        return None  # nested past Python's stack: read as holding nothing
    return value


def _uncommented(text: str) -> str:
    """``text`` without a trailing `` # comment`` outside quotes."""
    quote = None
    for index, char in enumerate(text):
        if quote is not None:
            quote = None if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char == "#" and index > 0 and text[index - 1] in " \t":
            return text[:index].rstrip()
    return text


def _is_item(line: _Line) -> bool:
    return line.text == "-" or line.text.startswith("- ")


def _block(lines: list[_Line], at: int, indent: int) -> tuple[JSValue, int]:
    if _is_item(lines[at]):
        return _sequence(lines, at, indent)
    return _mapping(lines, at, indent)


def _nested(lines: list[_Line], at: int, indent: int) -> tuple[JSValue, int]:
    """The block after a ``key:`` or a bare ``-`` at ``indent`` (None when there is none)."""
    if at < len(lines) and (
        lines[at].indent > indent or (lines[at].indent == indent and _is_item(lines[at]))
    ):
        return _block(lines, at, lines[at].indent)
    return None, at


def _sequence(lines: list[_Line], at: int, indent: int) -> tuple[JSValue, int]:
    items: list[JSValue] = []
    while at < len(lines) and lines[at].indent == indent and _is_item(lines[at]):
        rest = lines[at].text[1:].lstrip(" ")
        if not rest:
            value, at = _nested(lines, at + 1, indent + 1)
        else:
            # "- key: value" opens a mapping whose keys line up with "key".
            inner = indent + len(lines[at].text) - len(rest)
            lines[at] = _Line(inner, rest)
            value, at = _block(lines, at, inner) if _key_of(rest) else (_scalar(rest), at + 1)
        items.append(value)
    return items, at


def _key_of(text: str) -> tuple[str, str] | None:
    """``(key, rest)`` of a ``key: value`` or ``key:`` line, else None."""
    if text[:1] in "\"'":
        close = text.find(text[0], 1)
        if close > 0 and text[close + 1 : close + 2] == ":":
            tail = text[close + 2 :]
            if not tail or tail[0] == " ":
                return str(_scalar(text[: close + 1])), tail.strip()
        return None
    match = re.match(r"([^:\[\]{},]+?):( |$)", text)
    if match is None:
        return None
    return match.group(1).strip(), text[match.end() :].strip()


def _mapping(lines: list[_Line], at: int, indent: int) -> tuple[JSValue, int]:
    found: dict[str, JSValue] = {}
    while at < len(lines) and lines[at].indent == indent and not _is_item(lines[at]):
        pair = _key_of(lines[at].text)
        if pair is None:
            return (found or _scalar(lines[at].text)), at + 1
        key, rest = pair
        if rest:
            found[key], at = _scalar(rest), at + 1
        else:
            found[key], at = _nested(lines, at + 1, indent)
    return found, at


def _scalar(text: str) -> JSValue:
    if text.startswith('"') and text.endswith('"') and len(text) > 1:
        try:
            value: JSValue = json.loads(text)
            return value
        except ValueError:
            return text[1:-1]
    if text.startswith("'") and text.endswith("'") and len(text) > 1:
        return text[1:-1].replace("''", "'")
    if text.startswith("[") and text.endswith("]"):
        inner = text[1:-1].strip()
        return [_scalar(part.strip()) for part in _flow_items(inner)] if inner else []
    if text in _PLAIN:
        return _PLAIN[text]
    if _NUMBER.fullmatch(text):
        return float(text) if "." in text else int(text)
    return text


def _flow_items(text: str) -> list[str]:
    """A flow list's items, split on commas outside quotes."""
    items, start, quote = [], 0, None
    for index, char in enumerate(text):
        if quote is not None:
            quote = None if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char == ",":
            items.append(text[start:index])
            start = index + 1
    items.append(text[start:])
    return items
