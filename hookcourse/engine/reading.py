"""Read ONE hook's result the way its event reads it (reference §3a, §3b, §5, table 1b).

A runner reports what it saw in a ``HookRun``; ``read_hook_result`` turns that into a
``HookReading``: how it was classified, the decision word, and every honoured field.
Pure: the only data it consults is the event's ``EventSpec``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Final

from hookcourse.engine.catalogue import (
    EventSpec,
    Failures,
    FieldRole,
    FieldSpec,
    FieldType,
    PlainStdout,
    Recipient,
)
from hookcourse.js.json import JSONSyntaxError, parse, quote, stringify
from hookcourse.js.values import (
    UNDEFINED,
    JSValue,
    Undefined,
    js_length,
    js_trim,
    null_if_undefined,
)
from hookcourse.stages.decoding import describe_value

NO_STDERR: Final = "No stderr output"
NO_EVALUATOR: Final = "no evaluator configured; no model was asked"
EVALUATOR_TYPES: Final = ("prompt", "agent")


class Classification(StrEnum):
    """How Claude Code files a hook run."""

    SUCCESS = "success"
    BLOCKING_ERROR = "blocking error"
    NON_BLOCKING_ERROR = "non-blocking error"
    TIMEOUT = "timeout"
    COULD_NOT_START = "could not start"
    SCHEMA_ERROR = "schema error"


@dataclass(frozen=True)
class HookRun:
    """What a runner observed for one handler.

    ``exit_code`` is None for http/prompt/agent handlers and for a process killed by a
    signal; an mcp_tool runner reports 0 for text and 1 for ``isError``.
    """

    handler_type: str
    exit_code: int | None
    stdout: str
    stderr: str
    timed_out: bool
    start_error: str | None
    http_status: int | None = None
    evaluator: Mapping[str, object] | None = None
    """A prompt/agent evaluator's answer ``{ok, reason, impossible}``."""
    evaluator_missing: bool = False
    continue_on_block: bool = False
    """The prompt handler's ``continueOnBlock`` (agent handlers always behave as if true)."""
    label: str = ""
    """How explanations name this handler (its command, URL or prompt); optional."""


@dataclass(frozen=True)
class HookReading:
    """One hook's result as its event reads it."""

    event: str
    handler_type: str
    label: str
    classification: Classification
    how: str
    """One sentence: which rule read this run."""
    decision: str | None = None
    reason: str | None = None
    reason_to: Recipient | None = None
    additional_context: str | None = None
    updated_input: JSValue | Undefined = UNDEFINED
    updated_tool_output: JSValue | Undefined = UNDEFINED
    continue_: bool = True
    stop_reason: str | None = None
    system_message: str | None = None
    suppress_output: bool = False
    event_output: Mapping[str, JSValue] = field(default_factory=dict)
    """Other honoured event fields by name: sessionTitle, watchPaths, displayContent, ..."""
    notices: tuple[str, ...] = ()
    """The "hook error" lines a user would see."""
    notes: tuple[str, ...] = ()
    """hookcourse's plain remarks: caps applied, fields ignored and why."""

    def to_json(self) -> dict[str, JSValue]:
        """Camel-case keys; an absent updatedInput/updatedToolOutput is null."""
        return {
            "event": self.event,
            "handlerType": self.handler_type,
            "label": self.label,
            "classification": str(self.classification),
            "how": self.how,
            "decision": self.decision,
            "reason": self.reason,
            "reasonTo": None if self.reason_to is None else str(self.reason_to),
            "additionalContext": self.additional_context,
            "updatedInput": null_if_undefined(self.updated_input),
            "updatedToolOutput": null_if_undefined(self.updated_tool_output),
            "continue": self.continue_,
            "stopReason": self.stop_reason,
            "systemMessage": self.system_message,
            "suppressOutput": self.suppress_output,
            "eventOutput": dict(self.event_output),
            "notices": list(self.notices),
            "notes": list(self.notes),
        }


def _done(reading: HookReading, classification: Classification, how: str) -> HookReading:
    return replace(reading, classification=classification, how=how)


