"""One tool call, every hook around it (course stage ``run-hooks``; the page is stage.md).

The PreToolUse handlers whose group's matcher selects the tool run, each command once,
in the settings' order; their results merge as stage merge-decisions merges them; the
tool runs on no decision or ``allow``; then the PostToolUse handlers run, and their
exit 2 or ``decision: "block"`` becomes feedback for Claude and their
``additionalContext`` context. A result is looked up only for a handler that runs.
"""

from __future__ import annotations

from hookcourse.js.values import UNDEFINED, Undefined, js_trim, nullish_or, strict_equals_number
from hookcourse.record import Record
from hookcourse.stages.answers import HookResult, hook_result, json_output
from hookcourse.stages.decoding import CaseError, Decoded, describe_value, member
from hookcourse.stages.descriptor import Exercise, Stage
from hookcourse.stages.matcher_and_dispatch.reference import match_hook
from hookcourse.stages.matcher_and_dispatch.verdicts import block_reason
from hookcourse.stages.merge_decisions.reference import merge_pre_tool_use

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Final

    from hookcourse.js.values import JSValue

PRE: Final = "PreToolUse"
POST: Final = "PostToolUse"
EVENTS: Final = (PRE, POST)
RUNS_ON: Final = (None, "allow")
"""The merged PreToolUse decisions on which the tool runs (a course rule: nobody to ask)."""


class Group(Record):
    """One matcher group of the settings: its matcher (None = left out) and its commands."""

    _fields = ("matcher", "commands")
    __slots__ = _fields
    matcher: str | None
    commands: tuple[str, ...]

    def __init__(self, matcher: str | None, commands: Sequence[str]) -> None:
        self._fill(matcher, tuple(commands))


class ToolCall(Record):
    """The tool call: its name, its input, and what it returns if it runs."""

    _fields = ("name", "input", "response")
    __slots__ = _fields
    name: str
    input: JSValue
    response: JSValue | Undefined

    def __init__(self, name: str, input: JSValue, response: JSValue | Undefined) -> None:
        self._fill(name, input, response)


class Run(Record):
    """What happens around one tool call: ``{pre, tool, post}`` as the page prints it."""

    _fields = ("pre_ran", "decision", "reason", "pre_contexts", "runs", "input", "response", "post")
    __slots__ = _fields
    pre_ran: tuple[str, ...]
    decision: str | None
    reason: str | None
    pre_contexts: tuple[str, ...]
    runs: bool
    input: JSValue
    response: JSValue
    post: PostStep | None

    def __init__(
        self,
        pre_ran: Sequence[str],
        decision: str | None,
        reason: str | None,
        pre_contexts: Sequence[str],
        runs: bool,
        input: JSValue,
        response: JSValue,
        post: PostStep | None,
    ) -> None:
        self._fill(
            tuple(pre_ran), decision, reason, tuple(pre_contexts), runs, input, response, post
        )

    def to_json(self) -> dict[str, JSValue]:
        """The page's ``{pre: {ran, decision, reason, contexts}, tool: {runs, input,
        response}, post}``, keys in that order."""
        return {
            "pre": {
                "ran": list(self.pre_ran),
                "decision": self.decision,
                "reason": self.reason,
                "contexts": list(self.pre_contexts),
            },
            "tool": {"runs": self.runs, "input": self.input, "response": self.response},
            "post": None if self.post is None else self.post.to_json(),
        }


class PostStep(Record):
    """The PostToolUse step of a tool that ran: who ran, feedback and context for Claude."""

    _fields = ("ran", "feedback", "contexts")
    __slots__ = _fields
    ran: tuple[str, ...]
    feedback: tuple[str, ...]
    contexts: tuple[str, ...]

    def __init__(
        self, ran: Sequence[str], feedback: Sequence[str], contexts: Sequence[str]
    ) -> None:
        self._fill(tuple(ran), tuple(feedback), tuple(contexts))

    def to_json(self) -> dict[str, JSValue]:
        """``{ran, feedback, contexts}``."""
        return {
            "ran": list(self.ran),
            "feedback": list(self.feedback),
            "contexts": list(self.contexts),
        }


Results = dict[str, dict[str, HookResult]]
"""Each handler's result, by event, then by command (an event may be left out)."""


