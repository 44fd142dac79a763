"""Which catalogue events the real Claude Code was seen firing, per mode, from the record.

An event is observed in a mode when a scenario of that mode (``interactive`` in the
interface, else print mode) has a hook of the event in its recorded run
(``observations/<version>.json``, the scenario's own hook scripts: the harness's probe is
not recorded). This is the data a per-event "checked against Claude Code <version> in
print / interactive mode" line is made from::

    python tests/claude_code/observed.py        # {event: {"print": [ids], "interactive": [ids]}}
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from oracle_binary import pinned_version
from oracle_record import OBSERVATIONS
from oracle_scenario import load_corpus

MODES = ("print", "interactive")


def observed_events(
    corpus: Mapping[str, Mapping[str, Any]], record: Mapping[str, Mapping[str, Any]]
) -> dict[str, dict[str, list[str]]]:
    """Per event, per mode, the ids of the recorded scenarios whose hooks of it ran."""
    found: dict[str, dict[str, list[str]]] = {}
    for sid in sorted(corpus):
        mode = "interactive" if corpus[sid].get("interactive") is not None else "print"
        for event in sorted({str(run["event"]) for run in record.get(sid, {}).get("hooks", [])}):
            found.setdefault(event, {name: [] for name in MODES})[mode].append(sid)
    return dict(sorted(found.items()))


def recorded() -> dict[str, dict[str, list[str]]]:
    """``observed_events`` of the corpus and the pinned version's record."""
    path = OBSERVATIONS / f"{pinned_version()}.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    return observed_events(load_corpus(), record)


if __name__ == "__main__":
    print(json.dumps(recorded(), indent=1))
