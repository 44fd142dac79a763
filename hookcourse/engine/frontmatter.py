"""The YAML frontmatter of a skill's SKILL.md, an agent's .md, a command or a rules file.

Block mappings and sequences, plain and quoted scalars, ``|``/``>`` block scalars, flow
lists of scalars, comments. Anything else is a ``FrontmatterError`` naming the line, never
a guess: ``validate`` then says it could not read the file rather than judge hooks it
misread, and ``split_frontmatter`` (what ``fire`` reads) takes it as no frontmatter.
Pure.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Final

from hookcourse.js.values import JSValue

_KEY: Final = re.compile(r"""([^\s"'#:{}\[\],&*!|>%@`-][^:#]*?|"[^"]*"|'[^']*')\s*:(?:\s+|$)""")
_NUMBER: Final = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_DEPTH_LIMIT: Final = 64


class FrontmatterError(ValueError):
    """The frontmatter is not YAML this reader follows; ``line`` is 1-based in the file."""

    def __init__(self, line: int, what: str, unsupported: bool = False) -> None:
        super().__init__(f"line {line}: {what}")
        self.line = line
        self.unsupported = unsupported
        """Valid YAML, perhaps, that this reader does not follow (anchors, tags, nested flow)."""


@dataclass(frozen=True)
class _Line:
    number: int
    indent: int
    text: str


def frontmatter(text: str) -> JSValue | None:
    """The parsed frontmatter between the first two ``---`` lines, or None when the file
    has none."""
    found = _blocks(text)
    return None if found is None else _Parser(found[0]).document()


def split_frontmatter(text: str) -> tuple[dict[str, JSValue], str]:
    """The frontmatter mapping and the body after it; an empty mapping when the file has
    none or one this reader does not follow (the course models only the subset above)."""
    try:
        found = _blocks(text)
    except FrontmatterError:
        found = None
    if found is None:
        return {}, text.lstrip("\ufeff")
    try:
        value = _Parser(found[0]).document()
    except FrontmatterError:
        value = None
    return (value if isinstance(value, dict) else {}), found[1]


def _blocks(text: str) -> tuple[list[_Line], str] | None:
    """The frontmatter's lines and the body after its closing line; None without one."""
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").split("\n")
    if not lines or lines[0].rstrip() != "---":
        return None
    body: list[_Line] = []
    for number, raw in enumerate(lines[1:], start=2):
        if raw.rstrip() in ("---", "..."):
            return body, "\n".join(lines[number:])
        if "\t" in raw[: len(raw) - len(raw.lstrip())]:
            raise FrontmatterError(number, "a tab in the indentation (YAML allows only spaces)")
        body.append(_Line(number, len(raw) - len(raw.lstrip(" ")), raw.strip()))
    raise FrontmatterError(len(lines), "the frontmatter has no closing --- line")


class _Parser:
    def __init__(self, lines: list[_Line]) -> None:
        self.lines = lines
        self.at = 0

    def document(self) -> JSValue:
        self._skip_blank()
        if self.at == len(self.lines):
            return {}
        value = self._block(self.lines[self.at].indent, 0)
        self._skip_blank()
        if self.at < len(self.lines):
            raise FrontmatterError(self.lines[self.at].number, "indentation that ends no block")
        return value

    def _skip_blank(self) -> None:
        while self.at < len(self.lines) and _content(self.lines[self.at].text) == "":
            self.at += 1

    def _block(self, indent: int, depth: int) -> JSValue:
        if depth > _DEPTH_LIMIT:
            raise FrontmatterError(
                self.lines[self.at].number, "nesting deeper than 64 levels, deeper than any hooks"
            )
        line = self.lines[self.at]
        text = _content(line.text)
        if text == "-" or text.startswith("- "):
            return self._sequence(indent, depth)
        return self._mapping(indent, depth)

    def _sequence(self, indent: int, depth: int) -> list[JSValue]:
        items: list[JSValue] = []
        while True:
            self._skip_blank()
            if self.at == len(self.lines) or self.lines[self.at].indent < indent:
                return items
            line = self.lines[self.at]
            text = _content(line.text)
            if not (text == "-" or text.startswith("- ")):
                if line.indent == indent:
                    return items  # the next key of a mapping the list sat in unindented
                raise FrontmatterError(line.number, "a sequence item expected (- ...)")
            if line.indent > indent:
                raise FrontmatterError(line.number, "indentation deeper than its list")
            rest = text[1:].lstrip()
            if not rest:
                self.at += 1
                items.append(self._nested(indent, depth))
                continue
            if _KEY.match(rest) is None and not rest.startswith("- "):
                items.append(_scalar(rest, line.number))
                self.at += 1
                continue
            # "- key: value" opens a mapping whose keys sit two columns further in
            inner = indent + (len(text) - len(rest))
            self.lines[self.at] = _Line(line.number, inner, rest)
            items.append(self._block(inner, depth + 1))

    def _mapping(self, indent: int, depth: int) -> dict[str, JSValue]:
        mapping: dict[str, JSValue] = {}
        while True:
            self._skip_blank()
            if self.at == len(self.lines) or self.lines[self.at].indent < indent:
                return mapping
            line = self.lines[self.at]
            if line.indent > indent:
                raise FrontmatterError(line.number, "indentation deeper than its block")
            text = _content(line.text)
            match = _KEY.match(text)
            if match is None:
                raise FrontmatterError(line.number, "a key: value line expected")
            key = _unquote(match.group(1).strip(), line.number)
            rest = text[match.end() :].strip()
            self.at += 1
            if rest in ("|", "|-", "|+", ">", ">-", ">+"):
                mapping[key] = self._block_scalar(indent, rest)
            elif rest:
                mapping[key] = _scalar(rest, line.number)
            else:
                mapping[key] = self._nested(indent, depth)

    def _nested(self, indent: int, depth: int) -> JSValue:
        self._skip_blank()
        if self.at == len(self.lines):
            return None
        line = self.lines[self.at]
        text = _content(line.text)
        is_item = text == "-" or text.startswith("- ")
        if line.indent > indent or (line.indent == indent and is_item):
            return self._block(line.indent, depth + 1)
        return None

    def _block_scalar(self, indent: int, style: str) -> str:
        taken: list[_Line] = []
        while self.at < len(self.lines):
            line = self.lines[self.at]
            if line.text and line.indent <= indent:
                break
            taken.append(line)
            self.at += 1
        while taken and not taken[-1].text:
            taken.pop()
        margin = min((line.indent for line in taken if line.text), default=0)
        raw = self._raw_lines(taken, margin)
        text = "\n".join(raw) if style.startswith("|") else _folded(raw)
        return text if style.endswith("-") else text + "\n"

    @staticmethod
    def _raw_lines(taken: list[_Line], margin: int) -> list[str]:
        return [" " * (line.indent - margin) + line.text if line.text else "" for line in taken]


def _folded(lines: list[str]) -> str:
    out: list[str] = []
    for line in lines:
        if out and out[-1] and line and not line.startswith(" "):
            out[-1] += " " + line
        else:
            out.append(line)
    return "\n".join(out)


def _content(text: str) -> str:
    """The line without a trailing comment (a # after a space, outside quotes)."""
    quote = ""
    for index, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'" and (index == 0 or text[index - 1] in " :-[,{"):
            quote = ch
        elif ch == "#" and (index == 0 or text[index - 1] == " "):
            return text[:index].rstrip()
    return text


def _unquote(text: str, line: int) -> str:
    if text.startswith('"') or text.startswith("'"):
        value = _scalar(text, line)
        return value if isinstance(value, str) else text
    return text


def _scalar(text: str, line: int) -> JSValue:
    if text.startswith('"'):
        try:
            value = json.loads(text)
        except ValueError:
            raise FrontmatterError(
                line, "a double-quoted string with escapes this reader does not follow", True
            ) from None
        return value if isinstance(value, str) else text
    if text.startswith("'"):
        if len(text) < 2 or not text.endswith("'"):
            raise FrontmatterError(line, "a single-quoted string that does not end on its line")
        return text[1:-1].replace("''", "'")
    if text.startswith(("[", "{")):
        return _flow(text, line)
    if text.startswith(("&", "*", "!", "|", ">", "%", "@", "`")):
        raise FrontmatterError(line, f"YAML this reader does not follow: {text[:20]}", True)
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("null", "~"):
        return None
    if _NUMBER.fullmatch(text):
        number = float(text)
        return int(number) if number.is_integer() and "." not in text else number
    return text


def _flow(text: str, line: int) -> JSValue:
    if text in ("[]", "{}"):
        return [] if text == "[]" else {}
    if not (text.startswith("[") and text.endswith("]")) or any(c in text[1:-1] for c in "[]{}"):
        raise FrontmatterError(line, "a flow collection this reader does not follow", True)
    items: list[JSValue] = []
    for part in re.findall(r"""\s*("[^"]*"|'[^']*'|[^,]+)\s*(?:,|$)""", text[1:-1]):
        items.append(_scalar(part.strip(), line))
    return items