def _noted(reading: HookReading, *notes: str) -> HookReading:
    return replace(reading, notes=(*reading.notes, *notes))


def _hook_error(event: EventSpec, reading: HookReading, detail: str) -> HookReading:
    """Add the transcript's "<Event> hook error" line, where this event shows one."""
    if event.failures is not Failures.NOTICE:
        return reading
    return replace(reading, notices=(*reading.notices, f"{event.name} hook error: {detail}"))


# ---------------------------------------------------------------- text helpers


def _js_prefix(text: str, units: int) -> str:
    """The longest prefix of at most ``units`` code units that splits no character."""
    taken = 0
    for index, char in enumerate(text):
        taken += 2 if ord(char) > 0xFFFF else 1
        if taken > units:
            return text[:index]
    return text


def _capped(event: EventSpec, text: str, what: str) -> tuple[str, tuple[str, ...]]:
    """``text`` as Claude would get it, plus a note when the cap replaced it by a preview."""
    cap = event.text_cap
    length = js_length(text)
    if length <= cap.chars:
        return text, ()
    note = (
        f"{what} is {length:,} characters, over Claude Code's {cap.chars:,}-character cap: "
        f"Claude Code would save the full text to a file and pass a preview plus the file's "
        f"path; shown here are the first {cap.preview_chars:,} characters"
    )
    preview = (
        _js_prefix(text, cap.preview_chars)
        + f"\n[{what} cut here: {length:,} characters in all; Claude Code would save the full"
        " text to a file and pass its path]"
    )
    return preview, (note,)


def _lower_first(sentence: str) -> str:
    return sentence[:1].lower() + sentence[1:]


def _stderr_reason(stderr: str) -> str:
    return js_trim(stderr) or NO_STDERR


def _first_line(stderr: str) -> str:
    line = js_trim(stderr).split("\n", 1)[0].removesuffix("\r")
    return line or NO_STDERR


# ---------------------------------------------------------------- JSON and schema


def stdout_object(stdout: str) -> dict[str, JSValue] | None:
    """Stdout read as JSON: only text starting with ``{`` that parses to an object counts."""
    text = js_trim(stdout)
    if not text.startswith("{"):
        return None
    try:
        value = parse(text)
    except JSONSyntaxError:
        return None
    return value if isinstance(value, dict) else None


def _lookup(document: Mapping[str, JSValue], path: tuple[str, ...]) -> JSValue | Undefined:
    node: JSValue | Undefined = dict(document)
    for step in path:
        if not isinstance(node, dict):
            return UNDEFINED
        node = node.get(step, UNDEFINED)
    return node


_TYPE_RULES: Final[dict[FieldType, tuple[Callable[[JSValue], bool], str]]] = {
    FieldType.STRING: (lambda v: isinstance(v, str), "a string"),
    FieldType.BOOLEAN: (lambda v: isinstance(v, bool), "true or false"),
    FieldType.OBJECT: (lambda v: isinstance(v, dict), "an object"),
    FieldType.ARRAY: (lambda v: isinstance(v, list), "an array"),
    FieldType.STRING_LIST: (
        lambda v: isinstance(v, list) and all(isinstance(item, str) for item in v),
        "an array of strings",
    ),
    FieldType.ANY: (lambda v: True, "any JSON value"),
}

_EVENT_NAME_PATH: Final = ("hookSpecificOutput", "hookEventName")


def _decision_specs(event: EventSpec) -> list[tuple[tuple[str, ...], tuple[str, ...] | None]]:
    return [
        (spec.path, spec.reason_path)
        for spec in (event.decision, event.legacy_decision)
        if spec is not None
    ]


def _known_paths(event: EventSpec) -> set[tuple[str, ...]]:
    known = {item.path for item in (*event.output_fields, *event.universal_fields)}
    known.add(_EVENT_NAME_PATH)
    for path, reason_path in _decision_specs(event):
        known.add(path)
        if reason_path is not None:
            known.add(reason_path)
    return known


def _containers(known: set[tuple[str, ...]]) -> set[tuple[str, ...]]:
    return {path[:end] for path in known for end in range(1, len(path))}


