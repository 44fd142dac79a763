"""A built-in tool's input, as Claude Code 2.1.332 handles it around PreToolUse hooks.

Before the hooks run, the model's input is normalised (Edit gains
``replace_all: false``); after them, a hook's ``updatedInput`` is checked against
the tool's input schema (the catalogue's ``tool_input_schemas``), and a rewrite
that lacks a required key or gives a key the wrong type denies the call. Keys the
schema does not know are not an error. A valid rewrite is normalised as the model's
input was, then checked as the tool checks its input (an Edit's ``old_string`` must be
in the file). Pure but for reading that file.
"""

from __future__ import annotations

import os

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


def tool_refusal(tool_name: str, tool_input: JSValue, cwd: str) -> str | None:
    """Why the tool's own input check refuses ``tool_input`` (2.1.332's words), or None:
    an Edit whose ``old_string`` is not in the file."""
    if tool_name != "Edit" or not isinstance(tool_input, dict):
        return None
    path, old = tool_input.get("file_path"), tool_input.get("old_string")
    if not isinstance(path, str) or not isinstance(old, str) or not old or "\0" in path:
        return None
    try:
        with open(os.path.join(cwd, path), encoding="utf-8", errors="replace") as stream:
            text = stream.read()
    except (OSError, ValueError):
        return None
    if old in text:
        return None
    return model_text("edit_old_string_missing", old=old)
