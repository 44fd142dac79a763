"""What each lab computes and shows, as plain functions (no widgets, no I/O).

Every function here is total: whatever a learner types into a lab comes back as
a ``Readout``, either a result or one readable problem with its fix.
"""

from __future__ import annotations

import html
import re
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from hookcourse.js import json as jsjson
from hookcourse.js.regex import engine_dependent
from hookcourse.js.values import UNDEFINED, JSValue, Undefined, is_js_number
from hookcourse.stages.decoding import describe_value
from hookcourse.stages.effects import HookEffect, apply_pre_tool_use
from hookcourse.stages.matcher import MatchBranch, RuleSet, explain_match
from hookcourse.stages.verdicts import ExitVerdict, interpret_exit_code


@dataclass(frozen=True)
class Readout:
    """What a lab displays: a headline and labelled rows; ``ok`` is False for an input problem."""

    headline: str
    rows: tuple[tuple[str, str], ...] = ()
    ok: bool = True

    def text(self) -> str:
        """Plain text, one row a line, for printing beside a widget."""
        width = max((len(label) for label, _ in self.rows), default=0)
        lines = [self.headline] + [f"  {label.ljust(width)}  {value}" for label, value in self.rows]
        return "\n".join(lines)

    def html(self) -> str:
        """The same content as an HTML fragment for an ``HTML`` widget."""
        # Red marks a box the lab cannot read; a result keeps the page's colour, since green
        # on "blocked" or "does not fire" would read as "good".
        colour = "inherit" if self.ok else "#b42318"
        cells = "".join(
            # nowrap: a two-word label such as "Python re" must stay on one line.
            f"<tr><th style='text-align:left;padding-right:1em;vertical-align:top;"
            f"white-space:nowrap'>"
            f"{html.escape(label)}</th><td><code>{html.escape(value)}</code></td></tr>"
            for label, value in self.rows
        )
        # The HTML widget's line height (one control's height) would double-space wrapped rows.
        return (
            f"<div style='line-height:1.5'><b style='color:{colour}'>"
            f"{html.escape(self.headline)}</b>"
            f"<table>{cells}</table></div>"
        )


class BoxError(ValueError):
    """A lab's text box does not hold what the lab needs; carries the readout to show."""

    def __init__(self, readout: Readout) -> None:
        super().__init__(readout.headline)
        self.readout = readout


def read_json_box(text: str, box: str, example: str) -> JSValue:
    """``JSON.parse`` of a text box's content, or a BoxError naming the box and the fix."""
    if not text.strip():
        problem = "it is empty"
    else:
        try:
            return jsjson.parse(text)
        except jsjson.JSONSyntaxError as error:
            problem = f"not valid JSON: {error}"
    fix = f"type JSON such as {example} (strings need double quotes)"
    raise BoxError(unreadable_box(box, problem, fix))


def unreadable_box(box: str, problem: str, fix: str) -> Readout:
    """The readout for a text box the lab cannot use: what is wrong with it and the fix."""
    return Readout(f"The {box} box cannot be read", (("problem", problem), ("fix", fix)), False)


def shown(value: JSValue | Undefined) -> str:
    """A value as JavaScript source would write it: JSON, or ``undefined``."""
    return "undefined" if value is UNDEFINED else jsjson.stringify(value)


# -- pitfalls: where the obvious Python reading differs from JavaScript's --------------------


