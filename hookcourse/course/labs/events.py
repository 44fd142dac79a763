"""The events lab: what each hook event does, which one fits a goal, and whose matcher rules.

Plain functions that return ``Readout``s; the event facts come from the engine's
catalogue (``data/events.json``), example payloads from ``fixtures/payloads/``,
and seed 001's decision gate from ``data/decision_gate.json``.
"""

from __future__ import annotations

import functools
import json
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Final

from hookcourse.course.checks import calling, learner_module
from hookcourse.course.checks.cases import FIXTURES
from hookcourse.course.checks.check_report import (
    FAILING,
    NOT_YET,
    PASSED,
    CheckReport,
    Reported,
    Row,
)
from hookcourse.course.checks.exercises import record_check
from hookcourse.course.checks.generators import choose_seed
from hookcourse.course.checks.tryout import Judge, Tryout, try_judged
from hookcourse.course.labs.logic import Readout
from hookcourse.engine.api import event_facts, get_event, load_catalogue, recipient_text
from hookcourse.js import json as jsjson
from hookcourse.stages.matcher_and_dispatch.reference import RuleSet, explain_match

PAYLOADS: Final = FIXTURES / "payloads"
PAYLOAD_WIDTH: Final = 70  # characters of the example payload per row

# The facts a learner needs to pick an event, in the order the lab shows them.
_SHOWN_FACTS: Final = ("fires", "matcher", "can block", "exit 2", "decision", "output", "checked")


def event_names() -> list[str]:
    """Every hook event, in the catalogue's lifecycle order."""
    return list(load_catalogue())


def example_payload(name: str, payloads: Path = PAYLOADS) -> str | None:
    """The event's example payload as compact JSON, or None when the file is missing."""
    try:
        return jsjson.stringify(jsjson.parse((payloads / f"{name}.json").read_text("utf-8")))
    except (OSError, UnicodeDecodeError, jsjson.JSONSyntaxError):
        return None


def event_readout(name: str, payloads: Path = PAYLOADS) -> Readout:
    """One event: when it fires, its matcher field, the handler types it runs, exit 2,
    which JSON counts, a payload."""
    spec = get_event(name)
    if spec is None:
        problem = ("problem", f"{jsjson.quote(name)} is not a hook event")
        return Readout("unknown event", (problem, ("fix", "pick one from the list")), False)
    facts = dict(event_facts(spec))
    rows = [(label, facts[label]) for label in _SHOWN_FACTS]
    rows.insert(2, ("handlers", f"{', '.join(spec.handler_types)} hooks run on it"))
    rows.insert(5, ("stderr on exit 2", f"goes to {recipient_text(spec.exit2_stderr_to)}"))
    payload = example_payload(name, payloads) or f"no example in {payloads}"
    # A payload is one long line of JSON: cut it into rows a page and a printout can show.
    pieces = [payload[i : i + PAYLOAD_WIDTH] for i in range(0, len(payload), PAYLOAD_WIDTH)]
    rows += [("payload" if i == 0 else "", piece) for i, piece in enumerate(pieces)]
    blocks = "can block" if spec.can_block else "cannot block"
    return Readout(f"{name}: {blocks}", tuple(rows))


@dataclass(frozen=True)
class Goal:
    """One row of seed 001's decision gate."""

    goal: str
    kind: str  # "deterministic" (a script decides) or "evaluative" (a model judges)
    event: str
    matcher: str | None
    handler: str
    why: str
    trap: str
    also_events: tuple[str, ...] = ()

    @property
    def handlers(self) -> tuple[str, ...]:
        """The handler types that fit: a script decides, or a model judges."""
        return ("command", "http") if self.kind == "deterministic" else ("prompt", "agent")


@functools.cache
def _gate_file(key: str) -> tuple[Goal, ...]:
    text = resources.files("hookcourse").joinpath("data/decision_gate.json").read_text("utf-8")
    goals = json.loads(text)[key]
    return tuple(
        Goal(**{**goal, "also_events": tuple(goal.get("also_events", ()))}) for goal in goals
    )


def decision_gate() -> tuple[Goal, ...]:
    """The decision gate's worked goals, the gate lab's list (``data/decision_gate.json``)."""
    return _gate_file("goals")