def schema_errors(event: EventSpec, document: Mapping[str, JSValue]) -> list[str]:
    """Why ``document`` fails this event's output schema; empty when it passes."""
    errors: list[str] = []
    known = _known_paths(event)
    for container in sorted(_containers(known)):
        value = _lookup(document, container)
        if not isinstance(value, Undefined | dict):
            errors.append(f"{'.'.join(container)} must be an object, got {describe_value(value)}")
    if isinstance(document.get("hookSpecificOutput"), dict):
        name = _lookup(document, _EVENT_NAME_PATH)
        if name != event.name:
            found = "is missing" if isinstance(name, Undefined) else f"is {stringify(name)}"
            errors.append(
                f"hookSpecificOutput.hookEventName {found}; it must be {quote(event.name)}"
            )
    for item in (*event.output_fields, *event.universal_fields):
        value = _lookup(document, item.path)
        check, wanted = _TYPE_RULES[item.type]
        if not isinstance(value, Undefined) and not check(value):
            errors.append(f"{item.dotted} must be {wanted}, got {describe_value(value)}")
    for spec in (event.decision, event.legacy_decision):
        if spec is None:
            continue
        dotted = ".".join(spec.path)
        value = _lookup(document, spec.path)
        if not isinstance(value, Undefined) and not (
            isinstance(value, str) and value in spec.values
        ):
            allowed = ", ".join(quote(word) for word in spec.values)
            errors.append(f"{dotted} must be one of {allowed}, got {stringify(value)}")
            continue
        if spec.reason_path is None:
            continue
        reason = _lookup(document, spec.reason_path)
        reason_dotted = ".".join(spec.reason_path)
        if not isinstance(reason, Undefined | str):
            errors.append(f"{reason_dotted} must be a string, got {describe_value(reason)}")
        elif spec.reason_required and isinstance(value, str) and not reason:
            errors.append(f"{dotted} {quote(value)} needs a non-empty {reason_dotted}")
    return errors


def _ignored_fields(
    document: Mapping[str, JSValue],
    known: set[tuple[str, ...]],
    containers: set[tuple[str, ...]],
    prefix: tuple[str, ...] = (),
) -> list[str]:
    ignored: list[str] = []
    for key, value in document.items():
        path = (*prefix, key)
        if path in containers and isinstance(value, dict):
            ignored.extend(_ignored_fields(value, known, containers, path))
        elif path not in known:
            ignored.append(".".join(path))
    return ignored


def _read_decision(
    event: EventSpec, reading: HookReading, document: Mapping[str, JSValue], honour_specific: bool
) -> HookReading:
    for spec in (event.decision, event.legacy_decision):
        if spec is None or (spec.path[0] == "hookSpecificOutput" and not honour_specific):
            continue
        value = _lookup(document, spec.path)
        if not isinstance(value, str):
            continue
        dotted = ".".join(spec.path)
        if reading.decision is not None:
            decided_by = ".".join(event.decision.path) if event.decision else "another field"
            reading = _noted(reading, f"{dotted} is ignored: {decided_by} decides")
            continue
        word = spec.values[value]
        if spec is event.legacy_decision:
            reading = _noted(
                reading, f"deprecated top-level decision {quote(value)} read as {quote(word)}"
            )
        reason = _lookup(document, spec.reason_path) if spec.reason_path else UNDEFINED
        reading = replace(
            reading,
            decision=word,
            reason=reason if isinstance(reason, str) else None,
            reason_to=event.reason_to.get(word),
        )
    return reading


