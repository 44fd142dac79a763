"""The grader's adapter: ./your_program.sh COMMAND FILE prints ONE JSON document."""

import json
import sys

from hooks import (
    MISSING,
    apply_pre_tool_use,
    interpret_exit_code,
    match_hook,
    merge_pre_tool_use,
    run_hooks,
    run_stop_loop,
)


def cases(document, key):
    value = document.get(key)
    if not isinstance(value, list):
        invalid(f"{key} is not a list")
    return value


def nullish(value, fallback):
    return fallback if value is None or value is MISSING else value


COMMANDS = {
    "hook-match": lambda c: {
        "matches": [match_hook(x.get("matcher", MISSING), x.get("tool", MISSING)) for x in cases(c, "cases")],
        "exits": [interpret_exit_code(x.get("code", MISSING), nullish(x.get("stderr", MISSING), "")) for x in cases(c, "exitCases")],
    },
    "hook-apply": lambda c: {
        "effects": [apply_pre_tool_use(x.get("output", MISSING), x.get("input", MISSING)) for x in cases(c, "cases")],
    },
    "hook-merge": lambda c: {
        "merged": [merge_pre_tool_use(x.get("results", MISSING), x.get("toolInput", MISSING)) for x in cases(c, "cases")],
    },
    "hook-stop": lambda c: {
        "loops": [run_stop_loop(x.get("hook", MISSING), nullish(x.get("cap", MISSING), 8)) for x in cases(c, "cases")],
    },
    "hook-run": lambda c: {
        "runs": [run_hooks(x.get("hooks", MISSING), x.get("tool", MISSING), x.get("results", MISSING)) for x in cases(c, "cases")],
    },
}


def invalid(problem):
    print(f"invalid case file: {problem}", file=sys.stderr)
    sys.exit(2)


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in COMMANDS:
        print(f"usage: ./your_program.sh {'|'.join(COMMANDS)} FILE", file=sys.stderr)
        sys.exit(2)
    try:
        with open(sys.argv[2], encoding="utf-8") as handle:
            document = json.load(handle)
    except (OSError, ValueError) as error:
        invalid(f"{sys.argv[2]}: {error}")
    if not isinstance(document, dict):
        invalid("not an object")
    print(json.dumps(COMMANDS[sys.argv[1]](document), ensure_ascii=False, separators=(",", ":")))


main()
