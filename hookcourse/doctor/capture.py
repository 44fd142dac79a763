"""The capture hook ``hookcourse record`` installs: ``python -m hookcourse.doctor.capture DIR``.

It saves the payload Claude Code sends on stdin as ``DIR/NNNN-<event>.json`` (none larger
than ``PAYLOAD_CAP``: a cut payload would not replay) and prints
nothing, exiting 0 whatever happens, so it never changes what the session does. Standard
library only: it starts on every event of a recorded session.
"""

from __future__ import annotations

import json
import os
import re
import sys

PAYLOAD_CAP = 16 * 1_048_576
_SAFE = re.compile(r"[^A-Za-z0-9_-]")


def capture(folder: str, data: bytes) -> str | None:
    """Write ``data`` as the next payload file in ``folder``; its path, or None."""
    try:
        event = json.loads(data.decode("utf-8", "replace")).get("hook_event_name", "unknown")
    except (ValueError, AttributeError, RecursionError):
        event = "unknown"
    name = _SAFE.sub("_", str(event))[:64] or "unknown"
    os.makedirs(folder, exist_ok=True)
    for number in range(1, 100_000):
        path = os.path.join(folder, f"{number:04d}-{name}.json")
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
        return path
    return None


def main(argv: list[str]) -> int:
    """Save stdin; always 0."""
    try:
        data = sys.stdin.buffer.read(PAYLOAD_CAP + 1)
        whole = len(data) <= PAYLOAD_CAP
        while sys.stdin.buffer.read(1_048_576):
            pass  # read to the end, so the sender never meets a closed pipe
        if len(argv) == 1 and whole:  # a cut payload would replay as broken JSON
            capture(argv[0], data)
    except (OSError, ValueError, KeyboardInterrupt):
        pass  # a capture that fails must not turn into a hook error in the user's session
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
