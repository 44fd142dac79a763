"""The class report: many learners' progress files as one table, in text, HTML and CSV.

Learner by stage (the latest run's passed/total and time), the case families most
learners still miss at each stage, and who is stuck where. A file that cannot be
read, or is not a progress file, costs one warning line and nothing else.
"""

from __future__ import annotations

import csv
import html
import io
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from hookcourse.course.progress import FILE_NAME, PROGRAM_TASK, Progress, parse_line

# nbgrader's `nbgrader export` CSV columns, in its order.
GRADES_COLUMNS: Final = (
    "assignment",
    "duedate",
    "timestamp",
    "student_id",
    "last_name",
    "first_name",
    "email",
    "raw_score",
    "late_submission_penalty",
    "score",
    "max_score",
)
WORK_FOLDER_NAME: Final = "my-notebooks"
MOST_MISSED: Final = 3

Column = tuple[str, str]  # (stage, task)


@dataclass(frozen=True)
class Source:
    """One progress file and the learner its lines belong to unless a line names one."""

    path: Path
    learner: str


def _learner_from_file(path: Path) -> str:
    if path.name != FILE_NAME:
        return path.stem
    parent = path.resolve().parent
    return parent.parent.name if parent.name == WORK_FOLDER_NAME else parent.name


def find_sources(arguments: Sequence[str]) -> tuple[list[Source], list[str]]:
    """The progress files named or found under the folders named, and warnings.

    A folder whose progress files sit in several subfolders is a class: each top
    subfolder is a learner. Otherwise the folder is one learner.
    """
    sources: list[Source] = []
    warnings: list[str] = []
    for argument in arguments:
        path = Path(argument)
        if path.is_dir():
            try:
                found = sorted(p for p in path.rglob(FILE_NAME) if p.is_file())
            except OSError as error:
                warnings.append(f"{argument}: cannot be searched ({error.strerror}); skipped")
                continue
            if not found:
                warnings.append(f"{argument}: no {FILE_NAME} in this folder; skipped")
                continue
            tops = {p.relative_to(path).parts[0] for p in found}
            several = len(tops) > 1 and all(len(p.relative_to(path).parts) > 1 for p in found)
            for file in found:
                name = file.relative_to(path).parts[0] if several else path.resolve().name
                sources.append(Source(file, name))
        elif path.exists():
            sources.append(Source(path, _learner_from_file(path)))
        else:
            warnings.append(f"{argument}: no such file or folder; skipped")
    return sources, warnings


def read_sources(sources: Iterable[Source]) -> tuple[list[tuple[str, Progress]], list[str]]:
    """(learner, run) for every progress line, and one warning per file with a problem."""
    runs: list[tuple[str, Progress]] = []
    warnings: list[str] = []
    for item in sources:
        try:
            text = item.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or "not UTF-8 text"
            warnings.append(f"{item.path}: cannot be read ({reason}); skipped")
            continue
        lines = [line for line in text.splitlines() if line.strip()]
        parsed = [parse_line(line) for line in lines]
        good = [run for run in parsed if run is not None]
        if lines and not good:
            warnings.append(f"{item.path}: not a hookcourse progress file; skipped")
            continue
        if len(good) < len(lines):
            bad = len(lines) - len(good)
            warnings.append(
                f"{item.path}: {bad} of {len(lines)} lines are not progress records; skipped those"
            )
        runs += [(run.learner or item.learner, run) for run in good]
    return runs, warnings


def _course_order() -> list[Column]:
    """Stages in course order; in each, its exercises, then the graded program."""
    from hookcourse.stages.registry import STAGES

    return [
        column
        for stage in STAGES
        for column in [
            *((stage.slug, exercise.function) for exercise in stage.exercises),
            (stage.slug, PROGRAM_TASK),
        ]
    ]


@dataclass
class ClassReport:
    """Everything the report shows, computed once from the runs."""

    learners: list[str]
    columns: list[Column]
    latest: dict[tuple[str, Column], Progress]
    attempts: dict[tuple[str, Column], int]
    warnings: list[str] = field(default_factory=list)

    @classmethod
    def build(cls, runs: Iterable[tuple[str, Progress]], warnings: list[str]) -> ClassReport:
        """Keep each learner's latest run per column, counting the runs."""
        latest: dict[tuple[str, Column], Progress] = {}
        attempts: Counter[tuple[str, Column]] = Counter()
        for learner, run in runs:
            key = (learner, (run.stage, run.task))
            attempts[key] += 1
            if key not in latest or run.time >= latest[key].time:
                latest[key] = run
        known = _course_order()
        seen = {column for _, column in latest}
        columns = [c for c in known if c in seen] + sorted(seen - set(known))
        learners = sorted({learner for learner, _ in latest}, key=str.casefold)
        return cls(learners, columns, latest, dict(attempts), warnings)

    def most_missed(self, column: Column) -> list[tuple[str, int]]:
        """The case families most learners' latest run still fails, with how many."""
        counts = Counter(
            family
            for learner in self.learners
            if (run := self.latest.get((learner, column))) is not None
            for family in run.failing
        )
        return counts.most_common(MOST_MISSED)

    def stuck(self) -> list[tuple[str, Column, Progress, int]]:
        """Each learner's first column, in course order, whose latest run did not pass."""
        found = []
        for learner in self.learners:
            for column in self.columns:
                run = self.latest.get((learner, column))
                if run is not None and not run.done:
                    found.append((learner, column, run, self.attempts[(learner, column)]))
                    break
        return found


