"""What each lab computes and shows, as plain functions (no widgets, no I/O).

Every function here is total: whatever a learner types into a lab comes back as
a ``Readout``, either a result or one readable problem with its fix.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from hookcourse.course.checks.check_report import (
    FAILING,
    NEUTRAL,
    CheckReport,
    render_html,
    render_text,
)
from hookcourse.course.checks.pitfalls import python_re_search, python_thinks_name_list
from hookcourse.engine.api import HookReading, HookRun, event_spec, read_hook_result, recipient_text
from hookcourse.js import json as jsjson
from hookcourse.js.regex import RegexEngine, engine_dependent, regex_test
from hookcourse.js.values import UNDEFINED, JSValue, Undefined, is_js_number, is_nullish, js_trim
from hookcourse.stages.decide_and_modify.reference import HookEffect, apply_pre_tool_use
from hookcourse.stages.decoding import describe_value
from hookcourse.stages.matcher_and_dispatch.reference import (
    MatchBranch,
    MatchResult,
    RuleSet,
    explain_match,
)
from hookcourse.stages.matcher_and_dispatch.verdicts import ExitVerdict, interpret_exit_code


@dataclass(frozen=True)
class Readout:
    """What a lab displays: a headline and labelled rows; ``ok`` is False for an input problem."""

    headline: str
    rows: tuple[tuple[str, str], ...] = ()
    ok: bool = True

    def report(self) -> CheckReport:
        """The readout as a report: red marks a box the lab cannot read; a result keeps
        the page's colour (``NEUTRAL``)."""
        return CheckReport(
            exercise="",
            check="",
            state=NEUTRAL if self.ok else FAILING,
            summary=self.headline,
            details=self.rows,
        )

    def text(self) -> str:
        """Plain text, one row a line, for printing beside a widget."""
        return render_text(self.report())

    def html(self) -> str:
        """The same content as an HTML fragment for an ``HTML`` widget (values never cut)."""
        return render_html(self.report(), clip=None)


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


# python_re_search and python_thinks_name_list live in course/checks/pitfalls.py (the hints
# use them too); notebook 01 imports python_re_search through course/notebook.py.


# -- answer lab (notebook 00): one hook's three channels, read as Claude Code reads them ------

_OUTCOMES: Final = {
    "deny": "blocked: the tool does not run",
    "allow": "allowed without asking the user",
    "ask": "the user is asked to confirm",
}


def read_exit_status(text: str) -> int:
    """A process exit status typed in a box: a whole number 0 to 255, or a BoxError."""
    typed = text.strip()
    if typed.isascii() and typed.isdigit() and int(typed) <= 255:
        return int(typed)
    problem = "it is empty" if not typed else f"{jsjson.quote(typed)} is not an exit status"
    fix = "type a whole number from 0 to 255, such as 0, 1 or 2"
    raise BoxError(unreadable_box("exit code", problem, fix))


def answer_readout(code_text: str, stderr: str, stdout: str) -> Readout:
    """The answer lab: a PreToolUse hook's exit code, stderr and stdout, read by Claude Code."""
    try:
        code = read_exit_status(code_text)
    except BoxError as error:
        return error.readout
    run = HookRun("command", code, stdout, stderr, timed_out=False, start_error=None)
    reading = read_hook_result(event_spec("PreToolUse"), run)
    if reading.decision is not None:
        outcome = _OUTCOMES.get(reading.decision, f"decision {jsjson.quote(reading.decision)}")
    elif reading.notices:
        outcome = "the tool goes ahead; the user sees a hook error"
    else:
        outcome = "the tool goes ahead under the usual permission rules"
    rows = [("why", reading.how)]
    if reading.reason is not None and reading.reason_to is not None:
        to = recipient_text(reading.reason_to)
        rows.append(("reason", f"{jsjson.quote(reading.reason)}, shown to {to}"))
    rows.extend(("user sees", notice) for notice in reading.notices)
    rows.extend(("note", note) for note in reading.notes)
    if code != 2 and stderr.strip() and not reading.notices:
        rows.append(("stderr", "ignored: only exit 2 (or a failure) passes stderr on"))
    return Readout(f"Claude Code: {outcome}", tuple(rows))


# -- matcher lab -----------------------------------------------------------------------------


def python_reading(matcher: str, tool_name: str, result: MatchResult) -> tuple[str, str]:
    """The ``Python re`` row: what ``re.search`` says, and whether it agrees with JavaScript."""
    python = python_re_search(matcher, tool_name)
    if isinstance(python, str):
        return ("Python re", f"re.search raises ({python}); JavaScript's answer is above")
    said = "true" if python else "false"
    if python == result.matched:
        return ("Python re", f"re.search agrees here ({said}); on other input it may not")
    if result.branch is MatchBranch.EXACT:
        return ("Python re", f"re.search would say {said}: it reads a regex, not a name list")
    return ("Python re", f"re.search would say {said}: JavaScript's RegExp is not re")


