"""Self-checks for the notebook exercises: a learner's function against a stage's fixtures.

``check_matcher(match_hook)``, ``check_exit_code(interpret_exit_code)``,
``check_apply(apply_pre_tool_use)``, ``check_merge(merge_pre_tool_use)`` and
``check_stop(run_stop_loop)`` run every case of the stage's fixtures
(``fixtures/<stage>/case.json`` and each ``extra/<name>/case.json``) through the
learner's function, exactly as the grader feeds the package's own, and compare
with ``expected.json``. Nothing the learner's function does escapes as a
traceback: a raise or a wrong return type is a failing case with its message.
"""

from __future__ import annotations

import copy
import functools
import html
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Final, TypeAlias

from hookcourse.course.labs.logic import python_re_search, python_thinks_name_list
from hookcourse.js import json as jsjson
from hookcourse.js.regex import RegexEngine, regex_error, regex_test
from hookcourse.js.values import (
    UNDEFINED,
    JSValue,
    Undefined,
    is_js_number,
    is_nullish,
    js_trim,
    strict_equals_number,
)
from hookcourse.stages.answers import hook_result, json_output
from hookcourse.stages.decoding import CaseError, member
from hookcourse.stages.matcher import MatchBranch, explain_match
from hookcourse.stages.merge import (
    DEPRECATED_DECISIONS,
    STRENGTH,
    merge_pre_tool_use,
    read_pre_tool_use,
)
from hookcourse.stages.registry import STAGES, Exercise, exercise_named, stage_of
from hookcourse.stages.stop_loop import BLOCK, HALT, read_stop, run_stop_loop, stop_hook

FIXTURES: Final = Path(__file__).resolve().parents[2] / "fixtures"

Arguments: TypeAlias = "tuple[JSValue | Undefined, ...]"


class CaseProblem(ValueError):
    """A fixture case the exercise cannot turn into a call; the message says what to fix."""


class WrongReturn(ValueError):
    """A learner's return value of the wrong shape; the message says what was expected."""


# -- case families: which misreading of JavaScript a case catches (hints are keyed by these) ---


def _match_family(arguments: Arguments) -> str:
    matcher, tool = arguments
    result = explain_match(matcher if isinstance(matcher, str) else None, tool)
    if result.branch is MatchBranch.ALL:
        return "match-all"
    if not isinstance(matcher, str) or not isinstance(tool, str):
        return "tool-not-a-string"
    if result.branch is MatchBranch.EXACT:
        as_regex = regex_test(matcher, tool, RegexEngine.NODE)
        return "name-list" if as_regex != result.matched else "exact"
    if python_thinks_name_list(matcher):
        return "ascii-word"
    if regex_error(matcher, RegexEngine.NODE) is not None:
        return "invalid-regex"
    if python_re_search(matcher, tool) != result.matched:
        return "js-not-python"
    if regex_test(f"^(?:{matcher})$", tool, RegexEngine.NODE) != result.matched:
        return "unanchored"
    return "regex"


def _exit_family(arguments: Arguments) -> str:
    code, stderr = arguments
    if not is_js_number(code):
        return "strict-equality"
    if strict_equals_number(code, 0):
        return "success"
    text = stderr if isinstance(stderr, str) else ""
    if js_trim(text) != text.strip():
        return "js-trim"
    if strict_equals_number(code, 2):
        return "block" if js_trim(text) else "block-default-reason"
    return "warn" if js_trim(text) else "warn-no-reason"


def _python_falsy_kept(value: JSValue | Undefined) -> bool:
    """Kept by ``??`` but dropped by Python's ``or``: "", 0, false, {} and []."""
    return not is_nullish(value) and not value


def _apply_family(arguments: Arguments) -> str:
    output, _ = arguments
    fields = output if isinstance(output, dict) else {}
    decision = fields.get("decision", UNDEFINED)
    rewritten = fields.get("updatedInput", UNDEFINED)
    context = fields.get("additionalContext", UNDEFINED)
    if decision == "block":
        reason = fields.get("reason", UNDEFINED)
        if not is_nullish(rewritten):
            return "block-keeps-input"
        if not is_nullish(context):
            return "block-no-context"
        if _python_falsy_kept(reason):
            return "nullish-not-falsy"
        return "block-default-reason" if is_nullish(reason) else "block"
    if not is_nullish(decision):
        return "only-block-blocks"
    if _python_falsy_kept(rewritten) or _python_falsy_kept(context):
        return "nullish-not-falsy"
    if rewritten is None or context is None:
        return "null-falls-back"
    if not is_nullish(rewritten):
        return "rewrite"
    return "inject" if not is_nullish(context) else "pass-through"