def column_name(column: Column) -> str:
    """``matcher-and-dispatch/match_hook``; a graded program run is ``stage/program``."""
    return f"{column[0]}/{column[1]}"


def _cell_text(run: Progress | None) -> str:
    return "" if run is None else f"{run.passed}/{run.total}"


def text(report: ClassReport) -> str:
    """The report as plain text for a terminal."""
    header = ["learner", *(column_name(c) for c in report.columns)]
    rows = [
        [learner, *(_cell_text(report.latest.get((learner, c))) or "-" for c in report.columns)]
        for learner in report.learners
    ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in [header, *rows]
    ]
    lines.append("")
    lines.append("Most missed case families:")
    for column in report.columns:
        missed = report.most_missed(column)
        listed = ", ".join(f"{family} ({n})" for family, n in missed) or "none"
        lines.append(f"  {column_name(column)}: {listed}")
    lines.append("Stuck:")
    for learner, column, run, tries in report.stuck():
        lines.append(
            f"  {learner} at {column_name(column)}: {run.passed}/{run.total} after {tries} "
            f"run{'s' if tries != 1 else ''}, failing {', '.join(run.failing) or '-'}"
        )
    if not report.stuck():
        lines.append("  nobody")
    return "\n".join(lines)


_STYLE: Final = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #1f2328; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #d0d7de; padding: 4px 10px; text-align: left; }
td.done { background: #dafbe1; } td.partial { background: #fff8c5; }
td.none { background: #ffebe9; } td.absent { color: #8c959f; }
small { color: #57606a; display: block; }
"""


def _html_cell(run: Progress | None) -> str:
    if run is None:
        return "<td class='absent'>-</td>"
    kind = "done" if run.done else "partial" if run.passed else "none"
    when = html.escape(run.time.replace("T", " ").removesuffix("+00:00"))
    return f"<td class='{kind}'>{run.passed}/{run.total}<small>{when}</small></td>"


def to_html(report: ClassReport) -> str:
    """A self-contained page: no script, no link, every value escaped."""
    e = html.escape
    head = "".join(f"<th>{e(column_name(c))}</th>" for c in report.columns)
    body = "".join(
        f"<tr><th>{e(learner)}</th>"
        + "".join(_html_cell(report.latest.get((learner, c))) for c in report.columns)
        + "</tr>"
        for learner in report.learners
    )
    missed = "".join(
        f"<li><b>{e(column_name(c))}</b>: "
        + (", ".join(f"{e(f)} ({n})" for f, n in report.most_missed(c)) or "none")
        + "</li>"
        for c in report.columns
    )
    stuck = (
        "".join(
            f"<li><b>{e(learner)}</b> at {e(column_name(c))}: {run.passed}/{run.total} after "
            f"{tries} run{'s' if tries != 1 else ''}, "
            f"failing {e(', '.join(run.failing) or '-')}</li>"
            for learner, c, run, tries in report.stuck()
        )
        or "<li>nobody</li>"
    )
    warned = "".join(f"<li>{e(w)}</li>" for w in report.warnings)
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        f"<title>hookcourse class report</title><style>{_STYLE}</style></head><body>"
        "<h1>hookcourse class report</h1>"
        f"<p>{len(report.learners)} learners; latest run per stage (passed/total, UTC).</p>"
        f"<table id='progress'><tr><th>learner</th>{head}</tr>{body}</table>"
        f"<h2>Most missed case families</h2><ul id='missed'>{missed}</ul>"
        f"<h2>Who is stuck where</h2><ul id='stuck'>{stuck}</ul>"
        + (f"<h2>Skipped</h2><ul id='warnings'>{warned}</ul>" if warned else "")
        + "</body></html>\n"
    )


def to_csv(report: ClassReport) -> str:
    """nbgrader's grades.csv: one row per learner and stage run, scores as passed cases."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(GRADES_COLUMNS)
    for learner in report.learners:
        for column in report.columns:
            run = report.latest.get((learner, column))
            if run is None:
                continue
            score = float(run.passed)
            writer.writerow(
                [
                    column_name(column),
                    "",
                    run.time,
                    learner,
                    "",
                    "",
                    "",
                    score,
                    0.0,
                    score,
                    float(run.total),
                ]
            )
    return out.getvalue()
