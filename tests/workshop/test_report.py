"""`hookcourse workshop report`: several learners' progress (and a broken file or two) as a
class table in text, HTML and nbgrader's grades.csv columns."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from hookcourse.course.teaching import progress, report, report_sources
from hookcourse.stages.registry import EXERCISES, STAGES
from tests.support.paths import ROOT


def entry(stage: str, task: str, passed: int, total: int, failing: list[str], time: str) -> str:
    run = progress.Progress(stage, task, passed, total, tuple(failing), time, "0.1.0", "check")
    return progress.json.dumps(run.to_json()) + "\n"


MATCH = ("matcher-and-dispatch", "match_hook")
APPLY = ("decide-and-modify", "apply_pre_tool_use")


@pytest.fixture
def klass(tmp_path: Path) -> Path:
    """A class folder: three learners' working copies, one broken, one foreign file."""
    root = tmp_path / "class"
    files = {
        "ada/my-notebooks/progress.jsonl": entry(
            *MATCH, 140, 151, ["name-list"], "2026-12-01T09:00:00+00:00"
        )
        + entry(*MATCH, 151, 151, [], "2026-12-01T09:10:00+00:00")
        + entry(*APPLY, 50, 60, ["nullish-not-falsy", "block"], "2026-12-01T09:20:00+00:00"),
        "bob/my-notebooks/progress.jsonl": entry(
            *MATCH, 100, 151, ["name-list", "ascii-word"], "2026-12-01T09:05:00+00:00"
        )
        + entry(*MATCH, 120, 151, ["name-list"], "2026-12-01T09:15:00+00:00")
        + "{truncated\n",
        "cy/my-notebooks/progress.jsonl": entry(*APPLY, 60, 60, [], "2026-12-01T09:30:00+00:00"),
        "dee/my-notebooks/progress.jsonl": "this is somebody's shopping list\n",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


NOW = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


def build(paths: list[str]) -> report.ClassReport:
    sources, warnings = report_sources.find_sources(paths)
    runs, problems = report_sources.read_sources(sources)
    return report.ClassReport.build(runs, warnings + problems, now=NOW)


def keys(summary: report.ClassReport) -> list[tuple[str, str]]:
    return [column.key for column in summary.columns]


def test_each_learner_is_a_row_with_the_latest_run_per_exercise(klass: Path) -> None:
    summary = build([str(klass)])
    assert set(summary.learners) == {"ada", "bob", "cy"}
    assert summary.latest[("ada", MATCH)].passed == 151
    assert summary.latest[("bob", MATCH)].passed == 120
    assert summary.attempts[("bob", MATCH)] == 2
    assert ("cy", MATCH) not in summary.latest


def test_every_exercise_of_the_registry_is_a_column_in_course_order(klass: Path) -> None:
    summary = build([str(klass)])
    every = [(exercise.stage, exercise.function) for exercise in EXERCISES]
    assert len(every) == 8
    assert keys(summary) == every  # nobody ran a program: no program column
    labels = [column.label for column in summary.columns]
    assert labels == [
        "01 match_hook",
        "02 interpret_exit_code",
        "03 apply_pre_tool_use",
        "04 pick_hook",
        "05 merge_pre_tool_use",
        "06 run_stop_loop",
        "07 is_force_push",
        "08 run_hooks",
    ]
    numbers = [label.split()[0] for label in labels]
    assert numbers == sorted(numbers)
    assert summary.columns[0].assignment == "01_matcher/match_hook"


def test_a_program_run_adds_its_stage_column_after_the_stages_exercises(tmp_path: Path) -> None:
    file = tmp_path / "ada" / "progress.jsonl"
    file.parent.mkdir()
    file.write_text(
        entry("matcher-and-dispatch", "program", 3, 4, ["seed"], "2026-12-01T09:00:00+00:00"),
        encoding="utf-8",
    )
    summary = build([str(file)])
    labels = [column.label for column in summary.columns]
    assert labels[2] == "program hook-match"
    assert labels[3] == "03 apply_pre_tool_use"


def test_done_counts_last_activity_and_idle_time(klass: Path) -> None:
    summary = build([str(klass)])
    match, apply = (next(c for c in summary.columns if c.key == k) for k in (MATCH, APPLY))
    assert (summary.done(match), summary.done(apply)) == (1, 1)
    assert report.seen_text(summary.last_seen["ada"]) == "2026-12-01 09:20"
    assert report.idle_text(summary.idle("ada")) == "40 min"
    assert report.idle_text(summary.idle("cy")) == "30 min"
    assert report.idle_text(timedelta(hours=3, minutes=5)) == "3 h 05 min"
    assert report.idle_text(timedelta(days=3)) == "3 days"
    assert report.idle_text(timedelta(seconds=20)) == "just now"


def test_minutes_are_the_median_time_to_pass_from_the_learners_own_runs(tmp_path: Path) -> None:
    def at(minute: int) -> str:
        return (datetime(2026, 12, 1, 9, 0, tzinfo=UTC) + timedelta(minutes=minute)).isoformat()

    files = {
        # ada: 01 fails at 0, passes at 12 (12 min; her first run starts the clock), then
        # 03 at 20 (a try: 8 min) and 26 (passes: 14 min in all).
        "ada": [(MATCH, 140, 0), (MATCH, 151, 12), (APPLY, 50, 20), (APPLY, 60, 26)],
        # bob: 01 passes at 5 (5 min); lunch, then 03 passes 3 hours later: the break counts
        # as 30 min. A run of 01 after it passed changes nothing.
        "bob": [(MATCH, 120, 0), (MATCH, 151, 5), (APPLY, 60, 185), (MATCH, 151, 190)],
        # cy never passes 01: no time of hers counts toward it.
        "cy": [(MATCH, 100, 0), (MATCH, 120, 40)],
    }
    totals = {MATCH: 151, APPLY: 60}
    for learner, runs in files.items():
        path = tmp_path / learner / "progress.jsonl"
        path.parent.mkdir()
        path.write_text(
            "".join(entry(*key, passed, totals[key], [], at(m)) for key, passed, m in runs),
            encoding="utf-8",
        )
    summary = build([str(tmp_path)])
    match, apply = (next(c for c in summary.columns if c.key == k) for k in (MATCH, APPLY))
    assert summary.minutes(match) == 8.5  # the median of 12 and 5
    assert summary.minutes(apply) == 22  # the median of 14 and 30
    minutes_row = next(
        line for line in report.text(summary).splitlines() if line.startswith("minutes")
    )
    cells = minutes_row.split()[1:]
    at_column = {c.key: cells[i] for i, c in enumerate(summary.columns)}
    assert (at_column[MATCH], at_column[APPLY]) == ("8", "22")  # 8.5 rounds to even
    assert "<tr class='minutes'>" in report.to_html(summary)


def test_the_most_missed_families_and_stuck_learners_first(klass: Path) -> None:
    summary = build([str(klass)])
    match = summary.columns[0]
    assert summary.most_missed(match) == [("name-list", 1)]
    stuck = [(learner, column.key, tries) for learner, column, _, tries in summary.stuck()]
    # bob has tried his stuck exercise twice, ada hers once; cy is not stuck.
    assert stuck == [("bob", MATCH, 2), ("ada", APPLY, 1)]
    assert summary.learners == ["bob", "ada", "cy"]


def test_globs_and_a_hubs_home_layout_find_every_learner(tmp_path: Path) -> None:
    home = tmp_path / "home"
    for user in ("jupyter-ada", "jupyter-bob"):
        work = home / user / "my-notebooks"
        work.mkdir(parents=True)
        (work / "progress.jsonl").write_text(
            entry(*MATCH, 1, 2, [], "2026-12-01T09:00:00+00:00"), encoding="utf-8"
        )
    (home / "jupyter-ada" / ".cache" / "deep").mkdir(parents=True)
    (home / "jupyter-ada" / ".cache" / "deep" / "progress.jsonl").write_text("{}\n", "utf-8")
    by_glob = build([str(home / "*" / "my-notebooks")])
    by_home = build([str(home)])
    twice = build([str(home), str(home / "jupyter-ada" / "my-notebooks" / "progress.jsonl")])
    for summary in (by_glob, by_home, twice):
        assert sorted(summary.learners) == ["jupyter-ada", "jupyter-bob"]
        assert summary.warnings == []
        assert summary.attempts[("jupyter-ada", MATCH)] == 1  # each file read once
    nothing = build([str(home / "*" / "nowhere"), str(home)])
    assert nothing.warnings == [f"{home / '*' / 'nowhere'}: matches no file or folder; skipped"]


def test_a_lines_learner_name_wins_and_a_shared_name_is_told_apart(tmp_path: Path) -> None:
    for folder, name in (("ada", "root"), ("bob", "root"), ("cy", "cy-hub")):
        run = progress.Progress(*MATCH, 1, 2, (), "2026-12-01T09:00:00+00:00", "0", "check", name)
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "progress.jsonl").write_text(
            progress.json.dumps(run.to_json()) + "\n", encoding="utf-8"
        )
    summary = build([str(tmp_path)])
    assert sorted(summary.learners) == ["cy-hub", "root (ada)", "root (bob)"]


