"""The facts validate checks against, read once from hookcourse/data/validate.json."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any


@dataclass(frozen=True)
class Facts:
    """Tool names, environment variables, known keys and script behaviour (see the JSON)."""

    tools: frozenset[str]
    other_agents_tools: dict[str, str]
    environment: frozenset[str]
    environment_prefixes: tuple[str, ...]
    invented_variables: frozenset[str]
    stdin_field: dict[str, str]
    event_only_variables: dict[str, tuple[str, ...]]
    """Variables Claude Code sets only for some events (CLAUDE_ENV_FILE)."""
    plugin_only_variables: frozenset[str]
    plugin_only_prefixes: tuple[str, ...]
    group_keys: frozenset[str]
    handler_keys: dict[str, frozenset[str]]
    plugin_file_keys: frozenset[str]
    key_hints: dict[str, str]
    documentation_keys: frozenset[str]
    """Keys people write as notes to the reader (JSON has no comments): ignored, harmless."""
    managed_only: tuple[str, ...]
    boolean_settings: tuple[str, ...]
    string_list_settings: tuple[str, ...]
    interpreters: dict[str, int]
    script_extensions: tuple[str, ...]
    closed_matcher_events: frozenset[str]
    added_matcher_values: dict[str, tuple[str, ...]]
    removed_matcher_values: dict[str, dict[str, str]]


@cache
def load_facts() -> Facts:
    raw: Any = json.loads(
        resources.files("hookcourse").joinpath("data/validate.json").read_text("utf-8")
    )
    environment = raw["environment"]
    keys = raw["keys"]
    return Facts(
        tools=frozenset(raw["tools"]["names"]),
        other_agents_tools=dict(raw["tools"]["other_agents"]["names"]),
        environment=frozenset(environment["set"]),
        environment_prefixes=tuple(environment["set_prefixes"]),
        invented_variables=frozenset(environment["invented"]["names"]),
        stdin_field=dict(environment["invented"]["stdin_field"]),
        event_only_variables={
            name: tuple(events)
            for name, events in environment["only_for_events"].items()
            if name != "reference"
        },
        plugin_only_variables=frozenset(environment["only_for_plugins"]["names"]),
        plugin_only_prefixes=tuple(environment["only_for_plugins"]["prefixes"]),
        group_keys=frozenset(keys["group"]),
        handler_keys={kind: frozenset(names) for kind, names in keys["handler"].items()},
        plugin_file_keys=frozenset(keys["plugin_file"]),
        key_hints=dict(keys["hints"]),
        documentation_keys=frozenset(keys["documentation"]),
        managed_only=tuple(raw["managed_only"]["keys"]),
        boolean_settings=tuple(raw["hook_settings"]["boolean"]),
        string_list_settings=tuple(raw["hook_settings"]["string_list"]),
        interpreters=dict(raw["scripts"]["interpreters"]),
        script_extensions=tuple(raw["scripts"]["extensions"]),
        closed_matcher_events=frozenset(raw["matcher_values"]["closed"]),
        added_matcher_values={
            event: tuple(values) for event, values in raw["matcher_values"]["added"].items()
        },
        removed_matcher_values=dict(raw["matcher_values"]["removed"]),
    )
