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
import os
import selectors
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, NoReturn

from hookcourse.course import hints as hint_data
from hookcourse.course import progress
from hookcourse.course.cases import FIXTURES, CaseFile, clip, first_difference, shown, stage_files
from hookcourse.course.cases import visible as escaped
from hookcourse.js import json as jsjson
from hookcourse.stages.decoding import CaseError, member
from hookcourse.stages.registry import STAGES, Stage, stage_named

EXIT_PASSED: Final = 0
EXIT_FAILED: Final = 1
EXIT_USAGE: Final = 2
EXIT_INTERRUPTED: Final = 130
DEFAULT_PROGRAM: Final = "./your_program.sh"
DEFAULT_TIMEOUT: Final = 10.0
OUTPUT_CAP: Final = 1 << 20  # bytes of stdout or stderr kept per run; the rest is counted only
ECHO_CHARACTERS: Final = 400  # of the program's output shown under a failing case
ECHO_LINES: Final = 8
STDERR_LINES: Final = 12
POLL_SECONDS: Final = 0.05  # how often a silent run is checked for having exited
DRAIN_SECONDS: Final = 0.2  # after it exits, how long its output may still arrive


# -- running one program -----------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """What one run of the program did. ``status`` is None when it timed out or never started."""

    status: int | None
    stdout: bytes = b""
    stderr: bytes = b""
    stdout_bytes: int = 0  # everything it printed, kept or not
    timed_out: bool = False
    start_error: OSError | None = None
    seconds: float = 0.0


class _Children:
    """The running programs' process groups, so an interrupt can end every one."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._groups: set[int] = set()
        self._closed = False  # after end_all, a run that starts late is ended at once

    def add(self, pid: int) -> None:
        with self._lock:
            if not self._closed:
                self._groups.add(pid)
                return
        _kill_group(pid)

    def end(self, pid: int) -> None:
        """Kill the whole process group (the program and anything it started)."""
        with self._lock:
            self._groups.discard(pid)
        _kill_group(pid)

    def end_all(self) -> None:
        """Kill every running program, and any that starts from now on."""
        with self._lock:
            groups, self._groups, self._closed = set(self._groups), set(), True
        for pid in groups:
            _kill_group(pid)


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):  # already gone
        os.killpg(pid, signal.SIGKILL)


CHILDREN: Final = _Children()


@contextlib.contextmanager
def _ending_runs_on_interrupt(pool: ThreadPoolExecutor) -> Iterator[None]:
    """On Ctrl-C, drop the runs not started and end the running ones, before the pool waits."""
    try:
        yield
    except KeyboardInterrupt:
        pool.shutdown(wait=False, cancel_futures=True)
        CHILDREN.end_all()
        raise


def run_program(argv: Sequence[str], cwd: Path, timeout: float) -> Run:
    """Run ``argv`` with no stdin; keep the first OUTPUT_CAP bytes of each stream; kill at
    ``timeout`` seconds, with every process it started."""
    started = time.monotonic()
    try:
        process = subprocess.Popen(
            list(argv),
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # its own process group: a timeout kills its children too
        )
    except OSError as error:
        return Run(None, start_error=error)
    CHILDREN.add(process.pid)
    kept = {"stdout": bytearray(), "stderr": bytearray()}
    total = {"stdout": 0, "stderr": 0}
    deadline = started + timeout
    drained: float | None = None  # once it has exited: when to stop waiting for its pipes
    timed_out = False
    try:
        with selectors.DefaultSelector() as selector:
            assert process.stdout is not None and process.stderr is not None
            selector.register(process.stdout, selectors.EVENT_READ, "stdout")
            selector.register(process.stderr, selectors.EVENT_READ, "stderr")
            while selector.get_map():
                now = time.monotonic()
                if drained is None and process.poll() is not None:
                    # A child it left running may hold the pipes open: take what is there.
                    drained = now + DRAIN_SECONDS
                if now >= (drained or deadline):
                    timed_out = drained is None
                    break
                wake = min(drained or deadline, now + POLL_SECONDS)
                for key, _ in selector.select(wake - now):
                    chunk = os.read(key.fd, 65536)
                    if not chunk:
                        selector.unregister(key.fileobj)
                        continue
                    total[key.data] += len(chunk)
                    room = OUTPUT_CAP - len(kept[key.data])
                    kept[key.data] += chunk[: max(room, 0)]
        if not timed_out:
            try:
                process.wait(max(deadline - time.monotonic(), 0))
            except subprocess.TimeoutExpired:
                timed_out = True
    finally:
        CHILDREN.end(process.pid)  # nothing it started outlives its case
        process.wait()
        process.stdout.close()  # type: ignore[union-attr]
        process.stderr.close()  # type: ignore[union-attr]
    return Run(
        None if timed_out else process.returncode,
        bytes(kept["stdout"]),
        bytes(kept["stderr"]),
        total["stdout"],
        timed_out,
        None,
        time.monotonic() - started,
    )


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


@dataclass(frozen=True)
class Verdict:
    """One case's verdict: passed, or the problem in one line, its fix and the details."""

    stage: Stage
    file: CaseFile
    command: str  # the command line as shown, "$ ./your_program.sh hook-match /tmp/…"
    passed: bool
    problem: str = ""
    fix: str = ""
    output: tuple[str, ...] = ()  # the program's stdout, escaped and truncated, a line each
    details: tuple[str, ...] = ()
    error: bool = False  # the program failed to answer (Exercism's "error"), not a wrong answer
    seconds: float = 0.0

    @property
    def name(self) -> str:
        return f"{self.stage.slug}: {self.file.name}"