def test_broken_and_foreign_files_get_one_warning_each(klass: Path, tmp_path: Path) -> None:
    binary = tmp_path / "zed.jsonl"
    binary.write_bytes(b"\xff\xfe\x00")
    summary = build([str(klass), str(binary), str(tmp_path / "missing")])
    assert sorted(summary.warnings) == sorted(
        [
            f"{klass}/bob/my-notebooks/progress.jsonl: 1 of 3 lines are not progress records; "
            "skipped those",
            f"{klass}/dee/my-notebooks/progress.jsonl: not a hookcourse progress file; skipped",
            f"{binary}: cannot be read (not UTF-8 text); skipped",
            f"{tmp_path / 'missing'}: no such file or folder; skipped",
        ]
    )


def test_a_single_file_is_named_after_its_learner(klass: Path) -> None:
    summary = build([str(klass / "ada" / "my-notebooks" / "progress.jsonl")])
    assert summary.learners == ["ada"]
    assert build([str(klass / "ada" / "my-notebooks")]).learners == ["ada"]


def test_csv_has_nbgraders_grades_columns(klass: Path) -> None:
    rows = list(csv.DictReader(io.StringIO(report.to_csv(build([str(klass)])))))
    assert list(rows[0]) == list(report.GRADES_COLUMNS)
    ada = [row for row in rows if row["student_id"] == "ada"]
    assert [(r["assignment"], r["score"], r["max_score"]) for r in ada] == [
        ("01_matcher/match_hook", "151.0", "151.0"),
        ("03_decide_modify_inject/apply_pre_tool_use", "50.0", "60.0"),
    ]
    assert ada[0]["timestamp"] == "2026-12-01T09:10:00+00:00"