def exercise_goals() -> tuple[Goal, ...]:
    """The goals notebook 04's exercise asks: new ones, which the gate lab does not answer."""
    return _gate_file("exercise")


def gate_readout(goal_text: str) -> Readout:
    """A goal through the gate: deterministic or evaluative, then event, handler, why, trap."""
    goal = next((g for g in decision_gate() if g.goal == goal_text), None)
    if goal is None:
        return Readout("unknown goal", (("fix", "pick a goal from the list"),), False)
    spec = get_event(goal.event)
    matcher = "(no matcher: it fires every time)" if goal.matcher is None else goal.matcher
    rows = (
        (
            "decides",
            f"{goal.kind}: "
            + (
                "a script can decide"
                if goal.kind == "deterministic"
                else "it needs a model's judgement"
            ),
        ),
        ("event", goal.event),
        ("matcher", matcher),
        ("handler", f'type "{goal.handler}"'),
        ("why", goal.why),
        ("trap", goal.trap),
        ("can block", "yes" if spec is not None and spec.can_block else "no"),
    )
    return Readout(f"{goal.event} + {goal.handler} hook", rows)


def rules_readout(matcher: str, value: str, event: str = "PreToolUse") -> Readout:
    """The same matcher under the course's rules and Claude Code's, side by side."""
    spec = get_event(event)
    narrow = spec is not None and spec.narrow_exact
    course = explain_match(matcher, value, RuleSet.COURSE)
    real = explain_match(matcher, value, RuleSet.CLAUDE_CODE, narrow=narrow)
    rows = (
        ("course", f"{'fires' if course.matched else 'does not fire'}: {course.why}"),
        ("Claude Code", f"{'fires' if real.matched else 'does not fire'}: {real.why}"),
        (
            "so",
            "the two rule sets agree here"
            if course.matched == real.matched
            else "they disagree: the graded stages use the course rule, Claude Code its own",
        ),
    )
    headline = f"matcher {jsjson.quote(matcher)} on {event} with {jsjson.quote(value)}"
    return Readout(headline, rows)


def gate_answer(goal: str) -> tuple[str, str] | None:
    """The gate's own answer for a goal, ``(event, handler type)``; None for an unknown goal."""
    found = next((g for g in (*decision_gate(), *exercise_goals()) if g.goal == goal), None)
    return None if found is None else (found.event, found.handler)


@dataclass(frozen=True, repr=False)
class GateCheck(Reported):
    """``check_gate``'s report: one row per goal, right or wrong, with the gate's reason."""

    rows: tuple[tuple[str, str, bool], ...]  # (goal, what the learner said and why, right)
    not_yet: bool = False
    kinds: tuple[str, ...] = ()  # each goal's kind (deterministic, evaluative): its family

    def report(self) -> CheckReport:
        """The result as the one check report's data."""
        right = sum(ok for _, _, ok in self.rows)
        passed = bool(self.rows) and not self.not_yet and right == len(self.rows)
        if self.not_yet:
            summary = (
                "pick_hook: not yet. Your function still raises NotImplementedError: "
                "write its body, then run this cell again."
            )
        elif passed:
            summary = f"pick_hook: passed, all {len(self.rows)} goals"
        else:
            summary = f"pick_hook: {right} of {len(self.rows)} goals right"
        # A test may build a GateCheck without kinds: then the failing families are unknown.
        pairs = zip(self.rows, self.kinds, strict=False)
        wrong_kinds = (kind for (_, _, ok), kind in pairs if not ok)
        return CheckReport(
            exercise="pick_hook",
            check="check_gate",
            state=PASSED if passed else NOT_YET if self.not_yet else FAILING,
            summary=summary,
            rows=() if self.not_yet else tuple(Row(g, said, ok) for g, said, ok in self.rows),
            passed_cases=right,
            total_cases=len(self.rows),
            failing=tuple(dict.fromkeys(wrong_kinds)),
        )


def _can(event: str) -> str:
    """What a hook on ``event`` can and cannot do, from the catalogue."""
    spec = get_event(event)
    if spec is None:
        return ""
    facts = dict(event_facts(spec))
    fires = re.sub(r" \(added in [^)]*\)", "", facts["fires"])
    blocks = "can block" if spec.can_block else "cannot block"
    return f"{event} fires: {_mid_sentence(fires)}; it {blocks}; exit 2: {facts['exit 2']}"


