"""validate on hand-written configurations of every shape authors write (fresh_configs.json):
each case raises exactly its true findings, and following each fix leaves a file that
validates clean (no finding left, no new one). In-process, ~0.5 s for all cases."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.fresh_configs import cases, expected, lay_out, run


@pytest.mark.parametrize("case", cases(), ids=lambda case: str(case["id"]))
def test_a_configuration_gets_its_true_findings_and_its_fixes_hold(
    tmp_path: Path, case: dict[str, Any]
) -> None:
    lay_out(tmp_path, case["files"])
    outcome = run(tmp_path, case)
    assert outcome.found == expected(case), [str(f) for f in outcome.report.findings]
    for finding in outcome.report.findings:
        assert finding.message and finding.fix and finding.reference
    if "fixed" in case:
        lay_out(tmp_path, case["fixed"])
        after = run(tmp_path, case)
        assert after.found == expected(case, "fixed_expect"), [
            str(f) for f in after.report.findings
        ]


def test_every_item_of_the_missed_list_and_every_noisy_rule_has_cases() -> None:
    covered = {case["covers"] for case in cases()}
    missed = {
        "unquoted-project-dir",
        "relative-path",
        "not-executable",
        "missing",
        "machine-path",
        "if-on-group",
        "unknown-key",
        "invented-variable",
        "unknown-tool",
        "never-sent",
        "outside-hooks",
        "async-guard",
    }
    noisy = {
        "placeholder-in-shell",
        "duplicate-handler",
        "permission-rule-matcher",
        "spaces-around-pipe",
        "bare-mcp-server",
        "schemastore",
    }
    assert {f"missed:{name}" for name in missed} <= covered
    assert {f"noisy:{name}" for name in noisy} <= covered
    ids = [case["id"] for case in cases()]
    assert len(ids) == len(set(ids))
