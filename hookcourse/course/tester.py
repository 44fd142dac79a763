"""``hookcourse test``: grade anyone's ``your_program.sh`` on the course's stages, as the
course's tester does.

Each case file of a stage (the seed's first, then every ``extra/<name>``) is written to
its own temporary file, the program runs on each (in parallel, one per core), and its
stdout must be one JSON document equal to ``expected.json`` under JavaScript semantics
(``hookcourse.course.cases``). Every way a program can fail is named with its fix.
Exit status: 0 every stage passes, 1 anything fails, 2 a usage error.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import re
import shlex
import shutil
import signal
import stat
import sys
import tempfile
import threading
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Final, NoReturn, TypeAlias

from hookcourse.course import program_hints, progress
from hookcourse.course.cases import (
    FIXTURES,
    SEED,
    CaseFile,
    clip,
    first_difference,
    shown,
    stage_files,
)
from hookcourse.course.cases import visible as escaped
from hookcourse.course.generators import SEED_ENV, SEED_RANGE, choose_seed, drawn_case_file
from hookcourse.course.grading import GRADING
from hookcourse.engine import processes
from hookcourse.engine.interrupts import remove_on_interrupt
from hookcourse.js import json as jsjson
from hookcourse.js.values import JSValue, Undefined
from hookcourse.stages.decoding import CaseError, member
from hookcourse.stages.registry import STAGES, Stage, stage_named

EXIT_PASSED: Final = 0
EXIT_FAILED: Final = 1
EXIT_USAGE: Final = 2
DEFAULT_PROGRAM: Final = "./your_program.sh"
DEFAULT_TIMEOUT: Final = 10.0
OUTPUT_CAP: Final = 1 << 20  # bytes of stdout or stderr kept per run; the rest is counted only
ECHO_CHARACTERS: Final = 400  # of the program's output shown under a failing case
ECHO_LINES: Final = 8
STDERR_LINES: Final = 6  # first lines of a crash's stderr shown (and its last one)
DRAIN_SECONDS: Final = 0.2  # after it exits, how long its output may still arrive
STAGE_LINES: Final = 80  # at most this many lines for one stage, however many cases fail
PASSING_LISTED: Final = 20  # passing cases named one a line; the rest counted
RESULTS_OUTPUT_CHARACTERS: Final = 500  # Exercism v3's limit on a test's output
GENERATED: Final = "generated"  # the name of a stage's drawn case file: generated/seed-N
FAILED: Final = ".hookcourse/failed"  # beside the program: every failing case, until next run
# The course's own grader entry is the reference; any other program gets GRADING set, and
# the course's entry it might start then refuses to answer for it.
COURSE_ENTRY: Final = Path(__file__).resolve().parents[2] / "your_program.sh"


# -- running one program -----------------------------------------------------------------------


def run_program(argv: Sequence[str], cwd: Path, timeout: float, env: dict[str, str]) -> Run:
    """Run ``argv`` with no stdin through the one process runner; ``Run`` names a program
    that could not be started instead of raising."""
    try:
        return processes.run(
            argv,
            env=env,
            cwd=cwd,
            timeout_s=timeout,
            cap=OUTPUT_CAP,
            linger_s=DRAIN_SECONDS,  # a child it left running may hold the pipes open
        )
    except processes.CannotStart as error:
        return NotStarted(str(error), error.errno)


@dataclass(frozen=True)
class NotStarted:
    """A program the OS refused to start, with its reason."""

    reason: str
    errno: int | None


Run: TypeAlias = "processes.Finished | NotStarted"


# -- judging one case --------------------------------------------------------------------------


@dataclass(frozen=True)
class Program:
    """The program under test: as the learner wrote it, and where it runs."""

    shown: str  # e.g. ./your_program.sh
    path: Path  # absolute

    @classmethod
    def from_option(cls, text: str) -> Program:
        written = text if "/" in text else f"./{text}"
        return cls(written, Path(written).absolute())

    @property
    def folder(self) -> Path:
        """Where it runs, and where its failing cases are kept."""
        return self.path.parent

    def problem(self) -> tuple[str, str] | None:
        """Why it cannot run at all, with the fix; None when it can be started."""
        if not self.path.exists():
            return (
                f"{self.shown} was not found",
                "run hookcourse test in the folder that holds your_program.sh, "
                "or pass --program PATH",
            )
        if self.path.is_dir():
            return (f"{self.shown} is a directory", "pass the program file with --program PATH")
        if not os.access(self.path, os.X_OK) or not self.path.stat().st_mode & 0o111:
            return (f"{self.shown} is not executable", f"chmod +x {self.shown}")
        return None

    def command(self, stage: Stage, case_path: Path) -> str:
        """The exact command line that runs it on ``case_path``, from the learner's folder."""
        case = os.path.relpath(case_path, self.folder)
        if self.folder == Path.cwd():
            return f"./{self.path.name} {stage.command} {shlex.quote(case)}"
        folder = shlex.quote(os.path.relpath(self.folder))
        return f"cd {folder} && ./{self.path.name} {stage.command} {shlex.quote(case)}"


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


