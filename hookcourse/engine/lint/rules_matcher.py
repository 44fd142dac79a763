"""Rules on a matcher group: is its matcher read at all, and does it select what it names.

A matcher is judged by the branch Claude Code takes for it, decided by the stage matcher's
own ``explain_match`` (rules ``claude-code``; the narrow exact set on FileChanged and
StopFailure), never by a second set of regexes.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator
from typing import Final

from hookcourse.js.json import quote
from hookcourse.js.regex import RegexEngine, regex_error
from hookcourse.stages.matcher_and_dispatch.reference import (
    MatchBranch,
    RuleSet,
    exact_names,
    explain_match,
)

from ..catalogue import EventSpec
from .facts import load_facts
from .registry import Hit, Scope, Severity, rule
from .sites import GroupSite

_CALL_SHAPE: Final = re.compile(r"([A-Za-z_][\w-]*)\((.*)\)", re.DOTALL)
_SPACED_PIPE: Final = re.compile(r" *\| *")
_WORD: Final = re.compile(r"[A-Za-z_]\w*")
_NO_SUCH_VALUE: Final = "\x00no such value\x00"


def _branch(matcher: str, spec: EventSpec) -> MatchBranch:
    return explain_match(matcher, "", RuleSet.CLAUDE_CODE, narrow=spec.narrow_exact).branch


def _matches(matcher: str, spec: EventSpec, value: str) -> bool:
    return explain_match(matcher, value, RuleSet.CLAUDE_CODE, narrow=spec.narrow_exact).matched


def _names(matcher: str, spec: EventSpec) -> list[str]:
    return exact_names(matcher, RuleSet.CLAUDE_CODE, spec.narrow_exact) or []


def _judged(site: GroupSite) -> str | None:
    """The matcher, when it is one a rule should judge (set, not match-all, supported)."""
    matcher = site.group.matcher
    if matcher is None or matcher in ("", "*") or site.spec.matcher_field is None:
        return None
    return matcher


def _is_regex(matcher: str, spec: EventSpec) -> bool:
    return _branch(matcher, spec) == MatchBranch.REGEX


def _compiles(matcher: str) -> bool:
    return regex_error(matcher, RegexEngine.BUN) is None


def _tools() -> frozenset[str]:
    return load_facts().tools


def permission_rule_tool(matcher: str, spec: EventSpec) -> str | None:
    """The tool a ``Tool(arguments)`` matcher names, when it is permission-rule syntax: a
    regex (for Claude Code) that does not even match the tool it names."""
    shape = _CALL_SHAPE.fullmatch(matcher)
    if shape is None or not spec.is_tool_event or not _is_regex(matcher, spec):
        return None
    tool = shape.group(1)
    if tool not in _tools() or (_compiles(matcher) and _matches(matcher, spec, tool)):
        return None
    return tool


def _tool_names_in(matcher: str) -> list[str]:
    """Known tool names written in a matcher's text, in order, once each."""
    seen: list[str] = []
    for word in _WORD.findall(matcher):
        if word in _tools() and word not in seen:
            seen.append(word)
    return seen


@rule(
    "matcher-ignored",
    Severity.WARNING,
    "§4: a matcher on an event that doesn't support one is silently ignored",
    Scope.GROUP,
    "a matcher on an event without matcher support (Stop, UserPromptSubmit, ...): the "
    "hooks run every time",
)
def matcher_ignored(site: GroupSite) -> Iterator[Hit]:
    matcher = site.group.matcher
    if matcher is None or matcher in ("", "*") or site.spec.matcher_field is not None:
        return
    if _matches(matcher, site.spec, "") and _matches(matcher, site.spec, _NO_SUCH_VALUE):
        return  # ".*" and the like: running every time is what it asks for
    yield site.hit(
        "matcher",
        f"{site.spec.name} has no matcher support, so the matcher {quote(matcher)} is "
        "ignored and the hooks run every time",
        "remove the matcher",
    )


@rule(
    "permission-rule-matcher",
    Severity.ERROR,
    '§4: matchers cannot test arguments; "Bash(git commit*)" as a matcher never fires',
    Scope.GROUP,
    "permission-rule syntax such as Bash(git commit*) as a matcher: a regex tested against "
    "the tool name, which matches nothing",
)
def permission_rule_matcher(site: GroupSite) -> Iterator[Hit]:
    matcher = _judged(site)
    tool = None if matcher is None else permission_rule_tool(matcher, site.spec)
    if matcher is None or tool is None:
        return
    yield site.hit(
        "matcher",
        f"{quote(matcher)} is permission-rule syntax; as a matcher it is a regex tested "
        f"against the tool name, and it matches no tool (not even {tool}), so these hooks "
        "never run",
        f'match {quote(tool)} and give each handler "if": {quote(matcher)}',
    )


