"""Claude Code releases as measured: which hook behaviour changed in which release.

The data (``hookcourse/data/claude_versions.json``) is generated from the version sweep
(``tests/claude_code/oracle.py changelog``): old releases run on a core set of scenarios
in a loopback-only namespace, every change bisected to the first release that showed
it. Each rule there carries ``since`` (the first release with the change) and, when a
later release undid it, ``until``.

``fire --claude-version X`` answers as release X did for the rules this module models
(``MODELLED``): an event whose hooks no measured release before ``since`` ran fires no
hook there, hooks written in ``--settings`` run only from the release where they were
first seen running, and a PreToolUse JSON deny reaches the model worded as that release
worded it. The other measured changes are listed by ``hookcourse versions`` and, per
release, as open disagreements of the replay test; they are not modelled yet.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, NamedTuple

from hookcourse.errors import InputError

MODELLED = (
    "event-arrives",
    "flag-hooks-arrive",
    "deny-text",
    "deny-blocking-text",
    "matcher-exact-chars",
    "contexts-joined",
    "exit2-cancels",
    "stop-context-continues",
    "reason-arrives",
    "env-var",
    "text-form",
    "tool-arrives",
    "default-mode",
    "auto-refusal-text",
    "agent-background",
    "own-subagents",
    "subagent-cut-off",
    "decision-arrives",
    "ask-rule-over-allow",
    "notice-arrives",
    "payload-key",
    "mismatch-keeps-decision",
    "field-arrives",
    "prompt-message-arrives",
    "exec-form-arrives",
    "write-blocked",
    "skill-asks",
    "rewrite-arrives",
    "flag-arrives",
    "exit2-text",
    "event-name-arrives",
    "unknown-name-dropped",
    "exit2-over-json",
    "continue-beside-deny",
    "refusal-text",
    "stop-cap-arrives",
    "input-field-arrives",
    "missing-script-arrives",
    "no-reason-text",
    "compound-rule-arrives",
    "stop-text-yields",
    "command-unknown",
    "check-arrives",
    "loads-arrive",
    "known-variable-arrives",
    "sibling-cancel",
    "write-verb-arrives",
    "changer-arrives",
    "denial-fallback",
    "untrusted-permissions",
    "on-failure-arrives",
    "if-arrives",
    "deny-rule-over-allow",
    "wildcard-rule-arrives",
    "write-need-arrives",
    "feedback-text",
    "write-phrase",
    "legacy-check",
    "blocked-part-first",
    "part-spacing",
    "part-braces",
    "read-only-arrives",
    "redirect-as-part",
    "redirect-unchecked",
    "max-turns-unchecked",
    "settings-dirs-arrive",
    "plan-check-arrives",
    "first-path-named",
    "verb-check",
    "json-like-arrives",
    "input-read-arrives",
    "flag-unchecked",
    "assignments-arrive",
    "assignment-unchecked",
    "quoted-variable-unchecked",
    "blocked-part-left-out",
    "classifier-takes-turn",
    "allow-outside-unchecked",
)
"""The kinds of rule ``fire --claude-version`` applies."""

_ANSWERING_AS: ContextVar[str | None] = ContextVar("claude_version", default=None)
"""The release ``fire`` answers as (None: the newest measured, whose behaviour the engine
models directly)."""


@dataclass(frozen=True)
class Rule:
    """One measured change: what it says, the events it concerns, from ``since`` on (and
    before ``until``, when a later release undid it)."""

    kind: str
    says: str
    events: tuple[str, ...]
    since: str
    previous: str
    exact: bool
    until: str | None
    scenarios: tuple[str, ...]
    facet: str = ""
    before: Any = None
    after: Any = None


@cache
def _ledger() -> Mapping[str, Any]:
    text = resources.files("hookcourse").joinpath("data/claude_versions.json").read_text("utf-8")
    data: Mapping[str, Any] = json.loads(text)
    return data


def releases() -> tuple[str, ...]:
    """Every measured release, oldest first (npm's order)."""
    return tuple(entry["version"] for entry in _ledger()["releases"] if entry.get("runnable"))


def newest() -> str:
    """The newest measured release: the one the engine models."""
    return releases()[-1]


def releases_on_npm() -> tuple[str, ...]:
    """Every release npm listed at the sweep, oldest first (measured or not)."""
    return tuple(_ledger()["npm"])


def order(version: str) -> int:
    """A release's place in npm's list (every release npm listed at the sweep)."""
    names: list[str] = _ledger()["npm"]
    return names.index(version)


def check_release(version: str) -> str:
    """``version`` if npm listed it within the measured span (a release the sweep did not
    run is answered from the changes bisected around it); InputError (one line) otherwise."""
    known = releases()
    if version in known:
        return version
    names = releases_on_npm()
    if version not in names:
        fix = f"use a release npm lists, {known[0]} to {known[-1]}, such as {known[-1]}"
        raise InputError("--claude-version", f"npm lists no Claude Code {version}", fix)
    if order(known[0]) < order(version) < order(known[-1]):
        at = order(version)
        for rule in _rules():
            # A change not bisected to its release leaves the releases inside its span
            # on no known side of it.
            if order(rule.previous) < at < order(rule.since):
                fix = f"use {rule.previous} or {rule.since}, between which it changed"
                raise InputError(
                    "--claude-version",
                    f"Claude Code {version} lies inside a change the sweep did not bisect "
                    f"({rule.says})",
                    fix,
                )
        return version
    fix = f"use a release from {known[0]} to {known[-1]}"
    raise InputError(
        "--claude-version", f"Claude Code {version} is outside the releases measured", fix
    )


def measured_around(version: str) -> tuple[str, str] | None:
    """For a release the sweep did not run: the measured releases just before and after
    it (None for a measured one)."""
    known = releases()
    if version in known:
        return None
    at = order(version)
    below = [v for v in known if order(v) < at]
    above = [v for v in known if order(v) > at]
    return below[-1], above[0]


def rules(event: str | None = None) -> tuple[Rule, ...]:
    """The measured rules, oldest first; with ``event``, those that concern it."""
    return tuple(rule for rule in _rules() if event is None or event in rule.events)


@cache
def _rules() -> tuple[Rule, ...]:
    return tuple(
        Rule(
            kind=item["kind"],
            says=item["says"],
            events=tuple(item["events"]),
            since=item["since"],
            previous=item["previous"],
            exact=item["exact"],
            until=item.get("until"),
            scenarios=tuple(item["scenarios"]),
            facet=item.get("facet", ""),
            before=item.get("before"),
            after=item.get("after"),
        )
        for item in _ledger()["rules"]
    )


def holds(rule: Rule, version: str) -> bool:
    """Whether release ``version`` behaves as ``rule`` says."""
    at = order(version)
    return order(rule.since) <= at and (rule.until is None or at < order(rule.until))


@contextmanager
def answering_as(version: str | None) -> Iterator[None]:
    """``fire`` answers as release ``version`` inside the block (None: the newest)."""
    token = _ANSWERING_AS.set(None if version is None else check_release(version))
    try:
        yield
    finally:
        _ANSWERING_AS.reset(token)


def answering() -> str | None:
    """The release ``fire`` answers as now (None: the newest measured)."""
    return _ANSWERING_AS.get()


def event_fires(event: str, version: str | None = None) -> bool:
    """Whether hooks of ``event`` run at all in release ``version`` (default: the one
    answered as): False before the release where the sweep first saw them run."""
    version = answering() if version is None else version
    if version is None:
        return True
    for rule in rules(event):
        if rule.kind == "event-arrives" and not holds(rule, version):
            return False
    return True


def flag_hooks_run(version: str | None = None) -> bool:
    """Whether hooks written in ``--settings`` run in release ``version`` (default: the
    one answered as): False before the release where the sweep first saw them run."""
    version = answering() if version is None else version
    if version is None:
        return True
    return all(holds(rule, version) for rule in rules() if rule.kind == "flag-hooks-arrive")


def deny_text(hook: str, tool: str, error: str, default: str) -> str:
    """The tool_result of a call a PreToolUse hook denied with JSON, as the release
    answered as words it (``default``: the newest's wording)."""
    version = answering()
    changes = [rule for rule in rules() if rule.kind == "deny-text"]
    if version is None or not changes:
        return default
    template = str(changes[0].before)
    for rule in changes:
        if holds(rule, version):
            template = str(rule.after)
    return template.replace("{hook}", hook).replace("{tool}", tool).replace("{error}", error)


CHARACTER_NAMES = {" ": "spaces", ",": "commas", "-": "hyphens"}
"""What the characters a release came to take in exact names are called in a note."""


def character_names(characters: str) -> str:
    """``" ,"`` as "spaces and commas"."""
    return " and ".join(CHARACTER_NAMES.get(c, repr(c)) for c in characters)


def exact_name_note(matcher: str | None, version: str | None = None) -> str | None:
    """Why ``matcher``, exact names in the newest release, was a regular expression in
    release ``version`` (default: the one answered as): the characters in it that exact
    names could not hold yet, with the release each arrived in; None where the release
    read it as the newest does."""
    version = answering() if version is None else version
    if version is None or matcher is None:
        return None
    late = [
        rule
        for rule in rules()
        if rule.kind == "matcher-exact-chars"
        and not holds(rule, version)
        and set(str(rule.after)) & set(matcher)
    ]
    if not late:
        return None
    arrived = "; ".join(
        f"{character_names(''.join(sorted(set(str(r.after)) & set(matcher))))} since {_when(r)}"
        for r in late
    )
    return (
        f"Claude Code {version} read {json.dumps(matcher)} as a regular expression, not as "
        f"exact names: exact names could hold {arrived} (changed in {late[0].since})"
    )


def contexts_joined(event: str, newest: bool) -> bool:
    """Whether several ``event`` hooks' additionalContexts reach the model as one text
    joined with newlines in the release answered as (``newest``: whether the newest
    joins them); before a measured ``contexts-joined`` rule, one text each."""
    return _event_trait("contexts-joined", event, newest)


def exit2_cancels(event: str, newest: bool) -> bool:
    """Whether an ``event`` hook's exit 2 cancels its siblings still running in the release
    answered as (``newest``: whether the newest does); before a measured
    ``exit2-cancels`` rule, they run to their end."""
    return _event_trait("exit2-cancels", event, newest)


def stop_context_continues(event: str) -> bool:
    """Whether a Stop or SubagentStop hook's additionalContext keeps the turn going in the
    release answered as (as in the newest); before a measured ``stop-context-continues``
    rule, the turn ended and the context reached no model."""
    return _event_trait("stop-context-continues", event, True)


def _event_trait(kind: str, event: str, newest: bool) -> bool:
    """Whether the release answered as has what the ``kind`` rules of ``event`` measured
    arriving (``newest`` where no rule of it was measured, or answering as the newest)."""
    version = answering()
    arrivals = [rule for rule in rules(event) if rule.kind == kind]
    if version is None or not arrivals:
        return newest
    return all(holds(rule, version) for rule in arrivals)


def _when(rule: Rule) -> str:
    """The release a change arrived in, or the two stored releases it lies between."""
    return rule.since if rule.exact else f"{rule.since} (not yet in {rule.previous})"


TEXT_FORM = re.compile(
    r"^(\w+)(?::\S*)? hook (success: Success$|success|additional context"
    r"|blocking error from command|feedback)"
)
"""A hook text the model is shown: its event and its form (``success: Success`` is the
text a JSON answer got, in the releases that showed one)."""


def text_form(text: str) -> tuple[str, str] | None:
    """The event and form of a hook text the model is shown (None: not a hook text)."""
    found = TEXT_FORM.match(text)
    return None if found is None else (found.group(1), found.group(2))


def text_shown(event: str, form: str) -> bool | None:
    """Whether the release answered as shows ``event`` hooks' texts of ``form`` to the
    model, as the last measured change of that form up to it left it (before its first
    change, as that change found it); None: as the newest release, where no measured
    change says otherwise."""
    return _state("text-form", f"modelTexts[{event}/{form}]", answering())


def missing_tool(tool: str, tool_input: object = None) -> tuple[str, str] | None:
    """When the release answered as had no tool called ``tool``, or required a parameter
    ``tool_input`` (an object, when given) lacks: the tool_result a call to it got, and why
    (naming the release that changed it); None when it took the call."""
    version = answering()
    if version is None:
        return None
    for rule in rules():
        if rule.after != tool or holds(rule, version):
            continue
        if rule.kind == "tool-arrives":
            why = (
                f"Claude Code {version} had no {tool} tool: the version sweep first found it in "
                f"{_when(rule)} (changed in {rule.since})"
            )
            return str(rule.before).replace("{tool}", tool), why
        required = rule.facet.rpartition(".")[2]
        lacks = isinstance(tool_input, dict) and required not in tool_input
        if rule.kind == "input-field-arrives" and lacks:
            why = (
                f"Claude Code {version}'s {tool} tool required `{required}`: the version sweep "
                f"first saw a call without it run in {_when(rule)} (changed in {rule.since})"
            )
            return str(rule.before).replace("{tool}", tool), why
    return None


def decision_note(decision: str | None) -> str | None:
    """Why the release answered as let a PreToolUse hook's ``decision`` go unheeded in print
    mode (the call went on as if the hook had not answered); None where it heeded it."""
    version = answering()
    if version is None or decision is None:
        return None
    for rule in rules():
        if rule.kind == "decision-arrives" and rule.after == decision and not holds(rule, version):
            return (
                f"Claude Code {version} went on as if the hook had not answered "
                f"{json.dumps(decision)}: the version sweep first saw it decide in "
                f"{_when(rule)} (changed in {rule.since})"
            )
    return None


def allow_lifts_ask_rule() -> bool:
    """Whether, in the release answered as, a PreToolUse hook's allow lifted a matching
    ``ask`` rule in print mode (before the ``ask-rule-over-allow`` rule's release)."""
    version = answering()
    if version is None:
        return False
    return any(not holds(rule, version) for rule in rules() if rule.kind == "ask-rule-over-allow")


def notices_shown() -> bool:
    """Whether print mode, in the release answered as, shows the user a hook's
    ``systemMessage`` (False before the ``notice-arrives`` rule's release)."""
    version = answering()
    if version is None:
        return True
    return all(holds(rule, version) for rule in rules() if rule.kind == "notice-arrives")


def mismatch_keeps_decision() -> bool:
    """Whether a top-level ``decision`` still decides beside a ``hookSpecificOutput`` that
    names another event, in the release answered as (before the
    ``mismatch-keeps-decision`` rule's release the whole answer was ignored)."""
    version = answering()
    if version is None:
        return True
    kept = (rule for rule in rules() if rule.kind == "mismatch-keeps-decision")
    return all(holds(rule, version) for rule in kept)


def field_heeded(event: str, field: str) -> bool:
    """Whether the release answered as heeds ``event`` hooks' output ``field`` (False
    before a ``field-arrives`` rule's release)."""
    version = answering()
    facet = f"output[{event}].{field}"
    arrived = (rule for rule in rules() if rule.kind == "field-arrives" and rule.facet == facet)
    return version is None or all(holds(rule, version) for rule in arrived)


def prompt_message_shown(event: str) -> bool:
    """Whether the release answered as tells the user why an ``event`` hook blocked the
    prompt (False before a ``prompt-message-arrives`` rule of the event: an empty text)."""
    version = answering()
    arrived = (r for r in rules(event) if r.kind == "prompt-message-arrives")
    return version is None or all(holds(rule, version) for rule in arrived)


def deny_shown_as_blocking() -> bool:
    """Whether the release answered as also shows a PreToolUse JSON deny to the model as a
    blocking error (the releases between a ``deny-blocking-text`` rule's since and until)."""
    version = answering()
    if version is None:
        return False
    return any(holds(rule, version) for rule in rules() if rule.kind == "deny-blocking-text")


def terminal_reason(reason: str | None) -> str | None:
    """The ``terminal_reason`` a run that ended for ``reason`` puts on its result line in
    the release answered as: none before the release where the sweep first saw one (a
    blocked prompt and a run that never started are the course's own names for a run
    without a request: kept)."""
    version = answering()
    if version is None or reason in ("prompt_blocked", "not_started"):
        return reason
    arrived = all(holds(rule, version) for rule in rules() if rule.kind == "reason-arrives")
    return reason if arrived else None


def default_mode() -> str | None:
    """The permission mode a session given none ran in, in the release answered as, where a
    ``default-mode`` rule holds (None: as the newest, ``default``)."""
    version = answering()
    if version is None:
        return None
    held = [rule for rule in rules() if rule.kind == "default-mode" and holds(rule, version)]
    return str(held[-1].after) if held else None


def auto_refusal_text(tool: str, default: str) -> str:
    """The tool_result of a call to ``tool`` auto mode refused because its check gave no
    verdict, as the release answered as worded it (``default``: the newest's wording)."""
    return _worded("auto-refusal-text", {"{tool}": tool}, default)


def agent_in_background() -> bool:
    """Whether the Agent tool launches its subagent in the background in the release
    answered as (its completion starts one more main turn); before an
    ``agent-background`` rule's release the call waited for the subagent."""
    version = answering()
    arrived = (rule for rule in rules() if rule.kind == "agent-background")
    return version is None or all(holds(rule, version) for rule in arrived)


class OwnSubagents(NamedTuple):
    """The subagents a release started on its own at startup."""

    agents: tuple[str | None, ...]
    """Their agent types (None for one no SubagentStart hook saw)."""
    requests: int
    """The model requests each made, as the sweep counts them (0 where not the same on
    every release of the rule)."""
    heard: bool
    """Whether their hooks' texts reached a model."""


def own_subagents() -> OwnSubagents:
    """The subagents the release answered as started on its own, where an
    ``own-subagents`` rule holds (none for the newest)."""
    version = answering()
    held = [r for r in rules() if r.kind == "own-subagents" and version and holds(r, version)]
    if not held:
        return OwnSubagents((), 0, False)
    after = held[-1].after
    return OwnSubagents(tuple(after["agents"]), after["requests"] or 0, bool(after.get("heard")))


def subagent_cut_off() -> bool:
    """Whether, in the release answered as, the run ended before a subagent a SubagentStop
    hook blocked stopped again (where a ``subagent-cut-off`` rule holds)."""
    version = answering()
    cut = (rule for rule in rules() if rule.kind == "subagent-cut-off")
    return version is not None and any(holds(rule, version) for rule in cut)


def env_exported(name: str, version: str | None = None) -> bool:
    """Whether hooks get the variable ``name`` in release ``version`` (default: the one
    answered as): as the last measured change of it up to that release left it, or, before
    its first change, as that change found it."""
    return _present("env-var", f"hook[*].env.{name}", version)


def payload_key_sent(key: str, version: str | None = None) -> bool:
    """Whether hooks' payloads carry ``key`` in release ``version`` (default: the one
    answered as), read as ``env_exported`` reads a variable."""
    return _present("payload-key", f"hook[*].payload.{key}", version)


def _present(kind: str, facet: str, version: str | None) -> bool:
    """Whether the thing a ``kind`` rule of ``facet`` tracks is there in ``version``
    (default: the release answered as; the newest has it)."""
    found = _state(kind, facet, answering() if version is None else version)
    return found is None or found


def _state(kind: str, facet: str, version: str | None) -> bool | None:
    """Whether what the ``kind`` rules of ``facet`` track is there in ``version``: as the
    last of them up to it left it, or, before the first, as that one found it; None for
    the newest release or a facet no rule tracks."""
    changes = [rule for rule in rules() if rule.kind == kind and rule.facet == facet]
    if version is None or not changes:
        return None
    reached = [rule for rule in changes if order(rule.since) <= order(version)]
    if not reached:
        return changes[0].before is not None
    return reached[-1].after is not None


def across_releases(kind: str) -> str:
    """One measured change read across releases: what it says, the release it arrived in,
    and whether it holds on the oldest measured release, the last one without it, the
    first one with it and the newest (what a notebook shows; InputError for a kind the
    sweep has no rule of)."""
    found = [rule for rule in rules() if rule.kind == kind]
    if not found:
        kinds = sorted({rule.kind for rule in rules()})
        raise InputError("kind", f"no measured change of kind {kind!r}", f"use one of {kinds}")
    rule = found[0]
    where = (
        f"first seen in {rule.since}; the release before it, {rule.previous}, did not"
        if rule.exact
        else f"first seen in {rule.since}; not yet in {rule.previous} (not bisected further)"
    )
    lines = [rule.says, where]
    for version in dict.fromkeys((releases()[0], rule.previous, rule.since, newest())):
        lines.append(f"  Claude Code {version:<9} {'yes' if holds(rule, version) else 'no'}")
    return "\n".join(lines)


def changelog_lines(event: str | None = None) -> Sequence[str]:
    """The changelog as printed by ``hookcourse versions``: per release, its changes."""
    chosen = rules(event)
    if not chosen:
        subject = f" for {event}" if event else ""
        return [f"no measured change{subject} across {len(releases())} releases"]
    lines: list[str] = []
    shown = ""
    for rule in chosen:
        if rule.since != shown:
            shown = rule.since
            where = "" if rule.exact else f" (between {rule.previous} and {rule.since})"
            lines.append(f"{rule.since}{where}:")
        modelled = " [modelled by fire]" if rule.kind in MODELLED else ""
        until = f" (until {rule.until})" if rule.until else ""
        lines.append(f"  {rule.says}{until}{modelled}")
    return lines


def not_fired_note(event: str, version: str | None = None) -> str | None:
    """Why ``event`` ran no hook in release ``version`` (default: the one answered as);
    None when it fires there."""
    version = answering() if version is None else version
    if version is None or event_fires(event, version):
        return None
    rule = next(r for r in rules(event) if r.kind == "event-arrives")
    return (
        f"Claude Code {version} ran no {event} hook in the version sweep; they first ran "
        f"in {_when(rule)}, so no hook runs here (changed in {rule.since})"
    )


def model_of(checked_against: str) -> str:
    """The release reports say they answer as: ``checked_against`` (the newest measured), or
    the one answered as with what that means."""
    version = answering()
    if version is None:
        return checked_against
    return f"{version} ({_source(version)}; the rest as {checked_against})"


def _source(version: str) -> str:
    """Where the answers for ``version`` come from: its own record, or its neighbours'."""
    around = measured_around(version)
    if around is None:
        return "its measured changes"
    # Every change is bisected to two consecutive npm releases, so a release between two
    # measured ones sits on a known side of each.
    return f"not run itself: as the measured changes stand between {around[0]} and {around[1]}"


def answering_line(version: str) -> str:
    """The line ``fire --claude-version`` prints first: what answering as ``version`` means."""
    later = [rule for rule in rules() if rule.kind in MODELLED and not holds(rule, version)]
    around = "" if measured_around(version) is None else f" ({_source(version)})"
    return (
        f"answering as Claude Code {version}{around}: {len(later)} measured change(s) after "
        f"it modelled (hookcourse versions lists every change); the rest as {newest()}"
    )


# --- behaviours of one kind of scenario (tests/claude_code/rules_behaviours.py) -----------------


def _before_arrival(kind: str, after: str | None = None) -> Rule | None:
    """The first ``kind`` rule (of ``after``, when given) whose change the release answered
    as predates: it behaves as before that change (None: as the newest)."""
    version = answering()
    if version is None:
        return None
    return next(
        (
            rule
            for rule in rules()
            if rule.kind == kind
            and (after is None or rule.after == after)
            and not holds(rule, version)
        ),
        None,
    )


def _in_window(kind: str, facet: str | None = None) -> Rule | None:
    """The ``kind`` rule (of ``facet``, when given) whose window (``since`` until ``until``)
    holds the release answered as (None: none does, or the newest)."""
    version = answering()
    if version is None:
        return None
    return next(
        (
            r
            for r in rules()
            if r.kind == kind and (facet is None or r.facet == facet) and holds(r, version)
        ),
        None,
    )


def args_note() -> str | None:
    """Why the release answered as ran no script of a command hook given ``args`` (exec
    form); None where it ran them."""
    rule = _before_arrival("exec-form-arrives")
    if rule is None:
        return None
    return (
        f"Claude Code {answering()} ran none of a command hook's script when the hook gives "
        f"args: the version sweep first saw such a hook run in {_when(rule)} "
        f"(changed in {rule.since})"
    )


def write_blocked_text(subject: str, cwd: str, which: str) -> str | None:
    """The refusal the release answered as gave a Bash command part writing a file:
    ``which`` is ``covered`` (inside the project, by an allow rule), ``uncovered`` (inside,
    by none) or ``outside`` (``subject``: ``touch in '<path>'``; ``cwd``: the working
    directories); None where it refused as the newest (or the rule let it run)."""
    rule = _in_window("write-blocked", f"bash.write.{which}")
    if rule is None:
        return None
    # What the command may not do, in the words the records show for it (touch's when
    # they show none for this command).
    verb = subject.partition(" ")[0]
    phrases = {r.facet.rsplit(".", 1)[1]: str(r.after) for r in rules() if r.kind == "write-phrase"}
    phrase = phrases.get(verb, phrases.get("touch", ""))
    text = str(rule.after).replace("{subject}", subject).replace("{cwd}", cwd)
    return text.replace("{phrase}", phrase)


def skill_ask_text(skill: str) -> str | None:
    """The ask the release answered as gave every Skill call (print mode refuses it with
    this text); None where a skill without hooks launched with no approval."""
    rule = _in_window("skill-asks")
    return None if rule is None else str(rule.after).replace("{skill}", skill)


def rewrite_note() -> str | None:
    """Why the release answered as ran a call as the model wrote it although a PreToolUse
    hook gave ``updatedInput`` without a ``permissionDecision``; None where it rewrote it."""
    rule = _before_arrival("rewrite-arrives")
    if rule is None:
        return None
    return (
        f"Claude Code {answering()} did not apply updatedInput given without a "
        f"permissionDecision: the call runs as the model wrote it (such a rewrite first "
        f"applied in {_when(rule)}, changed in {rule.since})"
    )


def flag_note(flags: Sequence[str]) -> str | None:
    """Why the release answered as did not start with ``flags`` (an option, or an option
    with that value, it did not know yet); None where it started."""
    for at, flag in enumerate(flags):
        name, _, inline = flag.partition("=")
        value = inline or (flags[at + 1] if at + 1 < len(flags) else "")
        for said in (name, f"{name} {value}"):
            rule = _before_arrival("flag-arrives", said)
            if rule is not None:
                return (
                    f"Claude Code {answering()} did not start with {said}: the version sweep "
                    f"first saw a run given it start in {_when(rule)} (changed in {rule.since})"
                )
    return None


def exit2_text(tool: str, error: str, default: str) -> str:
    """The tool_result of a call a PreToolUse hook's exit 2 refused, as the release answered
    as worded it (``error``: ``[command]: stderr``; ``default``: the newest's wording)."""
    return _worded("exit2-text", {"{tool}": tool, "{error}": error}, default)


def feedback_text(event: str, reason: str, default: str) -> str:
    """The text the model is shown for a Stop (or SubagentStop) hook's block, as the release
    answered as worded it (``default``: the newest's wording)."""
    return _worded("feedback-text", {"{event}": event, "{reason}": reason}, default)


def refusal_text(name: str, values: Mapping[str, str], default: str) -> str:
    """The permission step's refusal ``name`` (the catalogue's) as the release answered as
    worded it (``values``: the catalogue's placeholders; ``default``: the newest's)."""
    placed = {f"{{{key}}}": value for key, value in values.items()}
    return _worded("refusal-text", placed, default, f"refusal.{name}")


def _worded(kind: str, values: Mapping[str, str], default: str, facet: str | None = None) -> str:
    """A text as the ``kind`` template (of ``facet``) changes up to the release answered as
    left it (before the first, as that one found it), placeholders filled; ``default``
    for the newest."""
    version = answering()
    changes = [r for r in rules() if r.kind == kind and facet in (None, r.facet)]
    if version is None or not changes:
        return default
    reached = [rule for rule in changes if holds(rule, version)]
    template = str(reached[-1].after if reached else changes[0].before)
    for name, value in values.items():
        template = template.replace(name, value)
    return template


RELEASE_SET: Mapping[str, str] = {"OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE": "delta"}
"""Variables some releases set in their own environment when unset, so their hooks got
them, with the value set (read in 2.0.72's cli.js, not run:
``if(!process.env.OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE)...="delta"``); the
releases that passed one on are the ``env-var`` rules' (the newest removes ``OTEL_*``)."""


def env_exported_on(name: str, event: str) -> bool:
    """Whether ``event`` hooks get the variable ``name`` in the release answered as: as the
    ``env-var`` rules of ``name`` that concern ``event`` leave it (each event's hooks got
    some variables in other releases than others'), else as ``env_exported``."""
    version = answering()
    facet = f"hook[*].env.{name}"
    changes = [r for r in rules(event) if r.kind == "env-var" and r.facet == facet]
    if version is None or not changes:
        return env_exported(name)
    reached = [rule for rule in changes if order(rule.since) <= order(version)]
    if not reached:
        return changes[0].before is not None
    # As ``_state`` reads them: a rule's ``until`` may be another event's change.
    return reached[-1].after is not None


def release_variables(event: str) -> dict[str, str]:
    """The variables the release answered as set itself and passed on to ``event`` hooks
    (none for the newest)."""
    if answering() is None:
        return {}
    return {name: value for name, value in RELEASE_SET.items() if env_exported_on(name, event)}


def unknown_event_note(event: str, known: bool = True) -> str | None:
    """Why the release answered as read no hook of a settings file with ``event`` hooks (it
    did not know the event's name, and dropped the whole file for it); None where it read
    the file. ``known``: whether the newest release knows the name."""
    version = answering()
    if version is None:
        return None
    if any(rule.kind == "event-name-arrives" for rule in rules(event)):
        named = _before_arrival("event-name-arrives", event)
        if named is None:
            return None
        return (
            f"Claude Code {version} did not know the event name {event}: it ran none of the "
            f"hooks of a settings file naming it (such a file was first read in "
            f"{_when(named)}, changed in {named.since})"
        )
    dropped = _before_arrival("unknown-name-dropped")
    if dropped is None or (known and event_fires(event)):
        return None
    # No scenario put this event beside another: its name is taken to arrive with its
    # hooks' first measured run (as every measured event name did, but PermissionRequest's).
    first = "" if not known else _first_run(event)
    return (
        f"Claude Code {version} did not know the event name {event}{first}: it ran none of "
        f"the hooks of a settings file naming an unknown event (from {_when(dropped)} it "
        f"drops only that event's hooks, changed in {dropped.since})"
    )


def _first_run(event: str) -> str:
    arrival = next(
        (r for r in rules(event) if r.kind == "event-arrives" and not holds(r, str(answering()))),
        None,
    )
    return "" if arrival is None else f" (its hooks first ran in {_when(arrival)})"


def on_failure_heeded() -> bool:
    """Whether the release answered as heeded a handler's ``onFailure`` (False before the
    ``on-failure-arrives`` rule's release: a failed run did not block)."""
    return _before_arrival("on-failure-arrives") is None


def if_read() -> bool:
    """Whether the release answered as read a handler's ``if`` (False before the
    ``if-arrives`` rule's release: the hook ran on every call its group matched)."""
    return _before_arrival("if-arrives") is None


def allow_lifts_deny_rule() -> bool:
    """Whether, in the release answered as, a PreToolUse hook's allow let a call a deny
    rule covers run (before the ``deny-rule-over-allow`` rule's release)."""
    return _before_arrival("deny-rule-over-allow") is not None


def star_not_prefix(rule: str) -> bool:
    """A Bash rule whose ``*`` is not right after ``:`` nor before ``.``, in a rule without
    ``/`` (``Bash(rm *)``): what releases before ``wildcard-rule-arrives`` refused (their
    own check, read in 2.0.76's cli.js: ``Use ":*" for prefix matching, not just "*"``)."""
    found = re.fullmatch(r"Bash\((.*)\)", rule, re.S)
    if found is None or "*" not in found[1] or "/" in found[1]:
        return False
    head, _, tail = found[1].partition("*")
    return not head.endswith(":") and not tail.startswith(".")


def refused_rule_note(rule: str) -> str | None:
    """Why the release answered as read nothing of a settings file holding permission rule
    ``rule`` (``star_not_prefix``, before the ``wildcard-rule-arrives`` rule's release);
    None where it read the file."""
    arrived = _before_arrival("wildcard-rule-arrives") if star_not_prefix(rule) else None
    if arrived is None:
        return None
    return (
        f"Claude Code {answering()} refused the rule {rule} (a * not after :) and read "
        f"nothing of its settings file (such a file was first read in {_when(arrived)}, "
        f"changed in {arrived.since})"
    )


def write_need_read() -> bool:
    """Whether the release answered as refused a Bash command writing a file for its path
    (False before the ``write-need-arrives`` rule's release: it was refused as any command
    that needs approval)."""
    return _before_arrival("write-need-arrives") is None


def loads_instructions(tool: str) -> bool:
    """Whether, in the release answered as, a ``tool`` call loaded the instruction files on
    its way (False before the tool's ``loads-arrive`` rule: InstructionsLoaded did not fire
    for it)."""
    return _before_arrival("loads-arrive", tool) is None


def cancelled_text(call: str) -> tuple[str, str] | None:
    """What a later call of a turn reads where the release answered as cancelled it because
    ``call`` (``Bash(<command>)``), refused as needing approval, came before it (inside a
    ``sibling-cancel`` rule's window), and why; None where each call goes its own way."""
    did = f"cancelled the rest of the turn once {call} was refused as needing approval"
    return _window_text("sibling-cancel", {"{call}": call}, did)


def writes_known(verb: str) -> bool:
    """Whether the release answered as judged ``verb`` (``tee``) as writing the file it
    names (False before its ``write-verb-arrives`` rule: any command needing approval)."""
    return _before_arrival("write-verb-arrives", verb) is None


def auto_checks_outside() -> bool:
    """Whether the release answered as left a path outside the working directories to auto
    mode's check even under a rule for the whole tool, as the newest does (False inside
    an ``allow-outside-unchecked`` rule's window: the rule let it run)."""
    return _in_window("allow-outside-unchecked") is None


def classifier_takes_turn() -> bool:
    """Whether the release answered as sent auto mode's check to the model as a request of
    the main conversation, so that the scripted model's next turn answered it (no verdict)
    and the conversation went on from the turn after (inside a ``classifier-takes-turn``
    rule's window)."""
    return _in_window("classifier-takes-turn") is not None


def auto_fallback_after() -> int | None:
    """After how many calls in a row that auto mode's check gave no verdict on the release
    answered as fell back to asking, refusing a call as default mode does instead of with
    auto mode's words (inside a ``denial-fallback`` rule's window); None where it never
    fell back."""
    version = answering()
    if version is None:
        return None
    held = [rule for rule in rules() if rule.kind == "denial-fallback" and holds(rule, version)]
    return int(str(held[-1].after)) if held else None


def trust_gated() -> bool:
    """Whether the release answered as applied a project's permissions (allow rules,
    ``additionalDirectories``) only in a trusted folder (False inside an
    ``untrusted-permissions`` rule's window: in any folder)."""
    return _in_window("untrusted-permissions") is None


def verb_check_text(verb: str) -> str | None:
    """How the release answered as refused a ``verb`` command writing a file inside the
    project by a check of its own (inside its ``verb-check`` window); None elsewhere."""
    rule = _in_window("verb-check", f"bash.check.{verb}")
    return None if rule is None else str(rule.after)


def flag_checked(verb: str, flag: str) -> bool:
    """Whether the release answered as checked ``flag`` of ``verb`` as the newest does
    (False inside its ``flag-unchecked`` window: the read-only command ran with it)."""
    return _in_window("flag-unchecked", f"bash.flag.{verb}.{flag}") is None


def input_read() -> bool:
    """Whether the release answered as counted an input redirection's file as read by its
    command, for Read deny rules (False before its ``input-read-arrives`` rule)."""
    return _before_arrival("input-read-arrives") is None


def first_path_named() -> bool:
    """Whether the release answered as named a refused command writing several files by its
    first path (inside a ``first-path-named`` window; the newest names the one outside)."""
    return _in_window("first-path-named") is not None


def plan_checked() -> bool:
    """Whether the release answered as left a call plan mode does not run to auto mode's
    check (False before its ``plan-check-arrives`` rule: it asked as default mode does)."""
    return _before_arrival("plan-check-arrives") is None


def settings_dirs_read(scope: str) -> bool:
    """Whether the release answered as took the ``scope`` settings file's
    ``permissions.additionalDirectories`` as working directories (False before that
    scope's ``settings-dirs-arrive`` rule)."""
    return _before_arrival("settings-dirs-arrive", scope) is None


def changer_known(verb: str) -> bool:
    """Whether the release answered as counted ``verb`` (``pushd``) as a change of directory,
    refusing two in one command as several (False before its ``changer-arrives`` rule:
    each part needed approval as any command)."""
    return _before_arrival("changer-arrives", verb) is None


def variable_known(name: str) -> bool:
    """Whether the release answered as filled in the known variable ``name`` (``HOME``)
    before judging a command (False before its ``known-variable-arrives`` rule: a variable
    as any other, and inside double quotes quoted text)."""
    return _before_arrival("known-variable-arrives", name) is None


def legacy_check_text(construct: str) -> str | None:
    """The words the release answered as refused a Bash command holding ``construct`` with
    (``permissions.LEGACY_CONSTRUCTS``, ``.compound`` for a compound command), checked in
    its text before its parts (inside a ``legacy-check`` rule's window); None where it
    judged the command as the newest does."""
    rule = _in_window("legacy-check", f"legacy.{construct}")
    return None if rule is None else str(rule.after)


def blocked_part_first(kind: str) -> bool:
    """Whether the release answered as refused a compound Bash command (no pipeline) with
    the text of a part refused for its path, whatever the other parts needed (inside a
    ``blocked-part-first`` rule's window for ``kind``: ``outside``, ``write`` or
    ``redirect``); False where it listed every part needing approval, as the newest."""
    return _in_window("blocked-part-first", f"bash.first.{kind}") is not None


def part_braces_dropped() -> bool:
    """Whether the release answered as named a compound command's parts with each
    variable in braces written ``$NAME`` (inside a ``part-braces`` rule's window)."""
    return _in_window("part-braces", "bash.part.braces") is not None


def parts_spaced_singly() -> bool:
    """Whether the release answered as named a compound command's parts with each run of
    blanks as one space (inside a ``part-spacing`` rule's window); False where it named
    them as written, as the newest."""
    return _in_window("part-spacing", "bash.part.spacing") is not None


def read_only_known(verb: str, compound: bool) -> bool:
    """Whether the release answered as let a read-only command of ``verb`` run (alone, or
    as a part of a ``compound`` command); False before its ``read-only-arrives`` rule
    (alone: also in a compound command): it needed approval as any command."""
    forms = (verb, f"{verb}.compound") if compound else (verb,)
    return all(_before_arrival("read-only-arrives", form) is None for form in forms)


def assignment_checked(what: str) -> bool | None:
    """Whether the release answered as let assignments before a command's name leave it
    judged as its name alone, checking their ``what`` (``name``: a variable of the
    catalogue's ``safe_assignments``; ``path``: a value not like a path; ``locale``: a
    locale variable's value a locale) as the newest does. None before its
    ``assignments-arrive`` rule (no assignment did); False inside its
    ``assignment-unchecked`` window (any did)."""
    if _before_arrival("assignments-arrive") is not None:
        return None
    return _in_window("assignment-unchecked", f"bash.assignment.{what}") is None


def quoted_variable_checked(verb: str) -> bool:
    """Whether the release answered as refused a ``verb`` command holding a variable inside
    double quotes, as the newest does (False inside its ``quoted-variable-unchecked``
    window: the command ran, the quoted text read as it stands)."""
    return _in_window("quoted-variable-unchecked", f"bash.quoted_variable.{verb}") is None


def blocked_part_left_out(kind: str) -> bool:
    """Whether the release answered as left a part refused for its path (``redirect``) out
    of a compound command's listing of the parts needing approval, when others were
    listed (inside a ``blocked-part-left-out`` rule's window for ``kind``)."""
    return _in_window("blocked-part-left-out", f"bash.left_out.{kind}") is not None


def redirect_as_part() -> bool:
    """Whether the release answered as named an output redirection's file as a part of
    its own needing approval (``The following part requires approval: out.txt``; inside
    a ``redirect-as-part`` rule's window)."""
    return _in_window("redirect-as-part") is not None


def redirect_unchecked(where: str) -> bool:
    """Whether the release answered as let an output redirection to a file ``inside`` or
    ``outside`` the working directories through unchecked (inside a
    ``redirect-unchecked`` rule's window for ``where``)."""
    return _in_window("redirect-unchecked", f"bash.redirect.{where}") is not None


def check_made(refusal: str) -> bool:
    """Whether the release answered as refused a command for what it holds, in the words of
    the catalogue's ``refusal`` (a variable: ``variable``); False before that refusal's
    ``check-arrives`` rule: it needed approval as any command."""
    return _before_arrival("check-arrives", refusal) is None


def exit2_beside_json_blocks() -> bool:
    """Whether, in the release answered as, a hook's exit 2 blocks even when its stdout is
    a JSON answer (False before the ``exit2-over-json`` rule's release: the JSON decided)."""
    return _before_arrival("exit2-over-json") is None


def continue_note(event: str, decision: str | None) -> str | None:
    """Why ``continue: false`` beside the merged ``decision`` of ``event`` did not stop
    Claude in the release answered as (before the ``continue-beside-deny`` rule's
    release); None where it stops Claude."""
    if event != "PreToolUse" or decision != "deny":
        return None
    rule = _before_arrival("continue-beside-deny")
    if rule is None:
        return None
    return (
        f"Claude Code {answering()} did not stop for continue: false beside a deny: the "
        f"deny applied and the model was asked again (changed in {_when(rule)})"
    )


def stopped_refusal_text(stop_reason: str | None, default: str) -> str:
    """The tool_result of a call refused while a PreToolUse hook answered ``continue:
    false``, as the release answered as worded it: before the ``stop-text-yields`` rule's
    release, the stopReason's text (the rule's ``before``, ``{stopReason}`` filled; without
    one, the text up to it: read in 2.0.9's cli.js, ``Execution stopped by PreToolUse
    hook${F?`: ${F}`:""}``) in place of the refusal's own (``default``)."""
    rule = _before_arrival("stop-text-yields")
    if rule is None or not isinstance(rule.before, str):
        return default
    if stop_reason:
        return rule.before.replace("{stopReason}", stop_reason)
    return rule.before.partition("{stopReason}")[0].removesuffix(": ")


def unknown_command(name: str) -> tuple[str, str] | None:
    """What the user is shown for a prompt naming the custom command ``name``, and why,
    where the release answered as refused it as unknown (inside a ``command-unknown``
    rule's window: no hook ran, no model request was made); None where commands run."""
    did = "did not find custom commands in print mode: the prompt ends there and no hook runs"
    return _window_text("command-unknown", {"{name}": name}, did)


def _window_text(kind: str, values: Mapping[str, str], did: str) -> tuple[str, str] | None:
    """The text of the ``kind`` rule whose window holds the release answered as (its
    ``after``, placeholders filled from ``values``), and why (what the release ``did``,
    with the window); None outside every such window."""
    rule = _in_window(kind)
    if rule is None or not isinstance(rule.after, str):
        return None
    text = rule.after
    for name, value in values.items():
        text = text.replace(name, value)
    until = f", until {rule.until}" if rule.until else ""
    return text, f"Claude Code {answering()} {did} (changed in {_when(rule)}{until})"


def stop_cap_note() -> str | None:
    """Why the release answered as let Stop hooks continue the turn without end (before
    the ``stop-cap-arrives`` rule's release: no cap, ``CLAUDE_CODE_STOP_HOOK_BLOCK_CAP``
    unread); None where continuations are capped."""
    rule = _before_arrival("stop-cap-arrives")
    if rule is None:
        return None
    return (
        f"Claude Code {answering()} capped no Stop hook continuations and read no "
        f"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: a hook that always continues loops for ever "
        f"(capped from {_when(rule)}, changed in {rule.since})"
    )


def max_turns_note() -> str | None:
    """Why the release answered as gave a Stop hook's continuation another model response
    although ``--max-turns`` allowed none (inside a ``max-turns-unchecked`` window); None
    where the limit ends the run."""
    rule = _in_window("max-turns-unchecked")
    if rule is None:
        return None
    until = f" until {rule.until}" if rule.until else ""
    return (
        f"Claude Code {answering()} did not check --max-turns before a Stop hook's "
        f"continuation: the run goes on past the limit (from {_when(rule)}{until})"
    )


def json_like_read(event: str) -> bool:
    """Whether, in the release answered as, an ``event`` hook's stdout that looks like JSON
    but does not parse is a failed JSON answer (False before the event's
    ``json-like-arrives`` rule: plain stdout)."""
    return _event_trait("json-like-arrives", event, True)


def missing_script_spared(event: str) -> bool:
    """Whether, in the release answered as, an ``event`` hook's exit 2 with a missing-file
    stderr is read as a broken install, not a block (False before the
    ``missing-script-arrives`` rule of the event: it blocked as any exit 2)."""
    return _event_trait("missing-script-arrives", event, True)


def no_reason_text(hook: str, default: str) -> str:
    """The tool_result of a call a PreToolUse hook (``hook``: ``PreToolUse:<tool>``) denied
    with JSON and no reason, as the release answered as worded it (``default``: the
    newest's wording)."""
    tool = hook.partition(":")[2]
    return _worded("no-reason-text", {"{hook}": hook, "{tool}": tool}, default)


def whole_command_rule_note() -> str | None:
    """Why the release answered as let an allow rule naming a compound Bash command whole
    run it (before the ``compound-rule-arrives`` rule's release); None where each part is
    judged on its own."""
    rule = _before_arrival("compound-rule-arrives")
    if rule is None:
        return None
    return (
        f"Claude Code {answering()} matched an allow rule against the whole command (each "
        f"part judged on its own from {_when(rule)}, changed in {rule.since})"
    )
