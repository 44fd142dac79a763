"""Rules on one handler's fields: its type, ``if``, ``async``, timeout."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from .registry import Hit, Scope, Severity, rule
from .sites import HandlerSite

MILLISECONDS_FROM: Final = 1000
"""A timeout this large (in seconds: 16 minutes and more) and round (a multiple of 500), or
over an hour, was most likely meant in milliseconds; 1740 (29 minutes) may well be meant."""
HOUR: Final = 3600


@rule(
    "handler-type",
    Severity.ERROR,
    "§5: which handler types each event accepts; 2.1.332 §6.6",
    Scope.HANDLER,
    "a handler type the event does not run (http on SessionStart, agent on Notification)",
)
def handler_type(site: HandlerSite) -> Iterator[Hit]:
    handler, spec = site.handler, site.spec
    if handler.type not in spec.handler_types:
        yield site.hit(
            "type",
            f"{spec.name} does not run {handler.type} hooks, so this one never runs",
            f"use one of {', '.join(spec.handler_types)}",
        )


@rule(
    "if-not-tool-event",
    Severity.ERROR,
    "§5 and 2.1.332 §3.3: `if` is evaluated on six tool events; elsewhere the handler never runs",
    Scope.HANDLER,
    '"if" on an event that is not a tool event: the handler never runs',
)
def if_not_tool_event(site: HandlerSite) -> Iterator[Hit]:
    if site.handler.if_rule is not None and not site.spec.is_tool_event:
        yield site.hit(
            "if",
            f'"if" is checked only on tool events; on {site.spec.name} a handler with it '
            "never runs",
            'remove "if", or move the hook to a tool event',
        )


@rule(
    "async-not-command",
    Severity.ERROR,
    "§5: only command hooks can be async",
    Scope.HANDLER,
    "async or asyncRewake on an http, mcp_tool, prompt or agent handler: no effect",
)
def async_not_command(site: HandlerSite) -> Iterator[Hit]:
    kind = site.handler.type
    for key in ("async", "asyncRewake"):
        if key in site.raw and kind != "command":
            yield site.hit(
                key,
                f"{key} on the {kind} handler has no effect: only command hooks can be async",
                f"remove {key}, or make it a command hook",
            )


@rule(
    "async-guard",
    Severity.WARNING,
    "§5: async results arrive on the next turn and cannot block",
    Scope.HANDLER,
    "async on a PreToolUse, PermissionRequest or PreSkillShellCommand hook: it can never "
    "block or decide",
)
def async_guard(site: HandlerSite) -> Iterator[Hit]:
    handler = site.handler
    if not handler.is_async or not site.spec.guard:  # only a command handler can be async
        return
    key = "asyncRewake" if site.raw.get("asyncRewake") is True else "async"
    yield site.hit(
        key,
        f"an async {site.spec.name} hook runs in the background: its exit code and JSON "
        "come after the call has gone ahead, so it can never block or decide",
        f"remove {key} if this hook is a guard (keep it only for logging)",
    )


@rule(
    "continue-on-block-agent",
    Severity.WARNING,
    "§5: agent hooks have no continueOnBlock; they behave as if it were true",
    Scope.HANDLER,
    "continueOnBlock on an agent hook: no effect",
)
def continue_on_block_agent(site: HandlerSite) -> Iterator[Hit]:
    if "continueOnBlock" in site.raw and site.handler.type == "agent":
        yield site.hit(
            "continueOnBlock",
            "agent hooks have no continueOnBlock: they always behave as if it were true",
            "remove continueOnBlock",
        )


@rule(
    "timeout-milliseconds",
    Severity.WARNING,
    "§5: timeout, in seconds; §10.7: several plugins set it in milliseconds",
    Scope.HANDLER,
    "a timeout of 1000 or more that is round (a multiple of 500) or over an hour: seconds, "
    "most likely meant as milliseconds",
)
def timeout_milliseconds(site: HandlerSite) -> Iterator[Hit]:
    seconds = site.handler.timeout_s
    if seconds is None or seconds < MILLISECONDS_FROM:
        return
    if seconds % 500 == 0 or seconds > HOUR:
        yield site.hit(
            "timeout",
            f"timeout {seconds:g} is in seconds ({seconds / 60:,.0f} minutes); it looks like "
            "milliseconds",
            f'write "timeout": {seconds / 1000:g} if you meant {seconds:g} ms',
        )