def _one_line(text: str, width: int) -> str:
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
    from hookcourse.course import diagnosis  # only once an answer differs

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
            f"it starts with: {_one_line(text.lstrip(), 120)}",
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


def stage_order(named: Sequence[str]) -> list[Stage] | str:
    """The stages to grade, or a usage problem. With none named: the course's order; with
    several, the last (current) one first, then the earlier ones as regression."""
    if not named:
        return list(STAGES)
    unknown = [slug for slug in named if stage_named(slug) is None]
    if unknown:
        known = ", ".join(stage.slug for stage in STAGES)
        return f"no stage named {unknown[0]!r}; the stages are: {known}"
    ordered = [named[-1], *(slug for slug in named[:-1] if slug != named[-1])]
    return [stage for slug in dict.fromkeys(ordered) if (stage := stage_named(slug))]


def case_stem(file: CaseFile) -> str:
    """A case's file name under .hookcourse/failed/<stage>/ (without .json)."""
    return "case" if file.name == SEED else file.name.rpartition("/")[2]


def drawn_file(stage: Stage, seed: int) -> CaseFile | None:
    """The stage's generated cases for ``seed``, after its fixtures, as one more case file."""
    case, expected = drawn_case_file(stage, seed)
    if not any(case.values()):
        return None
    text = jsjson.stringify(case)
    return CaseFile(f"{GENERATED}/seed-{seed}", text, jsjson.parse(text), expected)


def fixture_path(stage: Stage, file: CaseFile, fixtures: Path = FIXTURES) -> Path:
    """Where a case file lives among the installed fixtures."""
    folder = fixtures / stage.slug
    return (folder if file.name == SEED else folder / file.name) / SEED


def _keep(program: Program, verdict: Verdict) -> Verdict:
    """Write a failing case where it stays, beside the program; the command that re-runs it."""
    place = program.folder / FAILED / verdict.stage.slug / f"{case_stem(verdict.file)}.json"
    place.parent.mkdir(parents=True, exist_ok=True)
    place.write_text(verdict.file.text, encoding="utf-8")
    expected = place.with_suffix(".expected.json")
    expected.write_text(jsjson.stringify(verdict.file.expected) + "\n", encoding="utf-8")
    return replace(verdict, command=program.command(verdict.stage, place))


def _clean_failed(program: Program) -> str | None:
    """Remove the last run's failing cases; why they cannot be, or None."""
    folder = program.folder / FAILED
    try:
        if folder.is_dir() and not folder.is_symlink():
            shutil.rmtree(folder)
        with contextlib.suppress(OSError):  # .hookcourse/ may hold more than ours
            folder.parent.rmdir()
    except OSError as error:
        return f"{os.path.relpath(folder)} cannot be cleaned ({error.strerror or error})"
    return None


