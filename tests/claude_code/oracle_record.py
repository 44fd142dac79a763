"""Observations as data: what Claude Code did per scenario, without what varies by run.

``stable`` keeps what a scenario shows (hooks started and finished, their payload
fields, environment names, cwd, tool results, model texts, notices, the result
line) and masks ids and times; ``changes`` lists, per scenario, the fields whose
value differs between two recordings (a new release is then a diff).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

OBSERVATIONS = Path(__file__).resolve().parent / "observations"
VOLATILE = (
    "session_id",
    "transcript_path",
    "prompt_id",
    "duration_ms",
    "agent_id",
    "agent_transcript_path",
    "turn_id",
    "message_id",
)
"""Payload fields whose values change on every run (a subagent's id and transcript too, and
MessageDisplay's turn and message ids)."""
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
"""Session and tool ids inside texts (a persisted-output path names the session)."""
PORT = re.compile(r"127\.0\.0\.1:\d+")
"""The mock's port, which some notices name."""


def digest(scenario: Mapping[str, Any]) -> str:
    """A short fingerprint of a scenario as written: a record made before it changed is stale."""
    text = json.dumps(scenario, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def stable_runs(runs: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Hook runs in recorded form: environment names, volatile payload fields masked, and
    in one order (hooks of one event start in parallel, in either order)."""
    hooks = []
    for run in runs:
        payload = run["payload"] if isinstance(run["payload"], dict) else {}
        hooks.append(
            {
                "hook": run["hook"],
                "event": run["event"],
                "exit": run["exit"],
                "cwd": run["cwd"],
                "env": sorted(run["env"]),
                "payload": {
                    k: ("<varies>" if k in VOLATILE else v) for k, v in sorted(payload.items())
                },
            }
        )
    hooks.sort(key=lambda h: (str(h["event"]), h["hook"], json.dumps(h, sort_keys=True)))
    return hooks


def stable(
    observation: Mapping[str, Any], scenario: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The recorded form of one observation (of a record too: it is its own recorded form);
    with ``scenario``, the fingerprint of the scenario it was observed on."""
    recorded = {
        "hooks": stable_runs(observation["hooks"]),
        # Parallel calls finish in either order.
        "probe": sorted(observation["probe"], key=lambda p: json.dumps(p, sort_keys=True)),
        "tools": observation["tools"],
        "modelTexts": [UUID.sub("<uuid>", t) for t in observation["modelTexts"]],
        "notices": [PORT.sub("127.0.0.1:<port>", str(n)) for n in observation["notices"]],
        "requests": observation["requests"],
        "toolsOffered": observation["toolsOffered"],
        "result": {k: v for k, v in observation["result"].items()},
    }
    if scenario is not None:
        recorded["scenario"] = digest(scenario)
    return recorded


def changes(
    before: Mapping[str, Any], after: Mapping[str, Any]
) -> dict[str, dict[str, tuple[Any, Any]]]:
    """Per scenario id, each top-level field whose value differs (new and gone ids too)."""
    found: dict[str, dict[str, tuple[Any, Any]]] = {}
    for sid in sorted(set(before) | set(after)):
        old, new = before.get(sid), after.get(sid)
        if old is None or new is None:
            found[sid] = {"scenario": (old is not None, new is not None)}
            continue
        fields = {
            k: (old.get(k), new.get(k))
            for k in sorted(set(old) | set(new))
            if old.get(k) != new.get(k)
        }
        if fields:
            found[sid] = fields
    return found