def python_re_search(pattern: str, subject: str) -> bool | str:
    """What Python's ``re.search`` says: True/False, or the text of its error."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return re.search(pattern, subject) is not None
    except (re.error, RecursionError, OverflowError, ValueError) as error:
        return f"error: {error}"


# Python's \w is Unicode; JavaScript's (without the u flag) is ASCII.
_PYTHON_NAME_LIST: Final = re.compile(r"[\w|]+")


def python_thinks_name_list(matcher: str) -> bool:
    """True when ``re.fullmatch(r"[\\w|]+", matcher)`` would call it a name list."""
    return _PYTHON_NAME_LIST.fullmatch(matcher) is not None


# -- matcher lab -----------------------------------------------------------------------------


def matcher_readout(
    matcher: str | None,
    tool_name: str,
    rules: RuleSet = RuleSet.COURSE,
    *,
    narrow: bool = False,
) -> Readout:
    """The matcher lab: the branch taken, the result and why, plus the pitfalls in play."""
    result = explain_match(matcher, tool_name, rules, narrow=narrow)
    fires = "fires" if result.matched else "does not fire"
    rows = [
        ("result", f"{'true' if result.matched else 'false'}: the hook {fires}"),
        ("branch", result.branch.value),
        ("why", result.why),
    ]
    if result.branch is MatchBranch.REGEX and matcher is not None:
        python = python_re_search(matcher, tool_name)
        if python != result.matched:
            said = python if isinstance(python, str) else str(python)
            rows.append(("Python re", f"re.search would say {said}: JavaScript's RegExp is not re"))
        if python_thinks_name_list(matcher):
            note = "Python's \\w is Unicode, so re would call this a name list; JavaScript's is not"
            rows.append(("\\w", note))
        if engine_dependent(matcher):
            note = "Node 20 and Bun disagree on whether this compiles, so the runtime decides"
            rows.append(("engine", note))
    written = "(left out)" if matcher is None else jsjson.quote(matcher)
    headline = f"matcher {written} with tool {jsjson.quote(tool_name)}: {fires}"
    return Readout(headline, tuple(rows))


# -- exit-code lab ---------------------------------------------------------------------------

EXIT_MEANINGS: Final = {
    "success": "exit 0 means the hook ran cleanly, not 'allow': the agent now reads its stdout, "
    "which may still block",
    "block": "exit 2 blocks on its own: the tool does not run and trimmed stderr is the reason",
    "warn": "any other code is a non-blocking warning: the tool still runs (exit 1 never blocks)",
    "not a number": "only the number 0 or 2 counts (=== compares the type too), so this is "
    "'any other code'",
}


def verdict_kind(verdict: ExitVerdict) -> str:
    """``success``, ``block`` or ``warn``."""
    if verdict.block:
        return "block"
    return "warn" if verdict.warn else "success"


def exit_code_readout(code_text: str, stderr: str) -> Readout:
    """The exit-code lab: ``code_text`` is read as JSON, so ``2``, ``"2"`` and ``true`` differ."""
    try:
        code = read_json_box(code_text, "exit code", '2 or "2" or true')
    except BoxError as error:
        return error.readout
    verdict = interpret_exit_code(code, stderr)
    kind = verdict_kind(verdict)
    rows = [
        ("code", describe_value(code)),
        ("verdict", jsjson.stringify(verdict.to_json())),
        ("meaning", EXIT_MEANINGS[kind]),
    ]
    if not is_js_number(code):
        rows.append(("note", EXIT_MEANINGS["not a number"]))
    return Readout(f"verdict: {kind}", tuple(rows))


# -- decide lab and the agent loop -----------------------------------------------------------


def effect_summary(effect: HookEffect, tool_input: JSValue | Undefined) -> str:
    """One sentence: does the tool run, with which input, and what the model is told."""
    if not effect.allowed:
        return f"blocked: the tool does not run; the model is told {shown(effect.reason)}"
    which = "its original input" if effect.input is tool_input else "the rewritten input"
    sentence = f"allowed: the tool runs with {which} {shown(effect.input)}"
    if effect.injected_context is not None:
        sentence += f"; the model also sees {jsjson.stringify(effect.injected_context)}"
    return sentence


def decide_readout(output_text: str, input_text: str) -> Readout:
    """The decide lab: a hook's JSON output applied to a tool input (empty input = left out)."""
    try:
        output = read_json_box(output_text, "hook output", '{"decision": "block", "reason": "no"}')
        tool_input = (
            read_json_box(input_text, "tool input", '{"command": "ls"}')
            if input_text.strip()
            else UNDEFINED
        )
    except BoxError as error:
        return error.readout
    if not isinstance(output, dict):
        problem = f"it holds {describe_value(output)}; a hook prints a JSON object"
        fix = 'wrap it in braces, e.g. {"decision": "block"} or {}'
        return unreadable_box("hook output", problem, fix)
    effect = apply_pre_tool_use(output, tool_input)
    rows = (
        ("effect", jsjson.stringify(effect.to_json())),
        ("the loop", effect_summary(effect, tool_input)),
    )
    return Readout("allowed" if effect.allowed else "blocked", rows)


@dataclass(frozen=True)
class LoopStep:
    """One pending tool call: its input, the hook's effect, and what the tool returned."""

    tool_input: JSValue | Undefined
    effect: HookEffect
    tool_result: str | None  # None: the tool never ran

    def text(self) -> str:
        """One line for the notebook's transcript."""
        ran = "tool did not run" if self.tool_result is None else f"tool said {self.tool_result}"
        return f"{effect_summary(self.effect, self.tool_input)}\n    -> {ran}"


def run_pre_tool_use_loop(
    calls: Iterable[tuple[Mapping[str, JSValue], JSValue | Undefined]],
    tool: Callable[[JSValue | Undefined], str],
) -> list[LoopStep]:
    """The agent loop's PreToolUse gate: each (hook output, tool input) decides the call."""
    steps = []
    for hook_output, tool_input in calls:
        effect = apply_pre_tool_use(hook_output, tool_input)
        # The gate: a blocked call never reaches the tool; an allowed one runs with effect.input.
        result = tool(effect.input) if effect.allowed else None
        steps.append(LoopStep(tool_input, effect, result))
    return steps