def _apply_field(
    event: EventSpec, reading: HookReading, item: FieldSpec, value: JSValue
) -> HookReading:
    role = item.role
    if role is FieldRole.ADDITIONAL_CONTEXT and isinstance(value, str):
        text, notes = _capped(event, value, item.name)
        return _noted(replace(reading, additional_context=text), *notes)
    if role is FieldRole.SYSTEM_MESSAGE and isinstance(value, str):
        text, notes = _capped(event, value, item.name)
        return _noted(replace(reading, system_message=text), *notes)
    if role is FieldRole.UPDATED_INPUT:
        return replace(reading, updated_input=value)
    if role is FieldRole.UPDATED_TOOL_OUTPUT:
        return replace(reading, updated_tool_output=value)
    if role is FieldRole.CONTINUE and isinstance(value, bool):
        return replace(reading, continue_=value)
    if role is FieldRole.STOP_REASON and isinstance(value, str):
        return replace(reading, stop_reason=value)
    if role is FieldRole.SUPPRESS_OUTPUT and isinstance(value, bool):
        note = "suppressOutput is accepted but has no effect now"
        return _noted(replace(reading, suppress_output=value), note)
    return replace(reading, event_output={**reading.event_output, item.name: value})


def _read_json(
    event: EventSpec, reading: HookReading, document: Mapping[str, JSValue], honour_specific: bool
) -> HookReading:
    """Copy every honoured field of a schema-valid ``document`` into ``reading``."""
    reading = _read_decision(event, reading, document, honour_specific)
    for item in (*event.output_fields, *event.universal_fields):
        value = _lookup(document, item.path)
        if isinstance(value, Undefined):
            continue
        if item.path[0] == "hookSpecificOutput" and not honour_specific:
            continue
        if item.when and reading.decision not in item.when:
            reading = _noted(reading, f"{item.dotted} is honoured only with {'/'.join(item.when)}")
            continue
        reading = _apply_field(event, reading, item, value)
    if not honour_specific and "hookSpecificOutput" in document:
        reading = _noted(reading, f"after exit 2, {event.name} ignores hookSpecificOutput")
    known = _known_paths(event)
    for dotted in _ignored_fields(document, known, _containers(known)):
        if dotted in event.discarded_universal:
            reading = _noted(reading, f"{dotted} is discarded on {event.name}")
        else:
            reading = _noted(reading, f"{dotted} means nothing on {event.name} and is ignored")
    return reading


# ---------------------------------------------------------------- the reading


def _fails_action(event: EventSpec, run: HookRun, reading: HookReading, how: str) -> HookReading:
    """Any failure fails the action (WorktreeCreate): the exit-2 decision, stderr the reason."""
    failed = replace(
        reading,
        decision=event.exit2_decision,
        reason=_stderr_reason(run.stderr),
        reason_to=event.exit2_stderr_to,
    )
    return _done(failed, Classification.BLOCKING_ERROR, how)


def _could_not_run(
    event: EventSpec, run: HookRun, reading: HookReading, classification: Classification, how: str
) -> HookReading:
    """A run with no usable output: non-blocking, unless any failure fails it (WorktreeCreate)."""
    if event.nonzero_fails:
        return _fails_action(event, run, reading, f"{how}; on {event.name} any failure fails it")
    return _done(reading, classification, f"{how}; non-blocking, the action goes ahead")


def _read_plain(event: EventSpec, reading: HookReading, stdout: str) -> HookReading:
    """Exit 0 without JSON: plain stdout read by the event's rule."""
    said = reading.how
    if not js_trim(stdout):
        return _done(reading, Classification.SUCCESS, f"{said} with no output")
    if event.plain_stdout is PlainStdout.CONTEXT:
        text, notes = _capped(event, stdout, "plain stdout")
        reading = _noted(replace(reading, additional_context=text), *notes)
        return _done(reading, Classification.SUCCESS, f"{said} with plain stdout, added to context")
    if event.plain_stdout is PlainStdout.WORKTREE_PATH:
        path = js_trim([line for line in stdout.split("\n") if js_trim(line)][-1])
        reading = replace(reading, event_output={**reading.event_output, "worktreePath": path})
        how = f"{said} with plain stdout, whose last non-empty line is the worktree path"
        return _done(reading, Classification.SUCCESS, how)
    how = f"{said} with plain stdout, which goes to the debug log only"
    return _done(reading, Classification.SUCCESS, how)


