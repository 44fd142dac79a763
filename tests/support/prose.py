"""The notebooks' prose budget, counted one way for every notebook."""

from __future__ import annotations

import re
from collections.abc import Iterable

BUDGET = 950
"""About 900 words of prose a notebook (shared/design/notebooks.md), with a little room."""


def prose_words(markdown_cells: Iterable[str]) -> int:
    """Words of the markdown cells outside tables, checklist lines, <details> answers and
    comments: what a learner reads through, not what they look up."""
    words = 0
    for text in markdown_cells:
        lines = [
            line
            for line in text.splitlines()
            if "rule:" not in line and not line.lstrip().startswith("|")
        ]
        kept = re.sub(r"<details>.*?</details>|<!--.*?-->", "", "\n".join(lines), flags=re.S)
        words += len(kept.split())
    return words
