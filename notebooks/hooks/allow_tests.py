"""A PreToolUse hook that answers on stdout: it allows the test runner without asking.

It exits 0 and prints one JSON object; for any other command it prints nothing.
"""

import json
import sys

command = json.load(sys.stdin).get("tool_input", {}).get("command", "")
if command == "npm test":
    decision = {
        "hookEventName": "PreToolUse",
        "permissionDecision": "allow",
        "permissionDecisionReason": "test runner",
    }
    print(json.dumps({"hookSpecificOutput": decision}))
sys.exit(0)
