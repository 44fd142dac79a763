"""``CheckResult``: a check's cases by family, the simplest failing case in full and the hint
from the difference, said as one ``CheckReport``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from hookcourse.course.checks import diagnosis, kernel_hook
from hookcourse.course.checks import hints as hint_data
from hookcourse.course.checks.case_runs import CELL_ERRORS, CaseOutcome
from hookcourse.course.checks.cases import (
    shown,
    visible,
)
from hookcourse.course.checks.check_report import (
    FAILING,
    NOT_YET,
    PASSED,
    CheckReport,
    Reported,
    Row,
)

# -- reporting ---------------------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class CheckResult(Reported):
    """The outcome of ``check``: a table by case family, and the simplest failing case in full."""

    name: str
    outcomes: tuple[CaseOutcome, ...]
    problems: tuple[str, ...] = ()
    refusal: str | None = None  # why the function was not run: the whole summary line
    check: str = ""  # the self-check's name, for the replay line
    seed: int | None = None  # the seed of the drawn cases, None when none were drawn

    @property
    def hung(self) -> CaseOutcome | None:
        """The case on which the function did not return in time (the check stopped there)."""
        return next((o for o in self.outcomes if o.hung is not None), None)

    @property
    def not_yet(self) -> bool:
        """True when the function is still the starter (every case raised NotImplementedError)."""
        return bool(self.outcomes) and all(o.not_implemented for o in self.outcomes)

    @property
    def all_pass(self) -> bool:
        """True when every case passes, the fixtures had no problems and the code is yours."""
        return (
            bool(self.outcomes)
            and not self.problems
            and self.refusal is None
            and all(o.passed for o in self.outcomes)
        )

    @functools.cached_property
    def first_failure(self) -> CaseOutcome | None:
        """The simplest failing case: one of a form the notebook teaches, the seed's before
        the other case files', those before drawn ones, then the shortest call."""
        failures = [o for o in self.outcomes if not o.passed]
        return min(
            failures,
            key=lambda o: diagnosis.showing_order(self.name, o.case),
            default=None,
        )

    @functools.cached_property  # a report asks several times; the result is frozen
    def diagnosed(self) -> diagnosis.Diagnosis | None:
        """Which hint the first failure gets: the mistake that explains what differs, or the
        case's family when none does (or the function raised); None when all pass."""
        failure = self.first_failure
        if failure is None:
            return None
        answered = failure.answered()
        if answered is None and failure.raised is not None:
            return diagnosis.diagnose_raise(
                self.name, failure.family, failure.case.decoded, failure.raised
            )
        if answered is None:
            return diagnosis.Diagnosis(failure.family)
        others = [a for o in self.outcomes if o is not failure and (a := o.answered()) is not None]
        return diagnosis.diagnose(self.name, failure.family, answered, others)

    def hint(self) -> str | None:
        """What to do about the first failure: about the exception when the function raised."""
        failure = self.first_failure
        found = self.diagnosed
        if failure is None or found is None:
            return None
        family_hint = hint_data.hint(self.name, found.key)
        if failure.raised is None:
            return None if family_hint is None else f"({found.key}) {family_hint}"
        if failure.raised == "NameError":  # a name a cell of the open notebook defines
            cell = kernel_hook.cell_to_run(failure.undefined or "")
            if cell is not None:
                return cell
        if found.mistake is not None and family_hint is not None:  # a mistake raises so too
            return f"({found.key}) {family_hint}"
        raised = hint_data.hints()["raised"]
        streams = diagnosis.none_streams(failure.case.decoded)
        if failure.raised in ("TypeError", "AttributeError") and streams is not None:
            return raised["None stream"].format(streams=streams)
        about = raised.get(failure.raised, raised["default"]).format(name=self.name)
        if failure.raised in CELL_ERRORS or family_hint is None:
            return about
        return f"{about} This case is of the family {failure.family}: {family_hint}"

    def _counts(self) -> str:
        drawn = sum(o.case.drawn for o in self.outcomes)
        if not drawn:
            return ""
        written = len(self.outcomes) - drawn
        return f" ({written} from the case files, {drawn} drawn with seed {self.seed})"

    def _summary(self) -> str:
        if self.refusal is not None:
            return self.refusal
        hung = self.hung
        if hung is not None and hung.hung is not None:
            return (
                f"{self.name}: stopped. Your function did not return within "
                f"{hung.hung.seconds:g} s on {hung.case.where}: {hung.call(self.name)}. "
                f"Look for a loop that never ends. {hung.hung.after()}"
            )
        if self.not_yet:
            return (
                f"{self.name}: not yet. Your function still raises NotImplementedError: "
                "write its body, then run this cell again."
            )
        total = len(self.outcomes)
        if not total:
            return f"{self.name}: cannot run, see the problems below"
        if self.all_pass:
            return f"{self.name}: passed, all {total} cases{self._counts()}"
        passing = sum(o.passed for o in self.outcomes)
        replay = ""
        if self.seed is not None and any(o.case.drawn for o in self.outcomes):
            replay = f"; {self.check}({self.name}, seed={self.seed}) draws the same cases again"
        return f"{self.name}: {passing} of {total} cases pass{self._counts()}{replay}"

    def families(self) -> list[tuple[str, int, int]]:
        """(family, passing, total) in the order families first appear."""
        counts: dict[str, list[int]] = {}
        for outcome in self.outcomes:
            tally = counts.setdefault(outcome.family, [0, 0])
            tally[0] += outcome.passed
            tally[1] += 1
        return [(family, passing, total) for family, (passing, total) in counts.items()]

    def failure_rows(self) -> list[tuple[str, str]]:
        """The first failing case as labelled rows: case, call, expected, got, difference, hint."""
        failure = self.first_failure
        if failure is None or not self._table_visible():
            return []
        rows = [
            ("case", self._case_label(failure)),
            ("call", failure.call(self.name)),
            ("expected", shown(failure.case.expected)),
            ("got", visible(failure.got)),
        ]
        if failure.difference is not None and failure.difference.path:
            rows.append(("difference", failure.difference.text()))
        hint = self.hint()
        if hint:
            rows.append(("hint", hint))
        return rows

    def _case_label(self, failure: CaseOutcome) -> str:
        """The case by its row in the table (its family), not by its file: the learner
        sees the families, never the case files."""
        drawn = f", drawn with seed {self.seed}" if failure.case.drawn else ""
        found = self.diagnosed
        # One mistake fails cases of several families: name the mistake, not only the row.
        if found is not None and found.mistake is not None and found.key != failure.family:
            return f"one of the {failure.family} cases{drawn}; the mistake it shows: {found.key}"
        return f"one of the {failure.family} cases{drawn}"

    def _several_families(self, rows: tuple[Row, ...]) -> tuple[str, ...]:
        """A line for when one found mistake may explain every failing family."""
        found = self.diagnosed
        if found is None or found.mistake is None or sum(not row.good for row in rows) < 2:
            return ()
        return (
            f"one mistake can fail cases of several families: fix {found.key} first "
            "(the hint), then run the check again",
        )

    def _table_visible(self) -> bool:
        return not self.not_yet and self.refusal is None and self.hung is None

    def report(self) -> CheckReport:
        """The result as the one check report's data."""
        state = PASSED if self.all_pass else NOT_YET if self.not_yet else FAILING
        families = self.families() if self._table_visible() else []
        rows = tuple(
            Row(family, f"{passing}/{total}", passing == total)
            for family, passing, total in families
        )
        return CheckReport(
            exercise=self.name,
            check=self.check,
            state=state,
            summary=self._summary(),
            rows=rows,
            details_title="Simplest failing case",
            details=tuple(self.failure_rows()),
            notes=(
                *self._several_families(rows),
                *(f"fixture problem: {p}" for p in self.problems),
            ),
            passed_cases=sum(o.passed for o in self.outcomes),
            total_cases=len(self.outcomes),
            failing=tuple(row.label for row in rows if not row.good),
            seed=self.seed,
        )
