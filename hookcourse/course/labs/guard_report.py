"""``GuardReport``: what a guard did with each corpus command (a ``Verdict``), family by family,
said as one ``CheckReport``.
"""

from __future__ import annotations

from dataclasses import dataclass

from hookcourse.course.checks.check_report import (
    FAILING,
    NOT_YET,
    PASSED,
    CheckReport,
    Reported,
    Row,
)
from hookcourse.course.labs.guard_corpus import (
    ALLOW,
    BEYOND,
    BLOCK,
    DRAWN,
    FAMILY_HINTS,
    GUARD_EXERCISE,
    Family,
    one_line,
)
from hookcourse.js import json as jsjson


@dataclass(frozen=True)
class Verdict:
    """What Claude Code did with one command once the guard had run on it."""

    command: str
    blocked: bool
    exit_code: int | None
    failed: bool  # the guard crashed, timed out or could not start: Claude Code lets it pass
    stderr: str
    timed_out: bool = False


@dataclass(frozen=True)
class FamilyResult:
    """One family's verdicts."""

    family: Family
    verdicts: tuple[Verdict, ...]

    @property
    def wrong(self) -> list[Verdict]:
        """Missed force-pushes (a block family) or false alarms (an allow family)."""
        if self.family.expect == BEYOND:
            return []
        return [v for v in self.verdicts if v.blocked != (self.family.expect == BLOCK)]

    def line(self) -> str:
        """``caught 3 of 4, missed 1:`` or ``allowed 6 of 6``; the commands go one per line."""
        blocked = sum(v.blocked for v in self.verdicts)
        total = len(self.verdicts)
        wrong = len(self.wrong)
        if self.family.expect == BLOCK:
            return f"caught {blocked} of {total}" + (f", missed {wrong}:" if wrong else "")
        if self.family.expect == ALLOW:
            allowed = total - blocked
            return f"allowed {allowed} of {total}" + (f", false alarms {wrong}:" if wrong else "")
        return f"blocked {blocked} of {total}: no guard that reads only the command can know"

    def row(self, each_command: bool = True) -> Row:
        """The family as a row of the check report, its wrong commands one per line (only
        its counts when ``each_command`` is False: a guard that crashed on them all)."""
        if not each_command:
            return Row(self.family.name, self.line().removesuffix(":"), not self.wrong)
        return Row(
            self.family.name,
            self.line(),
            not self.wrong,
            tuple(one_line(v.command) for v in self.wrong),
        )


