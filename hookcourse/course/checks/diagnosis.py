"""Which mistake explains a wrong answer: the hint a check gives, chosen from what differs.

A case's family names the trap the case was written for; a learner's wrong answer
may come from another one. So each exercise has a model of the learner's function
with the classic mistakes as switches (``str.strip()`` for ``trim()``, ``==`` for
``===``, ``or`` for ``??``, top-level fields for ``hookSpecificOutput``, the first
rewrite for the last, the cap off by one...), each switch tied to the hint key that
names it. A mistake explains a wrong answer when the model with that one switch on
gives the learner's answer (or the learner's value at the first differing JSON
path); among several, the one that agrees with the learner's other answers wins,
then the one listed first. Only when no mistake explains it does the hint fall
back to the case's family. Pure: nothing here runs the learner's code.

It also says which failing case to show: one of a form the notebook has taught
(``taught``), then the smallest.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from hookcourse.course.checks.cases import FixtureCase, first_difference, same_json
from hookcourse.course.checks.mistakes import Answer, Mistake, Model, Path, as_json
from hookcourse.course.checks.mistakes_several import (
    MERGE_MISTAKES,
    RUN_MISTAKES,
    STOP_MISTAKES,
    merge_model,
    run_model,
    stop_model,
)
from hookcourse.course.checks.mistakes_single import (
    APPLY_MISTAKES,
    EXIT_MISTAKES,
    MATCH_MISTAKES,
    apply_model,
    exit_model,
    match_model,
)
from hookcourse.js import json as jsjson
from hookcourse.js.values import (
    UNDEFINED,
    JSValue,
    Undefined,
)
from hookcourse.stages.decoding import Decoded
from hookcourse.stages.registry import exercise_named


@dataclass(frozen=True)
class Diagnosis:
    """The hint key for one wrong answer, and the mistake behind it (None: the family's)."""

    key: str
    mistake: Mistake | None = None
    path: Path = ()


# -- the exercises ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Learner:
    """An exercise's model of the learner's function, and the mistakes it can switch on."""

    model: Model
    mistakes: tuple[Mistake, ...]

    def answer(self, given: tuple[object, ...], mistakes: Iterable[str] = ()) -> Answer | None:
        """The model's answer, as JSON; None where it cannot say (a value it cannot read)."""
        try:
            return as_json(self.model(given, frozenset(mistakes)))
        except (TypeError, ValueError, KeyError, AttributeError, AssertionError, IndexError):
            return None

    def raised(self, given: tuple[object, ...], mistakes: Iterable[str] = ()) -> str | None:
        """The kind of error the model raises (``_RAISE_KINDS``), None when it answers."""
        try:
            self.model(given, frozenset(mistakes))
        except (TypeError, ValueError, KeyError, AttributeError, AssertionError, IndexError) as e:
            return _RAISE_KINDS.get(type(e).__name__, type(e).__name__)
        return None


LEARNERS: Final = {
    "match_hook": Learner(match_model, MATCH_MISTAKES),
    "interpret_exit_code": Learner(exit_model, EXIT_MISTAKES),
    "apply_pre_tool_use": Learner(apply_model, APPLY_MISTAKES),
    "merge_pre_tool_use": Learner(merge_model, MERGE_MISTAKES),
    "run_stop_loop": Learner(stop_model, STOP_MISTAKES),
    "run_hooks": Learner(run_model, RUN_MISTAKES),
}


def hint_keys(function: str) -> tuple[str, ...]:
    """Every hint key a check of ``function`` can give: its families, then its mistakes'."""
    exercise = exercise_named(function)
    families = exercise.families if exercise is not None else ()
    learner = LEARNERS.get(function)
    mistakes = learner.mistakes if learner is not None else ()
    return tuple(dict.fromkeys([*families, *(m.key for m in mistakes)]))


# -- choosing the hint -----------------------------------------------------------------------


def value_at(value: Answer, path: Path) -> Answer:
    """The part of a JSON value at ``path``; UNDEFINED where there is none."""
    for step in path:
        found = isinstance(value, list) and isinstance(step, int) and 0 <= step < len(value)
        if not (found or (isinstance(value, dict) and isinstance(step, str) and step in value)):
            return UNDEFINED
        value = value[step]  # type: ignore[index]
    return value


def _same(expected: Answer, got: Answer) -> bool:
    if isinstance(expected, Undefined) or isinstance(got, Undefined):
        return expected is got
    return same_json(expected, got)


@dataclass(frozen=True)
class Answered:
    """One case the learner's function answered: the case, the right answer, the learner's."""

    decoded: Decoded
    expected: JSValue
    got: JSValue


def diagnose(
    function: str, family: str, case: Answered, others: Sequence[Answered] = ()
) -> Diagnosis:
    """The hint key for one wrong answer: the mistake that explains it, else ``family``.

    A mistake explains the answer when the model with it gives the learner's whole
    answer (best), or the learner's value where the answers first differ. Ties go to
    the mistake that also gives the learner's answers to ``others``, then to the one
    listed first.
    """
    difference = first_difference(case.expected, case.got)
    if difference is None:
        return Diagnosis(family)
    learner = LEARNERS.get(function)
    if learner is None:
        return Diagnosis(family, None, difference.path)
    scored: list[tuple[int, int, Mistake]] = []
    for rank, mistake in enumerate(learner.mistakes):
        answer = learner.answer(case.decoded.given, [mistake.switch])
        if answer is None or _same(answer, case.expected):
            continue
        if _same(answer, case.got):
            scored.append((2, -rank, mistake))
        elif _same(value_at(answer, difference.path), difference.got) and not _same(
            value_at(answer, difference.path), difference.expected
        ):
            scored.append((1, -rank, mistake))
    if not scored:
        return Diagnosis(family, None, difference.path)
    best = max(strength for strength, _, _ in scored)
    tied = [(rank, mistake) for strength, rank, mistake in scored if strength == best]
    if len(tied) > 1 and others:
        agree = {m.switch: _agreement(learner, m, others) for _, m in tied}
        top = max(agree.values())
        tied = [(rank, m) for rank, m in tied if agree[m.switch] == top]
    _, chosen = max(tied, key=lambda pair: pair[0])
    return Diagnosis(chosen.key, chosen, difference.path)


# A value of the wrong type fails as either, depending on what the code does with it.
_RAISE_KINDS: Final = {"AttributeError": "TypeError"}


def diagnose_raise(function: str, family: str, decoded: Decoded, raised: str) -> Diagnosis:
    """The hint key for a call that raised ``raised``: the mistake whose model raises the
    same kind of error on this case (where the right model answers), else ``family``."""
    learner = LEARNERS.get(function)
    if learner is None or learner.raised(decoded.given) is not None:
        return Diagnosis(family)
    kind = _RAISE_KINDS.get(raised, raised)
    for mistake in learner.mistakes:
        if learner.raised(decoded.given, [mistake.switch]) == kind:
            return Diagnosis(mistake.key, mistake)
    return Diagnosis(family)


def none_streams(decoded: Decoded) -> str | None:
    """The streams that are None in the first hook result of this case that has one, in
    words ("stdout is None", "stdout and stderr are None"); None when no stream is."""
    pending: list[object] = list(decoded.given)
    while pending:
        value = pending.pop(0)
        if isinstance(value, Mapping):
            names = [n for n in ("stdout", "stderr") if n in value and value[n] is None]
            if names:
                return " and ".join(names) + (" are None" if len(names) > 1 else " is None")
            pending += list(value.values())
        elif isinstance(value, list | tuple):
            pending += list(value)
    return None


_AGREEMENT_CASES: Final = 200  # enough to tell mistakes apart, few enough to stay quick


def _agreement(learner: Learner, mistake: Mistake, others: Sequence[Answered]) -> int:
    """On how many of ``others`` the model with ``mistake`` gives the learner's answer."""
    agreeing = 0
    for other in others[:_AGREEMENT_CASES]:
        answer = learner.answer(other.decoded.given, [mistake.switch])
        agreeing += answer is not None and _same(answer, other.got)
    return agreeing


# -- which failing case to show --------------------------------------------------------------

# The matcher forms notebook 01 teaches: name lists, "*", and regexes of literal names,
# ".", "*", "+", "?", "|", "^", "$", groups, (?i), named groups and \d, \w, \s, \|.
_TAUGHT_MATCHER: Final = re.compile(r"(?:[\w|.*+?^$ ()]|\(\?i\)|\(\?P?<\w+>|\\[dws|])*")
# Invisible characters the notebooks show by name (trim's and strip()'s differences).
_TAUGHT_INVISIBLE: Final = frozenset(" \t\n\r\u00a0\ufeff\x85\x1c\x1d\x1e\x1f")
# Notebook 01 names only the newline (``$`` before a final ``\n``) in a tool name.
_TAUGHT_IN_TOOL_NAMES: Final = frozenset(" \n")


def _strings(value: object) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def _plain(text: str, invisible: frozenset[str] = _TAUGHT_INVISIBLE) -> bool:
    return all(char.isprintable() or char in invisible for char in text) and all(
        ord(char) <= 0xFFFF for char in text
    )


def taught(function: str, decoded: Decoded) -> bool:
    """True when the case is of a form the exercise's notebook teaches (a matcher built of
    taught regex parts, strings of printable text and the invisibles the notebooks name)."""
    if function == "match_hook":
        matcher, tool = decoded.given
        if isinstance(matcher, str) and not _TAUGHT_MATCHER.fullmatch(matcher):
            return False
        return isinstance(tool, str) and _plain(tool, _TAUGHT_IN_TOOL_NAMES)
    return all(_plain(text) for text in _strings(decoded.given))


def showing_order(function: str, case: FixtureCase) -> tuple[bool, bool, bool, int]:
    """Sort key for the failing case to show: taught forms first, then the seed's own case
    file, then the other case files before drawn cases, then the shortest call."""
    size = len(jsjson.stringify(list(case.decoded.given)))
    return (not taught(function, case.decoded), not case.seed, case.drawn, size)
