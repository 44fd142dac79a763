#!/usr/bin/env python3
"""A learner's decide-and-modify stage in plain Python (no hookcourse): hook-apply FILE."""

import json
import math
import sys

MISSING = object()  # JavaScript's undefined


def field(value, key):
    return value.get(key, MISSING) if isinstance(value, dict) else MISSING


def nullish_or(value, fallback):
    return fallback if value is MISSING or value is None else value


def apply_pre_tool_use(output, tool_input):
    if field(output, "decision") == "block":
        effect = {"allowed": False, "input": tool_input, "injectedContext": None}
        effect["reason"] = nullish_or(field(output, "reason"), "blocked by hook")
    else:
        effect = {
            "allowed": True,
            "input": nullish_or(field(output, "updatedInput"), tool_input),
            "injectedContext": nullish_or(field(output, "additionalContext"), None),
            "reason": None,
        }
    # JSON.stringify leaves out a key whose value is undefined.
    return {key: value for key, value in effect.items() if value is not MISSING}


def as_javascript(value):
    """JSON.stringify writes a number beyond the double range (read as Infinity) as null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: as_javascript(item) for key, item in value.items()}
    if isinstance(value, list):
        return [as_javascript(item) for item in value]
    return value


def main(command, path):
    if command != "hook-apply":
        sys.exit(f"usage: your_program.sh hook-apply FILE (not {command})")
    with open(path, encoding="utf-8") as handle:
        cases = json.load(handle)["cases"]
    effects = [apply_pre_tool_use(case["output"], field(case, "input")) for case in cases]
    print(json.dumps(as_javascript({"effects": effects})))


main(*sys.argv[1:])
