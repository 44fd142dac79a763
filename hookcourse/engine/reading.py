"""Read ONE hook's result the way its event reads it (reference §3a, §3b, §5, table 1b).

A runner reports what it saw in a ``HookRun``; ``read_hook_result`` turns that into a
``HookReading``: how it was classified, the decision word, and every honoured field.
Pure: the only data it consults is the event's ``EventSpec``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Final

from hookcourse.engine.catalogue import (
    EventSpec,
    Failures,
    FieldRole,
    FieldSpec,
    PlainStdout,
    Recipient,
)
from hookcourse.js.json import JSONSyntaxError, parse, quote
from hookcourse.js.values import (
    UNDEFINED,
    JSValue,
    Undefined,
    js_length,
    js_trim,
    null_if_undefined,
)

from .output_schema import (
    containers,
    ignored_fields,
    known_paths,
    lookup,
    schema_errors,
    stdout_object,
)
from .versions import (
    exit2_beside_json_blocks,
    json_like_read,
    mismatch_keeps_decision,
    missing_script_spared,
)

NO_STDERR: Final = "No stderr output"
LOOKS_LIKE_JSON: Final = "Hook output looks like a JSON object but is not valid JSON"
LOOKS_LIKE_JSON_DETAIL: Final = (
    LOOKS_LIKE_JSON + " \u2014 {error}. Emit the payload with a JSON encoder (jq, "
    "ConvertTo-Json, json.dumps) rather than string concatenation so backslashes and quotes "
    "inside strings are escaped."
)
ON_FAILURE_BLOCKS: Final = 'blocking because onFailure is "block"'
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
    CUT = "output cut"
    CANCELLED = "cancelled"


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
    stdout_cut: bool = False
    """stdout (or an HTTP body) ran past the runner's capture cap and was cut there."""
    command: str | None = None
    """A command handler's command as configured: Claude Code names the hook by it."""
    on_failure_block: bool = False
    """The handler sets ``onFailure: "block"``: a failed run counts as exit 2."""
    cancelled: bool = False
    """A sibling's exit 2 cancelled it before it finished (UserPromptSubmit)."""


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
    failure_blocks: bool = False
    """The block is ``onFailure: "block"`` reading a failed run (not the hook's answer)."""
    command: str | None = None
    """The command (or URL) the hook was configured with."""
    stdout_context: str | None = None
    """Plain stdout taken as context (trimmed): the model reads it as "hook success"."""
    answered_json: bool = False
    """Exit 0 with valid JSON (older releases told the model so: fire --claude-version)."""
    blocking_error: str | None = None
    """The reason as Claude Code words it when this hook blocks: ``[<command>]: <stderr>``
    after exit 2 (or an ``onFailure`` block), the JSON's reason after a JSON decision."""

    def to_json(self) -> dict[str, JSValue]:
        """Camel-case keys; an absent updatedInput/updatedToolOutput is null."""
        return {
            "event": self.event,
            "blockingError": self.blocking_error,
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


def named_error(run: HookRun, detail: str) -> str:
    """``[<command>]: <detail>``: how Claude Code names a command hook's blocking error."""
    return f"[{run.command}]: {detail}" if run.command is not None else detail


def _first_line(stderr: str) -> str:
    line = js_trim(stderr).split("\n", 1)[0].removesuffix("\r")
    return line or NO_STDERR


def _read_decision(
    event: EventSpec, reading: HookReading, document: Mapping[str, JSValue], honour_specific: bool
) -> HookReading:
    for spec in (event.decision, event.legacy_decision):
        if spec is None or (spec.path[0] == "hookSpecificOutput" and not honour_specific):
            continue
        value = lookup(document, spec.path)
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
        reason = lookup(document, spec.reason_path) if spec.reason_path else UNDEFINED
        text = reason if isinstance(reason, str) and reason else spec.default_reason
        if text is not None and text != reason:
            reading = _noted(reading, f"no reason given: Claude Code reads it as {quote(text)}")
        reading = replace(
            reading,
            decision=word,
            reason=text if text is not None else (reason if isinstance(reason, str) else None),
            reason_to=event.reason_to.get(word),
            blocking_error=text if text is not None else None,
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
        value = lookup(document, item.path)
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
    known = known_paths(event)
    for dotted in ignored_fields(document, known, containers(known)):
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
        reading = replace(reading, additional_context=text, stdout_context=js_trim(text))
        reading = _noted(reading, *notes)
        return _done(reading, Classification.SUCCESS, f"{said} with plain stdout, added to context")
    if event.plain_stdout is PlainStdout.WORKTREE_PATH:
        path = js_trim([line for line in stdout.split("\n") if js_trim(line)][-1])
        reading = replace(reading, event_output={**reading.event_output, "worktreePath": path})
        how = f"{said} with plain stdout, whose last non-empty line is the worktree path"
        return _done(reading, Classification.SUCCESS, how)
    how = f"{said} with plain stdout, which goes to the debug log only"
    return _done(reading, Classification.SUCCESS, how)


@dataclass(frozen=True)
class _Exit:
    """A finished run, normalised: the exit code as the event counts it, and its JSON."""

    code: int | None
    said: str
    """How the run is named in the reading's ``how``: "exit 1", "HTTP 200", ..."""
    stdout: str
    document: dict[str, JSValue] | None
    """stdout as a JSON object, when it is one and the event reads JSON."""
    errors: tuple[str, ...]
    """Why ``document`` fails the event's output schema; empty when it passes."""
    cut: bool

    @property
    def valid(self) -> dict[str, JSValue] | None:
        return None if self.errors else self.document


class _Case(StrEnum):
    """Which rule of reference §3a reads a finished run."""

    EXIT_TWO = "exit 2"
    MISSING_SCRIPT = "exit 2 from a missing script"
    FAILS_ACTION = "any failure fails the action"
    JSON = "valid JSON"
    SCHEMA_ERROR = "JSON that fails the schema"
    CUT = "stdout cut at the capture cap"
    DISCARDED = "output discarded"
    PLAIN = "plain stdout"
    NON_BLOCKING = "non-blocking error"


def _normalise(event: EventSpec, run: HookRun, code: int | None, stdout: str, said: str) -> _Exit:
    """The exit code as the event counts it (some ignore it) and stdout's JSON, if any."""
    if code != 0 and event.failures is Failures.IGNORED:
        said, code = f"{said} (ignored on {event.name})", 0
    document = None if event.json_discarded or run.stdout_cut else stdout_object(stdout)
    errors = () if document is None else tuple(schema_errors(event, document))
    if (
        document is not None
        and errors
        and _names_another_event(event, document)
        and mismatch_keeps_decision()  # older releases ignored it all (--claude-version)
    ):
        # 2.1.332: a top-level block still blocks; the mismatched hookSpecificOutput is ignored.
        top = {key: value for key, value in document.items() if key != "hookSpecificOutput"}
        if "decision" in top and not schema_errors(event, top):
            document, errors = top, ()
    # An older release answered as read such text as plain stdout (fire --claude-version).
    json_like = looks_like_json(stdout) and json_like_read(event.name)
    if document is None and not event.json_discarded and json_like:
        errors = (LOOKS_LIKE_JSON,)
    return _Exit(code, said, stdout, document, errors, run.stdout_cut)


def _names_another_event(event: EventSpec, document: Mapping[str, JSValue]) -> bool:
    specific = document.get("hookSpecificOutput")
    return isinstance(specific, dict) and specific.get("hookEventName") != event.name


def looks_like_json(stdout: str) -> bool:
    """2.1.332: text that starts with ``{`` and ends with ``}``, is not valid JSON, and is
    not one JSON document a line, is an error, not plain text."""
    text = js_trim(stdout)
    if not (text.startswith("{") and text.endswith("}")) or stdout_object(stdout) is not None:
        return False
    lines = [line for line in text.split("\n") if js_trim(line)]
    return not all(_parses(line) for line in lines)


def jsc_parse_error(stdout: str) -> str:
    """The parse error Claude Code's JavaScript engine (JavaScriptCore) reports for ``stdout``.

    Only the shapes seen from 2.1.332 are worded as it words them: a key that is not a
    string, or a missing ``}``; anything else gets JavaScriptCore's generic message.
    """
    text = js_trim(stdout)
    rest = text[1:].lstrip(" \t\r\n")
    if rest and rest[0] not in '"}':
        return "JSON Parse error: Expected '}'"
    return "JSON Parse error: Unexpected token"


def _parses(line: str) -> bool:
    try:
        parse(js_trim(line))
    except JSONSyntaxError:
        return False
    return True


def _pick_case(event: EventSpec, exit_: _Exit, run: HookRun) -> _Case:
    """The first rule that applies, in the reference's order of precedence."""
    if exit_.code == 2 and _missing_script(event, exit_, run):
        return _Case.MISSING_SCRIPT
    if exit_.code == 2 and (exit_.valid is None or exit2_beside_json_blocks()):
        return _Case.EXIT_TWO
    if exit_.code != 0 and event.nonzero_fails:
        return _Case.FAILS_ACTION
    if exit_.valid is not None:
        return _Case.JSON
    if exit_.errors:
        return _Case.SCHEMA_ERROR
    if exit_.cut:
        return _Case.CUT
    if exit_.code == 0:
        has_output = bool(js_trim(exit_.stdout))
        return _Case.DISCARDED if event.json_discarded and has_output else _Case.PLAIN
    return _Case.NON_BLOCKING


def _read_exit(
    event: EventSpec, run: HookRun, reading: HookReading, code: int | None, stdout: str, said: str
) -> HookReading:
    """A command or mcp_tool run that finished (or an HTTP 2xx body, read as exit 0).

    Three steps: normalise the run, pick the rule that applies, read by that rule.
    """
    exit_ = _normalise(event, run, code, stdout, said)
    if exit_.errors:
        reading = _hook_error(event, reading, f"JSON validation failed: {'; '.join(exit_.errors)}")
    case = _pick_case(event, exit_, run)
    return _BY_CASE[case](event, run, reading, exit_)


_MISSING: Final = re.compile(r"no such file|can't open|cannot open", re.IGNORECASE)


def _missing_script(event: EventSpec, exit_: _Exit, run: HookRun) -> bool:
    """2.1.332: on Stop-like events, exit 2 with no stdout and a "no such file" stderr is a
    broken installation, not a block."""
    return (
        event.missing_script_not_blocking
        and not js_trim(exit_.stdout)
        and _MISSING.search(run.stderr) is not None
        and missing_script_spared(event.name)
    )


def _read_missing_script(
    event: EventSpec, run: HookRun, reading: HookReading, exit_: _Exit
) -> HookReading:
    detail = f"Hook script appears to be missing: {_first_line(run.stderr)}"
    how = (
        f"exit 2 with no stdout and a missing-file stderr on {event.name}: the hook script "
        "appears to be missing, so it is a non-blocking error, not a block"
    )
    return _done(_hook_error(event, reading, detail), Classification.NON_BLOCKING_ERROR, how)


def _read_fails_action(
    event: EventSpec, run: HookRun, reading: HookReading, exit_: _Exit
) -> HookReading:
    how = f"{exit_.said} on {event.name}: {_lower_first(event.exit2_effect)}"
    return _fails_action(event, run, reading, how)


def _read_valid_json(
    event: EventSpec, run: HookRun, reading: HookReading, exit_: _Exit
) -> HookReading:
    assert exit_.valid is not None
    reading = replace(_read_json(event, reading, exit_.valid, True), answered_json=exit_.code == 0)
    if exit_.code == 0:
        how = f"{exit_.said} with JSON, read as {event.name} output"
    else:
        how = f"{exit_.said} with valid JSON: the JSON alone decides; not reported as an error"
    return _done(reading, Classification.SUCCESS, how)


def _read_schema_error(
    event: EventSpec, run: HookRun, reading: HookReading, exit_: _Exit
) -> HookReading:
    how = f"{exit_.said} with JSON that fails the schema: a non-blocking error; the JSON is ignored"
    return _done(reading, Classification.SCHEMA_ERROR, how)


def _read_cut(event: EventSpec, run: HookRun, reading: HookReading, exit_: _Exit) -> HookReading:
    reading = _hook_error(event, reading, "output larger than hookcourse's capture cap")
    how = (
        f"{exit_.said}, but stdout ran past hookcourse's capture cap and was cut, so its "
        "answer could not be read; Claude Code would read all of it"
    )
    return _done(reading, Classification.CUT, how)


def _read_discarded(
    event: EventSpec, run: HookRun, reading: HookReading, exit_: _Exit
) -> HookReading:
    return _done(reading, Classification.SUCCESS, f"{exit_.said}: {event.name} discards its output")


def _read_plain_case(
    event: EventSpec, run: HookRun, reading: HookReading, exit_: _Exit
) -> HookReading:
    return _read_plain(event, replace(reading, how=exit_.said), exit_.stdout)


def _read_non_blocking(
    event: EventSpec, run: HookRun, reading: HookReading, exit_: _Exit
) -> HookReading:
    detail = f"Failed with non-blocking status code: {_first_line(run.stderr)}"
    how = f"{exit_.said} without valid JSON: a non-blocking error; the action goes ahead"
    return _done(_hook_error(event, reading, detail), Classification.NON_BLOCKING_ERROR, how)


def _read_exit_two(
    event: EventSpec, run: HookRun, reading: HookReading, exit_: _Exit
) -> HookReading:
    if exit_.valid is not None:
        honour = not event.hook_specific_ignored_on_exit2
        reading = _read_json(event, reading, exit_.valid, honour)
    if event.exit2_decision is None:
        if event.exit2_stderr_to in (Recipient.USER, Recipient.SUBAGENT):
            where = ""
            if event.exit2_stderr_to is Recipient.SUBAGENT:
                where = " (in the subagent's transcript)"
            notice = f"{event.name} hook error{where}: {_first_line(run.stderr)}"
            reading = replace(reading, notices=(*reading.notices, notice))
        how = f"exit 2 on {event.name} does not block: {_lower_first(event.exit2_effect)}"
        return _done(reading, Classification.NON_BLOCKING_ERROR, how)
    said = "exit 2 with JSON that fails the schema" if exit_.errors else "exit 2"
    json_word = reading.decision
    if json_word in event.blocking_decisions and reading.reason:
        reason, source = reading.reason, "the JSON's reason is the reason"
        reason_to = event.reason_to.get(event.exit2_decision, event.exit2_stderr_to)
        blocking_error = reason
    else:
        reason, source = _stderr_reason(run.stderr), "stderr is the reason"
        reason_to = event.exit2_stderr_to
        # The model gets stderr as written, trailing newline included (2.1.332).
        blocking_error = named_error(run, run.stderr or NO_STDERR)
    if json_word is not None and json_word != event.exit2_decision:
        source += f" (exit 2 outranks the JSON's {quote(json_word)})"
    blocks = "blocks" if event.can_block else _lower_first(event.exit2_effect)
    reading = replace(
        reading,
        decision=event.exit2_decision,
        reason=reason,
        reason_to=reason_to,
        blocking_error=blocking_error,
    )
    return _done(
        reading, Classification.BLOCKING_ERROR, f"{said} on {event.name}: {blocks}; {source}"
    )


_BY_CASE: Final[dict[_Case, Callable[[EventSpec, HookRun, HookReading, _Exit], HookReading]]] = {
    _Case.EXIT_TWO: _read_exit_two,
    _Case.MISSING_SCRIPT: _read_missing_script,
    _Case.FAILS_ACTION: _read_fails_action,
    _Case.JSON: _read_valid_json,
    _Case.SCHEMA_ERROR: _read_schema_error,
    _Case.CUT: _read_cut,
    _Case.DISCARDED: _read_discarded,
    _Case.PLAIN: _read_plain_case,
    _Case.NON_BLOCKING: _read_non_blocking,
}


def _read_http(event: EventSpec, run: HookRun, reading: HookReading) -> HookReading:
    status = run.http_status
    if status is None or not 200 <= status < 300:
        said = "no HTTP status" if status is None else f"HTTP {status}"
        reading = _hook_error(event, reading, f"{said} from the hook's URL")
        how = f"{said}: status codes alone cannot block"
        return _could_not_run(event, run, reading, Classification.NON_BLOCKING_ERROR, how)
    if not js_trim(run.stdout):
        return _done(reading, Classification.SUCCESS, f"HTTP {status} with an empty body: success")
    if not run.stdout_cut and stdout_object(run.stdout) is None:
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
        blocking_error=reason if isinstance(reason, str) else None,
    )
    how = f"the evaluator answered ok: false: {quote(spec.on_false)}, its reason going to Claude"
    if spec.ends_turn and prompt and not run.continue_on_block:
        reading = replace(reading, continue_=False)
        how = (
            f"the evaluator answered ok: false: {quote(spec.on_false)}, and without "
            "continueOnBlock the turn ends"
        )
    return _done(reading, Classification.SUCCESS, how)


_FAILED: Final = frozenset(
    {
        Classification.COULD_NOT_START,
        Classification.TIMEOUT,
        Classification.NON_BLOCKING_ERROR,
        Classification.SCHEMA_ERROR,
    }
)


def read_hook_result(event: EventSpec, run: HookRun) -> HookReading:
    """Read one handler's run as ``event`` reads it. Total: never raises.

    With ``onFailure: "block"`` (2.1.332), a run that failed counts as exit 2.
    """
    reading = _read_run(event, run)
    if not run.on_failure_block or run.cancelled:
        return reading
    if run.exit_code == 2 and event.exit2_decision is None and event.exit2_stderr_to == "nowhere":
        # Where exit 2 is not honoured (PermissionRequest) it is still an answer, not a
        # failure: onFailure leaves it as it is (2.1.332).
        return reading
    word = event.exit2_decision or (event.blocking_decisions or (None,))[0]
    # An event that cannot stop its action still reads the failure as its exit 2
    # (PostToolUse: the block's feedback reaches the model), 2.1.332.
    if event.on_failure_ignored or word is None:
        return _noted(reading, f'onFailure "block" is ignored on {event.name}')
    code = run.exit_code
    json_only = reading.classification is Classification.SUCCESS and code not in (0, 2, None)
    if json_only and reading.decision in event.blocking_decisions:
        return reading
    if reading.classification not in _FAILED and not json_only:
        return reading
    detail = "timed out" if run.timed_out else "failed"
    reason = f"{detail}; {ON_FAILURE_BLOCKS}"
    if not run.timed_out:
        # Claude Code adds what went wrong: stderr, or why the output was refused.
        why = LOOKS_LIKE_JSON_DETAIL.format(error=jsc_parse_error(run.stdout))
        if not looks_like_json(run.stdout):
            why = run.start_error or js_trim(run.stderr) or NO_STDERR
        reason += f"\n{why}"
    blocked = replace(
        reading,
        decision=word,
        reason=reason,
        reason_to=event.reason_to.get(word, event.exit2_stderr_to),
        blocking_error=named_error(run, reason),
        additional_context=None,
        updated_input=UNDEFINED,
        failure_blocks=True,
    )
    how = f'{reading.how}; with onFailure "block" that failure counts as exit 2: it blocks'
    return _done(blocked, Classification.BLOCKING_ERROR, how)


def _read_run(event: EventSpec, run: HookRun) -> HookReading:
    reading = HookReading(
        event.name, run.handler_type, run.label, Classification.SUCCESS, "", command=run.command
    )
    if run.cancelled:
        how = "cancelled: a sibling hook exited 2 first, so its result was never read"
        return _done(reading, Classification.CANCELLED, how)
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