def regex_pitfalls(matcher: str, tool_name: str, rules: RuleSet) -> list[tuple[str, str]]:
    """Rows for a matcher on the regex branch: spaces, unanchored matches, engine splits."""
    rows = []
    spaced = matcher.replace(" ", "")
    if " " in matcher and spaced and python_thinks_name_list(spaced) and spaced.isascii():
        note = (
            f"the spaces make this a regex, and they must match too; "
            f"write {spaced} for a list of names"
        )
        rows.append(("spaces", note))
    engine = RegexEngine.NODE if rules is RuleSet.COURSE else RegexEngine.BUN
    whole = f"^(?:{matcher})$"
    if regex_test(matcher, tool_name, engine) and not regex_test(whole, tool_name, engine):
        anchored = whole if "|" in matcher else f"^{matcher}$"
        note = (
            f"it matched only part of {jsjson.quote(tool_name)}; a regex is unanchored, "
            f"so write {anchored} if you mean whole names"
        )
        rows.append(("unanchored", note))
    if python_thinks_name_list(matcher):
        note = "Python's \\w is Unicode, so re would call this a name list; JavaScript's is not"
        rows.append(("\\w", note))
    if engine_dependent(matcher):
        note = "Node 20 and Bun disagree on whether this compiles, so the runtime decides"
        rows.append(("engine", note))
    return rows


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
    if matcher is not None and result.branch is not MatchBranch.ALL:
        rows.append(python_reading(matcher, tool_name, result))
    if matcher is not None and result.branch is MatchBranch.REGEX:
        rows.extend(regex_pitfalls(matcher, tool_name, rules))
    if narrow and rules is RuleSet.COURSE:
        note = "FileChanged/StopFailure only changes the claude-code rules; course rules ignore it"
        rows.append(("tick box", note))
    written = "(left out)" if matcher is None else jsjson.quote(matcher)
    headline = f"matcher {written} with tool {jsjson.quote(tool_name)}: {fires}"
    return Readout(headline, tuple(rows))


# -- exit-code lab ---------------------------------------------------------------------------

EXIT_MEANINGS: Final = {
    "success": "exit 0 means the hook ran cleanly, not 'allow': the agent now reads its stdout, "
    "which may still block",
    "block": "exit 2 blocks on its own: the tool does not run and trimmed stderr is the reason",
    "warn": "any other code is a non-blocking warning: the tool still runs "
    "(exit 1 alone never blocks)",
    "not a number": "only the number 0 or 2 counts (=== compares the type too), so this is "
    "'any other code'",
}


def verdict_kind(verdict: ExitVerdict) -> str:
    """``success``, ``block`` or ``warn``."""
    if verdict.block:
        return "block"
    return "warn" if verdict.warn else "success"


def exit_why(code: JSValue, stderr: str, verdict: ExitVerdict) -> str:
    """Which comparison decided the verdict, and where its reason came from."""
    if not is_js_number(code):
        return f"{describe_value(code)} is not a number, so code === 0 and code === 2 are false"
    if not verdict.block and not verdict.warn:
        return "code === 0, so success; stderr is not read"
    first = "code === 2, so block" if verdict.block else "code is neither 0 nor 2, so warn"
    if js_trim(stderr):
        return f"{first}; the reason is stderr.trim()"
    if verdict.block:
        return f'{first}; stderr is blank after trim(), so the reason is the default "hook blocked"'
    return f"{first}; stderr is blank after trim(), so the reason is null"


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
        ("why", exit_why(code, stderr, verdict)),
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


def _falsy_in_python(value: JSValue | Undefined) -> bool:
    return value is not UNDEFINED and value is not None and not value


def decide_why(output: Mapping[str, JSValue]) -> str:
    """Which of the stage's comparisons decided, with the trap each one hides."""
    decision = output.get("decision", UNDEFINED)
    if decision == "block":
        reason = output.get("reason", UNDEFINED)
        if is_nullish(reason):
            return 'decision === "block"; reason is null or left out, so ?? gives "blocked by hook"'
        return 'decision === "block", so the call is blocked with the hook\'s reason'
    parts = []
    if isinstance(decision, str) and js_trim(decision).lower() == "block":
        parts.append(f'decision is {jsjson.quote(decision)}, not "block": === is exact, so allowed')
    elif decision is not UNDEFINED:
        parts.append(f'decision is {shown(decision)}, not "block", so the call is allowed')
    for key, fallback in (("updatedInput", "the original input"), ("additionalContext", "null")):
        value = output.get(key, UNDEFINED)
        if value is None:
            parts.append(f"{key} is null, so ?? falls back to {fallback}")
        elif _falsy_in_python(value):
            parts.append(
                f"{key} {shown(value)} is not null or undefined, so ?? keeps it "
                f"(Python's `or` would drop it for {fallback})"
            )
    if not parts and "hookSpecificOutput" in output:
        return "no top-level decision: the stage does not read hookSpecificOutput, so allowed"
    if not parts:
        return 'no decision "block", so the call is allowed, with updatedInput if any'
    return "; ".join(parts)


_PERMISSION: Final = {
    "deny": "denies the call",
    "block": "denies the call",
    "allow": "allows the call without asking the user",
    "approve": "allows the call without asking the user",
    "ask": "asks the user to confirm the call",
}


def claude_code_reading(output_text: str) -> str:
    """What Claude Code itself does with this stdout on PreToolUse (the engine's reading)."""
    run = HookRun("command", 0, output_text, "", timed_out=False, start_error=None)
    reading: HookReading = read_hook_result(event_spec("PreToolUse"), run)
    if reading.notices:
        return "; ".join(reading.notices)
    said = "no decision: the usual permission rules decide"
    if reading.decision is not None:
        said = _PERMISSION.get(reading.decision, f"decides {jsjson.quote(reading.decision)}")
    if reading.reason is not None:
        said += f", telling Claude {jsjson.quote(reading.reason)}"
    if reading.updated_input is not UNDEFINED:
        said += f", with input {shown(reading.updated_input)}"
    return "; ".join([said, *reading.notes])


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
    rows = [
        ("effect", jsjson.stringify(effect.to_json())),
        ("the loop", effect_summary(effect, tool_input)),
        ("why", decide_why(output)),
        ("Claude Code", claude_code_reading(output_text)),
    ]
    if "hookSpecificOutput" in output:
        note = (
            "the course stage reads only top-level decision, updatedInput and "
            "additionalContext; Claude Code's own format nests them in hookSpecificOutput"
        )
        rows.append(("format", note))
    return Readout("allowed" if effect.allowed else "blocked", tuple(rows))


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
