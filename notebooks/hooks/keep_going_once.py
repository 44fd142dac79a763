"""A Stop hook: keep Claude working once while .claude/keep-going exists, then let it stop.

Seed 002's keep-going-once hook, in Python: with stop_hook_active true it has
already granted one extra turn, so it lets Claude stop; asking again is how a
Stop hook loops.
"""

import json
import pathlib
import sys

payload = json.load(sys.stdin)
if payload.get("stop_hook_active"):
    sys.exit(0)
if (pathlib.Path(payload.get("cwd", ".")) / ".claude" / "keep-going").exists():
    reason = "The .claude/keep-going file exists. Finish the task it names, then delete the file."
    print(json.dumps({"decision": "block", "reason": reason}))
sys.exit(0)
