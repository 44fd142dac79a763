"""A PreToolUse hook: refuse any Bash command that force-pushes.

The guard from the course's force-push example, in Python. It reads the pending
tool call on stdin, exits 2 with a reason on stderr to block, or exits 0.
"""

import json
import sys

command = json.load(sys.stdin).get("tool_input", {}).get("command", "")
if "push --force" in command or "push -f" in command:
    print("Blocked: no force-push from Claude", file=sys.stderr)
    sys.exit(2)
sys.exit(0)
