"""`hookcourse test` grades real programs, written for these tests in Python, JavaScript and bash.

Each is run as a learner runs it (a subprocess of `python -m hookcourse test`), and the
verdict, the exit status and the message are asserted for each.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import stat
import subprocess
import sys
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from hookcourse.stages.registry import STAGES
from tests.support.paths import ROOT as REPO
from tests.support.processes import gone, running_with
from tests.support.runtimes import node_binary

PROGRAMS = Path(__file__).resolve().parent / "programs"


@dataclass(frozen=True)
class Graded:
    status: int
    stdout: str
    stderr: str


def hookcourse_test(*options: str | Path, cwd: Path = REPO) -> Graded:
    done = subprocess.run(
        [sys.executable, "-m", "hookcourse", "test", *map(str, options)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert "Traceback" not in done.stderr + done.stdout, done.stderr
    return Graded(done.returncode, done.stdout, done.stderr)


def copied(name: str, tmp_path: Path) -> Path:
    """A copy of the program ``name`` in ``tmp_path`` (its failing cases are kept beside it);
    the programs it runs (``../node``) are copied beside it."""
    shutil.copytree(PROGRAMS, tmp_path, dirs_exist_ok=True)
    return tmp_path / name / "your_program.sh"


def hanging(tmp_path: Path) -> tuple[Path, str]:
    """bash-hangs with a sleep of its own: other checkouts on the machine run these tests too."""
    marker = f"30{uuid.uuid4().int % 10_000_000}"
    program = copied("bash-hangs", tmp_path)
    program.write_text(program.read_text().replace("sleep 3017", f"sleep {marker}"))
    return program, f"sleep\x00{marker}"


@pytest.fixture(scope="module")
def node() -> str:
    return node_binary()


def test_the_project_own_program_passes_every_stage() -> None:
    graded = hookcourse_test("--program", "./your_program.sh")
    assert graded.status == 0, graded.stdout
    assert graded.stdout.endswith(f"{len(STAGES)}/{len(STAGES)} stages passed\n")
    assert "  ✓ case.json\n" in graded.stdout


def test_a_correct_javascript_program_passes(node: str) -> None:
    program = PROGRAMS / "node" / "your_program.sh"
    graded = hookcourse_test("--stage", "matcher-and-dispatch", "--program", program)
    assert graded.status == 0, graded.stdout
    assert graded.stdout.endswith("1/1 stages passed\n")


def test_a_correct_python_program_passes_its_stage() -> None:
    # It passes: nothing is written beside it.
    program = PROGRAMS / "python" / "your_program.sh"
    graded = hookcourse_test("--stage", "decide-and-modify", "--program", program)
    assert graded.status == 0, graded.stdout
    assert graded.stdout.endswith("1/1 stages passed\n")
    assert not (PROGRAMS / "python" / ".hookcourse").exists()


def test_name_lists_sent_to_regexp_fail_with_expected_got_and_the_case(
    node: str, tmp_path: Path, results_v3_problems: Callable[[object], list[str]]
) -> None:
    results = tmp_path / "results.json"
    program = copied("node-regex-names", tmp_path)
    graded = hookcourse_test(
        "--stage", "matcher-and-dispatch", "--program", program, "--json", results, cwd=tmp_path
    )
    assert graded.status == 1
    assert "  ✗ extra/name-lists\n" in graded.stdout
    kept = ".hookcourse/failed/matcher-and-dispatch/name-lists.json"
    assert f"      $ cd node-regex-names && ./your_program.sh hook-match {kept}\n" in graded.stdout
    assert (program.parent / kept).is_file()
    assert "      Expected false, got true at $.matches[0]\n" in graded.stdout
    assert 'the case: $.cases[0] = {"matcher":"Edit|Write","tool":"MultiEdit"}' in graded.stdout
    assert "hint (matchHook, name-list): A matcher that passes /^[\\w|]+$/" in graded.stdout
    (families,) = [line for line in graded.stdout.splitlines() if "failing hint families" in line]
    assert "matchHook: name-list (" in families
    assert graded.stdout.endswith(
        "0/1 stages passed; matcher-and-dispatch failed at extra/name-lists: "
        "Expected false, got true at $.matches[0]\n"
    )
    document = json.loads(results.read_text(encoding="utf-8"))
    assert (document["version"], document["status"]) == (3, "fail")
    assert "message" not in document  # only with status error
    assert results_v3_problems(document) == []
    failing = [test for test in document["tests"] if test["status"] != "pass"]
    assert [test["name"] for test in failing][:2] == [
        "matcher-and-dispatch: extra/name-lists",
        "matcher-and-dispatch: extra/tool-not-a-string",
    ]
    assert failing[0]["status"] == "fail"
    assert failing[0]["task_id"] == 1
    assert failing[0]["test_code"].startswith(
        f"cd node-regex-names && ./your_program.sh hook-match {kept}\n"
    )
    assert failing[0]["message"].startswith("Expected false, got true at $.matches[0]\n")
    assert failing[0]["output"].startswith('{"matches":[true,')
    assert len(document["tests"]) == 15  # 14 fixtures, then the generated case file


def test_a_program_printing_text_is_told_to_print_only_json(tmp_path: Path) -> None:
    program = copied("bash-garbage", tmp_path)
    graded = hookcourse_test("--program", program)
    assert graded.status == 1
    assert "      Matching hooks for hook-match...\n      done\n" in graded.stdout
    assert "Your program printed text that is not JSON" in graded.stdout
    assert "fix: print only the JSON document on stdout; write logs to stderr" in graded.stdout
    assert "it starts with: Matching hooks for hook-match...\\ndone\\n" in graded.stdout


def test_a_hanging_program_times_out_and_leaves_nothingrunning_with(
    tmp_path: Path, results_v3_problems: Callable[[object], list[str]]
) -> None:
    program, sleeping = hanging(tmp_path)
    results = tmp_path / "results.json"
    graded = hookcourse_test("--timeout", "0.2", "--program", program, "--json", results)
    assert graded.status == 1
    assert "Your program did not finish within 0.2 s" in graded.stdout
    assert "a read from stdin (the grader gives it none)" in graded.stdout
    document = json.loads(results.read_text())
    assert {test["status"] for test in document["tests"]} == {"error"}
    # Nothing could be graded: status error, with the one top-level message.
    assert document["status"] == "error" and "did not finish within 0.2 s" in document["message"]
    assert results_v3_problems(document) == []
    assert gone(sleeping), "the hanging program's child outlived its case"


def test_a_program_that_is_not_executable_is_told_to_chmod(tmp_path: Path) -> None:
    program = tmp_path / "your_program.sh"
    shutil.copy(PROGRAMS / "bash-garbage" / "your_program.sh", program)
    program.chmod(stat.S_IRUSR | stat.S_IWUSR)
    results = tmp_path / "results.json"
    graded = hookcourse_test("--json", results, cwd=tmp_path)
    assert graded.status == 1
    assert graded.stdout == (
        "./your_program.sh is not executable; fix: chmod +x ./your_program.sh\n"
    )
    document = json.loads(results.read_text())
    assert (document["status"], document["tests"]) == ("error", [])


SCRIPTS = {
    "not found": (None, "was not found; fix: run hookcourse test in the folder"),
    "exits non-zero": (
        "echo 'TypeError: x is undefined' >&2; exit 3",
        "Your program exited with status 3\n      fix: read its stderr below",
    ),
    "prints nothing": ("exit 0", "Your program printed nothing on stdout"),
    "two documents": (
        "echo '{\"matches\": []}'; echo '{\"exits\": []}'",
        "Your program printed more than one JSON document (the next starts at line 2, column 1)",
    ),
    "no shebang": ("", "cannot be started: it has no #! line"),
    "byte-order mark": ("printf '\\357\\273\\277{}'", "printed a byte-order mark before the JSON"),
}


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_every_failure_is_named_with_its_fix(name: str, tmp_path: Path) -> None:
    body, message = SCRIPTS[name]
    if body is not None:
        program = tmp_path / "your_program.sh"
        program.write_text(body if name == "no shebang" else f"#!/bin/sh\n{body}\n")
        program.chmod(0o755)
    graded = hookcourse_test("--stage", "decide-and-modify", cwd=tmp_path)
    assert graded.status == 1
    assert message in graded.stdout


def test_exit_code_stderr_is_shown_under_the_case(tmp_path: Path) -> None:
    program = tmp_path / "your_program.sh"
    program.write_text("#!/bin/sh\necho 'TypeError: x is undefined' >&2\nexit 3\n")
    program.chmod(0o755)
    graded = hookcourse_test("--stage", "decide-and-modify", cwd=tmp_path)
    assert "      its stderr:\n        TypeError: x is undefined\n" in graded.stdout


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--stage", "matcher"], "no stage named 'matcher'; the stages are: matcher-and-dispatch"),
        (["--timeout", "-1"], "--timeout must be more than 0"),
        (["--timeout", "soon"], "argument --timeout: invalid float value: 'soon'"),
        (["--frobnicate"], "unrecognized arguments: --frobnicate"),
        (["--json", "no/such/folder/r.json"], "--json no/such/folder/r.json: its folder does not"),
        (["--json", "."], "--json .: it is a folder; fix: name a file in it, such as results.json"),
        (["--json", "/proc/version"], "--json /proc/version: it cannot be written ("),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(options: list[str], message: str) -> None:
    graded = hookcourse_test(*options)
    assert graded.status == 2
    assert message in graded.stderr
    assert graded.stderr.count("\n") == 1 and graded.stdout == ""


def test_several_stages_run_the_last_named_first(tmp_path: Path) -> None:
    program = copied("python", tmp_path)  # passes decide-and-modify only
    graded = hookcourse_test(
        "--stage", "matcher-and-dispatch", "decide-and-modify", "--program", program
    )
    headers = [line for line in graded.stdout.splitlines() if " · " in line]
    assert headers == [
        "decide-and-modify · Decide and modify",
        "matcher-and-dispatch · Matcher and dispatch",
    ]
    assert graded.stdout.endswith(
        "1/2 stages passed (decide-and-modify passed); matcher-and-dispatch failed at "
        "case.json: exited with status 1\n"
    )


def test_watch_grades_again_after_a_change_and_stops_on_interrupt(tmp_path: Path) -> None:
    for name in ("your_program.sh", "your_program.py"):
        shutil.copy(PROGRAMS / "python" / name, tmp_path / name)
    watching = subprocess.Popen(
        [sys.executable, "-m", "hookcourse", "test", "--watch", "--stage", "decide-and-modify"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
    )
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(
        target=lambda: [lines.put(line) for line in watching.stdout], daemon=True
    ).start()  # type: ignore[union-attr]

    def until(text: str) -> list[str]:
        seen = []
        while not seen or text not in seen[-1]:
            seen.append(lines.get(timeout=60))
        return seen

    try:
        assert "1/1 stages passed\n" in until("stages passed")
        until("watching")
        program = tmp_path / "your_program.py"
        program.write_text(program.read_text().replace('"blocked by hook"', '"blocked"'))
        second = until("stages passed")
        marks = [line[2] for line in second if line.startswith(("  ✓ ", "  ✗ "))]
        assert (
            marks == sorted(marks, key=lambda mark: mark == "✓") and marks[0] == "✗"
        )  # failing first
        assert second[-1].startswith("0/1 stages passed; decide-and-modify failed at ")
        until("watching")
    finally:
        watching.send_signal(signal.SIGINT)
        status = watching.wait(timeout=30)
    assert status == 130  # interrupted, whatever the last pass found
    assert watching.stderr.read() == (  # type: ignore[union-attr]
        "hookcourse test: interrupted by SIGINT; killed 0 runs of your program; exit 130\n"
    )


def test_an_interrupt_ends_every_run_at_once(tmp_path: Path) -> None:
    program, sleeping = hanging(tmp_path)
    grading = subprocess.Popen(
        [sys.executable, "-m", "hookcourse", "test", "--program", str(program), "--timeout", "120"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    while not running_with(sleeping):  # the runs have started
        assert grading.poll() is None
    grading.send_signal(signal.SIGINT)
    # Far inside the 120 s a run may take, with room for a loaded machine.
    _, stderr = grading.communicate(timeout=30)
    assert grading.returncode == 130
    assert stderr.startswith("hookcourse test: interrupted by SIGINT; killed ")
    assert stderr.endswith(" runs of your program; exit 130\n") and stderr.count("\n") == 1
    assert gone(sleeping)


def test_a_child_left_running_neither_holds_the_verdict_nor_outlives_it(tmp_path: Path) -> None:
    program = tmp_path / "your_program.sh"
    marker = f"31{uuid.uuid4().int % 10_000_000}"
    program.write_text(f"#!/bin/sh\nsleep {marker} &\necho '{{\"effects\": []}}'\n")
    program.chmod(0o755)
    graded = hookcourse_test("--stage", "decide-and-modify", "--timeout", "30", cwd=tmp_path)
    assert graded.status == 1, graded.stdout
    # Judged on what it printed, not timed out.
    assert "      Expected 3 items, got 0 at $.effects\n" in graded.stdout, graded.stdout
    assert gone(f"sleep\x00{marker}")


STOPS_ONE_BLOCK_EARLY = """#!/bin/sh
# The Stop loop off by one at the cap: the cap-th block is overridden instead of the next one.
# (The course's answers stand in for the author's own: it drops the mark that refuses them.)
exec "{python}" - "$@" <<'PY'
import json, os, subprocess, sys
env = {{k: v for k, v in os.environ.items() if k != "HOOKCOURSE_GRADING"}}
out = subprocess.run(["{program}", *sys.argv[1:]], capture_output=True, text=True, env=env).stdout
document = json.loads(out)
for turns in document.get("loops", []):
    if turns[-1]["capped"] and len(turns) > 1:
        turns.pop()
        turns[-1].update(continues=False, reason=None, capped=True)