@dataclass(frozen=True, repr=False)
class GuardReport(Reported):
    """The whole check: a row per family, crashes, and whether the guard holds."""

    guard: str  # the function's name, or the script's file name
    families: tuple[FamilyResult, ...]
    problem: str | None = None
    not_yet: bool = False  # the guard is still the starter: it raises NotImplementedError
    seed: int | None = None  # the seed of the drawn commands
    function: bool = False  # the learner's exercise function (not a script by path)
    given: str = ""  # the script's path as the learner wrote it, for the replay line
    ran_as: str = ""  # in the browser: how the guard ran in place of a process
    lacks: tuple[str, ...] = ()  # names the function's cell reads but does not define

    @property
    def graded(self) -> list[FamilyResult]:
        return [r for r in self.families if r.family.expect != BEYOND]

    @property
    def missed(self) -> int:
        return sum(len(r.wrong) for r in self.families if r.family.expect == BLOCK)

    @property
    def false_alarms(self) -> int:
        return sum(len(r.wrong) for r in self.families if r.family.expect == ALLOW)

    @property
    def failures(self) -> list[Verdict]:
        """Graded commands on which the guard itself failed (exit 1, a crash, a timeout)."""
        return [v for r in self.graded for v in r.verdicts if v.failed]

    def rows(self) -> list[tuple[str, str, bool]]:
        """(family, line, good) for every family."""
        return [(r.family.name, r.line(), not r.wrong) for r in self.families]

    def _summary(self, holds: bool) -> str:
        if self.problem is not None:
            return f"check_guard: cannot run {self.guard}: {self.problem}"
        if self.not_yet:
            return (
                f"{self.guard}: not yet. Your function still raises NotImplementedError: "
                "write its body, then run this cell again."
            )
        graded = sum(len(r.verdicts) for r in self.graded)
        drawn = sum(len(r.verdicts) for r in self.graded if r.family.name.startswith(DRAWN))
        shown = sum(len(r.verdicts) for r in self.families) - graded
        verdict = "holds" if holds else "does not hold yet"
        # The counts add up to the family table's: graded, drawn, and shown but not graded.
        parts = []
        if drawn:
            parts.append(f"{graded - drawn} from the corpus, {drawn} drawn with seed {self.seed}")
        if shown:
            parts.append(f"{shown} more shown, not graded")
        where = f" ({'; '.join(parts)})" if parts else ""
        called = self.guard if self.function else jsjson.quote(self.given or self.guard)
        replay = (
            f"; check_guard({called}, seed={self.seed}) draws the same commands again"
            if drawn and not holds
            else ""
        )
        return (
            f"check_guard: {self.guard} {verdict}: {self.missed} missed, "
            f"{self.false_alarms} false alarms, over {graded} commands{where}{replay}"
        )

    @property
    def crashed(self) -> bool:
        """True when the guard failed on most graded commands: then the failing families
        say nothing about its reading of the commands."""
        graded = sum(len(r.verdicts) for r in self.graded)
        return 2 * len(self.failures) > graded > 0

    def _crash_summary(self) -> str:
        """The summary when most runs failed: how often, the first error, what to do."""
        first = self.failures[0]
        said = _last_line(first.stderr) or f"exit {first.exit_code}, nothing on stderr"
        if first.timed_out:
            said = f"it did not finish within the time limit on {first.command!r}"
        graded = sum(len(r.verdicts) for r in self.graded)
        crashes = f"{len(self.failures)} of {graded} commands"
        line = f"check_guard: {self.guard} crashed on {crashes}: {said}."
        undefined = [name for name in self.lacks if f"name {name!r} is not defined" in said]
        if self.function and undefined:
            names = _listed(list(self.lacks))
            line += f" The check runs this cell alone as a hook script: copy {names} into it."
        elif self.function:
            line += f" Call {self.guard}({first.command!r}) in a cell of its own to see why."
        return line

    def failure_note(self) -> str | None:
        failures = self.failures
        if not failures:
            return None
        first = failures[0]
        said = _last_line(first.stderr) or "no stderr"
        graded = sum(len(r.verdicts) for r in self.graded)
        if self.crashed:  # the summary says the rest
            return (
                "Claude Code treats a failing hook as non-blocking, so those commands run: "
                f"{self.missed} missed, {self.false_alarms} false alarms"
            )
        return (
            f"the guard failed on {len(failures)} of the {graded} commands (first: exit "
            f"{first.exit_code}, {said}); Claude Code treats a failing hook as non-blocking, "
            "so those commands run"
        )

    def report(self) -> CheckReport:
        """The result as the one check report's data."""
        holds = (
            self.problem is None and not self.not_yet and not self.missed and not self.false_alarms
        )
        shown = () if self.not_yet or self.problem is not None else self.families
        note = None if self.not_yet else self.failure_note()
        verdicts = [v for r in self.graded for v in r.verdicts]
        crashed = self.problem is None and not self.not_yet and self.crashed
        hints = tuple(
            (r.family.name, FAMILY_HINTS[r.family.name])
            for r in shown
            if r.wrong and r.family.name in FAMILY_HINTS and not crashed
        )
        return CheckReport(
            exercise=GUARD_EXERCISE,
            check="check_guard",
            state=PASSED if holds else NOT_YET if self.not_yet else FAILING,
            summary=self._crash_summary() if crashed else self._summary(holds),
            rows=tuple(r.row(each_command=not crashed) for r in shown),
            details_title="the rule each failing family tests" if hints else "",
            details=hints,
            notes=tuple(line for line in (self.ran_as, note) if line),
            passed_cases=len(verdicts) - self.missed - self.false_alarms,
            total_cases=len(verdicts),
            failing=tuple(r.family.name for r in self.graded if r.wrong),
            seed=self.seed,
            subject=self.guard,
        )


def _last_line(stderr: str) -> str:
    """A traceback's last line (the error itself); "" for a blank stderr."""
    lines = stderr.strip().splitlines()
    return lines[-1].strip() if lines else ""


def _listed(names: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"