def handlers_that_run(groups: Sequence[Group], tool_name: str) -> list[str]:
    """The commands of the groups whose matcher selects ``tool_name``, each once, in order."""
    ran: list[str] = []
    for group in groups:
        if match_hook(group.matcher, tool_name):
            ran.extend(command for command in group.commands if command not in ran)
    return ran


def look_up(
    results: Mapping[str, Mapping[str, HookResult]], event: str, ran: Sequence[str]
) -> list[HookResult]:
    """The result of each command that runs; CaseError for one without a result."""
    if not ran:
        return []
    by_command = results.get(event, {})
    found: list[HookResult] = []
    for command in ran:
        if command not in by_command:
            raise CaseError(
                ("results", event),
                f"the handler {command!r} runs, but results.{event} has no result for it",
                f'add "{command}": {{"code": 0}} to results.{event}',
            )
        found.append(by_command[command])
    return found


def read_post(result: HookResult) -> tuple[str | None, str | None]:
    """``(feedback, context)`` from one PostToolUse result (None where it gives none)."""
    if strict_equals_number(result.code, 2):
        return block_reason(result.stderr), None  # stdout is not read
    output = json_output(result.stdout)
    if output is None:
        return None, None
    reason = output.get("reason", UNDEFINED)
    feedback = None
    if output.get("decision", UNDEFINED) == "block" and isinstance(reason, str) and js_trim(reason):
        feedback = reason  # as written; a block without a usable reason says nothing
    specific = output.get("hookSpecificOutput", UNDEFINED)
    context = None
    if isinstance(specific, dict) and specific.get("hookEventName", UNDEFINED) == POST:
        found = specific.get("additionalContext", UNDEFINED)
        context = found if isinstance(found, str) else None
    return feedback, context


def run_hooks(hooks: Mapping[str, Sequence[Group]], tool: ToolCall, results: Results) -> Run:
    """The page's ``runHooks``: PreToolUse, the tool, then PostToolUse if it ran."""
    pre_ran = handlers_that_run(hooks.get(PRE, ()), tool.name)
    merged = merge_pre_tool_use(look_up(results, PRE, pre_ran), tool.input)
    if merged.decision not in RUNS_ON:  # deny, ask, defer: nothing of the call happens
        return Run(
            pre_ran, merged.decision, merged.reason, merged.contexts, False, None, None, None
        )
    response = nullish_or(tool.response, None)
    post_ran = handlers_that_run(hooks.get(POST, ()), tool.name)
    feedback: list[str] = []
    contexts: list[str] = []
    for result in look_up(results, POST, post_ran):
        said, context = read_post(result)
        if said is not None:
            feedback.append(said)
        if context is not None:
            contexts.append(context)
    post = PostStep(post_ran, feedback, contexts)
    return Run(
        pre_ran, merged.decision, merged.reason, merged.contexts, True, merged.input, response, post
    )


# -- reading a case ----------------------------------------------------------------------------


def _object(
    value: JSValue | Undefined, steps: tuple[str | int, ...], example: str
) -> dict[str, JSValue]:
    if not isinstance(value, dict):
        where = ".".join(str(step) for step in steps)
        raise CaseError(
            steps,
            f"{where} must be an object, got {describe_value(value)}",
            f"write it as {example}",
        )
    return value


def _groups(hooks: dict[str, JSValue], event: str) -> list[Group]:
    listed = hooks.get(event, UNDEFINED)
    if listed is None or isinstance(listed, Undefined):
        return []
    if not isinstance(listed, list):
        raise CaseError(
            ("hooks", event),
            f"hooks.{event} must be a list of groups, got {describe_value(listed)}",
            'write it as [{"matcher": "Bash", "hooks": [{"command": "./check.sh"}]}]',
        )
    groups: list[Group] = []
    for index, value in enumerate(listed):
        steps: tuple[str | int, ...] = ("hooks", event, index)
        group = _object(value, steps, '{"matcher": "Bash", "hooks": [...]}')
        matcher = group.get("matcher", UNDEFINED)
        if not isinstance(matcher, str | Undefined):
            raise CaseError(
                (*steps, "matcher"),
                f"a group's matcher must be a string or left out, got {describe_value(matcher)}",
                'write the matcher as a string such as "Bash", or leave the key out',
            )
        handlers = group.get("hooks", UNDEFINED)
        if not isinstance(handlers, list):
            raise CaseError(
                (*steps, "hooks"),
                f"a group's hooks must be a list of handlers, got {describe_value(handlers)}",
                'write it as [{"type": "command", "command": "./check.sh"}]',
            )
        commands = [_command(handler, (*steps, "hooks", at)) for at, handler in enumerate(handlers)]
        groups.append(Group(matcher if isinstance(matcher, str) else None, commands))
    return groups


