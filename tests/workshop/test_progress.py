"""Every check run in a working copy leaves one progress line; outside one, nothing."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from hookcourse import solutions
from hookcourse.course.checks.exercises import check, check_apply, check_exit_code, check_matcher
from hookcourse.course.grading import tester
from hookcourse.course.teaching import progress
from tests.support.paths import ROOT


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A learner's working folder, as lab.sh marks it, and the kernel's current directory."""
    folder = tmp_path / "my-notebooks"
    folder.mkdir()
    (folder / progress.MARKER).write_text("", encoding="utf-8")
    monkeypatch.delenv(progress.WORK_ENV, raising=False)
    monkeypatch.delenv(progress.LEARNER_ENV, raising=False)
    monkeypatch.delenv(progress.HUB_USER_ENV, raising=False)
    monkeypatch.delenv(progress.SWITCH_ENV, raising=False)
    monkeypatch.chdir(folder)
    return folder


def lines(folder: Path) -> list[dict[str, object]]:
    text = (folder / progress.FILE_NAME).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


def test_each_check_run_records_stage_counts_families_time_and_version(work: Path) -> None:
    wrong = check_matcher(lambda matcher, tool: matcher == tool)
    check_exit_code(solutions.interpret_exit_code)
    first, second = lines(work)
    assert first["stage"] == "matcher-and-dispatch" and first["task"] == "match_hook"
    assert first["total"] == len(wrong.outcomes)
    assert first["passed"] == sum(o.passed for o in wrong.outcomes)
    assert first["failing"] == [f for f, passing, total in wrong.families() if passing < total]
    assert first["source"] == "check" and first["version"] == "0.1.0"
    assert str(first["time"]).endswith("+00:00")
    assert second["task"] == "interpret_exit_code"
    assert second["passed"] == second["total"] and second["failing"] == []


def test_a_starter_records_zero_passed(work: Path) -> None:
    def apply_pre_tool_use(output: object, tool_input: object) -> object:
        raise NotImplementedError

    assert check_apply(apply_pre_tool_use).not_yet
    [line] = lines(work)
    assert line["passed"] == 0 and line["stage"] == "decide-and-modify"
    assert line["failing"] == []  # nothing tried, so no trap to count


def test_a_subfolder_of_the_working_copy_records_in_the_copy(work: Path) -> None:
    (work / "scratch").mkdir()
    os.chdir(work / "scratch")
    check_matcher(solutions.match_hook)
    assert len(lines(work)) == 1


def test_the_learner_named_by_the_environment_is_recorded(
    work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(progress.LEARNER_ENV, "ada")
    check_matcher(solutions.match_hook)
    assert lines(work)[0]["learner"] == "ada"


def test_the_learner_defaults_to_the_hub_user_then_the_os_user(
    work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import getpass

    check_matcher(solutions.match_hook)
    monkeypatch.setenv(progress.HUB_USER_ENV, "bob")
    check_matcher(solutions.match_hook)
    monkeypatch.setenv(progress.LEARNER_ENV, "Bob Smith")
    check_matcher(solutions.match_hook)
    assert [line["learner"] for line in lines(work)] == [getpass.getuser(), "bob", "Bob Smith"]


def test_a_user_missing_from_the_password_database_records_no_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import getpass

    def no_user() -> str:
        raise KeyError("getpwuid(): uid not found: 4242")

    monkeypatch.delenv(progress.LEARNER_ENV, raising=False)
    monkeypatch.delenv(progress.HUB_USER_ENV, raising=False)
    monkeypatch.setattr(getpass, "getuser", no_user)
    assert progress.learner_name() is None


def test_a_check_that_ran_no_case_records_nothing(work: Path) -> None:
    assert check("no_such_exercise", solutions.match_hook).refusal
    assert check_matcher("not a function").refusal
    assert not (work / progress.FILE_NAME).exists()


def test_the_switch_turns_recording_off(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(progress.SWITCH_ENV, "off")
    check_matcher(solutions.match_hook)
    assert not (work / progress.FILE_NAME).exists()


def test_outside_a_working_copy_nothing_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(progress.WORK_ENV, raising=False)
    monkeypatch.delenv(progress.SWITCH_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    check_matcher(solutions.match_hook)
    assert list(tmp_path.iterdir()) == []


def test_an_unwritable_progress_file_costs_one_line_not_the_check(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (work / progress.FILE_NAME).mkdir()  # a folder where the file should be
    result = check_matcher(solutions.match_hook)
    assert result.passed
    err = capsys.readouterr().err
    assert err.startswith(f"hookcourse: progress not recorded in {work / progress.FILE_NAME} (")
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    "line",
    [
        "",
        "not json",
        "[]",
        '{"stage": "s", "task": "t", "passed": -1, "total": 2, "failing": [], "time": "x"}',
        '{"stage": "s", "task": "t", "passed": true, "total": 2, "failing": [], "time": "x"}',
        '{"stage": "", "task": "t", "passed": 1, "total": 2, "failing": [], "time": "x"}',
        '{"stage": "s", "task": "t", "passed": 1, "total": 2, "failing": "a", "time": "x"}',
    ],
)
def test_a_line_that_is_not_progress_is_refused(line: str) -> None:
    assert progress.parse_line(line) is None


def test_each_stage_of_a_hookcourse_test_run_records_a_line(
    work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The learner runs the tester from their program's folder, elsewhere; lab.sh's
    # variable (or this checkout's copy) says where their working copy is.
    monkeypatch.setenv(progress.WORK_ENV, str(work))
    program = ROOT / "your_program.sh"
    status = tester.main(["--program", str(program), "--stage", "matcher-and-dispatch"])
    assert status == 0
    [line] = lines(work)
    assert line["stage"] == "matcher-and-dispatch" and line["task"] == progress.PROGRAM_TASK
    assert line["source"] == "test" and line["passed"] == line["total"] > 1
    assert line["failing"] == []


def test_a_failing_program_records_its_failing_case_files(work: Path) -> None:
    assert progress.record_test("s", [("case.json", False), ("extra/name-lists", False)])
    assert progress.record_test("s", [("case.json", True), ("extra/name-lists", True)])
    first, second = lines(work)
    assert first["failing"] == ["seed", "name-lists"] and first["passed"] == 0
    assert second["failing"] == [] and second["passed"] == 2


def test_the_gate_and_guard_checks_record_too(work: Path) -> None:
    from hookcourse.course.labs.events import check_gate
    from hookcourse.course.labs.guard import check_guard
    from hookcourse.course.labs.guard_corpus import load_corpus

    def is_force_push(command: str) -> bool:
        return "--force" in command

    # Recording is what is tested: a few commands of the corpus run as hook processes
    # (the whole corpus is tests/labs's), two of them the +refspec this guard misses.
    families = [
        {"family": f.name, "expect": f.expect, "commands": list(f.commands[:2])}
        for f in load_corpus()
        if f.name in ("--force", "+refspec", "ordinary push")
    ]
    corpus = work.parent / "corpus.json"
    corpus.write_text(json.dumps({"about": "a sample", "families": families}), encoding="utf-8")
    check_gate(solutions.pick_hook)
    check_guard(is_force_push, corpus)
    gate, guard = lines(work)
    assert (gate["stage"], gate["task"], gate["passed"], gate["total"]) == (
        "choose-a-hook",
        "pick_hook",
        10,
        10,
    )
    assert (guard["stage"], guard["task"]) == ("force-push-guard", "is_force_push")
    assert 0 < guard["passed"] < guard["total"] and "+refspec" in guard["failing"]
