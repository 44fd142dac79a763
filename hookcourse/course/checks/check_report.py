"""One check report: what every self-check found, as data, and the one way it is drawn.

Every ``check_*`` (the stage exercises, the decision gate, the guard) returns a
result that can say itself as a ``CheckReport``: whether it passed, one summary
line, a row per case family (or goal), labelled detail rows (the simplest failing
case) and notes. ``render_text`` and ``render_html`` draw any report, in one
palette; the notebook output also carries the report as JSON (``MIME_TYPE``), which
the teacher build and progress read instead of the text. A faded example's
``Tryout`` and a lab's ``Readout`` are drawn by the same two functions (state
``NEUTRAL`` for a lab's result, which is neither right nor wrong); they carry no JSON,
since they are not checks.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

MIME_TYPE: Final = "application/vnd.hookcourse.check+json"

PASSED, FAILING, NOT_YET, NEUTRAL = "passed", "failing", "not-yet", "neutral"
PALETTE: Final = {PASSED: "#1a7f37", FAILING: "#b42318", NOT_YET: "#9a6700", NEUTRAL: "inherit"}
"""The one palette: a state's colour (NEUTRAL keeps the page's, since green on "blocked"
or "does not fire" would read as "good")."""
_DETAIL_WIDTH: Final = 400  # characters of one detail value in HTML; the text keeps all


@dataclass(frozen=True)
class Row:
    """One family (or goal): its name, what happened there, whether it is right, and the
    cases to show one per line (missed commands, false alarms)."""

    label: str
    detail: str
    good: bool
    items: tuple[str, ...] = ()


@dataclass(frozen=True)
class CheckReport:
    """What a check found. ``state`` is ``passed``, ``failing`` or ``not-yet`` (the starter);
    ``passed``/``total`` count the cases run, ``failing`` names the failing families,
    ``seed`` the generator's seed (None when nothing was drawn)."""

    exercise: str
    check: str
    state: str
    summary: str
    rows: tuple[Row, ...] = ()
    details_title: str = ""
    details: tuple[tuple[str, str], ...] = ()
    notes: tuple[str, ...] = ()
    passed_cases: int = 0
    total_cases: int = 0
    failing: tuple[str, ...] = ()
    seed: int | None = None
    subject: str = ""  # what was checked: the learner's function, or a script by name

    @property
    def checked(self) -> str:
        """The subject's name: the exercise function's unless a script was checked."""
        return self.subject or self.exercise

    @property
    def passed(self) -> bool:
        return self.state == PASSED

    def to_json(self) -> dict[str, Any]:
        """The report as the JSON the notebook output carries under ``MIME_TYPE``."""
        return {
            "exercise": self.exercise,
            "check": self.check,
            "state": self.state,
            "passed": self.passed,
            "summary": self.summary,
            "cases": {"passed": self.passed_cases, "total": self.total_cases},
            "failing": list(self.failing),
            "seed": self.seed,
            "subject": self.checked,
            "rows": [
                {"label": r.label, "detail": r.detail, "good": r.good, "items": list(r.items)}
                for r in self.rows
            ],
        }


def render_text(report: CheckReport) -> str:
    """The report as plain text: summary, a ✓/✗ line per row (items beneath), details, notes."""
    lines = [report.summary]
    width = max((len(row.label) for row in report.rows), default=0)
    for row in report.rows:
        lines.append(f"  {'✓' if row.good else '✗'} {row.label:<{width}}  {row.detail}".rstrip())
        lines += [f"      {item}" for item in row.items]
    if report.details:
        label_width = max(len(label) for label, _ in report.details)
        if report.details_title:
            lines.append(f"{report.details_title}:")
        lines += [f"  {label:<{label_width}}  {value}" for label, value in report.details]
    lines += [f"  note: {note}" for note in report.notes]
    return "\n".join(lines)


_CELL: Final = "style='text-align:left;vertical-align:top;padding:0 1em 0 0'"


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def render_html(report: CheckReport, clip: int | None = _DETAIL_WIDTH) -> str:
    """The same report as an HTML fragment, in the palette; long values wrap, and a detail
    value other than a hint is cut at ``clip`` characters (None: never)."""
    colour = PALETTE[report.state]
    parts = [f"<p><b style='color:{colour}'>{html.escape(report.summary)}</b></p>"]
    if report.rows:
        parts.append("<table style='margin-left:0'>")
        for row in report.rows:
            mark_colour = PALETTE[PASSED if row.good else FAILING]
            mark = (
                f"<span style='color:{mark_colour}'>{'&#10003;' if row.good else '&#10007;'}</span>"
            )
            items = "".join(f"<br><code>{html.escape(item)}</code>" for item in row.items)
            parts.append(
                f"<tr><td {_CELL}>{mark}</td><td {_CELL}>{html.escape(row.label)}</td>"
                f"<td {_CELL}>{html.escape(row.detail)}{items}</td></tr>"
            )
        parts.append("</table>")
    if report.details:
        # One style attribute (a second one on the same element is ignored); a hint is
        # advice and never cut, a case's values may be.
        wrap = (
            "style='text-align:left;vertical-align:top;padding:0 1em 0 0;"
            "white-space:pre-wrap;overflow-wrap:anywhere'"
        )
        # nowrap: a two-word label such as "Python re" stays on one line.
        label_cell = (
            "style='text-align:left;vertical-align:top;padding:0 1em 0 0;white-space:nowrap'"
        )
        cells = "".join(
            f"<tr><th {label_cell}>{html.escape(label)}</th><td {wrap}><code>"
            f"{html.escape(value if label == 'hint' or clip is None else _clip(value, clip))}"
            "</code></td></tr>"
            for label, value in report.details
        )
        if report.details_title:
            parts.append(f"<p>{html.escape(report.details_title)}:</p>")
        parts.append(f"<table style='margin-left:0'>{cells}</table>")
    parts += [f"<p>{html.escape(note)}</p>" for note in report.notes]
    # An HTML widget's line height (one control's height) would double-space wrapped rows.
    return f"<div style='line-height:1.5'>{''.join(parts)}</div>"


class Reported:
    """Mixin for a check's result: ``report()`` gives the data; text, HTML and the notebook's
    JSON output all come from it."""

    def report(self) -> CheckReport:
        raise NotImplementedError

    @property
    def passed(self) -> bool:
        """True when the check passed."""
        return self.report().passed

    def summary(self) -> str:
        """The report's one-line summary."""
        return self.report().summary

    def text(self) -> str:
        """The whole report as plain text."""
        return render_text(self.report())

    def __repr__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        return render_html(self.report())

    def _repr_mimebundle_(self, **_: object) -> dict[str, Any]:
        return {MIME_TYPE: self.report().to_json()}


def reports_in(outputs: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every check report carried by these notebook cell outputs, in order."""
    found = []
    for output in outputs:
        data = output.get("data", {})
        if isinstance(data, Mapping) and isinstance(data.get(MIME_TYPE), dict):
            found.append(data[MIME_TYPE])
    return found
