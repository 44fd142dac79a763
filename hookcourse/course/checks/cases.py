"""A stage's graded cases, and how an answer is compared with them and shown.

One implementation for the notebook checks (``hookcourse.course.checks.exercises``) and
``hookcourse test`` (``hookcourse.course.grading.tester``): the same case files, the same
JSON equality the course's tester uses (values equal under JavaScript semantics:
``1`` and ``1.0`` equal, ``true`` and ``1`` not, key order free), and the same
"Expected …, got … at $.path" line with invisible characters escaped.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Final, TypeAlias

from hookcourse.errors import json_path
from hookcourse.js import json as jsjson
from hookcourse.js.values import UNDEFINED, JSValue, Undefined, is_js_number
from hookcourse.stages.decoding import CaseError, Decoded, member
from hookcourse.stages.registry import Exercise, Stage, stage_of

# A link to the top-level fixtures/ in a checkout; a real folder inside an installed wheel.
FIXTURES: Final = Path(__file__).resolve().parents[2] / "fixtures"
SEED: Final = "case.json"  # the seed's case file; its folder name in a scratch copy too

Arguments: TypeAlias = "tuple[JSValue | Undefined, ...]"


class CaseProblem(ValueError):
    """A fixture file that cannot be used; the message names it."""


# -- case files ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class CaseFile:
    """One fixture folder of a stage: the case file's text and JSON, and the expected JSON."""

    name: str  # "case.json" for the seed's, "extra/<folder>" for the broader ones
    text: str
    case: JSValue
    expected: JSValue

    @property
    def is_seed(self) -> bool:
        """True for the seed's own case file, which every tester runs first."""
        return self.name == SEED


def _read_json(path: Path, root: Path) -> tuple[str, JSValue]:
    shown = path.relative_to(root)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CaseProblem(f"{shown} cannot be read ({error})") from None
    try:
        return text, jsjson.parse(text)
    except jsjson.JSONSyntaxError as error:
        raise CaseProblem(f"{shown} is not valid JSON ({error})") from None


def stage_files(stage: Stage, fixtures: Path = FIXTURES) -> tuple[list[CaseFile], list[str]]:
    """The seed's case file, then every ``extra/<name>`` one in name order, and the problems."""
    folder = fixtures / stage.slug
    if not (folder / SEED).is_file():
        return [], [f"no fixtures for {stage.slug} at {folder}: reinstall hookcourse"]
    extras = sorted(p for p in (folder / "extra").glob("*") if (p / SEED).is_file())
    files: list[CaseFile] = []
    problems: list[str] = []
    for place in [folder, *extras]:
        name = SEED if place == folder else f"extra/{place.name}"
        try:
            text, case = _read_json(place / SEED, folder)
            _, expected = _read_json(place / "expected.json", folder)
        except CaseProblem as problem:
            problems.append(str(problem))
            continue
        files.append(CaseFile(name, text, case, expected))
    return files, problems


@dataclass(frozen=True)
class FixtureCase:
    """One call of an exercise: where it is written (a case file, or a generator and its
    seed), the case as its decoder read it, the expected JSON."""

    where: str
    decoded: Decoded
    expected: JSValue
    seed: bool = False  # one of the seed's own cases
    drawn: bool = False  # drawn by the exercise's generator, not written in a case file

    @property
    def arguments(self) -> Arguments:
        """The arguments the learner's function is called with."""
        return self.decoded.given