def grade(
    program: Program,
    stages: Sequence[Stage],
    timeout: float,
    fixtures: Path = FIXTURES,
    on_stage: Callable[[Stage, list[Verdict], list[str]], None] | None = None,
    seed: int | None = None,
) -> Report:
    """Run the program on every case of each stage in turn, stopping after a failing stage:
    the visible fixtures first, then (with a ``seed``) the cases drawn from it.

    Each case file is written to a scratch folder (removed at the end, or by an
    interrupt); the program's own TMPDIR is inside it, so what it leaves there goes too.
    """
    report = Report(program_problem=program.problem())
    if report.program_problem is not None:
        return report
    report.kept = _clean_failed(program)
    workers = os.cpu_count() or 2
    scratch = tempfile.mkdtemp(prefix="hookcourse-test-")
    remove_on_interrupt(scratch)
    env = {**os.environ, "TMPDIR": os.path.join(scratch, "tmp")}
    if program.path.resolve() != COURSE_ENTRY:  # the course's own is the reference
        env[GRADING] = str(program.path)
    os.mkdir(env["TMPDIR"])
    try:
        with ThreadPoolExecutor(workers) as pool:
            for stage in stages:
                files, problems = stage_files(stage, fixtures)
                drawn = None if seed is None else drawn_file(stage, seed)
                files = files if drawn is None else [*files, drawn]
                paths = []
                for file in files:
                    path = Path(scratch, stage.slug, case_stem(file), SEED)
                    path.parent.mkdir(parents=True)
                    path.write_text(file.text, encoding="utf-8")
                    paths.append(path)
                commands = [[str(program.path), stage.command, str(path)] for path in paths]
                runs = pool.map(
                    lambda argv: run_program(argv, program.folder, timeout, env), commands
                )
                verdicts = [
                    replace(
                        judge(stage, file, run, timeout, str(path), program),
                        command=program.command(stage, fixture_path(stage, file, fixtures))
                        if file is not drawn
                        else "",
                    )
                    for file, path, run in zip(files, paths, runs, strict=True)
                ]
                if report.kept is None:
                    try:
                        verdicts = [v if v.passed else _keep(program, v) for v in verdicts]
                    except OSError as error:
                        report.kept = f"they cannot be written ({error.strerror or error})"
                report.verdicts[stage.slug] = verdicts
                report.problems[stage.slug] = problems
                if on_stage is not None:
                    on_stage(stage, verdicts, problems)
                if not report.stage_passed(stage.slug):
                    break
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        remove_on_interrupt(scratch, keep=False)
    return report


# -- showing the report ------------------------------------------------------------------------


@dataclass(frozen=True)
class Style:
    """Colour for a terminal, plain text elsewhere (and under NO_COLOR)."""

    colour: bool

    def mark(self, passed: bool) -> str:
        sign = "✓" if passed else "✗"
        if not self.colour:
            return sign
        return f"\x1b[32m{sign}\x1b[0m" if passed else f"\x1b[31m{sign}\x1b[0m"


def _names(verdicts: Sequence[Verdict], width: int = 70) -> str:
    """Case names on one line, the rest counted."""
    shown_names: list[str] = []
    for verdict in verdicts:
        if len(", ".join([*shown_names, verdict.file.name])) > width and shown_names:
            return f"{', '.join(shown_names)} and {len(verdicts) - len(shown_names)} more"
        shown_names.append(verdict.file.name)
    return ", ".join(shown_names)


def _failure_block(group: list[Verdict], style: Style) -> list[str]:
    """One failure (or one crash seen on several cases) in full: command, output, diagnosis."""
    first = group[0]
    if len(group) == 1:
        lines = [f"  {style.mark(False)} {first.file.name}"]
    else:
        lines = [f"  {style.mark(False)} the same failure on {len(group)} cases: {_names(group)}"]
    if first.command:
        lines.append(f"      $ {first.command}")
    lines.extend(f"      {line}" for line in first.output)
    subject = "" if first.problem.startswith("Expected") else "Your program "
    lines.append(f"      {subject}{first.problem}")
    if first.fix:
        lines.append(f"      fix: {first.fix}")
    if first.site:
        lines.append(f"      it crashed in your code at {first.site}")
    lines.extend(f"      {line}" for line in first.details)
    if first.error and first.stderr:
        lines.append("      its stderr:")
        lines.extend(f"        {line}" for line in first.stderr)
    return lines