def _echo(data: bytes, total: int) -> tuple[str, ...]:
    """The program's stdout as indented lines, escaped and cut at ECHO_CHARACTERS/ECHO_LINES."""
    text = data.decode("utf-8", "replace")
    lines = escaped(text[:ECHO_CHARACTERS]).rstrip("\n").split("\n")[:ECHO_LINES]
    if len(text) > ECHO_CHARACTERS or total > len(data) or text.count("\n", 0, -1) >= ECHO_LINES:
        lines[-1] += f"… (truncated; {total} bytes in all)"
    return tuple(lines)


def _one_line(text: str, width: int) -> str:
    return clip(escaped(text).replace("\n", "\\n"), width)


def _stderr_lines(data: bytes) -> tuple[str, ...]:
    lines = data.decode("utf-8", "replace").rstrip("\n").split("\n")
    if not data.strip():
        return ()
    cut = ["  …"] if len(lines) > STDERR_LINES else []
    return ("its stderr:", *cut, *(f"  {escaped(line)}" for line in lines[-STDERR_LINES:]))


def _hint_lines(stage: Stage, file: CaseFile, path: tuple[str | int, ...]) -> tuple[str, ...]:
    """The input case behind a differing answer, and the hint for its family."""
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
    family = exercise.family(decoded)
    hint = hint_data.hint(exercise.function, family)
    if hint is not None:
        lines.append(f"hint ({family}): {hint}")
    return tuple(lines)


def judge(stage: Stage, file: CaseFile, command: str, run: Run, timeout: float) -> Verdict:
    """The verdict on one run: every way a program fails is named with its fix."""

    def failed(problem: str, fix: str, *details: str, error: bool = True) -> Verdict:
        output = _echo(run.stdout, run.stdout_bytes) if run.stdout_bytes else ()
        return Verdict(
            stage, file, command, False, problem, fix, output, details, error, run.seconds
        )

    if run.start_error is not None:
        if run.start_error.errno == 8:  # ENOEXEC: no #! line and not a binary
            return failed("cannot be started: it has no #! line", "make its first line #!/bin/sh")
        if isinstance(run.start_error, PermissionError):
            return failed("is not executable", f"chmod +x {command.split()[1]}")
        return failed(f"cannot be started ({run.start_error.strerror})", "check the --program path")
    stderr = _stderr_lines(run.stderr)
    if run.timed_out:
        return failed(
            f"did not finish within {timeout:g} s",
            "look for a loop that never ends or a read from stdin (the grader gives it none); "
            "raise --timeout if it is only slow",
            *stderr,
        )
    if run.status != 0:
        if run.status is not None and run.status < 0:
            how = f"was killed by {signal.Signals(-run.status).name}"
        else:
            how = f"exited with status {run.status}"
        fix = "read its stderr below; on a valid case it must exit 0 after printing the JSON"
        return failed(how, fix, *stderr)
    if not run.stdout.strip():
        return failed(
            "printed nothing on stdout",
            "print the JSON document on stdout (console.log, print, fmt.Println), not stderr",
            *stderr,
        )
    if run.stdout_bytes > OUTPUT_CAP:
        return failed(f"printed {run.stdout_bytes} bytes", "print only the one JSON document")
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
        return Verdict(stage, file, command, True, seconds=run.seconds)
    return Verdict(
        stage,
        file,
        command,
        False,
        difference.text(),
        "",
        _echo(run.stdout, run.stdout_bytes),
        _hint_lines(stage, file, difference.path),
        False,
        run.seconds,
    )


# -- grading stages ----------------------------------------------------------------------------


@dataclass
class Report:
    """Everything one grading pass found, stage by stage in the order they ran."""

    verdicts: dict[str, list[Verdict]] = field(default_factory=dict)
    problems: dict[str, list[str]] = field(default_factory=dict)  # fixture problems by stage
    program_problem: tuple[str, str] | None = None

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