print(json.dumps(document))
PY
"""


def test_the_new_stages_grade_a_program_with_their_hints(tmp_path: Path) -> None:
    program = tmp_path / "your_program.sh"
    program.write_text(
        STOPS_ONE_BLOCK_EARLY.format(python=sys.executable, program=REPO / "your_program.sh")
    )
    program.chmod(0o755)
    graded = hookcourse_test("--stage", "stop-loop", cwd=tmp_path)
    assert graded.status == 1, graded.stdout
    assert "hint (runStopLoop, the-cap): Count consecutive blocks." in graded.stdout
    assert graded.stdout.endswith(
        "0/1 stages passed; stop-loop failed at case.json: "
        "Expected true, got false at $.loops[1][2].continues\n"
    ), graded.stdout
    merged = hookcourse_test("--stage", "merge-decisions", cwd=tmp_path)
    assert merged.status == 0 and merged.stdout.endswith("8/8 cases passed\n1/1 stages passed\n")


@pytest.mark.parametrize(
    ("function", "case", "field", "family"),
    [
        # exit code true: the code is "any other code"; a wrong reason is about trim()
        (
            "interpret_exit_code",
            {"code": True, "stderr": "\n\u2000no push\u001d"},
            "reason",
            "js-trim",
        ),
        (
            "interpret_exit_code",
            {"code": True, "stderr": "\n\u2000no push"},
            "warn",
            "strict-equality",
        ),
        # JSON after a byte-order mark: trimStart() removes it, JSON.parse does not
        (
            "merge_pre_tool_use",
            {"results": [{"code": None, "stdout": '\ufeff{"decision":"block"}'}], "toolInput": {}},
            "decision",
            "stdout-not-json",
        ),
        (
            "run_stop_loop",
            {
                "hook": {
                    "whenInactive": {"code": 0, "stdout": '\u00a0{"continue":false}'},
                    "whenActive": {"code": 0},
                }
            },
            0,
            "stdout-not-json",
        ),
    ],
)
def test_a_wrong_field_gets_the_hint_that_explains_it(
    function: str, case: dict[str, object], field: str | int, family: str
) -> None:
    from hookcourse.course.grading.program_hints import hinted_family
    from hookcourse.stages.registry import exercise_named

    exercise = exercise_named(function)
    assert exercise is not None
    decoded = exercise.read(case)
    assert hinted_family(function, exercise.family(decoded), decoded, field) == family


@pytest.mark.parametrize(
    "stderr",
    [
        "/home/me/hooks/your_program.sh: 3: exec: node: not found\n",
        "/usr/bin/env: \u2018node\u2019: No such file or directory\n",
        "bash: line 1: python3: command not found\n",
    ],
)
def test_a_runtime_missing_from_path_is_named(stderr: str) -> None:
    from hookcourse.course.grading.program_hints import crash_hint

    hint = crash_hint(stderr)
    assert hint is not None and "not on this machine's PATH" in hint


def test_a_program_that_hands_its_cases_to_the_course_grader_fails(tmp_path: Path) -> None:
    """Delegating to the course's own your_program.sh (the reference) is refused under
    `hookcourse test`; grading the course's own entry itself still passes (above)."""
    program = tmp_path / "your_program.sh"
    program.write_text(f'#!/bin/sh\nexec "{REPO / "your_program.sh"}" "$@"\n')
    program.chmod(0o755)
    graded = hookcourse_test("--stage", "decide-and-modify", cwd=tmp_path)
    assert graded.status == 1, graded.stdout
    assert "this is the course's own grader, started by" in graded.stdout
    assert "fix: compute the answers in your own program" in graded.stdout
