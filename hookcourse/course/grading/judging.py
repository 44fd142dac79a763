"""``hookcourse test``'s judgement of one run: the program's stdout against the case's
expected JSON under JavaScript semantics, or the named way it failed, with its fix and
the hint from the difference. Pure: the run has already happened.
"""

from __future__ import annotations

import errno
import re
import signal
from dataclasses import dataclass, field
from typing import Final

from hookcourse.course.checks.cases import (
    CaseFile,
    clip,
    first_difference,
    shown,
)
from hookcourse.course.checks.cases import visible as escaped
from hookcourse.course.grading import program_hints
from hookcourse.course.grading.program_runs import OUTPUT_CAP, NotStarted, Program, Run
from hookcourse.js import json as jsjson
from hookcourse.js.values import JSValue, Undefined
from hookcourse.stages.decoding import CaseError, member
from hookcourse.stages.registry import Stage

ECHO_CHARACTERS: Final = 400  # of the program's output shown under a failing case
ECHO_LINES: Final = 8
STDERR_LINES: Final = 6  # first lines of a crash's stderr shown (and its last one)


@dataclass(frozen=True)
class Verdict:
    """One case's verdict: passed, or the problem in one line, its fix and the details."""

    stage: Stage
    file: CaseFile
    command: str  # the command that re-runs it, "./your_program.sh hook-match …"
    passed: bool
    problem: str = ""
    fix: str = ""
    output: tuple[str, ...] = ()  # the program's stdout, escaped and truncated, a line each
    details: tuple[str, ...] = ()
    error: bool = False  # the program failed to answer (Exercism's "error"), not a wrong answer
    seconds: float = 0.0
    stderr: tuple[str, ...] = ()  # its first stderr lines, the case file's path as FILE
    site: str = ""  # the first line of the author's own code a crash went through
    family: str = ""  # the hint family of a wrong answer, "matchHook: name-list"

    @property
    def name(self) -> str:
        return f"{self.stage.slug}: {self.file.name}"

    @property
    def crash(self) -> tuple[str, ...] | None:
        """What makes two failures the same crash: its problem, and the line of the author's
        code with the exception's name (the message may name each case's input), else its
        first stderr lines."""
        if not self.error:
            return None
        if self.site:
            named = (m[1] for line in self.stderr if (m := _EXCEPTION.match(line.strip())))
            return (self.problem, self.site, next(named, ""))
        return (self.problem, *self.stderr)


# "SyntaxError: Invalid regular expression …", "json.decoder.JSONDecodeError: …"
_EXCEPTION: Final = re.compile(r"(?:Uncaught )?([A-Za-z_$][\w$.]*(?:Error|Exception|Exit)):")


def _echo(data: bytes, total: int) -> tuple[str, ...]:
    """The program's stdout as indented lines, escaped and cut at ECHO_CHARACTERS/ECHO_LINES."""
    text = data.decode("utf-8", "replace")
    lines = escaped(text[:ECHO_CHARACTERS]).rstrip("\n").split("\n")[:ECHO_LINES]
    if len(text) > ECHO_CHARACTERS or total > len(data) or text.count("\n", 0, -1) >= ECHO_LINES:
        lines[-1] += f"… (truncated; {total} bytes in all)"
    return tuple(lines)


def one_line(text: str, width: int) -> str:
    return clip(escaped(text).replace("\n", "\\n"), width)


def _stderr_head(text: str) -> tuple[str, ...]:
    """The first STDERR_LINES lines of stderr that say something, and its last one when that
    was cut off (Python names the exception last); blank lines and node's version trailer
    are left out."""
    lines = [
        escaped(line)
        for line in text.split("\n")
        if line.strip() and not line.startswith("Node.js v")
    ]
    if len(lines) <= STDERR_LINES:
        return tuple(lines)
    return (*lines[: STDERR_LINES - 1], f"… ({len(lines) - STDERR_LINES} more lines)", lines[-1])


def _hint_lines(
    stage: Stage, file: CaseFile, path: tuple[str | int, ...], got: JSValue
) -> tuple[str, ...]:
    """The input case behind a differing answer, and the hint for the mistake that explains
    the program's answer (else for the case's family), in JavaScript terms."""
    if len(path) < 2 or not isinstance(path[1], int):
        return ()
    exercise = next((e for e in stage.exercises if e.output_key == path[0]), None)
    if exercise is None:
        return ()
    cases = member(file.case, exercise.case_key)
    if not isinstance(cases, list) or path[1] >= len(cases):
        return ()
    case = cases[path[1]]
    lines = [f"the case: $.{exercise.case_key}[{path[1]}] = {clip(shown(case), 300)}"]
    try:
        decoded = exercise.read(case)
    except CaseError:
        return tuple(lines)
    field = path[2] if len(path) > 2 else None
    case_family = program_hints.hinted_family(
        exercise.function, exercise.family(decoded), decoded, field
    )
    from hookcourse.course.checks import diagnosis  # only once an answer differs

    expected, answer = (
        diagnosis.value_at(file.expected, path[:2]),
        diagnosis.value_at(got, path[:2]),
    )
    if not isinstance(expected, Undefined) and not isinstance(answer, Undefined):
        answered = diagnosis.Answered(decoded, expected, answer)
        found = diagnosis.diagnose(exercise.function, case_family, answered)
        if program_hints.family_hint(exercise.function, found.key) is not None:
            case_family = found.key
    hint = program_hints.family_hint(exercise.function, case_family)
    if hint is not None:
        lines.append(f"hint ({program_hints.js_name(exercise.function)}, {case_family}): {hint}")
    return tuple(lines)