@rule(
    "invalid-regex",
    Severity.ERROR,
    "§4: any other character: a JavaScript regex; 2.1.332 §3.1: an invalid one matches nothing",
    Scope.GROUP,
    "a regex matcher Bun cannot compile: it matches nothing",
)
def invalid_regex(site: GroupSite) -> Iterator[Hit]:
    matcher = _judged(site)
    if matcher is None or not _is_regex(matcher, site.spec):
        return
    if permission_rule_tool(matcher, site.spec) is not None:
        return
    error = regex_error(matcher, RegexEngine.BUN)
    if error is not None:
        yield site.hit(
            "matcher",
            f"{quote(matcher)} is a regex Bun cannot compile ({error}), so it matches nothing "
            "and these hooks never run",
            "fix the regular expression (Claude Code runs on Bun's engine)",
        )


def _matches_everything(matcher: str, site: GroupSite) -> bool:
    spec = site.spec
    if not _matches(matcher, spec, "") or not _matches(matcher, spec, _NO_SUCH_VALUE):
        return False
    values: Iterable[str] = _tools() if spec.is_tool_event else spec.matcher_values
    return all(_matches(matcher, spec, value) for value in values)


@rule(
    "match-all-alternative",
    Severity.ERROR,
    "§4: a regex is tested unanchored with RegExp.test; an empty alternative matches any text",
    Scope.GROUP,
    "a regex matcher with | whose empty (or match-all) alternative matches every value, "
    'such as tool == "Edit" || tool == "Write"',
)
def match_all_alternative(site: GroupSite) -> Iterator[Hit]:
    matcher = _judged(site)
    if matcher is None or "|" not in matcher or not _is_regex(matcher, site.spec):
        return
    if not _compiles(matcher) or not _matches_everything(matcher, site):
        return
    what = "tool" if site.spec.is_tool_event else site.spec.matcher_field or "value"
    named = _tool_names_in(matcher) if site.spec.is_tool_event else []
    fix = (
        f"list the names: {quote('|'.join(named))}"
        if named
        else "remove the empty alternative (an empty side of |, or a || )"
    )
    yield site.hit(
        "matcher",
        f"{quote(matcher)} is a regex, and one of its | alternatives is empty or matches "
        f"anything, so it matches every {what}: these hooks run on every {site.spec.name}",
        fix,
    )


@rule(
    "regex-matches-no-tool",
    Severity.WARNING,
    "§4: a regex matcher is tested against the tool name (tool events), case-sensitively",
    Scope.GROUP,
    "a regex matcher on a tool event that matches none of Claude Code's tool names (and "
    'cannot match an MCP tool), such as tool == "Bash"',
)
def regex_matches_no_tool(site: GroupSite) -> Iterator[Hit]:
    matcher = _judged(site)
    if matcher is None or not site.spec.is_tool_event or not _is_regex(matcher, site.spec):
        return
    if "mcp" in matcher.lower() or not _compiles(matcher):
        return
    if permission_rule_tool(matcher, site.spec) is not None:
        return
    if any(_matches(matcher, site.spec, tool) for tool in _tools()):
        return
    named = _tool_names_in(matcher)
    fix = f"match the tool names: {quote('|'.join(named))}" if named else "match tool names"
    if named and re.search(r"[=&!]|matches", matcher):
        fix += '; a condition on the arguments goes in each handler\'s "if"'
    yield site.hit(
        "matcher",
        f"{quote(matcher)} is a regex tested against the tool name, and it matches none of "
        "Claude Code's tools, so these hooks never run",
        fix,
    )


@rule(
    "bare-mcp-server",
    Severity.ERROR,
    "§4: MCP tools are named mcp__<server>__<tool>; a bare mcp__memory matches no tool",
    Scope.GROUP,
    "an exact mcp__server (or mcp__) matcher, which names no tool",
)
def bare_mcp_server(site: GroupSite) -> Iterator[Hit]:
    matcher = _judged(site)
    if matcher is None or not site.spec.is_tool_event:
        return
    for name in _names(matcher, site.spec):
        server = name[len("mcp__") :] if name.startswith("mcp__") else None
        if server is None or "__" in server.strip("_") or server.endswith("__"):
            continue
        if server.strip("_") == "":
            message = f"{quote(name)} is an exact name with no server and no tool in it"
            fix = f"match every MCP tool with {quote('mcp__.*')}"
        else:
            message = (
                f"{quote(name)} is an exact name, and no tool is called that: MCP tools are "
                f"named {name}__<tool>"
            )
            fix = f"match the whole server with {quote(name + '__.*')}"
        yield site.hit("matcher", message + ", so it never matches", fix)


@rule(
    "spaces-around-pipe",
    Severity.WARNING,
    "§4: FileChanged and StopFailure keep the narrow exact set (letters, digits, _ and |)",
    Scope.GROUP,
    "A | B on FileChanged or StopFailure, where the spaces make it a regex with the "
    "spaces in the names (.env | .envrc matches no file name without a space)",
)
def spaces_around_pipe(site: GroupSite) -> Iterator[Hit]:
    matcher = _judged(site)
    if matcher is None or not _is_regex(matcher, site.spec):
        return
    joined = _SPACED_PIPE.sub("|", matcher)
    if joined == matcher:
        return
    if _branch(joined, site.spec) == MatchBranch.EXACT:
        yield site.hit(
            "matcher",
            f"{quote(matcher)} has spaces around |: on {site.spec.name} only letters, digits, _ "
            "and | make a matcher exact, so this is a regex and the spaces are part of the names",
            f"write {quote(joined)}",
        )
    elif site.spec.matcher_compares_basename and " " not in joined:
        yield site.hit(
            "matcher",
            f"{quote(matcher)} is a regex with spaces around |: each alternative holds its "
            "space, so it matches only file names that have one",
            f"write {quote(joined)}",
        )