def _mid_sentence(text: str) -> str:
    """``text`` after a colon: its first letter in lower case, unless it opens a name
    (Claude, Claude Code, TaskCreate, MCP)."""
    first = text.split(" ", 1)[0]
    if first == "Claude" or any(char.isupper() for char in first[1:]):
        return text
    return text[:1].lower() + text[1:]


def _judge(goal: Goal, answer: object) -> tuple[str, bool]:
    """Whether ``answer`` fits ``goal``, in words true of the learner's own choice."""
    if not (isinstance(answer, tuple | list) and len(answer) == 2):
        return f'returned {answer!r}; return a pair such as ("PreToolUse", "command")', False
    event, handler = answer
    spec = get_event(str(event)) if isinstance(event, str) else None
    if spec is None:
        return f"{event!r} is no hook event: spell it as the catalogue does", False
    if event not in (goal.event, *goal.also_events):
        return f"{event} does not fit this goal. {_can(event)}. Which moment does it need?", False
    if handler not in spec.handler_types:
        return (
            f"{event} never runs {handler!r} hooks; it runs {', '.join(spec.handler_types)}",
            False,
        )
    if handler not in goal.handlers:
        decides = "a script can decide" if goal.kind == "deterministic" else "a model must judge"
        return f"{handler} does not fit: {decides} here", False
    trap = f" Mind the trap: {goal.trap}" if event == goal.event else ""
    return f"{event} + {handler}. {_can(event)}.{trap}", True


def try_goals(fn: Callable[[str], object], goals: Sequence[str]) -> Tryout:
    """The faded step before the gate exercise: ask ``fn`` each of the gate lab's ``goals``
    and judge its pair as the check does, in words about the learner's own choice, so the
    gate's answers are never printed. An unknown goal is a row that says so."""
    known = {goal.goal: goal for goal in decision_gate()}

    def judge_for(goal_text: str) -> Judge:
        goal = known.get(goal_text)
        if goal is None:
            return lambda _: (": no goal of the gate lab has these words", False)

        def judge(answer: object) -> tuple[str, bool]:
            said, ok = _judge(goal, answer)
            return (": right" if ok else f": {said}"), ok

        return judge

    return try_judged(fn, [((goal,), judge_for(goal)) for goal in goals])


def check_gate(fn: Callable[[str], object], *, seed: int | None = None) -> GateCheck:
    """Ask ``fn(goal)`` for every goal of the exercise; judge event and handler type.

    The goals are the exercise's whole list (none of them the lab's), so none are drawn;
    they are asked in an order
    drawn from ``seed`` (so an answer cannot depend on the question's place) and
    reported in the gate's order.
    """
    learner_module.keep("pick_hook", fn)  # my_hooks.py: newest version wins
    result = _ask_the_gate(fn, random.Random(f"pick_hook:{choose_seed(seed)}"))
    record_check("pick_hook", result.report())
    return result


def _ask_the_gate(fn: Callable[[str], object], order: random.Random) -> GateCheck:
    goals = list(exercise_goals())
    asked = order.sample(goals, len(goals))
    answers: dict[str, tuple[str, bool]] = {}
    for goal in asked:
        outcome = calling.call(fn, goal.goal)  # the learner's code: never a traceback or a hang
        if isinstance(outcome, calling.Raised):
            if isinstance(outcome.error, NotImplementedError):
                return GateCheck((), not_yet=True)
            answers[goal.goal] = (outcome.text(), False)
            continue
        if isinstance(outcome, calling.Hung):
            late = f"did not return within {outcome.seconds:g} s. {outcome.after()}"
            answers[goal.goal] = (late, False)
            break  # every goal would hang the same way
        answers[goal.goal] = _judge(goal, outcome.value)
    shown = [goal for goal in goals if goal.goal in answers]
    rows = [(goal.goal, *answers[goal.goal]) for goal in shown]
    kinds = [goal.kind for goal in shown]
    return GateCheck(tuple(rows), kinds=tuple(kinds))
