"""A naive Stop hook: it refuses every stop and never reads stop_hook_active."""

import json

print(json.dumps({"decision": "block", "reason": "Run the tests before stopping."}))