def stage_lines(
    stage: Stage, verdicts: list[Verdict], problems: list[str], style: Style, failing_first: bool
) -> Iterator[str]:
    """A stage's header, its cases, and each failure's command, output and diagnosis, in at
    most STAGE_LINES lines however many cases fail (one crash is shown once)."""
    lines = [f"{stage.slug} · {stage.title}"]
    lines.extend(f"  {style.mark(False)} fixture problem: {problem}" for problem in problems)
    passing = [v for v in verdicts if v.passed]
    failing = [v for v in verdicts if not v.passed]
    groups: dict[object, list[Verdict]] = {}
    for verdict in failing:
        groups.setdefault(verdict.crash or id(verdict), []).append(verdict)
    if not failing_first:
        lines.extend(f"  {style.mark(True)} {v.file.name}" for v in passing[:PASSING_LISTED])
        if len(passing) > PASSING_LISTED:
            lines.append(f"  {style.mark(True)} and {len(passing) - PASSING_LISTED} more")
    footer = [f"  {len(passing)}/{len(verdicts)} cases passed"]
    families = Counter(v.family for v in failing if v.family)
    if families:
        counted = ", ".join(f"{name} ({n})" for name, n in families.most_common())
        footer.append(f"  failing hint families: {counted}")
    if failing and failing[0].command:
        footer.append(f"  every failing case is kept in {_failed_folder(stage, failing[0])}")
    room = STAGE_LINES - len(lines) - len(footer) - 1
    left = list(groups.values())
    while left:
        block = _failure_block(left[0], style)
        if len(block) > room:
            break
        lines.extend(block)
        room -= len(block)
        left.pop(0)
    for group in left[:]:
        if room <= 1:
            break
        first = group[0]
        count = f" (and {len(group) - 1} more the same)" if len(group) > 1 else ""
        lines.append(
            f"  {style.mark(False)} {first.file.name}: {_one_line(first.problem, 80)}{count}"
        )
        room -= 1
        left.remove(group)
    if left:
        rest = sum(len(group) for group in left)
        lines.append(f"  … {rest} more failing case{'s' if rest != 1 else ''}")
    if failing_first and passing:
        lines.append(f"  {style.mark(True)} {len(passing)} cases passed")
    yield from lines
    yield from footer


def _failed_folder(stage: Stage, verdict: Verdict) -> str:
    """The folder the failing cases went to, as the re-run command names it."""
    case = shlex.split(verdict.command.rpartition("&& ")[2])[-1]
    prefix = (
        verdict.command.partition(" && ")[0].removeprefix("cd ") if "&&" in verdict.command else ""
    )
    folder = os.path.dirname(case)
    return os.path.join(shlex.split(prefix)[0], folder) if prefix else folder


def summary(report: Report, stages: Sequence[Stage]) -> str:
    """The last line: every stage passed, or the first failing case."""
    if report.program_problem is not None:
        problem, fix = report.program_problem
        return f"{problem}; fix: {fix}"
    passed = [slug for slug in report.verdicts if report.stage_passed(slug)]
    line = f"{len(passed)}/{len(stages)} stages passed"
    failing = next((slug for slug in report.verdicts if not report.stage_passed(slug)), None)
    if failing is None:
        return line
    first = next((v for v in report.verdicts[failing] if not v.passed), None)
    what = f"{first.file.name}: {first.problem}" if first else "its fixtures have problems"
    so_far = f" ({', '.join(passed)} passed)" if passed else ""
    return f"{line}{so_far}; {failing} failed at {what}"


def _limited(text: str) -> str:
    if len(text) <= RESULTS_OUTPUT_CHARACTERS:
        return text
    note = "\nOutput was truncated. Please limit to 500 chars"
    return text[: RESULTS_OUTPUT_CHARACTERS - len(note)] + note


