"""Files the oracle's tools generate from its data: a block between two markers of a
hand-written file, and the rewrite of whatever is not current."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path


def between_markers(text: str, begin: str, end: str, lines: list[str]) -> str:
    """``text`` with ``lines`` between its ``begin`` and ``end`` markers (unchanged
    without them: the file has no place for the block)."""
    before, marker, rest = text.partition(begin)
    if not marker or end not in rest:
        return text
    return "\n".join([before + begin, *lines, end + rest.split(end, 1)[1]])


def not_current(wanted: Mapping[Path, str], write: bool) -> list[Path]:
    """The files whose text is not ``wanted``'s (each rewritten when ``write``)."""
    stale = []
    for path, text in wanted.items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(path)
            if write:
                path.write_text(text, encoding="utf-8")
    return stale