def _command(handler: JSValue, steps: tuple[str | int, ...]) -> str:
    command = member(handler, "command")
    if not isinstance(handler, dict) or not isinstance(command, str):
        got = describe_value(command) if isinstance(handler, dict) else describe_value(handler)
        raise CaseError(
            (*steps, "command"),
            f"a handler must be an object with a command string, got {got}",
            'write it as {"type": "command", "command": "./check.sh"}',
        )
    return command


def _tool(value: JSValue | Undefined) -> ToolCall:
    tool = _object(value, ("tool",), '{"name": "Bash", "input": {"command": "ls"}}')
    name = tool.get("name", UNDEFINED)
    if not isinstance(name, str):
        raise CaseError(
            ("tool", "name"),
            f"tool.name must be a string, got {describe_value(name)}",
            'name the tool, e.g. "name": "Bash"',
        )
    if "input" not in tool:
        raise CaseError(
            ("tool", "input"),
            "the tool call has no input",
            'give the tool an "input" (any JSON value, e.g. {"command": "ls"})',
        )
    return ToolCall(name, tool["input"], tool.get("response", UNDEFINED))


def _results(value: JSValue | Undefined) -> Results:
    given = _object(value, ("results",), '{"PreToolUse": {"./check.sh": {"code": 0}}}')
    read: Results = {}
    for event in EVENTS:
        by_command = given.get(event, UNDEFINED)
        if by_command is None or isinstance(by_command, Undefined):
            continue
        if not isinstance(by_command, dict):
            raise CaseError(
                ("results", event),
                f"results.{event} must be an object of results by command, got "
                f"{describe_value(by_command)}",
                'write it as {"./check.sh": {"code": 0, "stdout": "", "stderr": ""}}',
            )
        read[event] = {}
        for command, result in by_command.items():
            try:
                read[event][command] = hook_result(result)
            except CaseError as error:
                raise error.inside("results", event, command) from None
    return read


def run_arguments(case: JSValue) -> Decoded:
    """``(c.hooks, c.tool, c.results)``: given as the case file writes them, parsed into
    groups, a ToolCall and HookResults for ``run_hooks``. CaseError for exactly the
    invalid inputs the page names, a handler that runs without a result included.
    """
    if not isinstance(case, dict):
        raise CaseError(
            None,
            f"a case must be an object, got {describe_value(case)}",
            "write the case as an object",
        )
    hooks_value = case.get("hooks", UNDEFINED)
    hooks_given = _object(hooks_value, ("hooks",), '{"PreToolUse": [...], "PostToolUse": [...]}')
    hooks = {event: tuple(_groups(hooks_given, event)) for event in EVENTS}
    tool = _tool(case.get("tool", UNDEFINED))
    results = _results(case.get("results", UNDEFINED))
    run_hooks(hooks, tool, results)  # the one check that needs the run: a missing result
    return Decoded((hooks_value, case["tool"], case["results"]), (hooks, tool, results))


STAGE = Stage(
    __name__,
    "One tool call, every hook around it",
    "hook-run",
    Exercise(
        "run_hooks",
        notebook="08_your_hooks_your_loop",
        check="check_run_hooks",
        reference=run_hooks,
        decode=run_arguments,
        case_key="cases",
        output_key="runs",
        fields=("hooks", "tool", "results"),
        families=(
            "run-once",
            "settings-order",
            "ask-or-defer",
            "deny",
            "only-matching-run",
            "name-list",
            "post-exit-2",
            "post-block-reason",
            "post-context-event",
            "post-feedback",
            "rewrite",
            "no-post-hooks",
            "runs",
        ),
        classify="classify:run_family",
        generate="generate:run_cases",
    ),
)
