"""The course grader's adapter: ``your_program.sh hook-match|hook-apply FILE``.

Reads one fixture, runs the stage's functions over its cases exactly as the
seed's ``program.ts`` does, and prints one JSON document as ``JSON.stringify``
would. Input the JavaScript reference could not process is reported as one
line on stderr with exit status 2 and nothing on stdout.

Kept to the standard library and regress: this is the grader's cold-start path.
"""

from __future__ import annotations

import sys

from hookcourse import jsjson
from hookcourse.effects import apply_pre_tool_use
from hookcourse.errors import InputError
from hookcourse.js import UNDEFINED, Undefined, js_to_string, strict_equals_number
from hookcourse.matcher import match_hook
from hookcourse.verdicts import interpret_exit_code

TYPE_CHECKING = False  # typing alone would add half a node start-up to the grader
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Final

    from hookcourse.js import JSValue

EXIT_BAD_INPUT: Final = 2
USAGE: Final = "usage: your_program.sh hook-match FILE | hook-apply FILE"


def _describe(value: JSValue | Undefined) -> str:
    if value is UNDEFINED:
        return "nothing (the key is missing)"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the boolean {js_to_string(value)}"
    if isinstance(value, int | float):
        return f"the number {js_to_string(value)}"
    if isinstance(value, str):
        return f"the string {jsjson.quote(value)}"
    return "an array" if isinstance(value, list) else "an object"


def _member(value: JSValue | Undefined, key: str) -> JSValue | Undefined:
    """``value[key]`` for a non-null value: primitives and arrays have none of our keys."""
    return value.get(key, UNDEFINED) if isinstance(value, dict) else UNDEFINED


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
        raise InputError(path, f"is not valid JSON ({error})", "fix the JSON syntax") from None


def _case_list(path: str, fixture: JSValue, key: str) -> list[JSValue]:
    if fixture is None:
        raise InputError(path, "the fixture is null", f'write an object with a "{key}" list')
    cases = _member(fixture, key)
    if not isinstance(cases, list):
        raise InputError(
            path, f"{key} must be a list, got {_describe(cases)}", f'make "{key}" an array', [key]
        )
    return cases


def _each_case(path: str, key: str, cases: list[JSValue]) -> list[tuple[int, JSValue]]:
    for index, case in enumerate(cases):
        if case is None:
            raise InputError(path, "a case is null", "write the case as an object", [key, index])
    return list(enumerate(cases))


def hook_match(path: str, fixture: JSValue) -> dict[str, object]:
    """``{matches, exits}``: matchHook over ``cases``, interpretExitCode over ``exitCases``."""
    matches: list[bool] = []
    for index, case in _each_case(path, "cases", _case_list(path, fixture, "cases")):
        matcher = _member(case, "matcher")
        if not isinstance(matcher, str | Undefined):
            raise InputError(
                path,
                f"matcher must be a string or left out, got {_describe(matcher)}",
                'write the matcher as a string such as "Bash", or leave the key out',
                ["cases", index, "matcher"],
            )
        tool = _member(case, "tool")
        matches.append(match_hook(matcher if isinstance(matcher, str) else None, tool))
    exits: list[object] = []
    for index, case in _each_case(path, "exitCases", _case_list(path, fixture, "exitCases")):
        code, stderr = _member(case, "code"), _member(case, "stderr")
        if not isinstance(stderr, str) and not strict_equals_number(code, 0):
            # JavaScript calls stderr.trim() on every code but 0, which throws for a non-string.
            raise InputError(
                path,
                f"stderr must be a string when code is not 0, got {_describe(stderr)}",
                'give the case a "stderr" string (it may be "")',
                ["exitCases", index, "stderr"],
            )
        exits.append(interpret_exit_code(code, stderr if isinstance(stderr, str) else "").to_json())
    return {"matches": matches, "exits": exits}


def hook_apply(path: str, fixture: JSValue) -> dict[str, object]:
    """``{effects}``: applyPreToolUse(x.output, x.input) over ``cases``."""
    effects: list[object] = []
    for index, case in _each_case(path, "cases", _case_list(path, fixture, "cases")):
        output = _member(case, "output")
        if output is None or isinstance(output, Undefined):
            raise InputError(
                path,
                f"output must be the hook's JSON output, got {_describe(output)}",
                'give the case an "output" object, e.g. {}',
                ["cases", index, "output"],
            )
        fields = output if isinstance(output, dict) else {}
        effect = apply_pre_tool_use(fields, _member(case, "input"))
        effects.append(effect.to_json())
    return {"effects": effects}


COMMANDS: Final[dict[str, Callable[[str, JSValue], dict[str, object]]]] = {
    "hook-match": hook_match,
    "hook-apply": hook_apply,
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
