"""One case through a learner's function: its own copy of the arguments, every raise caught,
a time limit, the return value read as JSON and compared with the reference's answer.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Final

from hookcourse.course.checks import calling, diagnosis
from hookcourse.course.checks.authorship import Watch
from hookcourse.course.checks.cases import (
    Difference,
    FixtureCase,
    first_difference,
    shown,
    visible,
)
from hookcourse.js import json as jsjson
from hookcourse.js.values import JSValue
from hookcourse.stages.decoding import CaseError
from hookcourse.stages.registry import (
    Exercise,
)

# A raise in these is about the learner's cell (a lost import, a typo, a sys.exit), not
# about the case.
CELL_ERRORS: Final = frozenset({"NameError", "ImportError", "ModuleNotFoundError", "SystemExit"})


class WrongReturn(ValueError):
    """A learner's return value of the wrong shape; the message says what was expected."""


def _kind(value: object) -> str:
    return "None" if value is None else f"a {type(value).__name__}"


def returned_json(value: object, expected: JSValue) -> JSValue:
    """A learner's return value as the JSON the grader would print, shaped like ``expected``."""
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        value = to_json()
    if isinstance(expected, bool):
        if isinstance(value, bool):
            return value
        if value is None:
            raise WrongReturn("returned None: does every branch return True or False?")
        raise WrongReturn(f"returned {value!r} ({type(value).__name__}); return True or False")
    if isinstance(expected, dict) and not isinstance(value, Mapping):
        keys = ", ".join(expected)
        raise WrongReturn(f"returned {_kind(value)}; return a dict with the keys {keys}")
    if isinstance(expected, list) and not isinstance(value, list | tuple):
        raise WrongReturn(f"returned {_kind(value)}; return a list")
    try:
        # JSON.stringify's view: undefined members vanish, every number is a double.
        plain = dict(value) if isinstance(value, Mapping) else value
        return jsjson.parse(jsjson.stringify(plain))
    except Exception as error:
        raise WrongReturn(f"returned {_kind(value)} JSON cannot hold ({error})") from None


# -- running -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CaseOutcome:
    """One case run through the learner's function."""

    case: FixtureCase
    family: str
    passed: bool
    got: str  # the result as JSON, or what went wrong instead
    difference: Difference | None = None
    raised: str | None = None  # the exception's class name, when the function raised
    not_implemented: bool = False
    hung: calling.Hung | None = None  # set when it did not return within the time limit
    answer: JSValue | None = None  # the result as JSON, when it had the right shape
    undefined: str | None = None  # the name a NameError found undefined

    def answered(self) -> diagnosis.Answered | None:
        """The case with both answers, when the function returned one of the right shape."""
        if self.difference is None and not self.passed:
            return None
        return diagnosis.Answered(self.case.decoded, self.case.expected, self.answer)

    def call(self, name: str) -> str:
        """The call as Python source, e.g. ``match_hook('Edit|Write', 'MultiEdit')``."""
        return visible(f"{name}({', '.join(repr(argument) for argument in self.case.arguments)})")


def run_case(
    exercise: Exercise, fn: Callable[..., object], case: FixtureCase, watch: Watch | None = None
) -> CaseOutcome | None:
    """Call ``fn`` on one case (with its own copy of the arguments) and judge the result;
    None for a drawn case the JavaScript reference refuses.

    A drawn case's answer is worked out only once ``fn`` has returned, so nothing the
    call can reach (its callers' frames, the heap) holds it.
    """
    family = exercise.family(case.decoded)
    profile = None if watch is None else watch.profile
    outcome = calling.call(fn, *copy.deepcopy(case.arguments), profile=profile)
    if case.drawn:
        try:
            case = replace(case, expected=exercise.answer_decoded(case.decoded))
        except CaseError:
            return None
    if isinstance(outcome, calling.Hung):
        late = f"did not return within {outcome.seconds:g} s"
        return CaseOutcome(case, family, False, late, hung=outcome)
    if isinstance(outcome, calling.Raised):
        if isinstance(outcome.error, NotImplementedError):
            return CaseOutcome(case, family, False, outcome.text(), not_implemented=True)
        undefined = getattr(outcome.error, "name", None) if outcome.name == "NameError" else None
        return CaseOutcome(
            case, family, False, outcome.text(), raised=outcome.name, undefined=undefined
        )
    try:
        got = returned_json(outcome.value, case.expected)
    except WrongReturn as wrong:
        return CaseOutcome(case, family, False, str(wrong))
    difference = first_difference(case.expected, got)
    return CaseOutcome(case, family, difference is None, shown(got), difference, answer=got)