def _read_exit(
    event: EventSpec, run: HookRun, reading: HookReading, code: int | None, stdout: str, said: str
) -> HookReading:
    """A command or mcp_tool run that finished (or an HTTP 2xx body, read as exit 0)."""
    document = None if event.json_discarded else stdout_object(stdout)
    errors = [] if document is None else schema_errors(event, document)
    if errors:
        reading = _hook_error(event, reading, f"JSON validation failed: {'; '.join(errors)}")
    valid = None if errors else document
    if code != 0 and event.failures is Failures.IGNORED:
        said, code = f"{said} (ignored on {event.name})", 0
    if code == 2:
        if valid is not None:
            reading = _read_json(event, reading, valid, not event.hook_specific_ignored_on_exit2)
        return _read_exit_two(event, run, reading, errors)
    if code != 0 and event.nonzero_fails:
        how = f"{said} on {event.name}: {_lower_first(event.exit2_effect)}"
        return _fails_action(event, run, reading, how)
    if valid is not None:
        reading = _read_json(event, reading, valid, True)
        if code == 0:
            return _done(
                reading, Classification.SUCCESS, f"{said} with JSON, read as {event.name} output"
            )
        how = f"{said} with valid JSON: the JSON alone decides; not reported as an error"
        return _done(reading, Classification.SUCCESS, how)
    if errors:
        how = f"{said} with JSON that fails the schema: a non-blocking error; the JSON is ignored"
        return _done(reading, Classification.SCHEMA_ERROR, how)
    if code == 0:
        if event.json_discarded and js_trim(stdout):
            return _done(
                reading, Classification.SUCCESS, f"{said}: {event.name} discards its output"
            )
        return _read_plain(event, replace(reading, how=said), stdout)
    detail = f"Failed with non-blocking status code: {_first_line(run.stderr)}"
    how = f"{said} without valid JSON: a non-blocking error; the action goes ahead"
    return _done(_hook_error(event, reading, detail), Classification.NON_BLOCKING_ERROR, how)


def _read_exit_two(
    event: EventSpec, run: HookRun, reading: HookReading, errors: list[str]
) -> HookReading:
    if event.exit2_decision is None:
        if event.exit2_stderr_to in (Recipient.USER, Recipient.SUBAGENT):
            where = ""
            if event.exit2_stderr_to is Recipient.SUBAGENT:
                where = " (in the subagent's transcript)"
            notice = f"{event.name} hook error{where}: {_first_line(run.stderr)}"
            reading = replace(reading, notices=(*reading.notices, notice))
        how = f"exit 2 on {event.name} does not block: {_lower_first(event.exit2_effect)}"
        return _done(reading, Classification.NON_BLOCKING_ERROR, how)
    said = "exit 2 with JSON that fails the schema" if errors else "exit 2"
    json_word = reading.decision
    if json_word in event.blocking_decisions and reading.reason:
        reason, source = reading.reason, "the JSON's reason is the reason"
        reason_to = event.reason_to.get(event.exit2_decision, event.exit2_stderr_to)
    else:
        reason, source = _stderr_reason(run.stderr), "stderr is the reason"
        reason_to = event.exit2_stderr_to
    if json_word is not None and json_word != event.exit2_decision:
        source += f" (exit 2 outranks the JSON's {quote(json_word)})"
    blocks = "blocks" if event.can_block else _lower_first(event.exit2_effect)
    reading = replace(reading, decision=event.exit2_decision, reason=reason, reason_to=reason_to)
    return _done(
        reading, Classification.BLOCKING_ERROR, f"{said} on {event.name}: {blocks}; {source}"
    )


def _read_http(event: EventSpec, run: HookRun, reading: HookReading) -> HookReading:
    status = run.http_status
    if status is None or not 200 <= status < 300:
        said = "no HTTP status" if status is None else f"HTTP {status}"
        reading = _hook_error(event, reading, f"{said} from the hook's URL")
        how = f"{said}: status codes alone cannot block"
        return _could_not_run(event, run, reading, Classification.NON_BLOCKING_ERROR, how)
    if not js_trim(run.stdout):
        return _done(reading, Classification.SUCCESS, f"HTTP {status} with an empty body: success")
    if stdout_object(run.stdout) is None:
        said = f"HTTP {status} with a body that is not a JSON object"
        reading = _hook_error(event, reading, said)
        return _could_not_run(event, run, reading, Classification.NON_BLOCKING_ERROR, said)
    return _read_exit(event, run, reading, 0, run.stdout, f"HTTP {status}")


