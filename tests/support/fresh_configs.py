"""The hand-written validate configurations (tests/validate_rules/fresh_configs.json): lay a
case's files out in a folder, validate the files it names, and compare with its findings.
Shared by tests/validate_rules/test_fresh_configs.py and benchmarks/validate_fresh.py."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hookcourse.engine.validate import Report, ValidateOptions, validate_files
from hookcourse.errors import json_path

DATA = Path(__file__).resolve().parents[1] / "validate_rules" / "fresh_configs.json"
Found = tuple[str, str, str]
"""(rule, file relative to the case's folder, JSON path)."""


def cases() -> list[dict[str, Any]]:
    loaded: list[dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8"))["cases"]
    return loaded


def lay_out(root: Path, files: Mapping[str, Any]) -> None:
    """Write each file: a JSON document under "json", or "text" with an octal "mode"."""
    for relative, spec in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if "json" in spec:
            path.write_text(json.dumps(spec["json"], indent=2), encoding="utf-8")
        else:
            path.write_text(spec["text"], encoding="utf-8")
        path.chmod(int(spec.get("mode", "644"), 8))


@dataclass(frozen=True)
class Outcome:
    report: Report
    found: list[Found]


def run(root: Path, case: Mapping[str, Any]) -> Outcome:
    """validate on the case's files, as laid out under ``root``."""
    options = {
        key: root / value if key in ("project_dir", "plugin_root") else value
        for key, value in case.get("options", {}).items()
    }
    report = validate_files([root / name for name in case["check"]], ValidateOptions(**options))
    found = sorted(
        (finding.rule, _relative(finding.file, root), json_path(finding.path))
        for finding in report.findings
    )
    return Outcome(report, found)


def expected(case: Mapping[str, Any], key: str = "expect") -> list[Found]:
    return sorted((rule, file, path) for rule, file, path in case.get(key, []))


def _relative(file: str, root: Path) -> str:
    path = Path(file)
    return str(path.relative_to(root)) if path.is_relative_to(root) else file
