"""What the interactive Claude Code did in one run, in the shape of a print-mode observation.

The interface has no stream-json: the tool calls and their results are read from the
session's transcripts (``~/.claude/projects/<project>/<session>.jsonl``; ``/clear``
starts a new one), the hook runs from the dumps, the model texts and the number of
model requests from the mock's log. A request sent again with the same conversation
(Claude Code retries a failed request) counts once, and the summary request of
``/compact`` is not a turn of the conversation. There is no result line: ``result``
holds ``stuck``, the step the run waited on in vain (None when every step was played).
The final screen is kept beside the observation (``screen``), not recorded (it shows
times).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from interactive_scenario import screen
from oracle_observe import _normal, hook_runs, model_texts, probe_rows, tool_results
from oracle_scenario import PROBE

from hookcourse.session.mock_api import is_summary_request
from hookcourse.session.real import json_lines
from hookcourse.session.script import Layout


def transcript_items(home: Path) -> list[dict[str, Any]]:
    """The user and assistant entries of every session transcript, oldest first, with the
    structured tool result under the name stream-json gives it."""
    files = sorted(
        (path for path in (home / ".claude" / "projects").glob("*/*.jsonl")),
        key=lambda path: path.stat().st_mtime_ns,
    )
    items = []
    for path in files:
        for item in json_lines(path):
            if item.get("type") not in ("user", "assistant") or item.get("isSidechain"):
                continue
            items.append({**item, "tool_use_result": item.get("toolUseResult")})
    return items


def conversation_requests(requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The main conversation's requests: tools offered, not a summary request, and a
    request sent again with the same messages counted once."""
    kept: list[dict[str, Any]] = []
    last: Any = None
    for request in requests:
        body = request.get("body", {})
        if request.get("method") != "POST" or not body.get("tools"):
            continue
        if is_summary_request(body):
            continue
        messages = json.dumps(body.get("messages"), sort_keys=True)
        if messages == last:
            continue
        last = messages
        kept.append(request)
    return kept


def observe_interactive(layout: Layout, status: dict[str, Any], prompt: str) -> dict[str, Any]:
    """The observation of one interactive run (JSON data, paths as ``$ROOT``)."""
    requests = json_lines(layout.root / "requests.jsonl")
    main = conversation_requests(requests)
    runs = hook_runs(layout.dumps)
    observation = {
        "status": status,
        "hooks": [run for run in runs if run["hook"] != PROBE],
        "probe": probe_rows(runs),
        "hookEvents": [],
        "tools": tool_results(transcript_items(layout.home)),
        "modelTexts": model_texts(main, prompt),
        "notices": [],
        "requests": len(main),
        "toolsOffered": sorted(t.get("name") for t in main[0]["body"]["tools"]) if main else [],
        # No result line; what stands in its place says whether every step was played.
        "result": {"stuck": status.get("waiting")},
        "cancelled": [],
        "screen": screen(layout),
    }
    normal: dict[str, Any] = _normal(observation, str(layout.root))
    return normal
