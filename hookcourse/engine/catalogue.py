"""The hook event catalogue: ``data/events.json`` read into ``EventSpec`` records.

Everything an event does differently lives in the JSON; this module only gives it
types and renders it as the text ``hookcourse events`` prints.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Any

from hookcourse.errors import InputError
from hookcourse.js.json import quote


class FieldType(StrEnum):
    """The JSON type an output field must have to pass the schema."""

    STRING = "string"
    BOOLEAN = "boolean"
    OBJECT = "object"
    ARRAY = "array"
    STRING_LIST = "string_list"
    NUMBER = "number"
    ANY = "any"


class FieldRole(StrEnum):
    """What a valid output field does once read."""

    ADDITIONAL_CONTEXT = "additional_context"
    UPDATED_INPUT = "updated_input"
    UPDATED_TOOL_OUTPUT = "updated_tool_output"
    OUTPUT = "output"
    CONTINUE = "continue"
    STOP_REASON = "stop_reason"
    SUPPRESS_OUTPUT = "suppress_output"
    SYSTEM_MESSAGE = "system_message"
    USER_TURN = "user_turn"
    """Sent to the model as a user message of its own (SessionStart's initialUserMessage)."""


class Recipient(StrEnum):
    """Who gets a piece of hook output."""

    CLAUDE = "claude"
    USER = "user"
    SUBAGENT = "subagent"
    TERMINAL = "terminal"
    DEBUG_LOG = "debug_log"
    NOWHERE = "nowhere"
    UNSTATED = "unstated"


class Failures(StrEnum):
    """Where a failed run (other exit codes, timeout, could not start) is reported."""

    NOTICE = "notice"
    DEBUG_LOG = "debug_log"
    IGNORED = "ignored"


class PlainStdout(StrEnum):
    """What stdout that is not a JSON object becomes on exit 0."""

    CONTEXT = "context"
    DEBUG_LOG = "debug_log"
    WORKTREE_PATH = "worktree_path"


@dataclass(frozen=True)
class FieldSpec:
    """One JSON output field: where it sits, its type, and what it does."""

    path: tuple[str, ...]
    type: FieldType
    role: FieldRole
    when: tuple[str, ...] = ()
    """Decision words it is honoured with; empty means always."""
    capped: bool = False
    """Subject to the 10,000-character cap."""
    note: str = ""

    @property
    def dotted(self) -> str:
        return ".".join(self.path)

    @property
    def name(self) -> str:
        return self.path[-1]


@dataclass(frozen=True)
class DecisionSpec:
    """Where an event's decision sits in the JSON and which words it maps to."""

    path: tuple[str, ...]
    values: Mapping[str, str]
    """JSON value -> the event's decision word (PreToolUse's legacy ``approve`` -> ``allow``)."""
    reason_path: tuple[str, ...] | None
    reason_required: bool = False
    default_reason: str | None = None
    """The reason a decision without one carries (Stop's reasonless block: "Blocked by hook")."""


@dataclass(frozen=True)
class EvaluatorSpec:
    """What a prompt or agent evaluator's ``{ok: false}`` does on this event."""

    on_false: str | None
    """The decision word ``ok: false`` gives, or None when it has no effect."""
    ends_turn: bool = False
    """Without continueOnBlock the turn ends too (PreToolUse)."""
    honours_impossible: bool = False


@dataclass(frozen=True)
class TextCap:
    """The length cap on additionalContext, systemMessage and plain stdout."""

    chars: int
    preview_chars: int
    note: str


@dataclass(frozen=True)
class EventSpec:
    """One hook event as Claude Code ``checked_against`` runs it."""

    name: str
    fires_when: str
    added: str | None
    checked_against: str
    """The Claude Code version this entry's rules were last checked against."""
    matcher_field: str | None
    """Payload field compared with the matcher; None = no matcher support (silently ignored)."""
    matcher_values: tuple[str, ...]
    narrow_exact: bool
    matcher_compares_basename: bool
    is_tool_event: bool
    handler_types: tuple[str, ...]
    input_fields: tuple[str, ...]
    optional_input_fields: tuple[str, ...]
    has_permission_mode: bool
    can_block: bool
    exit2_decision: str | None
    """The decision word exit 2 gives, or None when exit 2 decides nothing here."""
    exit2_stderr_to: Recipient
    exit2_effect: str
    failures: Failures
    nonzero_fails: bool
    json_discarded: bool
    hook_specific_ignored_on_exit2: bool
    plain_stdout: PlainStdout
    decision: DecisionSpec | None
    legacy_decision: DecisionSpec | None
    precedence: tuple[str, ...]
    """Decision words, most restrictive first."""
    blocking_decisions: tuple[str, ...]
    reason_to: Mapping[str, Recipient]
    decision_notes: Mapping[str, str]
    """What a winning decision word means beyond blocking or not (PreToolUse's defer)."""
    output_fields: tuple[FieldSpec, ...]
    universal_fields: tuple[FieldSpec, ...]
    """Universal fields this event honours."""
    discarded_universal: tuple[str, ...]
    system_message_to: Recipient
    unblockable_when: Mapping[str, tuple[str, ...]]
    """Payload field -> values where a block is not honoured (ConfigChange's policy_settings)."""
    stop_loop: bool
    evaluator: EvaluatorSpec | None
    timeouts_s: Mapping[str, float]
    shared_budget_s: tuple[float, float] | None
    """SessionEnd's (base, max) budget shared by all its hooks."""
    notes: tuple[str, ...]
    text_cap: TextCap
    if_condition: bool = False
    """A handler's ``if`` is evaluated here (six events); elsewhere such a handler never runs."""
    guard: bool = False
    """A malformed entry under this event voids its whole settings file (2.1.332)."""
    continue_false_after_action: bool = False
    """``continue: false`` lets the action run, then stops the run (PreToolUse)."""
    exit2_cancels_siblings: bool = False
    """A hook that exits 2 cancels the hooks still running (UserPromptSubmit)."""
    context_without_query: bool = False
    """The hook texts the model is shown (additionalContext, a blocking error) name the
    bare event (``SessionStart hook ...``, ``SubagentStop hook ...``), not event:query."""
    feedback_event: str | None = None
    """The event a stop-loop continuation's feedback names, when not this one
    (SubagentStop's reads ``Stop hook feedback:``, 2.1.332)."""
    missing_script_not_blocking: bool = False
    """Exit 2 from a hook script that is missing does not block (Stop and the like)."""
    block_stops_run: bool = False
    """A block ends the agentic loop (PostToolBatch: terminal_reason hook_stopped)."""
    contexts_joined: bool = False
    """The hooks' additionalContexts are one text, joined with newlines (PreToolUse,
    SessionStart); elsewhere each hook's is a text of its own (2.1.332)."""
    system_message_silent_in_print: bool = False
    """In print mode a ``systemMessage`` is shown nowhere (SessionStart, 2.1.332)."""
    context_silent_in_print: bool = False
    """In print mode the hooks' context reaches no model request (Setup, 2.1.332)."""
    on_failure_ignored: bool = False
    """``onFailure: "block"`` has no effect here (Stop, SubagentStop, TaskCompleted, ...)."""

    @property
    def plain_stdout_is_context(self) -> bool:
        return self.plain_stdout is PlainStdout.CONTEXT

    def default_timeout_s(self, handler_type: str) -> float:
        """Seconds a handler of this type may run on this event when it sets no ``timeout``.

        SessionEnd returns its shared base budget; raise it with ``shared_budget_for``.
        """
        if handler_type not in self.handler_types:
            raise ValueError(f"{self.name} does not run {handler_type!r} hooks")
        if self.shared_budget_s is not None:
            return self.shared_budget_s[0]
        return self.timeouts_s[handler_type]

    def shared_budget_for(self, configured_timeouts_s: Iterable[float]) -> float | None:
        """SessionEnd's budget: the base, raised to the largest configured timeout, capped."""
        if self.shared_budget_s is None:
            return None
        base, ceiling = self.shared_budget_s
        return min(ceiling, max([base, *configured_timeouts_s]))

    def required_payload_fields(self, common: Iterable[str]) -> tuple[str, ...]:
        """Every field a payload for this event must carry, common ones first."""
        mode = ("permission_mode",) if self.has_permission_mode else ()
        return (*common, *mode, *self.input_fields)


def _path(dotted: str) -> tuple[str, ...]:
    return tuple(dotted.split("."))


def _field(raw: Mapping[str, Any]) -> FieldSpec:
    return FieldSpec(
        path=_path(raw["path"]),
        type=FieldType(raw["type"]),
        role=FieldRole(raw["role"]),
        when=tuple(raw.get("when", ())),
        capped=bool(raw.get("capped", False)),
        note=raw.get("note", ""),
    )


def _decision(raw: Mapping[str, Any] | None) -> DecisionSpec | None:
    if raw is None:
        return None
    reason = raw.get("reason")
    return DecisionSpec(
        path=_path(raw["path"]),
        values=dict(raw["values"]),
        reason_path=_path(reason) if reason else None,
        reason_required=bool(raw.get("reason_required", False)),
        default_reason=raw.get("default_reason"),
    )


def _evaluator(raw: Mapping[str, Any] | None) -> EvaluatorSpec | None:
    if raw is None:
        return None
    return EvaluatorSpec(
        on_false=raw["on_false"],
        ends_turn=bool(raw.get("ends_turn", False)),
        honours_impossible=bool(raw.get("honours_impossible", False)),
    )


def _event(raw: Mapping[str, Any], document: Mapping[str, Any]) -> EventSpec:
    matcher = raw["matcher"] or {}
    decision = raw.get("decision")
    exit2 = raw["exit2"]
    exit2_decision = exit2["decision"]
    default_words = (exit2_decision,) if exit2_decision else ()
    word_order = tuple(raw.get("precedence", default_words or ("block",)))
    discarded = tuple(raw.get("discarded_universal", ()))
    universal = tuple(
        _field(item) for item in document["universal_fields"] if item["path"] not in discarded
    )
    budget = raw.get("shared_budget_s")
    cap = document["text_cap"]
    return EventSpec(
        name=raw["name"],
        fires_when=raw["fires_when"],
        added=raw["added"],
        checked_against=raw["checked_against"],
        matcher_field=matcher.get("field"),
        matcher_values=tuple(matcher.get("values", ())),
        narrow_exact=bool(matcher.get("narrow", False)),
        matcher_compares_basename=matcher.get("compares") == "basename",
        is_tool_event=bool(raw["tool_event"]),
        handler_types=tuple(raw["handler_types"]),
        input_fields=tuple(raw["input"]["fields"]),
        optional_input_fields=tuple(raw["input"]["optional"]),
        has_permission_mode=bool(raw["input"]["permission_mode"]),
        can_block=bool(raw["can_block"]),
        exit2_decision=exit2_decision,
        exit2_stderr_to=Recipient(exit2["stderr_to"]),
        exit2_effect=exit2["effect"],
        failures=Failures(raw.get("failures", "notice")),
        nonzero_fails=bool(raw.get("nonzero_fails", False)),
        json_discarded=bool(raw.get("json_discarded", False)),
        hook_specific_ignored_on_exit2=bool(raw.get("hook_specific_ignored_on_exit2", False)),
        plain_stdout=PlainStdout(raw.get("plain_stdout", "debug_log")),
        decision=_decision(decision),
        legacy_decision=_decision((decision or {}).get("legacy")),
        precedence=word_order,
        blocking_decisions=tuple(raw.get("blocking", default_words or ("block",))),
        reason_to={word: Recipient(to) for word, to in raw.get("reason_to", {}).items()},
        decision_notes=dict(raw.get("decision_notes", {})),
        output_fields=tuple(_field(item) for item in raw["fields"]),
        universal_fields=universal,
        discarded_universal=discarded,
        system_message_to=Recipient(raw.get("system_message_to", "user")),
        unblockable_when={k: tuple(v) for k, v in raw.get("unblockable_when", {}).items()},
        stop_loop=bool(raw.get("stop_loop", False)),
        evaluator=_evaluator(raw.get("evaluator")),
        timeouts_s={**document["default_timeouts_s"], **raw.get("timeouts_s", {})},
        shared_budget_s=(budget["base"], budget["max"]) if budget else None,
        notes=tuple(raw.get("notes", ())),
        text_cap=TextCap(cap["chars"], cap["preview_chars"], cap["note"]),
        if_condition=bool(raw.get("if_condition", False)),
        guard=bool(raw.get("guard", False)),
        continue_false_after_action=bool(raw.get("continue_false_after_action", False)),
        exit2_cancels_siblings=bool(raw.get("exit2_cancels_siblings", False)),
        on_failure_ignored=bool(raw.get("on_failure_ignored", False)),
        block_stops_run=bool(raw.get("block_stops_run", False)),
        context_without_query=bool(raw.get("context_without_query", False)),
        feedback_event=raw.get("feedback_event"),
        missing_script_not_blocking=bool(raw.get("missing_script_not_blocking", False)),
        system_message_silent_in_print=bool(raw.get("system_message_silent_in_print", False)),
        context_silent_in_print=bool(raw.get("context_silent_in_print", False)),
        contexts_joined=bool(raw.get("contexts_joined", False)),
    )


@cache
def _document() -> Mapping[str, Any]:
    text = resources.files("hookcourse").joinpath("data/events.json").read_text("utf-8")
    document: Mapping[str, Any] = json.loads(text)
    return document


@cache
def load_catalogue() -> Mapping[str, EventSpec]:
    """Every event, by name, in the reference's table order."""
    document = _document()
    return {raw["name"]: _event(raw, document) for raw in document["events"]}


@cache
def observed_modes() -> Mapping[str, Mapping[str, int]]:
    """Per event, how many recorded scenarios of each mode (``print``, ``interactive``)
    saw the real Claude Code fire it (``data/events_observed.json``, generated from the
    scenario corpus's record); an event never seen is absent."""
    text = resources.files("hookcourse").joinpath("data/events_observed.json").read_text("utf-8")
    events: Mapping[str, Mapping[str, list[str]]] = json.loads(text)["events"]
    return {name: {mode: len(ids) for mode, ids in modes.items()} for name, modes in events.items()}


def _checked_text(spec: EventSpec) -> str:
    """Whether the real binary was seen firing the event, and in which modes (no counts:
    a scenario more does not change what a learner's stored notebook says)."""
    counts = observed_modes().get(spec.name, {})
    seen = [
        words
        for mode, words in (("print", "print mode"), ("interactive", "the interactive interface"))
        if counts.get(mode)
    ]
    if not seen:
        return (
            f"not observed on Claude Code {spec.checked_against} (no offline run reached it): "
            "these facts come from the hooks reference"
        )
    return f"against Claude Code {spec.checked_against}: seen firing in {' and '.join(seen)}"


def checked_against() -> str:
    """The Claude Code version the catalogue as a whole was checked against."""
    version: str = _document()["checked_against"]
    return version


def tool_aliases() -> Mapping[str, str]:
    """Legacy tool name -> the tool's current name (``Task`` -> ``Agent``)."""
    names: Mapping[str, str] = _document()["tool_aliases"]["names"]
    return names


@dataclass(frozen=True)
class ToolSchema:
    """A built-in tool's input: required and optional keys with their JSON types."""

    required: Mapping[str, FieldType]
    optional: Mapping[str, FieldType]
    defaults: Mapping[str, Any]
    """Keys Claude Code fills in before PreToolUse when the model left them out."""
    complete: bool = False
    """Every key the tool takes is listed, so a rewrite's other keys are dropped."""


@cache
def tool_schemas() -> Mapping[str, ToolSchema]:
    """The built-in tools whose input a hook's ``updatedInput`` is checked against."""
    return {
        name: ToolSchema(
            {key: FieldType(kind) for key, kind in raw["required"].items()},
            {key: FieldType(kind) for key, kind in raw["optional"].items()},
            dict(raw.get("defaults", {})),
            bool(raw.get("complete", False)),
        )
        for name, raw in _document()["tool_input_schemas"]["tools"].items()
    }


@dataclass(frozen=True)
class PermissionFacts:
    """The permission step's data: which commands need no approval, and its refusal texts."""

    shell: Mapping[str, Any]
    """Which simple shell commands need no approval (read by engine/permissions.py)."""
    allow_rule_covers: Mapping[str, frozenset[str]]
    trust_file: str
    refusals: Mapping[str, str]
    tools_not_offered: Mapping[str, str]
    """Tools print mode does not offer: the name, and what to use instead."""
    skill_roots: tuple[str, ...]
    read_first: Mapping[str, str]
    """Tools that refuse a file the session has not Read: the tool, and its path field."""

    def refusal(self, name: str, **values: str) -> str:
        """One refusal text (what the model gets for a call that does not run), filled in."""
        # Loaded here: the catalogue alone does not load the release model.
        from .versions import refusal_text

        return refusal_text(name, values, self.refusals[name].format(**values))


@cache
def permission_facts() -> PermissionFacts:
    """The catalogue's ``permissions`` section."""
    raw = _document()["permissions"]
    return PermissionFacts(
        raw["shell"],
        {tool: frozenset(covers) for tool, covers in raw["allow_rule_covers"].items()},
        raw["trust_file"],
        dict(raw["refusals"]),
        dict(raw["tools_not_offered"]),
        tuple(raw["skill_roots"]),
        dict(raw["read_first"]),
    )


def hook_env_facts() -> Mapping[str, Any]:
    """The catalogue's ``hook_env`` section: observed variables given to command hooks."""
    facts: Mapping[str, Any] = _document()["hook_env"]
    return facts


def model_text(name: str, **values: str) -> str:
    """One of Claude Code's texts for the model (``model_texts`` in the catalogue), filled in."""
    template: str = _document()["model_texts"][name]
    return template.format(**values)


def common_input_fields() -> tuple[str, ...]:
    """Fields every payload carries: session_id, transcript_path, cwd, hook_event_name."""
    return tuple(_document()["common_input_fields"]["required"])


def optional_common_fields(spec: EventSpec) -> tuple[str, ...]:
    """Common fields a payload may carry (``effort`` only in a tool context)."""
    common = _document()["common_input_fields"]
    extra = common["tool_context_optional"] if spec.is_tool_event else []
    return (*common["optional"], *extra)


def get_event(name: str) -> EventSpec | None:
    """The event called exactly ``name`` (case-sensitive, as in settings), or None."""
    return load_catalogue().get(name)


def event_spec(name: str) -> EventSpec:
    """The event called ``name``; InputError naming the closest event name otherwise."""
    spec = get_event(name)
    if spec is None:
        close = difflib.get_close_matches(name, list(load_catalogue()), n=1)
        fix = f"did you mean {close[0]}?" if close else "run `hookcourse events` for the list"
        raise InputError("EVENT", f"{quote(name)} is not a hook event", fix)
    return spec


_RECIPIENT_TEXT = {
    Recipient.CLAUDE: "Claude",
    Recipient.USER: "the user",
    Recipient.SUBAGENT: "the subagent's transcript",
    Recipient.TERMINAL: "a terminal notification",
    Recipient.DEBUG_LOG: "the debug log",
    Recipient.NOWHERE: "nowhere",
    Recipient.UNSTATED: "(the reference does not say)",
}


def recipient_text(recipient: Recipient) -> str:
    """``Recipient.USER`` -> ``"the user"``."""
    return _RECIPIENT_TEXT[recipient]


def _matcher_text(spec: EventSpec) -> str:
    if spec.matcher_field is None:
        return "none (a matcher here is silently ignored; the hook fires every time)"
    compared = f"basename of {spec.matcher_field}" if spec.matcher_compares_basename else None
    text = compared or spec.matcher_field
    if spec.matcher_values:
        text += f" ({', '.join(spec.matcher_values)})"
    if spec.narrow_exact:
        text += "; narrow exact set: letters, digits, _ and | only"
    return text


def _decision_text(spec: EventSpec) -> str:
    decision = spec.decision
    if decision is None:
        if spec.exit2_decision:
            return f"none in the JSON; exit 2 gives {spec.exit2_decision}"
        return "none"
    words = " | ".join(decision.values)
    text = f"{'.'.join(decision.path)}: {words}"
    if decision.reason_path:
        required = " (required)" if decision.reason_required else ""
        if decision.default_reason:
            required = f" (without one: {quote(decision.default_reason)})"
        text += f"; reason in {'.'.join(decision.reason_path)}{required}"
    if len(spec.precedence) > 1:
        text += f"; between hooks {' > '.join(spec.precedence)}"
    legacy = spec.legacy_decision
    if legacy is not None:
        mapped = ", ".join(f"{old} -> {new}" for old, new in legacy.values.items())
        text += f"; deprecated top-level {'.'.join(legacy.path)}: {mapped}"
    return text


def _fields_text(spec: EventSpec) -> str:
    if spec.json_discarded:
        return "none; the JSON is discarded"
    parts = []
    for item in spec.output_fields:
        extras = [f"with {'/'.join(item.when)}"] if item.when else []
        if item.note:
            extras.append(item.note)
        parts.append(item.dotted + (f" ({'; '.join(extras)})" if extras else ""))
    return ", ".join(parts) or "no event-specific fields"


_PLAIN_TEXT = {
    PlainStdout.CONTEXT: "added to Claude's context",
    PlainStdout.DEBUG_LOG: "goes to the debug log only",
    PlainStdout.WORKTREE_PATH: "its last non-empty line is the worktree path",
}


def event_facts(spec: EventSpec) -> list[tuple[str, str]]:
    """One event as labelled facts: what ``hookcourse events NAME`` prints, line by line."""
    since = f" (added in {spec.added})" if spec.added else ""
    timeouts = ", ".join(f"{kind} {spec.timeouts_s[kind]:g} s" for kind in spec.handler_types)
    if spec.shared_budget_s is not None:
        base, ceiling = spec.shared_budget_s
        timeouts = (
            f"all hooks share a {base:g} s budget, raised to the largest configured "
            f"timeout up to {ceiling:g} s"
        )
    optional = f"; optional: {', '.join(spec.optional_input_fields)}"
    facts = [
        ("fires", f"{spec.fires_when}{since}"),
        ("matcher", _matcher_text(spec)),
        (
            "if field",
            "evaluated" if spec.if_condition else "not evaluated: a handler with it never runs",
        ),
        ("checked", _checked_text(spec)),
        ("handlers", f"{', '.join(spec.handler_types)}; default timeouts: {timeouts}"),
        (
            "input",
            ", ".join(spec.input_fields) + (optional if spec.optional_input_fields else ""),
        ),
        ("can block", "yes" if spec.can_block else "no"),
        ("exit 2", spec.exit2_effect),
        ("decision", _decision_text(spec)),
        ("output", _fields_text(spec)),
        ("plain stdout", _PLAIN_TEXT[spec.plain_stdout]),
    ]
    if spec.discarded_universal:
        facts.append(("discarded", ", ".join(spec.discarded_universal)))
    facts.extend(("note", note) for note in spec.notes)
    return facts


def describe_event(spec: EventSpec) -> str:
    """The text ``hookcourse events NAME`` prints: one labelled line per aspect."""
    facts = event_facts(spec)
    first = f"{spec.name}: {facts[0][1]}"
    return "\n".join([first] + [f"  {label + ':':<13} {value}" for label, value in facts[1:]])


_TABLE_HEADINGS = ("event", "matcher field", "blocks", "handlers", "exit 2")


def describe_events(specs: Iterable[EventSpec]) -> str:
    """A compact table, one row per event, for ``hookcourse events`` with no name."""
    rows = [_TABLE_HEADINGS] + [
        (
            spec.name,
            spec.matcher_field or "-",
            "yes" if spec.can_block else "no",
            "all five" if len(spec.handler_types) == 5 else ", ".join(spec.handler_types),
            spec.exit2_effect,
        )
        for spec in specs
    ]
    widths = [max(len(row[column]) for row in rows) for column in range(4)]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(row[:4], widths, strict=True))
        + "  "
        + row[4]
        for row in rows
    )
