"""Real debug logs of Claude Code 2.1.332 (one hook each, run in the loopback-only
namespace), read back: every run found with its status and streams, and the cause named."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookcourse.doctor.debug_log import read_debug_log
from hookcourse.doctor.diagnose import Question, diagnose
from hookcourse.doctor.places import Machine

LOGS = Path(__file__).resolve().parent / "debug_logs"
CAUSES = {
    "crlf.log": "script-missing",  # without the script on disk, dash's "not found" is all
    "missing-interpreter.log": "program-missing",
    "top-level-decision.log": "field-at-top-level",
    "stderr-exit-0.log": "stderr-on-exit-0",
    "exit-1.log": "exit-1-does-not-block",
    "two-json.log": "two-json-documents",
    "noise-before-json.log": "text-before-json",
    "not-executable.log": "script-not-executable",
    "json-exit-2.log": "json-on-exit-2",
}


def test_every_recorded_log_has_a_cause() -> None:
    assert sorted(CAUSES) == sorted(path.name for path in LOGS.glob("*.log"))


@pytest.mark.parametrize("name", sorted(CAUSES))
def test_the_log_alone_names_the_cause(name: str, tmp_path: Path) -> None:
    log = (LOGS / name).read_text(encoding="utf-8")
    runs = [run for run in read_debug_log(log) if run.event == "PreToolUse"]
    assert len(runs) == 1 and runs[0].command and runs[0].status in (0, 1, 2, 126, 127)
    for folder in ("project", "home", "managed"):
        (tmp_path / folder).mkdir()
    machine = Machine(
        tmp_path / "project", tmp_path / "home", tmp_path / "managed", "/usr/bin:/bin"
    )
    diagnosis = diagnose(Question(machine, "PreToolUse", debug_log=log))
    assert diagnosis.findings[0].cause == CAUSES[name], [f.line() for f in diagnosis.findings]


def test_streams_and_notes_are_read_as_claude_code_wrote_them() -> None:
    run = read_debug_log((LOGS / "json-exit-2.log").read_text(encoding="utf-8"))[0]
    assert run.status == 2 and run.stderr == "denied-by-exit"
    assert run.stdout.startswith('{"hookSpecificOutput"')
    noted = read_debug_log((LOGS / "top-level-decision.log").read_text(encoding="utf-8"))[0]
    assert any("unrecognized keys" in note for note in noted.notes)


def test_a_log_without_the_event_says_no_hook_started(tmp_path: Path) -> None:
    for folder in ("project", "home", "managed"):
        (tmp_path / folder).mkdir()
    machine = Machine(tmp_path / "project", tmp_path / "home", tmp_path / "managed", "/usr/bin")
    log = (LOGS / "exit-1.log").read_text(encoding="utf-8")
    diagnosis = diagnose(Question(machine, "Stop", debug_log=log))
    assert diagnosis.findings[0].cause == "never-ran"


def test_junk_is_no_log_and_no_traceback() -> None:
    assert read_debug_log("\x00\ufffd" * 1000 + '\n"Hook Stop:x (Stop) error:\\n\n') == []
    assert read_debug_log("2026 [DEBUG] Hooks: Stop [x] finished with status 99999999999999\n")[
        0
    ].status