def _merge_family(arguments: Arguments) -> str:
    raw, tool_input = arguments
    results = [hook_result(item) for item in raw] if isinstance(raw, list) else []
    tool_input = None if isinstance(tool_input, Undefined) else tool_input
    answers = [read_pre_tool_use(result) for result in results]
    read = [(result, json_output(result.stdout)) for result in results]
    merged = merge_pre_tool_use(results, tool_input)
    blocks = [result for result in results if strict_equals_number(result.code, 2)]
    if any(strict_equals_number(r.code, 2) and out is not None for r, out in read):
        return "exit-2-beats-json"
    changes = [not isinstance(a.updated_input, Undefined) or a.context is not None for a in answers]
    if merged.decision == "deny" and any(changes):
        return "deny-drops-rewrite"
    if any(not is_js_number(result.code) for result in results):
        return "strict-equality"
    if any(not js_trim(result.stderr) for result in blocks):
        return "block-default-reason"
    if blocks and len(results) > 1:
        return "exit-2-beats-json"
    if any(out is not None and not strict_equals_number(r.code, 0) for r, out in read):
        return "json-on-any-exit"
    if any(out is None and js_trim(r.stdout) for r, out in read):
        return "stdout-not-json"
    for output in filter(None, (out for _, out in read)):
        specific = output.get("hookSpecificOutput", UNDEFINED)
        if not isinstance(specific, dict) or specific.get("hookEventName") != "PreToolUse":
            if output.get("decision", UNDEFINED) in DEPRECATED_DECISIONS:
                return "deprecated-decision"
            if not isinstance(specific, Undefined):
                return "wrong-event"
        elif "permissionDecision" in specific and specific["permissionDecision"] not in STRENGTH:
            return "unknown-decision"
    decided = [answer.decision for answer in answers if answer.decision is not None]
    if merged.decision is not None and decided.count(merged.decision) > 1:
        return "first-reason"
    if sum(not isinstance(answer.updated_input, Undefined) for answer in answers) > 1:
        return "last-rewrite"
    if len(set(decided)) > 1:
        return "precedence"
    if merged.contexts:
        return "contexts"
    return "no-decision" if merged.decision is None else "one-decision"


def _stop_family(arguments: Arguments) -> str:
    raw, cap = arguments
    if not isinstance(raw, dict) or not isinstance(cap, int):
        return "stop"
    parsed = stop_hook(raw)
    hook = {"whenInactive": parsed.when_inactive, "whenActive": parsed.when_active}
    turns = run_stop_loop(parsed, cap)
    read = {key: read_stop(answer) for key, answer in hook.items()}
    outputs = {key: json_output(answer.stdout) or {} for key, answer in hook.items()}
    if any(o.get("continue") is False and o.get("decision") == "block" for o in outputs.values()):
        return "halt-beats-block"
    if turns[-1].capped:
        return "the-cap"
    if any(not is_js_number(answer.code) for answer in hook.values()):
        return "strict-equality"
    if any(
        o.get("decision") == "block" and kind != BLOCK
        for o, (kind, _) in zip(outputs.values(), read.values(), strict=True)
    ):
        return "block-needs-reason"
    if any(kind == BLOCK and reason != js_trim(reason or "") for kind, reason in read.values()):
        return "reason-as-written"
    if any(
        json_output(answer.stdout) is not None and not strict_equals_number(answer.code, 0)
        for answer in hook.values()
    ):
        return "json-on-any-exit"
    if any(
        json_output(answer.stdout) is None and js_trim(answer.stdout) for answer in hook.values()
    ):
        return "stdout-not-json"
    if any(kind == HALT for kind, _ in read.values()):
        return "halt"
    if len(turns) > 1 and read["whenInactive"] != read["whenActive"]:
        return "flag-after-block"
    return "stop"  # the same blocking answer both times always reaches the cap


# -- what a learner's function returned, as JSON -----------------------------------------------


def _as_boolean(value: object) -> JSValue:
    if isinstance(value, bool):
        return value
    if value is None:
        raise WrongReturn("returned None: does every branch return True or False?")
    raise WrongReturn(f"returned {value!r} ({type(value).__name__}); return True or False")