def results_document(report: Report, stages: Sequence[Stage]) -> dict[str, object]:
    """Exercism's results.json, version 3: one test per case, task_id the stage's number.

    ``test_code`` is the command and the case; ``message`` only on a test that did not
    pass, and at the top only with status ``error`` (nothing could be graded: the
    program cannot run, or it failed to answer on every case).
    """
    tests: list[dict[str, object]] = []
    for verdicts in report.verdicts.values():
        for verdict in verdicts:
            command = verdict.command or f"{verdict.stage.command} ({verdict.file.name})"
            test: dict[str, object] = {
                "name": verdict.name,
                "status": "pass" if verdict.passed else "error" if verdict.error else "fail",
                "test_code": f"{command}\n# {verdict.file.name}:\n{verdict.file.text.rstrip()}",
                "task_id": STAGES.index(verdict.stage) + 1,
            }
            if not verdict.passed:
                parts = [verdict.problem, *([f"fix: {verdict.fix}"] if verdict.fix else [])]
                site = [f"it crashed in your code at {verdict.site}"] if verdict.site else []
                test["message"] = "\n".join([*parts, *site, *verdict.details, *verdict.stderr])
            if verdict.output:
                test["output"] = _limited("\n".join(verdict.output))
            tests.append(test)
    document: dict[str, object] = {"version": 3, "status": "pass" if report.passed else "fail"}
    nothing_graded = not tests or all(test["status"] == "error" for test in tests)
    if not report.passed and nothing_graded:
        document["status"] = "error"
        document["message"] = summary(report, stages)
    document["tests"] = tests
    return document


# -- the command -------------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """A usage error is one line and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: {message}; fix: see `{self.prog} --help`\n")


def parser() -> argparse.ArgumentParser:
    """``hookcourse test``'s options."""
    stages = ", ".join(stage.slug for stage in STAGES)
    command = _Parser(
        prog="hookcourse test",
        description=(
            "Grade a program as the course's tester does: run it on every case file of each "
            "stage and compare its stdout JSON exactly. Failing cases are kept in "
            f"{FAILED}/<stage>/ beside the program. Exit status: 0 all pass, 1 any failure, "
            "2 a usage error, 128 + n after signal n."
        ),
    )
    command.add_argument(
        "--stage",
        action="extend",
        nargs="+",
        default=[],
        metavar="SLUG",
        help=f"stages to grade, the last one first (default: all in course order): {stages}",
    )
    command.add_argument(
        "--program",
        default=DEFAULT_PROGRAM,
        metavar="PATH",
        help=f"the program to grade (default: {DEFAULT_PROGRAM})",
    )
    command.add_argument(
        "--watch", action="store_true", help="grade again whenever a file beside it changes"
    )
    command.add_argument(
        "--json", metavar="FILE", help="also write the results as Exercism's results.json v3"
    )
    command.add_argument(
        "--seed",
        type=int,
        metavar="N",
        help="after the visible fixtures, grade the cases drawn from seed N (default: "
        f"${SEED_ENV}, else a fresh seed, shown as generated/seed-N; the same N draws "
        "the same cases again)",
    )
    command.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"time allowed for each run (default: {DEFAULT_TIMEOUT:g})",
    )
    return command


def results_file_problem(text: str) -> str | None:
    """Why the results file named ``text`` cannot be written, with the fix; None when it can.

    Found before grading, so a long pass is never lost to a bad path. Opening it to append
    proves it writable without changing it; a file made only to prove that is removed.
    """
    path = Path(text)
    if path.is_dir():
        return f"it is a folder; fix: name a file in it, such as {path / 'results.json'}"
    if not path.absolute().parent.is_dir():
        return "its folder does not exist; fix: create the folder or pass another path"
    existed = path.exists()
    if existed and stat.S_ISFIFO(path.stat().st_mode):  # opening it would wait for a reader
        return "it is a named pipe; fix: pass a regular file such as results.json"
    try:
        with path.open("a", encoding="utf-8"):
            pass
    except OSError as error:
        reason = error.strerror or type(error).__name__
        return f"it cannot be written ({reason}); fix: pass a path you may write to"
    if not existed:
        path.unlink(missing_ok=True)
    return None


