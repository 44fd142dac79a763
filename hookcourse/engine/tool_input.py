"""A built-in tool's input, as Claude Code 2.1.332 handles it around PreToolUse hooks.

Before the hooks run, the model's input is normalised (Edit gains
``replace_all: false``); after them, a hook's ``updatedInput`` is checked against
the tool's input schema (the catalogue's ``tool_input_schemas``), and a rewrite
that lacks a required key or gives a key the wrong type denies the call. Keys the
schema does not know are not an error. Pure.
"""

from __future__ import annotations

from hookcourse.js.json import stringify
from hookcourse.js.values import JSValue

from .catalogue import FieldType, model_text, tool_schemas
from .output_schema import TYPE_RULES


def normalised(tool_name: str, tool_input: JSValue) -> tuple[JSValue, tuple[str, ...]]:
    """The input the hooks receive: the tool's defaults filled in, and a note for each."""
    schema = tool_schemas().get(tool_name)
    if schema is None or not isinstance(tool_input, dict):
        return tool_input, ()
    missing = {key: value for key, value in schema.defaults.items() if key not in tool_input}
    notes = tuple(
        f"the {tool_name} input gains {key}: {stringify(value)} before the hooks see it, "
        "as Claude Code normalises it"
        for key, value in missing.items()
    )
    return {**tool_input, **missing}, notes


def _js_type(value: JSValue) -> str:
    """The type name 2.1.332's validation message gives a JSON value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object" if isinstance(value, dict) else "number"


_WANTED = {FieldType.STRING_LIST: "array"}


def schema_problems(tool_name: str, value: JSValue) -> list[str]:
    """Why ``value`` is not a valid input for ``tool_name``, one line each as Claude Code
    2.1.332 words it; empty when it is valid (or the tool's schema is not known)."""
    schema = tool_schemas().get(tool_name)
    if schema is None:
        return []
    if not isinstance(value, dict):
        return [f"The input must be an object, not {_js_type(value)}"]
    problems = [
        model_text("missing_parameter", key=key) for key in schema.required if key not in value
    ]
    for key, kind in {**schema.required, **schema.optional}.items():
        fits, _ = TYPE_RULES[kind]
        if key in value and not fits(value[key]):
            wanted = _WANTED.get(kind, str(kind))
            given = _js_type(value[key])
            problems.append(model_text("wrong_type", key=key, wanted=wanted, given=given))
    return problems


def known_keys_only(tool_name: str, value: JSValue) -> JSValue:
    """A rewrite with the keys the tool does not take dropped (tools with a complete schema)."""
    schema = tool_schemas().get(tool_name)
    if schema is None or not schema.complete or not isinstance(value, dict):
        return value
    known = {*schema.required, *schema.optional}
    return {key: item for key, item in value.items() if key in known}