@rule(
    "unknown-tool",
    Severity.WARNING,
    "§4: matchers are case-sensitive and compare against tool_name; 2.1.332 §3.2 aliases",
    Scope.GROUP,
    "an exact tool matcher naming no Claude Code tool: the wrong case (write|edit), "
    "another agent's tool (apply_patch), or a typo, with did you mean",
)
def unknown_tool(site: GroupSite) -> Iterator[Hit]:
    matcher = _judged(site)
    if matcher is None or site.spec.matcher_field != "tool_name":
        return
    facts = load_facts()
    for name in _names(matcher, site.spec):
        if not name or name in facts.tools or name.startswith("mcp__"):
            continue
        by_case = [tool for tool in sorted(facts.tools) if tool.lower() == name.lower()]
        other = facts.other_agents_tools.get(name)
        if by_case:
            why, fix = "matchers are case-sensitive", f"write {quote(by_case[0])}"
        elif other is not None:
            why, fix = f"it is {other}'s name for a tool", "use Claude Code's tool names"
            equivalent = _equivalent(name)
            if equivalent:
                fix = f"match {quote(equivalent)}"
        else:
            close = difflib.get_close_matches(name, sorted(facts.tools), n=1, cutoff=0.7)
            why = "no Claude Code 2.1.332 tool is called that"
            fix = f"did you mean {quote(close[0])}?" if close else "match a tool name"
        yield site.hit(
            "matcher",
            f"{quote(name)} names no Claude Code tool ({why}), so it never matches",
            fix,
        )


def _equivalent(name: str) -> str:
    if name in ("apply_patch", "write_file", "replace", "edit_file", "str_replace_editor"):
        return "Edit|Write"
    if name in ("shell", "local_shell", "exec_command", "run_shell_command", "run_terminal_cmd"):
        return "Bash"
    if name in ("execute_command",):
        return "Bash"
    if name == "read_file":
        return "Read"
    return ""


@rule(
    "matcher-value-never-sent",
    Severity.WARNING,
    "§1a: the values each event's matcher field takes; 2.1.332 §1.5",
    Scope.GROUP,
    'a matcher value an event never sends (PreCompact "compact", SessionEnd '
    '"bypass_permissions_disabled"), so the group never runs for it',
)
def matcher_value_never_sent(site: GroupSite) -> Iterator[Hit]:
    matcher = _judged(site)
    facts = load_facts()
    spec = site.spec
    if matcher is None or spec.name not in facts.closed_matcher_events:
        return
    values = (*spec.matcher_values, *facts.added_matcher_values.get(spec.name, ()))
    if not values:
        return
    shown = ", ".join(quote(value) for value in values)
    if _is_regex(matcher, spec):
        if _compiles(matcher) and not any(_matches(matcher, spec, v) for v in values):
            yield site.hit(
                "matcher",
                f"{quote(matcher)} matches none of the {spec.matcher_field} values "
                f"{spec.name} sends ({shown}), so the group never runs",
                f"match one of {shown}",
            )
        return
    removed = facts.removed_matcher_values.get(spec.name, {})
    for name in _names(matcher, spec):
        if name in values:
            continue
        why = f" ({removed[name]})" if name in removed else ""
        close = [value for value in values if value.lower() == name.lower()]
        close = close or difflib.get_close_matches(name, list(values), n=1, cutoff=0.6)
        fix = f"did you mean {quote(close[0])}?" if close else f"use one of {shown}"
        yield site.hit(
            "matcher",
            f"{spec.name} never sends {spec.matcher_field} {quote(name)}{why}; it sends "
            f"{shown}, so this name never matches",
            fix,
        )


@rule(
    "if-on-group",
    Severity.ERROR,
    "§5: `if` is a handler field; SchemaStore $defs.hookMatcher has only matcher and hooks",
    Scope.GROUP,
    '"if" on the matcher group instead of the handler: ignored, so the hooks run on every '
    "matching call",
)
def if_on_group(site: GroupSite) -> Iterator[Hit]:
    if "if" not in site.raw:
        return
    condition = site.raw["if"]
    shown = quote(condition) if isinstance(condition, str) else "..."
    matcher = site.group.matcher
    scope = f"every {quote(matcher)} call" if matcher not in (None, "", "*") else "every call"
    yield site.hit(
        "if",
        f'a matcher group has no "if", so Claude Code ignores it and these hooks run on '
        f"{scope} of {site.spec.name}",
        f'move "if": {shown} into each handler of the group',
    )