def test_html_is_self_contained_and_escapes_what_it_shows(tmp_path: Path) -> None:
    file = tmp_path / "<i>mallory.jsonl"
    file.write_text(entry(*MATCH, 1, 2, ["<script>"], "2026-12-01T09:00:00+00:00"), "utf-8")
    page = report.to_html(build([str(file)]))
    assert "<script" not in page and "&lt;script&gt;" in page
    assert "&lt;i&gt;mallory" in page and "<i>" not in page
    assert "http" not in page  # nothing fetched: no link, no script


def run_report(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hookcourse", "workshop", "report", *arguments],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


def test_the_command_writes_both_formats_despite_bad_files(klass: Path, tmp_path: Path) -> None:
    page, table = tmp_path / "class.html", tmp_path / "grades.csv"
    done = run_report(str(klass), "--html", str(page), "--csv", str(table))
    assert done.returncode == 0
    assert done.stdout == f"class report: 3 learners, written to {page} and {table}\n"
    assert done.stderr.count("hookcourse: warning: ") == 2 == len(done.stderr.splitlines())
    assert "ada" in page.read_text(encoding="utf-8")
    assert table.read_text(encoding="utf-8").startswith("assignment,duedate,timestamp,")


def test_without_a_format_it_prints_the_table(klass: Path) -> None:
    done = run_report(str(klass))
    assert done.returncode == 0
    header, bob, ada, cy, total = done.stdout.splitlines()[:5]
    exercises = len(report.course_columns()) - len(STAGES)
    assert header.split()[:7] == ["learner", "last", "activity", "idle", "01", "match_hook", "02"]
    assert bob.split()[:3] == ["bob", "2026-12-01", "09:15"]
    assert ada.split()[0] == "ada" and ada.split()[-exercises:][:3] == ["151/151", "-", "50/60"]
    assert cy.split()[-exercises:][:3] == ["-", "-", "60/60"]
    assert total.split()[:4] == ["done", "1/3", "0/3", "1/3"]
    assert "  bob at 01 match_hook: 120/151 after 2 runs, failing name-list" in done.stdout


def test_nothing_readable_is_one_error_line(tmp_path: Path) -> None:
    junk = tmp_path / "junk.txt"
    junk.write_text("hello\n", encoding="utf-8")
    done = run_report(str(junk))
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"hookcourse: warning: {junk}: not a hookcourse progress file; skipped",
        f"hookcourse: {junk}: holds no progress records; fix: pass learners' progress.jsonl files",
    ]
