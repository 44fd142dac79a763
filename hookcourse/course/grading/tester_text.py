"""``hookcourse test``'s text: a block per stage (passing cases named, failures grouped with
their fix) and the one-line summary. Rendering only; the command prints it.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from hookcourse.course.grading.judging import Report, Verdict, one_line
from hookcourse.shell import split
from hookcourse.stages.registry import Stage

STAGE_LINES: Final = 80  # at most this many lines for one stage, however many cases fail
PASSING_LISTED: Final = 20  # passing cases named one a line; the rest counted


# -- showing the report ------------------------------------------------------------------------


@dataclass(frozen=True)
class Style:
    """Colour for a terminal, plain text elsewhere (and under NO_COLOR)."""

    colour: bool

    def mark(self, passed: bool) -> str:
        sign = "✓" if passed else "✗"
        if not self.colour:
            return sign
        return f"\x1b[32m{sign}\x1b[0m" if passed else f"\x1b[31m{sign}\x1b[0m"


def _names(verdicts: Sequence[Verdict], width: int = 70) -> str:
    """Case names on one line, the rest counted."""
    shown_names: list[str] = []
    for verdict in verdicts:
        if len(", ".join([*shown_names, verdict.file.name])) > width and shown_names:
            return f"{', '.join(shown_names)} and {len(verdicts) - len(shown_names)} more"
        shown_names.append(verdict.file.name)
    return ", ".join(shown_names)


def _failure_block(group: list[Verdict], style: Style) -> list[str]:
    """One failure (or one crash seen on several cases) in full: command, output, diagnosis."""
    first = group[0]
    if len(group) == 1:
        lines = [f"  {style.mark(False)} {first.file.name}"]
    else:
        lines = [f"  {style.mark(False)} the same failure on {len(group)} cases: {_names(group)}"]
    if first.command:
        lines.append(f"      $ {first.command}")
    lines.extend(f"      {line}" for line in first.output)
    subject = "" if first.problem.startswith("Expected") else "Your program "
    lines.append(f"      {subject}{first.problem}")
    if first.fix:
        lines.append(f"      fix: {first.fix}")
    if first.site:
        lines.append(f"      it crashed in your code at {first.site}")
    lines.extend(f"      {line}" for line in first.details)
    if first.error and first.stderr:
        lines.append("      its stderr:")
        lines.extend(f"        {line}" for line in first.stderr)
    return lines


def stage_lines(
    stage: Stage, verdicts: list[Verdict], problems: list[str], style: Style, failing_first: bool
) -> Iterator[str]:
    """A stage's header, its cases, and each failure's command, output and diagnosis, in at
    most STAGE_LINES lines however many cases fail (one crash is shown once)."""
    lines = [f"{stage.slug} · {stage.title}"]
    lines.extend(f"  {style.mark(False)} fixture problem: {problem}" for problem in problems)
    passing = [v for v in verdicts if v.passed]
    failing = [v for v in verdicts if not v.passed]
    groups: dict[object, list[Verdict]] = {}
    for verdict in failing:
        groups.setdefault(verdict.crash or id(verdict), []).append(verdict)
    if not failing_first:
        lines.extend(f"  {style.mark(True)} {v.file.name}" for v in passing[:PASSING_LISTED])
        if len(passing) > PASSING_LISTED:
            lines.append(f"  {style.mark(True)} and {len(passing) - PASSING_LISTED} more")
    footer = [f"  {len(passing)}/{len(verdicts)} cases passed"]
    families = Counter(v.family for v in failing if v.family)
    if families:
        counted = ", ".join(f"{name} ({n})" for name, n in families.most_common())
        footer.append(f"  failing hint families: {counted}")
    if failing and failing[0].command:
        footer.append(f"  every failing case is kept in {_failed_folder(stage, failing[0])}")
    room = STAGE_LINES - len(lines) - len(footer) - 1
    left = list(groups.values())
    while left:
        block = _failure_block(left[0], style)
        if len(block) > room:
            break
        lines.extend(block)
        room -= len(block)
        left.pop(0)
    for group in left[:]:
        if room <= 1:
            break
        first = group[0]
        count = f" (and {len(group) - 1} more the same)" if len(group) > 1 else ""
        lines.append(
            f"  {style.mark(False)} {first.file.name}: {one_line(first.problem, 80)}{count}"
        )
        room -= 1
        left.remove(group)
    if left:
        rest = sum(len(group) for group in left)
        lines.append(f"  … {rest} more failing case{'s' if rest != 1 else ''}")
    if failing_first and passing:
        lines.append(f"  {style.mark(True)} {len(passing)} cases passed")
    yield from lines
    yield from footer


def _failed_folder(stage: Stage, verdict: Verdict) -> str:
    """The folder the failing cases went to, as the re-run command names it."""
    case = (split(verdict.command.rpartition("&& ")[2]) or [""])[-1]
    prefix = (
        verdict.command.partition(" && ")[0].removeprefix("cd ") if "&&" in verdict.command else ""
    )
    folder = os.path.dirname(case)
    return os.path.join((split(prefix) or [""])[0], folder) if prefix else folder


def summary(report: Report, stages: Sequence[Stage]) -> str:
    """The last line: every stage passed, or the first failing case."""
    if report.program_problem is not None:
        problem, fix = report.program_problem
        return f"{problem}; fix: {fix}"
    passed = [slug for slug in report.verdicts if report.stage_passed(slug)]
    line = f"{len(passed)}/{len(stages)} stages passed"
    failing = next((slug for slug in report.verdicts if not report.stage_passed(slug)), None)
    if failing is None:
        return line
    first = next((v for v in report.verdicts[failing] if not v.passed), None)
    what = f"{first.file.name}: {first.problem}" if first else "its fixtures have problems"
    so_far = f" ({', '.join(passed)} passed)" if passed else ""
    return f"{line}{so_far}; {failing} failed at {what}"
