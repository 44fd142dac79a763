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

from typing import Any

from interactive_scenario import screen
from oracle_observe import _normal, hook_runs, model_texts, probe_rows, tool_results
from oracle_scenario import PROBE

from hookcourse.session.real import json_lines
from hookcourse.session.real_interactive import conversation_requests, transcript_items
from hookcourse.session.script import Layout


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
