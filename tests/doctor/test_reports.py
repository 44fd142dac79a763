"""Real reports of hooks that misbehaved, replayed: ``hookcourse doctor`` names the cause
their reporter or a maintainer established, first, with no other cause ranked above it."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from hookcourse.doctor.diagnose import Diagnosis, Question, diagnose
from hookcourse.doctor.places import Machine

HERE = Path(__file__).resolve().parent
REPORTS: list[dict[str, Any]] = json.loads((HERE / "reports.json").read_text(encoding="utf-8"))[
    "reports"
]
SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"
NEEDS = {"continue-true-on-stop": "node"}


def lay_out(case: dict[str, Any], root: Path) -> Question:
    """The case's files under ``root`` (project/, home/, managed/) and its question."""
    for folder in ("project", "home", "managed", "emptybin", "bin"):
        (root / folder).mkdir(parents=True, exist_ok=True)
    for relative, spec in case["files"].items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if "json" in spec:
            path.write_text(_placed(json.dumps(spec["json"], indent=1), root), encoding="utf-8")
        else:
            path.write_bytes(spec["text"].encode("utf-8"))
            path.chmod(int(spec.get("mode", "0644"), 8))
    question = case.get("question", {})
    uses_interpreter = case["cause"] == "interpreter-not-on-hook-path"
    machine = Machine(
        root / "project",
        root / "home",
        root / "managed",
        str(root / "emptybin") if uses_interpreter else f"{root / 'bin'}:{SYSTEM_PATH}",
    )
    event, payload = question.get("event"), question.get("payload")
    payload_text = None if payload is None else _placed(json.dumps(payload), root)
    if "tool" in question:
        event = "PreToolUse"
        payload_text = json.dumps(
            {
                "session_id": "s",
                "transcript_path": "",
                "cwd": str(root / "project"),
                "hook_event_name": "PreToolUse",
                "tool_name": question["tool"],
                "tool_input": question["input"],
                "tool_use_id": "toolu_1",
            }
        )
    log = question.get("debug_log")
    log_text = None if log is None else _placed((HERE / "debug_logs" / log).read_text(), root)
    return Question(machine, event, payload_text, "the payload", log_text)


def _placed(text: str, root: Path) -> str:
    return (
        text.replace("@PROJECT@", str(root / "project"))
        .replace("@HOME@", str(root / "home"))
        .replace("@ROOT@", str(root))
    )


@pytest.mark.parametrize("case", REPORTS, ids=[case["id"] for case in REPORTS])
def test_doctor_names_the_established_cause_first(case: dict[str, Any], tmp_path: Path) -> None:
    needed = NEEDS.get(case["id"])
    if needed is not None and shutil.which(needed) is None:
        pytest.skip(f"{needed} is not installed")
    diagnosis = diagnose(lay_out(case, tmp_path))
    assert diagnosis.findings, f"{case['id']}: doctor found nothing"
    first = diagnosis.findings[0]
    assert first.cause == case["cause"], _explain(diagnosis)
    assert first.fix and first.why and first.where


def test_the_corpus_is_real_and_varied() -> None:
    """Every report names its source and who established the cause, and the causes span
    the kinds the doctor is for (start failures, answer shapes, unread files, policy)."""
    assert len(REPORTS) >= 40
    assert all(case["url"].startswith("https://github.com/") for case in REPORTS)
    assert all(case["established"] for case in REPORTS)
    causes = {case["cause"] for case in REPORTS}
    assert {
        "script-crlf",
        "interpreter-not-on-hook-path",
        "settings-env-not-expanded",
        "field-at-top-level",
        "file-never-read",
        "managed-hooks-only",
        "stderr-on-exit-0",
        "continue-true-on-stop",
        "relative-script-path",
        "permission-rule-matcher",
        "placeholder-without-dollar",
        "stop-hook-ignores-active",
    } <= causes
    plugin_registry = "home/.claude/plugins/installed_plugins.json"
    assert sum(plugin_registry in case["files"] for case in REPORTS) >= 2


def _explain(diagnosis: Diagnosis) -> str:
    return "\n".join(finding.line() for finding in diagnosis.findings)


def test_no_report_leaves_a_process_behind(tmp_path: Path) -> None:
    """The runs doctor makes are the engine's: each hook's process group is gone after."""
    before = set(os.listdir("/proc"))
    for case in REPORTS:
        if "question" in case and NEEDS.get(case["id"]) is None:
            diagnose(lay_out(case, tmp_path / case["id"]))
    leftover = {
        pid
        for pid in set(os.listdir("/proc")) - before
        if pid.isdigit() and str(tmp_path) in _cmdline(pid)
    }
    assert leftover == set()


def _cmdline(pid: str) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode("utf-8", "replace")
    except OSError:
        return ""
