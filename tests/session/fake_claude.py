"""A stand-in for ``claude -p`` (never the real binary outside a namespace): it writes its
argv and environment to ``fake-claude.json`` in its working directory, asks the mock
Messages API at ANTHROPIC_BASE_URL for one turn of the main conversation, and prints
the stream-json lines hookcourse reads back (the assistant turn and the result). With
FAKE_CLAUDE_HANG=PATH it writes its pid there and hangs instead."""

from __future__ import annotations

import json
import os
import sys
import time
import urllib.request
from pathlib import Path


def main(argv: list[str]) -> int:
    Path("fake-claude.json").write_text(
        json.dumps({"argv": argv, "env": dict(os.environ)}), encoding="utf-8"
    )
    if os.environ.get("FAKE_CLAUDE_HANG"):
        # A run that never ends by itself: only a kill ends it.
        Path(os.environ["FAKE_CLAUDE_HANG"]).write_text(str(os.getpid()), encoding="utf-8")
        time.sleep(300)
    prompt = argv[argv.index("-p") + 1]
    body = {
        "model": "fake",
        "tools": [{"name": "Bash"}],
        "messages": [{"role": "user", "content": prompt}],
    }
    request = urllib.request.Request(
        os.environ["ANTHROPIC_BASE_URL"] + "/v1/messages",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    # The proxies point at a closed port; the mock is reached because NO_PROXY names it.
    with urllib.request.urlopen(request, timeout=10) as answer:
        message = json.load(answer)
    print(json.dumps({"type": "assistant", "message": message}))
    print(json.dumps({"type": "result", "terminal_reason": "completed", "result": "Done."}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