def _family(details: tuple[str, ...]) -> str:
    hint = next((line for line in details if line.startswith("hint (")), "")
    return hint[len("hint (") : hint.find(")")].replace(", ", ": ") if hint else ""


def judge(
    stage: Stage, file: CaseFile, run: Run, timeout: float, case_path: str, program: Program
) -> Verdict:
    """The verdict on one run: every way a program fails is named with its fix."""
    if isinstance(run, NotStarted):
        if run.errno == errno.ENOEXEC:  # no #! line and not a binary
            problem, fix = "cannot be started: it has no #! line", "make its first line #!/bin/sh"
        elif run.errno == errno.EACCES:
            problem, fix = "is not executable", f"chmod +x {program.shown}"
        else:
            problem, fix = f"cannot be started ({run.reason})", "check the --program path"
        return Verdict(stage, file, "", False, problem, fix, error=True)
    stderr_text = run.stderr.decode("utf-8", "replace").replace(case_path, "FILE")
    stderr = _stderr_head(stderr_text)
    site = program_hints.crash_site(stderr_text, program.folder)

    def failed(problem: str, fix: str, *details: str) -> Verdict:
        output = _echo(run.stdout, run.stdout_total) if run.stdout_total else ()
        crash = program_hints.crash_hint(stderr_text) if stderr else None
        extra = (*details, *([f"hint (crash): {crash}"] if crash else ()))
        return Verdict(
            stage, file, "", False, problem, fix, output, extra, True, run.seconds, stderr,
            str(site or ""),
        )  # fmt: skip

    if run.timed_out:
        return failed(
            f"did not finish within {timeout:g} s",
            "look for a loop that never ends or a read from stdin (the grader gives it none); "
            "raise --timeout if it is only slow",
        )
    if run.exit_code != 0:
        if run.exit_code is not None and run.exit_code < 0:
            how = f"was killed by {signal.Signals(-run.exit_code).name}"
        else:
            how = f"exited with status {run.exit_code}"
        fix = "read its stderr below; on a valid case it must exit 0 after printing the JSON"
        return failed(how, fix)
    if not run.stdout.strip():
        return failed(
            "printed nothing on stdout",
            "print the JSON document on stdout (console.log, print, fmt.Println), not stderr",
        )
    if run.stdout_total > OUTPUT_CAP:
        return failed(f"printed {run.stdout_total} bytes", "print only the one JSON document")
    try:
        text = run.stdout.decode("utf-8")
    except UnicodeDecodeError as bad:
        return failed(f"printed bytes that are not UTF-8 (at byte {bad.start})", "print UTF-8")
    try:
        got = jsjson.parse(text)
    except jsjson.JSONSyntaxError as syntax:
        if text.startswith("\ufeff"):
            return failed("printed a byte-order mark before the JSON", "print the JSON alone")
        if syntax.message == "Unexpected text after the JSON value":
            return failed(
                f"printed more than one JSON document (the next starts at line {syntax.line}, "
                f"column {syntax.column})",
                "print exactly one document; write logs and debugging output to stderr",
            )
        return failed(
            f"printed text that is not JSON ({syntax})",
            "print only the JSON document on stdout; write logs to stderr",
            f"it starts with: {one_line(text.lstrip(), 120)}",
        )
    difference = first_difference(file.expected, got)
    if difference is None:
        return Verdict(stage, file, "", True, seconds=run.seconds)
    details = _hint_lines(stage, file, difference.path, got)
    return Verdict(
        stage, file, "", False, difference.text(), "", _echo(run.stdout, run.stdout_total),
        details, False, run.seconds, stderr, family=_family(details),
    )  # fmt: skip


# -- grading stages ----------------------------------------------------------------------------


@dataclass
class Report:
    """Everything one grading pass found, stage by stage in the order they ran."""

    verdicts: dict[str, list[Verdict]] = field(default_factory=dict)
    problems: dict[str, list[str]] = field(default_factory=dict)  # fixture problems by stage
    program_problem: tuple[str, str] | None = None
    kept: str | None = None  # why the failing cases could not be kept, when they could not

    def stage_passed(self, slug: str) -> bool:
        verdicts = self.verdicts.get(slug, [])
        return bool(verdicts) and not self.problems.get(slug) and all(v.passed for v in verdicts)

    @property
    def passed(self) -> bool:
        return self.program_problem is None and all(map(self.stage_passed, self.verdicts))
