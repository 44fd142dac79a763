"""How a validate ``Report`` is written: text lines, GitHub Actions annotations or one JSON
document, each ending with the per-rule summary. Pure: the CLI prints what these return."""

from __future__ import annotations

from typing import Final

from hookcourse.errors import visible
from hookcourse.js import json as jsjson
from hookcourse.js.values import JSValue

from .lint import Severity
from .lint.registry import table
from .validate import Report

FORMATS: Final = ("text", "github", "json")
_GITHUB_LEVEL: Final = {
    Severity.ERROR: "error",
    Severity.WARNING: "warning",
    Severity.INFO: "notice",
}


def render(report: Report, form: str) -> list[str]:
    """The lines to print for ``report`` in ``form`` (one of FORMATS)."""
    if form == "json":
        return [jsjson.stringify(json_document(report))]
    if form == "github":
        return [*(_annotation(report, i) for i in range(len(report.findings))), *summary(report)]
    return [*(visible(str(finding)) for finding in report.findings), *summary(report)]


def summary(report: Report) -> list[str]:
    """One line per rule that found something, then the totals."""
    lines = [f"  {count:4d}  {rule}" for rule, count in report.per_rule()]
    checked = ", ".join(report.files)
    totals = (
        f"{len(report.files)} file(s) checked ({visible(checked)}): "
        f"{report.count(Severity.ERROR)} error(s), {report.count(Severity.WARNING)} warning(s)"
    )
    notes = report.count(Severity.INFO)
    return [*lines, totals + (f", {notes} note(s)" if notes else "")]


def _escape(text: str, *, property_value: bool = False) -> str:
    """GitHub's workflow-command escaping (%, CR, LF; also : and , in properties)."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if property_value:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return visible(text)


def _annotation(report: Report, index: int) -> str:
    finding = report.findings[index]
    level = _GITHUB_LEVEL[finding.severity]
    where = [f"file={_escape(finding.file, property_value=True)}"]
    line = report.line_of(finding)
    if line is not None:
        where.append(f"line={line}")
    where.append(f"title={_escape(finding.rule, property_value=True)}")
    body = f"{finding.message}; fix: {finding.fix} ({finding.reference})"
    return f"::{level} {','.join(where)}::{_escape(body)}"


def rule_table() -> list[str]:
    """The README's rule table, row by row from the registry (id, severity, what, reference)."""

    def cell(text: str) -> str:
        return text.replace("|", "\\|")

    rows = [
        f"| `{r.id}` | {r.severity} | {cell(r.summary)} | {cell(r.reference)} |" for r in table()
    ]
    return ["| rule | severity | what it catches | rests on |", "|---|---|---|---|", *rows]


def json_document(report: Report) -> dict[str, JSValue]:
    findings: list[JSValue] = []
    for finding in report.findings:
        entry = finding.to_json()
        line = report.line_of(finding)
        if line is not None:
            entry["line"] = line
        findings.append(entry)
    rules: dict[str, JSValue] = {rule: count for rule, count in report.per_rule()}
    return {
        "files": list(report.files),
        "findings": findings,
        "errors": report.count(Severity.ERROR),
        "warnings": report.count(Severity.WARNING),
        "notes": report.count(Severity.INFO),
        "rules": rules,
    }
