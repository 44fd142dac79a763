"""The class report: many learners' progress files as one table, in text, HTML and CSV.

A row per learner, stuck learners first, with their last activity and how long they
have been idle; a column per exercise in course order (from the stage registry, so
every exercise has one even before anybody ran its check), then the graded programs
run; a "done" row counting who passed each, and a "minutes" row: the learners' median
time to pass it, measured from their own runs (``working_times``). Below the table, the
case families most learners still miss and who is stuck where. A file that cannot be
read, or is not a progress file, costs one warning line and nothing else.
"""

from __future__ import annotations

import csv
import html
import io
import statistics
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Final

from hookcourse.course.teaching.progress import PROGRAM_TASK, Progress

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
MOST_MISSED: Final = 3
BREAK: Final = timedelta(minutes=30)
"""A gap between two of a learner's runs longer than this is a break: it counts as this."""

Key = tuple[str, str]  # (stage, task), as a progress line names it


@dataclass(frozen=True)
class Column:
    """One column: the runs it gathers (``key``), its short heading and its long name."""

    key: Key
    label: str  # "01 match_hook", "program hook-match"
    assignment: str  # "01_matcher/match_hook": the CSV's assignment, the heading's tooltip


def course_columns() -> list[Column]:
    """Every exercise in course order (the registry's ``EXERCISES``), a graded stage's
    program after the last of that stage's exercises."""
    from hookcourse.stages.registry import EXERCISES, STAGES

    left = {stage.slug: len(stage.exercises) for stage in STAGES}
    commands = {stage.slug: stage.command for stage in STAGES}
    columns = []
    for exercise in EXERCISES:
        number = exercise.notebook.split("_", 1)[0]
        columns.append(
            Column(
                (exercise.stage, exercise.function),
                f"{number} {exercise.function}",
                f"{exercise.notebook}/{exercise.function}",
            )
        )
        if exercise.stage in left:
            left[exercise.stage] -= 1
            if not left[exercise.stage]:
                columns.append(
                    Column(
                        (exercise.stage, PROGRAM_TASK),
                        f"program {commands[exercise.stage]}",
                        f"{exercise.stage}/{PROGRAM_TASK}",
                    )
                )
    return columns


def _when(run: Progress) -> datetime | None:
    try:
        moment = datetime.fromisoformat(run.time)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def working_times(timeline: Iterable[tuple[datetime, Key, bool]]) -> dict[Key, timedelta]:
    """Per exercise a learner passed, their time to its first pass: the gap before each of
    their runs (since their run before, of anything; at most ``BREAK``) counts toward that
    run's exercise, until the exercise first passes. Reading before the first exercise of a
    session is not seen; the notebook reading before any later one counts toward it."""
    spent: dict[Key, timedelta] = {}
    passed: dict[Key, timedelta] = {}
    before: datetime | None = None
    for moment, key, done in sorted(timeline):
        if key not in passed:
            gap = timedelta(0) if before is None else min(moment - before, BREAK)
            spent[key] = spent.get(key, timedelta(0)) + gap
            if done:
                passed[key] = spent[key]
        before = moment
    return passed