def _grade_once(
    program: Program, stages: Sequence[Stage], options: argparse.Namespace, style: Style
) -> tuple[int, str]:
    """One grading pass, printed as it goes; returns the exit status and the summary."""

    def show(stage: Stage, verdicts: list[Verdict], problems: list[str]) -> None:
        lines = stage_lines(stage, verdicts, problems, style, options.watch)
        print("\n".join(lines), flush=True)
        progress.record_test(stage.slug, [(v.file.name, v.passed) for v in verdicts])

    report = grade(program, stages, options.timeout, on_stage=show, seed=options.seed)
    if report.kept is not None and not report.passed:
        print(f"hookcourse test: the failing cases were not kept: {report.kept}")
    line = summary(report, stages)
    print(line, flush=True)
    if options.json is not None:
        document = jsjson.stringify(results_document(report, stages))
        try:
            Path(options.json).write_text(document + "\n", encoding="utf-8")
        except OSError as error:
            reason = error.strerror or str(error)
            print(f"hookcourse test: cannot write {options.json} ({reason})", file=sys.stderr)
            return EXIT_USAGE, line
    return (EXIT_PASSED if report.passed else EXIT_FAILED), line


def _watch(
    program: Program, stages: Sequence[Stage], options: argparse.Namespace, style: Style
) -> NoReturn:
    """Grade, then again after every change beside the program, until a signal ends it."""
    from watchfiles import watch

    folder = program.folder
    written = Path(options.json).absolute() if options.json else None
    kept = folder / FAILED
    changed, stop = threading.Event(), threading.Event()

    def ours(path: Path) -> bool:
        # The results file and the failing cases are ours: writing them must not start a pass.
        return path == written or path.is_relative_to(kept)

    def notice() -> None:
        for _ in watch(folder, watch_filter=lambda _, p: not ours(Path(p)), stop_event=stop):
            changed.set()

    # Watching starts before the first pass, so a file saved while grading is not missed.
    threading.Thread(target=notice, daemon=True).start()
    try:  # a signal, the only way out, ends the program from its handler (exit 128 + n)
        while True:
            changed.clear()
            if style.colour:
                print("\x1b[2J\x1b[H", end="")  # clear the screen
            _grade_once(program, stages, options, style)
            print(f"watching {folder} for changes (Ctrl-C to stop)", flush=True)
            changed.wait()
    finally:
        stop.set()


def main(argv: Sequence[str] | None = None) -> int:
    """``hookcourse test [--stage SLUG ...] [--program PATH] [--watch] [--json FILE]
    [--seed N] [--timeout SECONDS]``; returns the exit status (the command line installs
    the interrupt handlers first, ``hookcourse.cli``)."""
    options = parser().parse_args(argv)
    stages = stage_order(options.stage)
    if isinstance(stages, str):
        print(f"hookcourse test: {stages}; fix: pass one of them to --stage", file=sys.stderr)
        return EXIT_USAGE
    if not 0 < options.timeout <= 3600:
        print(
            "hookcourse test: --timeout must be more than 0 and at most 3600 seconds; "
            f"fix: pass a number such as {DEFAULT_TIMEOUT:g}",
            file=sys.stderr,
        )
        return EXIT_USAGE
    json_problem = None if options.json is None else results_file_problem(options.json)
    if json_problem is not None:
        print(f"hookcourse test: --json {options.json}: {json_problem}", file=sys.stderr)
        return EXIT_USAGE
    if options.seed is not None and options.seed not in SEED_RANGE:
        print(
            f"hookcourse test: --seed must be from {SEED_RANGE.start} to {SEED_RANGE.stop - 1}; "
            "fix: pass the seed a report showed (generated/seed-N)",
            file=sys.stderr,
        )
        return EXIT_USAGE
    options.seed = choose_seed(options.seed)
    program = Program.from_option(options.program)
    style = Style(sys.stdout.isatty() and not os.environ.get("NO_COLOR"))
    if options.watch:
        return _watch(program, stages, options, style)
    return _grade_once(program, stages, options, style)[0]
