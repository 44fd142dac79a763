"""The output schema: which JSON a hook may print on an event, checked before it is read.

Reference §3a: stdout counts as JSON only when, trimmed, it starts with ``{`` and
parses to an object; valid JSON that fails the event's schema is a non-blocking
"hook error" and is ignored. The schema is the event's catalogue entry: its output
fields and their types, its decision field and words, the universal fields, and
``hookSpecificOutput.hookEventName``. Pure.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from hookcourse.engine.catalogue import EventSpec, FieldType
from hookcourse.js.json import JSONSyntaxError, parse, quote, stringify
from hookcourse.js.values import UNDEFINED, JSValue, Undefined, is_js_number, js_trim
from hookcourse.stages.decoding import describe_value


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


def lookup(document: Mapping[str, JSValue], path: tuple[str, ...]) -> JSValue | Undefined:
    node: JSValue | Undefined = dict(document)
    for step in path:
        if not isinstance(node, dict):
            return UNDEFINED
        node = node.get(step, UNDEFINED)
    return node


TYPE_RULES: Final[dict[FieldType, tuple[Callable[[JSValue], bool], str]]] = {
    FieldType.STRING: (lambda v: isinstance(v, str), "a string"),
    FieldType.BOOLEAN: (lambda v: isinstance(v, bool), "true or false"),
    FieldType.OBJECT: (lambda v: isinstance(v, dict), "an object"),
    FieldType.ARRAY: (lambda v: isinstance(v, list), "an array"),
    FieldType.STRING_LIST: (
        lambda v: isinstance(v, list) and all(isinstance(item, str) for item in v),
        "an array of strings",
    ),
    FieldType.NUMBER: (is_js_number, "a number"),
    FieldType.ANY: (lambda v: True, "any JSON value"),
}

_EVENT_NAME_PATH: Final = ("hookSpecificOutput", "hookEventName")


def _decision_specs(event: EventSpec) -> list[tuple[tuple[str, ...], tuple[str, ...] | None]]:
    return [
        (spec.path, spec.reason_path)
        for spec in (event.decision, event.legacy_decision)
        if spec is not None
    ]


def known_paths(event: EventSpec) -> set[tuple[str, ...]]:
    known = {item.path for item in (*event.output_fields, *event.universal_fields)}
    known.add(_EVENT_NAME_PATH)
    for path, reason_path in _decision_specs(event):
        known.add(path)
        if reason_path is not None:
            known.add(reason_path)
    return known


def containers(known: set[tuple[str, ...]]) -> set[tuple[str, ...]]:
    return {path[:end] for path in known for end in range(1, len(path))}


def schema_errors(event: EventSpec, document: Mapping[str, JSValue]) -> list[str]:
    """Why ``document`` fails this event's output schema; empty when it passes."""
    errors: list[str] = []
    known = known_paths(event)
    for container in sorted(containers(known)):
        value = lookup(document, container)
        if not isinstance(value, Undefined | dict):
            errors.append(f"{'.'.join(container)} must be an object, got {describe_value(value)}")
    if isinstance(document.get("hookSpecificOutput"), dict):
        name = lookup(document, _EVENT_NAME_PATH)
        if name != event.name:
            found = "is missing" if isinstance(name, Undefined) else f"is {stringify(name)}"
            errors.append(
                f"hookSpecificOutput.hookEventName {found}; it must be {quote(event.name)}"
            )
    for item in (*event.output_fields, *event.universal_fields):
        value = lookup(document, item.path)
        check, wanted = TYPE_RULES[item.type]
        if not isinstance(value, Undefined) and not check(value):
            errors.append(f"{item.dotted} must be {wanted}, got {describe_value(value)}")
    for spec in (event.decision, event.legacy_decision):
        if spec is None:
            continue
        dotted = ".".join(spec.path)
        value = lookup(document, spec.path)
        if not isinstance(value, Undefined) and not (
            isinstance(value, str) and value in spec.values
        ):
            allowed = ", ".join(quote(word) for word in spec.values)
            errors.append(f"{dotted} must be one of {allowed}, got {stringify(value)}")
            continue
        if spec.reason_path is None:
            continue
        reason = lookup(document, spec.reason_path)
        reason_dotted = ".".join(spec.reason_path)
        if not isinstance(reason, Undefined | str):
            errors.append(f"{reason_dotted} must be a string, got {describe_value(reason)}")
        elif spec.reason_required and isinstance(value, str) and not reason:
            errors.append(f"{dotted} {quote(value)} needs a non-empty {reason_dotted}")
    return errors


def ignored_fields(
    document: Mapping[str, JSValue],
    known: set[tuple[str, ...]],
    containers: set[tuple[str, ...]],
    prefix: tuple[str, ...] = (),
) -> list[str]:
    ignored: list[str] = []
    for key, value in document.items():
        path = (*prefix, key)
        if path in containers and isinstance(value, dict):
            ignored.extend(ignored_fields(value, known, containers, path))
        elif path not in known:
            ignored.append(".".join(path))
    return ignored
