"""``hookcourse test``: grade anyone's ``your_program.sh`` on the course's stages, as the
course's tester does.

Each case file of a stage (the seed's first, then every ``extra/<name>``) is written to
its own temporary file, the program runs on each (in parallel, one per core), and its
stdout must be one JSON document equal to ``expected.json`` under JavaScript semantics
(``hookcourse.course.checks.cases``). Every way a program can fail is named with its fix.
Exit status: 0 every stage passes, 1 anything fails, 2 a usage error.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Final, NoReturn

from hookcourse.course.checks.cases import (
    FIXTURES,
    SEED,
    CaseFile,
    stage_files,
)
from hookcourse.course.checks.generators import SEED_ENV, SEED_RANGE, choose_seed, drawn_case_file
from hookcourse.course.grading.judging import Report, Verdict, judge
from hookcourse.course.grading.mark import GRADING
from hookcourse.course.grading.program_runs import COURSE_ENTRY, Program, run_program
from hookcourse.course.grading.results_json import results_document, results_file_problem
from hookcourse.course.grading.tester_text import Style, stage_lines, summary
from hookcourse.course.teaching import progress
from hookcourse.js import json as jsjson
from hookcourse.stages.registry import STAGES, Stage, stage_named
from hookcourse.system.interrupts import remove_on_interrupt

EXIT_PASSED: Final = 0
EXIT_FAILED: Final = 1
EXIT_USAGE: Final = 2
DEFAULT_PROGRAM: Final = "./your_program.sh"
DEFAULT_TIMEOUT: Final = 10.0
GENERATED: Final = "generated"  # the name of a stage's drawn case file: generated/seed-N
FAILED: Final = ".hookcourse/failed"  # beside the program: every failing case, until next run


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