def grade(
    program: Program,
    stages: Sequence[Stage],
    timeout: float,
    fixtures: Path = FIXTURES,
    on_stage: Callable[[Stage, list[Verdict], list[str]], None] | None = None,
) -> Report:
    """Run the program on every case of each stage in turn, stopping after a failing stage."""
    report = Report(program_problem=program.problem())
    if report.program_problem is not None:
        return report
    workers = os.cpu_count() or 2
    with (
        tempfile.TemporaryDirectory(prefix="hookcourse-test-") as scratch,
        ThreadPoolExecutor(workers) as pool,
        _ending_runs_on_interrupt(pool),
    ):
        for stage in stages:
            files, problems = stage_files(stage, fixtures)
            commands = []
            for file in files:
                name = "seed" if file.is_seed else file.name.removeprefix("extra/")
                folder = Path(scratch, stage.slug, name)
                folder.mkdir(parents=True)
                (folder / "case.json").write_text(file.text, encoding="utf-8")
                commands.append([str(program.path), stage.command, str(folder / "case.json")])
            runs = pool.map(lambda argv: run_program(argv, program.path.parent, timeout), commands)
            verdicts = [
                judge(stage, file, f"$ {program.shown} {argv[1]} {argv[2]}", run, timeout)
                for file, argv, run in zip(files, commands, runs, strict=True)
            ]
            report.verdicts[stage.slug] = verdicts
            report.problems[stage.slug] = problems
            if on_stage is not None:
                on_stage(stage, verdicts, problems)
            if not report.stage_passed(stage.slug):
                break
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


def stage_lines(
    stage: Stage, verdicts: list[Verdict], problems: list[str], style: Style, failing_first: bool
) -> Iterator[str]:
    """A stage's header, a line per case, and each failure's command, output and diagnosis."""
    yield f"{stage.slug} · {stage.title}"
    for problem in problems:
        yield f"  {style.mark(False)} fixture problem: {problem}"
    ordered = sorted(verdicts, key=lambda v: v.passed) if failing_first else verdicts
    for verdict in ordered:
        yield f"  {style.mark(verdict.passed)} {verdict.file.name}"
        if verdict.passed:
            continue
        yield f"      {verdict.command}"
        yield from (f"      {line}" for line in verdict.output)
        subject = "" if verdict.problem.startswith("Expected") else "Your program "
        yield f"      {subject}{verdict.problem}"
        if verdict.fix:
            yield f"      fix: {verdict.fix}"
        yield from (f"      {line}" for line in verdict.details)
    passing = sum(v.passed for v in verdicts)
    yield f"  {passing}/{len(verdicts)} cases passed"


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


def results_document(report: Report, stages: Sequence[Stage]) -> dict[str, object]:
    """Exercism's results.json (version 3): one test per case file, task_id = stage slug."""
    tests: list[dict[str, object]] = []
    for verdicts in report.verdicts.values():
        for verdict in verdicts:
            message = None
            if not verdict.passed:
                parts = [verdict.problem, *([f"fix: {verdict.fix}"] if verdict.fix else [])]
                message = "\n".join([*parts, *verdict.details])
            tests.append(
                {
                    "name": verdict.name,
                    "status": "pass" if verdict.passed else "error" if verdict.error else "fail",
                    "message": message,
                    "output": "\n".join(verdict.output) or None,
                    "task_id": verdict.stage.slug,
                }
            )
    status = "pass" if report.passed else "fail"
    return {
        "version": 3,
        "status": "error" if report.program_problem is not None else status,
        "message": None if report.passed else summary(report, stages),
        "tests": tests,
    }


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
            "stage and compare its stdout JSON exactly. Exit status: 0 all pass, 1 any "
            "failure, 2 a usage error."
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

    report = grade(program, stages, options.timeout, on_stage=show)
    line = summary(report, stages)
    print(line)
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
    """Grade, then again after every change beside the program, until Ctrl-C."""
    from watchfiles import watch

    folder = program.path.parent
    written = Path(options.json).absolute() if options.json else None
    changed, stop = threading.Event(), threading.Event()

    def notice() -> None:
        # The results file is ours: writing it must not start another pass.
        for _ in watch(folder, watch_filter=lambda _, p: Path(p) != written, stop_event=stop):
            changed.set()

    # Watching starts before the first pass, so a file saved while grading is not missed.
    threading.Thread(target=notice, daemon=True).start()
    try:  # Ctrl-C, the only way out, reaches main: exit 130
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
    [--timeout SECONDS]``; returns the exit status."""
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
    program = Program.from_option(options.program)
    style = Style(sys.stdout.isatty() and not os.environ.get("NO_COLOR"))
    try:
        if options.watch:
            return _watch(program, stages, options, style)
        return _grade_once(program, stages, options, style)[0]
    except KeyboardInterrupt:
        CHILDREN.end_all()
        print("hookcourse test: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        CHILDREN.end_all()