def exercise_cases(
    exercise: Exercise, fixtures: Path = FIXTURES
) -> tuple[list[FixtureCase], list[str]]:
    """Every call of ``exercise`` in its stage's case files, in file order, and the problems."""
    stage = stage_of(exercise)
    if stage is None:
        return [], [f"{exercise.function} is not graded over a stage's case files"]
    files, problems = stage_files(stage, fixtures)
    cases: list[FixtureCase] = []
    case_key, output_key = exercise.case_key, exercise.output_key
    for file in files:
        inputs, outputs = member(file.case, case_key), member(file.expected, output_key)
        if isinstance(inputs, Undefined) and isinstance(outputs, Undefined):
            continue
        if not isinstance(inputs, list) or not isinstance(outputs, list):
            problems.append(f"{file.name}: {case_key} and {output_key} must both be lists")
            continue
        if len(inputs) != len(outputs):
            problems.append(
                f"{file.name}: {len(inputs)} {case_key} but {len(outputs)} {output_key}"
            )
            continue
        for index, (case, expected) in enumerate(zip(inputs, outputs, strict=True)):
            where = f"{file.name} {case_key}[{index}]"
            try:
                cases.append(FixtureCase(where, exercise.read(case), expected, file.is_seed))
            except CaseError as error:
                problems.append(f"{where}: {error.problem}")
    return cases, problems


# -- comparison ---------------------------------------------------------------------------------


def same_json(expected: JSValue, got: JSValue) -> bool:
    """Deep equality as the course's tester sees JSON: ``true`` is not ``1``, key order is free."""
    return first_difference(expected, got) is None


@dataclass(frozen=True)
class Difference:
    """Where two JSON values first differ: the path, and each side there (UNDEFINED = absent)."""

    path: tuple[str | int, ...]
    expected: JSValue | Undefined
    got: JSValue | Undefined

    def text(self) -> str:
        """``Expected true, got false at $.matches[3]``, invisible characters escaped."""
        where = json_path(self.path)
        if self.got is UNDEFINED:
            return f"Expected {shown(self.expected)} at {where}, got nothing (the key is missing)"
        if self.expected is UNDEFINED:
            return f"Expected no key at {where}, got {shown(self.got)}"
        if isinstance(self.expected, list) and isinstance(self.got, list):
            agree = min(len(self.expected), len(self.got))
            same = f" (the first {agree} agree)" if agree else ""
            return f"Expected {len(self.expected)} items, got {len(self.got)} at {where}{same}"
        return f"Expected {shown(self.expected)}, got {shown(self.got)} at {where}"


def first_difference(
    expected: JSValue, got: JSValue, path: tuple[str | int, ...] = ()
) -> Difference | None:
    """The first place, in the expected value's order, where ``got`` differs; None if equal."""
    if isinstance(expected, dict) and isinstance(got, dict):
        for key in expected:
            if key not in got:
                return Difference((*path, key), expected[key], UNDEFINED)
            found = first_difference(expected[key], got[key], (*path, key))
            if found is not None:
                return found
        extra = next((key for key in got if key not in expected), None)
        return None if extra is None else Difference((*path, extra), UNDEFINED, got[extra])
    if isinstance(expected, list) and isinstance(got, list):
        for index, (want, have) in enumerate(zip(expected, got, strict=False)):
            found = first_difference(want, have, (*path, index))
            if found is not None:
                return found
        if len(expected) == len(got):
            return None
        return Difference(path, expected, got)
    if is_js_number(expected) and is_js_number(got):
        return None if expected == got else Difference(path, expected, got)
    if type(expected) is type(got) and expected == got:
        return None
    return Difference(path, expected, got)


# -- showing values -----------------------------------------------------------------------------

# Letters that draw nothing although Unicode calls them letters (Hangul fillers).
_BLANK_LETTERS: Final = frozenset("\u115f\u1160\u3164\uffa0")
_INVISIBLE: Final = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp", "Cs", "Co", "Cn"})


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\u{{{code:x}}}"


def visible(text: str) -> str:
    """``text`` with every character that draws nothing (but the space) written as ``\\uXXXX``."""
    return "".join(
        _escape(char)
        if char != " "
        and (char in _BLANK_LETTERS or unicodedata.category(char) in _INVISIBLE)
        and char not in "\n"
        else char
        for char in text
    )


def shown(value: JSValue | Undefined) -> str:
    """A JSON value as one visible line: ``JSON.stringify``, invisible characters escaped."""
    return "undefined" if value is UNDEFINED else visible(jsjson.stringify(value))


def clip(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters, marked when cut."""
    return text if len(text) <= width else text[: width - 1] + "…"