@dataclass
class ClassReport:
    """Everything the report shows, computed once from the runs."""

    learners: list[str]  # stuck learners first, then by name
    columns: list[Column]
    latest: dict[tuple[str, Key], Progress]
    attempts: dict[tuple[str, Key], int]
    last_seen: dict[str, datetime]
    now: datetime
    warnings: list[str] = field(default_factory=list)
    passed_after: dict[tuple[str, Key], timedelta] = field(default_factory=dict)
    """Each learner's time to first pass an exercise (``working_times``)."""

    @classmethod
    def build(
        cls,
        runs: Iterable[tuple[str, Progress]],
        warnings: list[str],
        now: datetime | None = None,
    ) -> ClassReport:
        """Keep each learner's latest run per column, counting the runs."""
        latest: dict[tuple[str, Key], Progress] = {}
        attempts: Counter[tuple[str, Key]] = Counter()
        last_seen: dict[str, datetime] = {}
        timelines: dict[str, list[tuple[datetime, Key, bool]]] = {}
        for learner, run in runs:
            key = (learner, (run.stage, run.task))
            attempts[key] += 1
            if key not in latest or run.time >= latest[key].time:
                latest[key] = run
            moment = _when(run)
            if moment is not None:
                timelines.setdefault(learner, []).append((moment, key[1], run.done))
                if learner not in last_seen or moment > last_seen[learner]:
                    last_seen[learner] = moment
        seen = {column for _, column in latest}
        known = course_columns()
        # Exercises always have a column; a stage's program only once someone ran it.
        columns = [c for c in known if c.key[1] != PROGRAM_TASK or c.key in seen]
        listed = {c.key for c in known}
        columns += [Column(k, f"{k[0]}/{k[1]}", f"{k[0]}/{k[1]}") for k in sorted(seen - listed)]
        learners = sorted({learner for learner, _ in latest}, key=str.casefold)
        when = now or datetime.now(UTC)
        made = cls(learners, columns, latest, dict(attempts), last_seen, when, warnings)
        made.passed_after = {
            (learner, key): spent
            for learner, timeline in timelines.items()
            for key, spent in working_times(timeline).items()
        }
        stuck = {learner: tries for learner, _, _, tries in made.stuck()}
        made.learners.sort(key=lambda learner: (learner not in stuck, -stuck.get(learner, 0)))
        return made

    def most_missed(self, column: Column) -> list[tuple[str, int]]:
        """The case families most learners' latest run still fails, with how many."""
        counts = Counter(
            family
            for learner in self.learners
            if (run := self.latest.get((learner, column.key))) is not None
            for family in run.failing
        )
        return counts.most_common(MOST_MISSED)

    def minutes(self, column: Column) -> float | None:
        """The median of the learners' times to pass this column, in minutes (None: nobody
        passed it with readable times)."""
        times = [
            spent.total_seconds() / 60
            for (_, key), spent in self.passed_after.items()
            if key == column.key
        ]
        return statistics.median(times) if times else None

    def ran(self, column: Column) -> bool:
        """Whether any learner has run this column's check or program."""
        return any((learner, column.key) in self.latest for learner in self.learners)

    def done(self, column: Column) -> int:
        """How many learners' latest run of this column passed every case."""
        return sum(
            run.done
            for learner in self.learners
            if (run := self.latest.get((learner, column.key))) is not None
        )

    def idle(self, learner: str) -> timedelta | None:
        """How long since the learner's last recorded run (None: no readable time)."""
        seen = self.last_seen.get(learner)
        return None if seen is None else max(self.now - seen, timedelta(0))

    def stuck(self) -> list[tuple[str, Column, Progress, int]]:
        """Each learner's first column, in course order, whose latest run did not pass."""
        found = []
        for learner in self.learners:
            for column in self.columns:
                run = self.latest.get((learner, column.key))
                if run is not None and not run.done:
                    found.append((learner, column, run, self.attempts[(learner, column.key)]))
                    break
        return found


def idle_text(span: timedelta | None) -> str:
    """``just now``, ``12 min``, ``3 h 05 min``, ``2 days``; ``-`` when unknown."""
    if span is None:
        return "-"
    minutes = int(span.total_seconds() // 60)
    if minutes < 1:
        return "just now"
    if minutes < 60:
        return f"{minutes} min"
    if minutes < 48 * 60:
        return f"{minutes // 60} h {minutes % 60:02d} min"
    return f"{minutes // (24 * 60)} days"


def minutes_text(minutes: float | None) -> str:
    """A median time to pass as the table shows it: ``12``; ``-`` when nobody passed."""
    return "-" if minutes is None else str(round(minutes))


def seen_text(moment: datetime | None) -> str:
    """A run's time as the table shows it: ``2026-12-01 09:15`` (UTC)."""
    return "-" if moment is None else moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M")


def _cell_text(run: Progress | None) -> str:
    return "-" if run is None else f"{run.passed}/{run.total}"


def _stuck_line(learner: str, column: Column, run: Progress, tries: int) -> str:
    return (
        f"{learner} at {column.label}: {run.passed}/{run.total} after {tries} "
        f"run{'s' if tries != 1 else ''}, failing {', '.join(run.failing) or '-'}"
    )


def text(report: ClassReport) -> str:
    """The report as plain text for a terminal."""
    header = ["learner", "last activity", "idle", *(c.label for c in report.columns)]
    rows = [
        [
            learner,
            seen_text(report.last_seen.get(learner)),
            idle_text(report.idle(learner)),
            *(_cell_text(report.latest.get((learner, c.key))) for c in report.columns),
        ]
        for learner in report.learners
    ]
    count = len(report.learners)
    rows.append(["done", "", "", *(f"{report.done(c)}/{count}" for c in report.columns)])
    rows.append(["minutes", "", "", *(minutes_text(report.minutes(c)) for c in report.columns)])
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in [header, *rows]
    ]
    lines.append("")
    lines.append("Most missed case families:")
    for column in filter(report.ran, report.columns):
        missed = report.most_missed(column)
        listed = ", ".join(f"{family} ({n})" for family, n in missed) or "none"
        lines.append(f"  {column.label}: {listed}")
    lines.append("Stuck:")
    lines += [f"  {_stuck_line(*stuck)}" for stuck in report.stuck()] or ["  nobody"]
    return "\n".join(lines)


