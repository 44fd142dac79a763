"""The course grader's entry: ``your_program.sh COMMAND FILE`` for every stage in the registry.

Reads one case file, maps each of the stage's exercises over its list of cases
exactly as the seed's ``program.ts`` does, and prints one JSON document as
``JSON.stringify`` would. Input the JavaScript reference could not process is
reported as one line on stderr with exit status 2 and nothing on stdout.

Kept to the standard library and regress: this is the grader's cold-start path.
"""

from __future__ import annotations

import os
import stat
import sys

from hookcourse.course.grading.mark import GRADING
from hookcourse.errors import InputError, json_syntax_fix, run_at_edge
from hookcourse.js import json as jsjson
from hookcourse.stages.decoding import CaseError, describe_value, member
from hookcourse.stages.registry import STAGES, stage_for_command
from hookcourse.system.inputs import INPUT_CAP_BYTES, read_descriptor, special_kind

TYPE_CHECKING = False  # typing alone would add half a node start-up to the grader
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Final

    from hookcourse.js.values import JSValue
    from hookcourse.stages.registry import Exercise, Stage

EXIT_BAD_INPUT: Final = 2
USAGE: Final = "usage: your_program.sh " + " | ".join(f"{s.command} FILE" for s in STAGES)


def read_fixture(path: str) -> JSValue:
    """The case file's JSON; every way it cannot be read is an InputError naming the file.

    Opened without blocking and refused unless it is a regular file, so a FIFO with no
    writer or ``/dev/zero`` cannot stall the grader; at most INPUT_CAP_BYTES are read.
    """
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise InputError(path, "no such file", "pass the path of an existing case.json") from None
    except OSError as error:
        raise _unreadable(path, error) from None
    try:
        mode = os.fstat(descriptor).st_mode
        if stat.S_ISDIR(mode):
            raise InputError(path, "is a directory", "pass the case.json file inside it")
        if not stat.S_ISREG(mode):
            kind = special_kind(mode) or "a special file"
            fix = "save the cases to a regular file and pass its path"
            raise InputError(path, f"is {kind}, not a regular file", fix)
        raw = read_descriptor(descriptor, INPUT_CAP_BYTES, path, "the case file", regular=True)
    except OSError as error:
        raise _unreadable(path, error) from None
    finally:
        os.close(descriptor)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(
            path, f"is not UTF-8 (bad byte at offset {error.start})", "save the file as UTF-8"
        ) from None
    try:
        return jsjson.parse(text)
    except jsjson.JSONSyntaxError as error:
        raise InputError(path, f"is not valid JSON ({error})", json_syntax_fix(text)) from None


def _unreadable(path: str, error: OSError) -> InputError:
    return InputError(path, f"cannot be read ({error.strerror})", "check its permissions")


def _answers(path: str, fixture: JSValue, exercise: Exercise) -> list[JSValue]:
    """``fixture[case_key].map(reference)``, a throwing case reported with its JSON path."""
    key = exercise.case_key
    if not isinstance(fixture, dict):
        got = describe_value(fixture)
        problem = f"the file must be an object holding the {key} list, got {got}"
        raise InputError(path, problem, f'write {{"{key}": [...]}} at the top of the file')
    cases = member(fixture, key)
    if not isinstance(cases, list):
        problem = f"{key} must be a list, got {describe_value(cases)}"
        raise InputError(path, problem, f'make "{key}" an array', [key])
    answers: list[JSValue] = []
    for index, case in enumerate(cases):
        try:
            answers.append(exercise.answer(case))
        except CaseError as error:
            raise InputError(path, error.problem, error.fix, [key, index, *error.steps]) from None
    return answers


def run_stage(stage: Stage, path: str) -> dict[str, JSValue]:
    """The document ``program.ts`` prints for ``stage`` on the case file at ``path``."""
    fixture = read_fixture(path)
    return {e.output_key: _answers(path, fixture, e) for e in stage.exercises}


def main(argv: Sequence[str] | None = None) -> int:
    """Run one grader command; returns the exit status (130 after Ctrl-C)."""
    args = list(sys.argv[1:] if argv is None else argv)
    stage = stage_for_command(args[0]) if len(args) == 2 else None
    if stage is None:
        sys.stderr.write(f"your_program.sh: {USAGE}\n")
        return EXIT_BAD_INPUT
    program = f"your_program.sh {stage.command}"
    graded = os.environ.get(GRADING)
    if graded:  # a learner's program handing its cases to the course's answers
        sys.stderr.write(
            f"{program}: this is the course's own grader, started by {graded} under "
            "hookcourse test; fix: compute the answers in your own program\n"
        )
        return EXIT_BAD_INPUT
    return run_at_edge(program, lambda: _grade(program, stage, args[1]), EXIT_BAD_INPUT)


def _grade(program: str, stage: Stage, path: str) -> int:
    try:
        text = jsjson.stringify(run_stage(stage, path))
    except InputError as error:
        sys.stderr.write(f"{program}: {error}\n")
        return EXIT_BAD_INPUT
    sys.stdout.buffer.write(text.encode("utf-8") + b"\n")
    sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
