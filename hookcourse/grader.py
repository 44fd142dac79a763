"""The course grader's adapter: ``your_program.sh hook-match|hook-apply|hook-merge|hook-stop FILE``.

Reads one fixture, runs the stage's functions over its cases exactly as the
seed's ``program.ts`` does, and prints one JSON document as ``JSON.stringify``
would. Input the JavaScript reference could not process is reported as one
line on stderr with exit status 2 and nothing on stdout.

Kept to the standard library and regress: this is the grader's cold-start path.
"""

from __future__ import annotations

import sys

from hookcourse.errors import InputError
from hookcourse.js import json as jsjson
from hookcourse.js.values import Undefined, strict_equals_number
from hookcourse.stages.decode import CaseError, describe_value, member
from hookcourse.stages.effects import apply_pre_tool_use
from hookcourse.stages.matcher import match_hook
from hookcourse.stages.merge import merge_arguments, merge_pre_tool_use
from hookcourse.stages.stop_loop import run_stop_loop, stop_arguments
from hookcourse.stages.verdicts import interpret_exit_code

TYPE_CHECKING = False  # typing alone would add half a node start-up to the grader
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Final

    from hookcourse.js.values import JSValue

EXIT_BAD_INPUT: Final = 2
USAGE: Final = (
    "usage: your_program.sh hook-match FILE | hook-apply FILE | hook-merge FILE | hook-stop FILE"
)


def _not_null(case: JSValue) -> JSValue:
    if case is None:  # reading a property of null throws in JavaScript
        raise CaseError(None, "a case is null", "write the case as an object")
    return case


def match_arguments(case: JSValue) -> tuple[str | None, JSValue | Undefined]:
    """``(c.matcher, c.tool)`` for matchHook; None stands for an omitted matcher."""
    matcher = member(_not_null(case), "matcher")
    if not isinstance(matcher, str | Undefined):
        raise CaseError(
            "matcher",
            f"matcher must be a string or left out, got {describe_value(matcher)}",
            'write the matcher as a string such as "Bash", or leave the key out',
        )
    return (matcher if isinstance(matcher, str) else None, member(case, "tool"))


def exit_arguments(case: JSValue) -> tuple[JSValue | Undefined, str]:
    """``(e.code, e.stderr)`` for interpretExitCode; stderr is unread (so "") on code 0."""
    code, stderr = member(_not_null(case), "code"), member(case, "stderr")
    if isinstance(stderr, str):
        return (code, stderr)
    if strict_equals_number(code, 0):
        return (code, "")
    # JavaScript calls stderr.trim() on every code but 0, which throws for a non-string.
    raise CaseError(
        "stderr",
        f"stderr must be a string when code is not 0, got {describe_value(stderr)}",
        'give the case a "stderr" string (it may be "")',
    )


def apply_arguments(case: JSValue) -> tuple[dict[str, JSValue], JSValue | Undefined]:
    """``(x.output, x.input)`` for applyPreToolUse; a non-object output has none of its keys."""
    output = member(_not_null(case), "output")
    if output is None or isinstance(output, Undefined):
        raise CaseError(
            "output",
            f"output must be the hook's JSON output, got {describe_value(output)}",
            'give the case an "output" object, e.g. {}',
        )
    return (output if isinstance(output, dict) else {}, member(case, "input"))


def read_fixture(path: str) -> JSValue:
    """The fixture's JSON; every way it cannot be read is an InputError naming the file."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except FileNotFoundError:
        raise InputError(path, "no such file", "pass the path of an existing case.json") from None
    except IsADirectoryError:
        raise InputError(path, "is a directory", "pass the case.json file inside it") from None
    except OSError as error:
        problem = f"cannot be read ({error.strerror})"
        raise InputError(path, problem, "check its permissions") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(
            path, f"is not UTF-8 (bad byte at offset {error.start})", "save the file as UTF-8"
        ) from None
    try:
        return jsjson.parse(text)
    except jsjson.JSONSyntaxError as error:
        fix = (
            "save the file as UTF-8 without a byte-order mark"
            if text.startswith("\ufeff")
            else "fix the JSON syntax at that line and column"
        )
        raise InputError(path, f"is not valid JSON ({error})", fix) from None


def _case_list(path: str, fixture: JSValue, key: str) -> list[JSValue]:
    if fixture is None:
        raise InputError(path, "the fixture is null", f'write an object with a "{key}" list')
    cases = member(fixture, key)
    if not isinstance(cases, list):
        problem = f"{key} must be a list, got {describe_value(cases)}"
        raise InputError(path, problem, f'make "{key}" an array', [key])
    return cases


def _map_cases(
    path: str, fixture: JSValue, key: str, run_case: Callable[[JSValue], object]
) -> list[object]:
    """``fixture[key].map(run_case)``, a throwing case reported with its JSON path."""
    results: list[object] = []
    for index, case in enumerate(_case_list(path, fixture, key)):
        try:
            results.append(run_case(case))
        except CaseError as error:
            raise InputError(path, error.problem, error.fix, [key, index, *error.steps]) from None
    return results


def hook_match(path: str, fixture: JSValue) -> dict[str, object]:
    """``{matches, exits}``: matchHook over ``cases``, interpretExitCode over ``exitCases``."""
    matches = _map_cases(path, fixture, "cases", lambda case: match_hook(*match_arguments(case)))
    exits = _map_cases(
        path,
        fixture,
        "exitCases",
        lambda case: interpret_exit_code(*exit_arguments(case)).to_json(),
    )
    return {"matches": matches, "exits": exits}


def hook_apply(path: str, fixture: JSValue) -> dict[str, object]:
    """``{effects}``: applyPreToolUse(x.output, x.input) over ``cases``."""
    effects = _map_cases(
        path, fixture, "cases", lambda case: apply_pre_tool_use(*apply_arguments(case)).to_json()
    )
    return {"effects": effects}


def hook_merge(path: str, fixture: JSValue) -> dict[str, object]:
    """``{merged}``: mergePreToolUse(c.results, c.toolInput) over ``cases``."""
    merged = _map_cases(
        path, fixture, "cases", lambda case: merge_pre_tool_use(*merge_arguments(case)).to_json()
    )
    return {"merged": merged}


def hook_stop(path: str, fixture: JSValue) -> dict[str, object]:
    """``{loops}``: runStopLoop(c.hook, c.cap ?? 8) over ``cases``."""

    def loop(case: JSValue) -> list[object]:
        return [turn.to_json() for turn in run_stop_loop(*stop_arguments(case))]

    return {"loops": _map_cases(path, fixture, "cases", loop)}


COMMANDS: Final[dict[str, Callable[[str, JSValue], dict[str, object]]]] = {
    "hook-match": hook_match,
    "hook-apply": hook_apply,
    "hook-merge": hook_merge,
    "hook-stop": hook_stop,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run one grader command; returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2 or args[0] not in COMMANDS:
        sys.stderr.write(f"your_program.sh: {USAGE}\n")
        return EXIT_BAD_INPUT
    command, path = args
    try:
        document = COMMANDS[command](path, read_fixture(path))
        text = jsjson.stringify(document)
    except InputError as error:
        sys.stderr.write(f"your_program.sh {command}: {error}\n")
        return EXIT_BAD_INPUT
    sys.stdout.buffer.write(text.encode("utf-8") + b"\n")
    sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