_STYLE: Final = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #1f2328; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #d0d7de; padding: 4px 10px; text-align: left; }
td.done { background: #dafbe1; } td.partial { background: #fff8c5; }
td.none { background: #ffebe9; } td.absent { color: #8c959f; }
tr.stuck > th:first-child { border-left: 4px solid #cf222e; }
tfoot th, tfoot td { font-weight: bold; background: #f6f8fa; }
small { color: #57606a; display: block; }
"""


def _html_cell(run: Progress | None) -> str:
    if run is None:
        return "<td class='absent'>-</td>"
    kind = "done" if run.done else "partial" if run.passed else "none"
    when = html.escape(seen_text(_when(run)))
    return f"<td class='{kind}'>{run.passed}/{run.total}<small>{when}</small></td>"


def to_html(report: ClassReport) -> str:
    """A self-contained page: no script, no link, every value escaped."""
    e = html.escape
    stuck = report.stuck()
    stuck_names = {learner for learner, *_ in stuck}
    head = "".join(f"<th title='{e(c.assignment)}'>{e(c.label)}</th>" for c in report.columns)
    body = "".join(
        f"<tr class='{'stuck' if learner in stuck_names else 'working'}'><th>{e(learner)}</th>"
        f"<td class='seen'>{e(seen_text(report.last_seen.get(learner)))}</td>"
        f"<td class='idle'>{e(idle_text(report.idle(learner)))}</td>"
        + "".join(_html_cell(report.latest.get((learner, c.key))) for c in report.columns)
        + "</tr>"
        for learner in report.learners
    )
    count = len(report.learners)
    foot = "".join(f"<td>{report.done(c)}/{count}</td>" for c in report.columns)
    timed = "".join(f"<td>{minutes_text(report.minutes(c))}</td>" for c in report.columns)
    missed = "".join(
        f"<li><b>{e(c.label)}</b>: "
        + (", ".join(f"{e(f)} ({n})" for f, n in report.most_missed(c)) or "none")
        + "</li>"
        for c in filter(report.ran, report.columns)
    )
    stuck_items = "".join(f"<li>{e(_stuck_line(*item))}</li>" for item in stuck)
    warned = "".join(f"<li>{e(w)}</li>" for w in report.warnings)
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        f"<title>hookcourse class report</title><style>{_STYLE}</style></head><body>"
        "<h1>hookcourse class report</h1>"
        f"<p>{count} learners, stuck ones first; the latest run of each exercise "
        f"(passed/total cases, UTC), as of {e(seen_text(report.now))}.</p>"
        "<table id='progress'><thead><tr><th>learner</th><th>last activity</th>"
        f"<th>idle</th>{head}</tr></thead><tbody>{body}</tbody>"
        f"<tfoot><tr><th>done</th><td></td><td></td>{foot}</tr>"
        "<tr class='minutes'><th title='median minutes to pass, from the learners&#39; runs'>"
        f"minutes</th><td></td><td></td>{timed}</tr></tfoot></table>"
        f"<h2>Most missed case families</h2><ul id='missed'>{missed}</ul>"
        f"<h2>Who is stuck where</h2><ul id='stuck'>{stuck_items or '<li>nobody</li>'}</ul>"
        + (f"<h2>Skipped</h2><ul id='warnings'>{warned}</ul>" if warned else "")
        + "</body></html>\n"
    )


def to_csv(report: ClassReport) -> str:
    """nbgrader's grades.csv: one row per learner and exercise run, scores as passed cases."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(GRADES_COLUMNS)
    for learner in sorted(report.learners, key=str.casefold):
        for column in report.columns:
            run = report.latest.get((learner, column.key))
            if run is None:
                continue
            score = float(run.passed)
            names = [learner, "", "", ""]  # student_id, last and first name, email
            writer.writerow(
                [column.assignment, "", run.time, *names, score, 0.0, score, float(run.total)]
            )
    return out.getvalue()