def _as_object(keys: str) -> Callable[[object], JSValue]:
    def read(value: object) -> JSValue:
        to_json = getattr(value, "to_json", None)
        if callable(to_json):
            value = to_json()
        if not isinstance(value, Mapping):
            got = "None" if value is None else f"a {type(value).__name__}"
            raise WrongReturn(f"returned {got}; return a dict with the keys {keys}")
        try:
            # JSON.stringify's view: undefined members vanish, every number is a double.
            return jsjson.parse(jsjson.stringify(dict(value)))
        except Exception as error:
            raise WrongReturn(f"returned a dict JSON cannot hold ({error})") from None

    return read


def _as_list_of(item: Callable[[object], JSValue], what: str) -> Callable[[object], JSValue]:
    def read(value: object) -> JSValue:
        if not isinstance(value, list | tuple):
            got = "None" if value is None else f"a {type(value).__name__}"
            raise WrongReturn(f"returned {got}; return a list of {what}")
        return [item(element) for element in value]

    return read


@dataclass(frozen=True)
class _Grading:
    """How the checks read one exercise: its case families (hint keys) and its return value."""

    family: Callable[[Arguments], str]
    result: Callable[[object], JSValue]


_GRADING: Final = {
    "match_hook": _Grading(_match_family, _as_boolean),
    "interpret_exit_code": _Grading(_exit_family, _as_object("block, warn, reason")),
    "apply_pre_tool_use": _Grading(
        _apply_family, _as_object("allowed, input, injectedContext, reason")
    ),
    "merge_pre_tool_use": _Grading(_merge_family, _as_object("decision, reason, input, contexts")),
    "run_stop_loop": _Grading(
        _stop_family,
        _as_list_of(
            _as_object("stopHookActive, continues, reason, capped"),
            "turns (dicts with the keys stopHookActive, continues, reason, capped)",
        ),
    ),
}


@functools.cache
def hints() -> dict[str, dict[str, str]]:
    """The hint for each exercise's case families (``data/exercise_hints.json``), read once."""
    text = resources.files("hookcourse").joinpath("data/exercise_hints.json").read_text("utf-8")
    loaded: dict[str, dict[str, str]] = json.loads(text)
    return loaded


def same_json(expected: JSValue, got: JSValue) -> bool:
    """Deep equality as a JSON comparison sees it: ``true`` is not ``1``, key order is free."""
    if isinstance(expected, dict):
        return (
            isinstance(got, dict)
            and expected.keys() == got.keys()
            and all(same_json(expected[key], got[key]) for key in expected)
        )
    if isinstance(expected, list):
        return (
            isinstance(got, list)
            and len(expected) == len(got)
            and all(same_json(e, g) for e, g in zip(expected, got, strict=True))
        )
    if is_js_number(expected) or is_js_number(got):
        return is_js_number(expected) and is_js_number(got) and expected == got
    return type(expected) is type(got) and expected == got


def _difference(expected: JSValue, got: JSValue) -> str | None:
    """The first top-level key that differs between two objects, in words."""
    if not isinstance(expected, dict) or not isinstance(got, dict):
        return None
    for key in expected:
        if key not in got:
            return f"the key {jsjson.quote(key)} is missing"
        if not same_json(expected[key], got[key]):
            return (
                f"{key} should be {jsjson.stringify(expected[key])}, "
                f"not {jsjson.stringify(got[key])}"
            )
    extra = [key for key in got if key not in expected]
    return f"unexpected key {jsjson.quote(extra[0])}" if extra else None


# -- fixtures ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class FixtureCase:
    """One case: where it is written, the call it makes, and the expected result as JSON."""

    where: str
    arguments: Arguments
    expected: JSValue


