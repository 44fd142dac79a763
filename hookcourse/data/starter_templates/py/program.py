"""The grader's adapter: ./your_program.sh COMMAND FILE prints ONE JSON document."""

import json
import sys

from hooks import (
@IMPORTS@
)


def cases(document, key):
    value = document.get(key)
    if not isinstance(value, list):
        invalid(f"{key} is not a list")
    return value


def nullish(value, fallback):
    return fallback if value is None or value is MISSING else value


COMMANDS = {
@COMMANDS@
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
