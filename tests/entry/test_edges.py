"""The command-line edges: output nobody reads, a full disk, Ctrl-C, special files, usage.

Each ends in at most one line on stderr and an exit status that still means what the
command found; none prints a traceback or waits on a file that never ends.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from hookcourse import cli, grader
from hookcourse.system.inputs import INPUT_CAP_BYTES
from tests.support.paths import ROOT

GUARD = ROOT / "fixtures" / "force-push-guard"
MATCH_CASE = ROOT / "fixtures" / "matcher-and-dispatch" / "case.json"
HOOKCOURSE = [sys.executable, "-m", "hookcourse"]
GRADER = [str(ROOT / "your_program.sh")]


def to_closed_pipe(argv: list[str], home: Path) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` with stdout a pipe whose reader is already gone (``| head`` that quit)."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        run = subprocess.run(
            argv,
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env={**os.environ, "HOME": str(home)},
            timeout=120,
        )
    finally:
        os.close(writer)
    return subprocess.CompletedProcess(argv, run.returncode, "", run.stderr)


def test_fire_into_a_closed_pipe_keeps_its_blocked_status(tmp_path: Path) -> None:
    argv = [*HOOKCOURSE, "fire", "PreToolUse", "--payload", str(GUARD / "force-push.json")]
    argv += ["--settings", str(GUARD / "settings.json"), "--project-dir", str(GUARD)]
    run = to_closed_pipe(argv, tmp_path)
    assert run.returncode == 2, run.stderr
    assert run.stderr == ""


@pytest.mark.parametrize(
    "argv",
    [[*HOOKCOURSE, "events"], [*GRADER, "hook-match", str(MATCH_CASE)]],
    ids=["events", "grader"],
)
def test_output_into_a_closed_pipe_ends_quietly(tmp_path: Path, argv: list[str]) -> None:
    run = to_closed_pipe(argv, tmp_path)
    assert (run.returncode, run.stderr) == (0, "")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize(
    ("argv", "program"),
    [
        ([*GRADER, "hook-match", str(MATCH_CASE)], "your_program.sh hook-match"),
        ([*HOOKCOURSE, "events"], "hookcourse"),
    ],
    ids=["grader", "events"],
)
def test_a_full_disk_is_one_line_and_a_failure(argv: list[str], program: str) -> None:
    with open("/dev/full", "wb") as full:
        run = subprocess.run(argv, stdout=full, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    assert run.returncode != 0
    assert run.stderr.count("\n") == 1, run.stderr
    assert run.stderr.startswith(f"{program}: cannot write the output (No space left on device)")
    assert "fix: " in run.stderr


def grade(case: str) -> subprocess.CompletedProcess[str]:
    argv = [*GRADER, "hook-match", case]
    return subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=60)


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "case.json"
    os.mkfifo(fifo)
    run = grade(str(fifo))
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == (
        f"your_program.sh hook-match: {fifo}: is a FIFO (named pipe), not a regular file; "
        "fix: save the cases to a regular file and pass its path\n"
    )


def test_an_endless_device_is_refused() -> None:
    run = grade("/dev/zero")
    assert (run.returncode, run.stdout) == (2, "")
    assert "/dev/zero: is a character device, not a regular file" in run.stderr
    assert run.stderr.count("\n") == 1


def test_a_case_file_past_the_cap_is_one_line_naming_the_cap(tmp_path: Path) -> None:
    case = tmp_path / "case.json"
    with case.open("wb") as handle:  # sparse: costs no disk
        handle.truncate(INPUT_CAP_BYTES + 1)
    run = grade(str(case))
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == (
        f"your_program.sh hook-match: {case}: the case file is larger than 64 MiB (or endless), "
        "so the read stopped there; fix: pass a JSON document smaller than that\n"
    )


def test_ctrl_c_is_one_line_and_exit_130() -> None:
    # A real SIGINT, delivered while the grader works on the case file.
    probe = (
        "import os, signal, sys; from hookcourse import grader; "
        "grader.run_stage = lambda *_: os.kill(os.getpid(), signal.SIGINT); "
        f"sys.exit(grader.main(['hook-match', {str(MATCH_CASE)!r}]))"
    )
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT)
    assert (run.returncode, run.stdout) == (130, "")
    assert run.stderr == "your_program.sh hook-match: interrupted\n"


@pytest.mark.parametrize(
    ("document", "got"),
    [
        ("[1, 2]", "an array"),
        ("3", "the number 3"),
        ('"cases"', 'the string "cases"'),
        ("null", "null"),
    ],
)
def test_a_case_file_that_is_not_an_object_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], document: str, got: str
) -> None:
    case = tmp_path / "case.json"
    case.write_text(document)
    assert grader.main(["hook-match", str(case)]) == grader.EXIT_BAD_INPUT
    assert capsys.readouterr().err == (
        f"your_program.sh hook-match: {case}: the file must be an object holding the cases "
        f'list, got {got}; fix: write {{"cases": [...]}} at the top of the file\n'
    )


@pytest.mark.parametrize("argv", [[], ["nope"], ["--bogus"]], ids=["none", "unknown", "option"])
def test_no_command_or_an_unknown_one_is_a_usage_error(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "fix: see `hookcourse --help`" in err