def _read_json(path: Path, root: Path) -> JSValue:
    try:
        return jsjson.parse(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise CaseProblem(f"{path.relative_to(root)} cannot be read ({error})") from None
    except jsjson.JSONSyntaxError as error:
        raise CaseProblem(f"{path.relative_to(root)} is not valid JSON ({error})") from None


def load_cases(
    exercise: Exercise, fixtures: Path = FIXTURES
) -> tuple[list[FixtureCase], list[str]]:
    """The exercise's cases from the seed fixture and every ``extra/<name>`` one, and problems."""
    stage = fixtures / stage_of(exercise).slug
    case_key, output_key = exercise.case_key, exercise.output_key
    if not (stage / "case.json").is_file():
        return [], [f"no fixtures at {stage}: open the notebook from the hookcourse checkout"]
    extras = sorted(p for p in (stage / "extra").glob("*") if (p / "case.json").is_file())
    cases: list[FixtureCase] = []
    problems: list[str] = []
    for folder in [stage, *extras]:
        name = "case.json" if folder == stage else f"extra/{folder.name}"
        try:
            case_file = _read_json(folder / "case.json", stage)
            expected_file = _read_json(folder / "expected.json", stage)
        except CaseProblem as problem:
            problems.append(str(problem))
            continue
        inputs = member(case_file, case_key)
        outputs = member(expected_file, output_key)
        if isinstance(inputs, Undefined) and isinstance(outputs, Undefined):
            continue
        if not isinstance(inputs, list) or not isinstance(outputs, list):
            problems.append(f"{name}: {case_key} and {output_key} must both be lists")
            continue
        if len(inputs) != len(outputs):
            problems.append(f"{name}: {len(inputs)} {case_key} but {len(outputs)} {output_key}")
            continue
        for index, (case, expected) in enumerate(zip(inputs, outputs, strict=True)):
            where = f"{name} {case_key}[{index}]"
            try:
                cases.append(FixtureCase(where, exercise.decode(case), expected))
            except CaseError as error:
                problems.append(f"{where}: {error.problem}")
    return cases, problems


# -- running and reporting ---------------------------------------------------------------------


@dataclass(frozen=True)
class CaseOutcome:
    """One case run through the learner's function."""

    case: FixtureCase
    family: str
    passed: bool
    got: str  # the result as JSON, or what went wrong instead
    detail: str | None = None  # the precise difference, when there is one
    not_implemented: bool = False

    def call(self, name: str) -> str:
        """The call as Python source, e.g. ``match_hook('Edit|Write', 'MultiEdit')``."""
        return f"{name}({', '.join(repr(argument) for argument in self.case.arguments)})"


def run_case(exercise: Exercise, fn: Callable[..., object], case: FixtureCase) -> CaseOutcome:
    """Call ``fn`` on one case (with its own copy of the arguments) and judge the result."""
    spec = _GRADING[exercise.function]
    family = spec.family(case.arguments)
    try:
        returned = fn(*copy.deepcopy(case.arguments))
    except NotImplementedError:
        return CaseOutcome(case, family, False, "raised NotImplementedError", None, True)
    except Exception as error:
        return CaseOutcome(case, family, False, f"raised {type(error).__name__}: {error}")
    try:
        got = spec.result(returned)
    except WrongReturn as wrong:
        return CaseOutcome(case, family, False, str(wrong))
    passed = same_json(case.expected, got)
    detail = None if passed else _difference(case.expected, got)
    return CaseOutcome(case, family, passed, jsjson.stringify(got), detail)


def _clip(text: str, width: int = 72) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


@dataclass(frozen=True, repr=False)
class CheckResult:
    """The outcome of ``check``: a table by case family, and the first failing case in full."""

    name: str
    outcomes: tuple[CaseOutcome, ...]
    problems: tuple[str, ...] = ()

    @property
    def passed(self) -> bool:
        """True when every case passes and the fixtures had no problems."""
        return bool(self.outcomes) and not self.problems and all(o.passed for o in self.outcomes)

    @property
    def not_yet(self) -> bool:
        """True when the function is still the starter (every case raised NotImplementedError)."""
        return bool(self.outcomes) and all(o.not_implemented for o in self.outcomes)

    @property
    def first_failure(self) -> CaseOutcome | None:
        """The first failing case in fixture order, or None."""
        return next((o for o in self.outcomes if not o.passed), None)

    def hint(self) -> str | None:
        """The hint for the first failing case's family."""
        failure = self.first_failure
        return None if failure is None else hints()[self.name].get(failure.family)

    def summary(self) -> str:
        """One line: passed, not yet, or how many cases pass."""
        if self.not_yet:
            return (
                f"{self.name}: not yet. Your function still raises NotImplementedError: "
                "write its body, then run this cell again."
            )
        total = len(self.outcomes)
        if not total:
            return f"{self.name}: cannot run, see the problems below"
        passing = sum(o.passed for o in self.outcomes)
        if self.passed:
            return f"{self.name}: passed, all {total} cases"
        return f"{self.name}: {passing} of {total} cases pass"

    def families(self) -> list[tuple[str, int, int]]:
        """(family, passing, total) in the order families first appear."""
        counts: dict[str, list[int]] = {}
        for outcome in self.outcomes:
            tally = counts.setdefault(outcome.family, [0, 0])
            tally[0] += outcome.passed
            tally[1] += 1
        return [(family, passing, total) for family, (passing, total) in counts.items()]

    def failure_rows(self) -> list[tuple[str, str]]:
        """The first failing case as labelled rows: where, call, expected, got, hint."""
        failure = self.first_failure
        if failure is None or self.not_yet:
            return []
        rows = [
            ("case", failure.case.where),
            ("call", failure.call(self.name)),
            ("expected", jsjson.stringify(failure.case.expected)),
            ("got", failure.got),
        ]
        if failure.detail:
            rows.append(("difference", failure.detail))
        hint = self.hint()
        if hint:
            rows.append(("hint", f"({failure.family}) {hint}"))
        return rows

    def text(self) -> str:
        """The whole report as plain text."""
        lines = [self.summary()]
        lines += [f"  fixture problem: {problem}" for problem in self.problems]
        if self.not_yet:
            return "\n".join(lines)
        for family, passing, total in self.families():
            mark = "ok  " if passing == total else "FAIL"
            lines.append(f"  {mark}  {family:<22} {passing}/{total}")
        rows = self.failure_rows()
        if rows:
            lines.append("First failing case:")
            lines += [f"  {label:<10}  {value}" for label, value in rows]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        colour = "#1a7f37" if self.passed else "#9a6700" if self.not_yet else "#b42318"
        parts = [f"<p><b style='color:{colour}'>{html.escape(self.summary())}</b></p>"]
        parts += [f"<p>fixture problem: {html.escape(p)}</p>" for p in self.problems]
        if self.not_yet:
            return "".join(parts)
        parts.append("<table><tr><th>case family</th><th>pass</th><th></th></tr>")
        for family, passing, total in self.families():
            mark = "&#10003;" if passing == total else "&#10007;"
            parts.append(f"<tr><td>{family}</td><td>{passing}/{total}</td><td>{mark}</td></tr>")
        parts.append("</table>")
        rows = self.failure_rows()
        if rows:
            cells = "".join(
                f"<tr><th style='text-align:left'>{label}</th>"
                f"<td><code>{html.escape(_clip(value, 400))}</code></td></tr>"
                for label, value in rows
            )
            parts.append(f"<p>First failing case:</p><table>{cells}</table>")
        return "".join(parts)


def check(
    exercise: Exercise | str, fn: Callable[..., object], fixtures: Path = FIXTURES
) -> CheckResult:
    """Run ``fn`` over every fixture case of ``exercise`` and report; never raises."""
    chosen = exercise if isinstance(exercise, Exercise) else exercise_named(str(exercise))
    if chosen is None:
        names = [e.function for stage in STAGES for e in stage.exercises]
        problem = f"no exercise named {exercise!r}; choose one of {', '.join(names)}"
        return CheckResult(str(exercise), (), (problem,))
    name = chosen.function
    if not callable(fn):
        problem = f"pass your function itself, e.g. check({name!r}, {name})"
        return CheckResult(name, (), (f"{problem}; got {fn!r}",))
    cases, problems = load_cases(chosen, fixtures)
    outcomes = tuple(run_case(chosen, fn, case) for case in cases)
    return CheckResult(name, outcomes, tuple(problems))


def check_matcher(fn: Callable[..., object], fixtures: Path = FIXTURES) -> CheckResult:
    """Check a learner's ``match_hook(matcher, tool_name)``."""
    return check("match_hook", fn, fixtures)


def check_exit_code(fn: Callable[..., object], fixtures: Path = FIXTURES) -> CheckResult:
    """Check a learner's ``interpret_exit_code(code, stderr)``."""
    return check("interpret_exit_code", fn, fixtures)


def check_apply(fn: Callable[..., object], fixtures: Path = FIXTURES) -> CheckResult:
    """Check a learner's ``apply_pre_tool_use(output, tool_input)``."""
    return check("apply_pre_tool_use", fn, fixtures)


def check_merge(fn: Callable[..., object], fixtures: Path = FIXTURES) -> CheckResult:
    """Check a learner's ``merge_pre_tool_use(results, tool_input)``."""
    return check("merge_pre_tool_use", fn, fixtures)


def check_stop(fn: Callable[..., object], fixtures: Path = FIXTURES) -> CheckResult:
    """Check a learner's ``run_stop_loop(hook, cap)``."""
    return check("run_stop_loop", fn, fixtures)