def _evaluator_errors(answer: Mapping[str, object]) -> list[str]:
    errors = []
    ok = answer.get("ok")
    if not isinstance(ok, bool):
        errors.append("ok must be true or false")
    reason = answer.get("reason")
    if ok is False and not (isinstance(reason, str) and reason):
        errors.append("reason is required when ok is false")
    if "reason" in answer and not isinstance(reason, str):
        errors.append("reason must be a string")
    if "impossible" in answer and not isinstance(answer["impossible"], bool):
        errors.append("impossible must be true or false")
    return errors


def _read_evaluator(event: EventSpec, run: HookRun, reading: HookReading) -> HookReading:
    """A prompt or agent handler's ``{ok, reason, impossible}`` (reference §5)."""
    if run.evaluator_missing or run.evaluator is None:
        detail = NO_EVALUATOR if run.evaluator_missing else "the evaluator gave no answer"
        how = f"{detail}: a non-blocking error; the action goes ahead"
        return _done(_hook_error(event, reading, detail), Classification.NON_BLOCKING_ERROR, how)
    answer = run.evaluator
    errors = _evaluator_errors(answer)
    if errors:
        detail = f"evaluator answer failed validation: {'; '.join(errors)}"
        how = "the evaluator's answer fails the {ok, reason, impossible} schema: non-blocking"
        return _done(_hook_error(event, reading, detail), Classification.SCHEMA_ERROR, how)
    if answer["ok"] is True:
        return _done(reading, Classification.SUCCESS, "the evaluator answered ok: true")
    spec = event.evaluator
    if spec is None or spec.on_false is None:
        how = f"the evaluator answered ok: false, which has no effect on {event.name}"
        return _done(reading, Classification.SUCCESS, how)
    prompt = run.handler_type == "prompt"
    if spec.honours_impossible and prompt and answer.get("impossible") is True:
        how = "the evaluator answered ok: false with impossible: true, so the hook does not block"
        return _done(reading, Classification.SUCCESS, how)
    reason = answer["reason"]
    reading = replace(
        reading,
        decision=spec.on_false,
        reason=reason if isinstance(reason, str) else None,
        reason_to=event.reason_to.get(spec.on_false),
    )
    how = f"the evaluator answered ok: false: {quote(spec.on_false)}, its reason going to Claude"
    if spec.ends_turn and prompt and not run.continue_on_block:
        reading = replace(reading, continue_=False)
        how = (
            f"the evaluator answered ok: false: {quote(spec.on_false)}, and without "
            "continueOnBlock the turn ends"
        )
    return _done(reading, Classification.SUCCESS, how)


def read_hook_result(event: EventSpec, run: HookRun) -> HookReading:
    """Read one handler's run as ``event`` reads it. Total: never raises."""
    reading = HookReading(event.name, run.handler_type, run.label, Classification.SUCCESS, "")
    if run.handler_type not in event.handler_types:
        how = f"{event.name} does not run {run.handler_type} hooks, so this handler never runs"
        return _done(reading, Classification.COULD_NOT_START, how)
    if run.start_error is not None:
        reading = _hook_error(event, reading, f"could not start: {run.start_error}")
        how = "the hook could not start"
        return _could_not_run(event, run, reading, Classification.COULD_NOT_START, how)
    if run.timed_out:
        reading = _hook_error(event, reading, "timed out; output discarded")
        how = "the hook timed out, so it was cancelled and its output discarded"
        return _could_not_run(event, run, reading, Classification.TIMEOUT, how)
    if run.handler_type in EVALUATOR_TYPES:
        return _read_evaluator(event, run, reading)
    if run.handler_type == "http":
        return _read_http(event, run, reading)
    code = run.exit_code
    said = f"exit {code}" if code is not None else "no exit code (killed by a signal)"
    return _read_exit(event, run, reading, code, run.stdout, said)
