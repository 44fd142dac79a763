"""A built-in tool's input, as Claude Code 2.1.332 handles it around PreToolUse hooks.

Before the hooks run, the model's input is normalised (Edit gains
``replace_all: false``); after them, a hook's ``updatedInput`` is checked against
the tool's input schema (the catalogue's ``tool_input_schemas``), and a rewrite
that lacks a required key or gives a key the wrong type denies the call. Keys the
schema does not know are not an error. Pure.
"""

from __future__ import annotations

from hookcourse.js.json import quote, stringify
from hookcourse.js.values import JSValue
from hookcourse.stages.decoding import describe_value

from .catalogue import tool_schemas
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


def schema_problems(tool_name: str, value: JSValue) -> list[str]:
    """Why ``value`` is not a valid input for ``tool_name``; empty when it is (or unknown)."""
    schema = tool_schemas().get(tool_name)
    if schema is None:
        return []
    if not isinstance(value, dict):
        return [f"the input is {describe_value(value)}, not an object"]
    problems = [f"{quote(key)} is required" for key in schema.required if key not in value]
    for key, kind in {**schema.required, **schema.optional}.items():
        fits, wanted = TYPE_RULES[kind]
        if key in value and not fits(value[key]):
            problems.append(f"{quote(key)} must be {wanted}, got {describe_value(value[key])}")
    return problems
