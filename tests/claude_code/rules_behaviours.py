"""Behaviours of one kind of scenario, read from the stored records as rules of the ledger.

Each function here reads every stored release's observation of the scenarios that show
one behaviour (whatever their ids: what a scenario holds says whether it shows it) and
returns the rules ``fire --claude-version`` applies, in the ledger's format (``kind``,
``since``, ``previous``, ``exact``, ``until``, ``before``/``after``). A behaviour seen
from the oldest stored release up to a change is said as the newest one's arrival; a
behaviour seen only between two releases is said as a window (``since`` and ``until``).
No release is named here: every one comes from where the records change.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Final, TypeVar

from oracle_record import digest
from oracle_sweep import release_key
from rules_subagents import AUTO_REFUSAL, default_modes

from hookcourse.engine.catalogue import load_catalogue, permission_facts
from hookcourse.engine.permission_rule import (
    ASSIGNMENT,
    command_words,
    has_pipe,
    simple_commands,
)
from hookcourse.engine.permissions import legacy_constructs
from hookcourse.engine.versions import star_not_prefix

Records = Mapping[str, Mapping[str, Any]]
Corpus = Mapping[str, Mapping[str, Any]]
Shown = Callable[[Mapping[str, Any]], bool | None]
"""Whether one observation shows the behaviour (None: it cannot say)."""


def behaviour_rules(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """Every rule of this module, from the stored records."""
    return [
        *exec_form_arrival(records, corpus),
        *write_blocked_windows(records, corpus),
        *outside_write_windows(records, corpus),
        *write_need_arrival(records, corpus),
        *write_phrases(records, corpus),
        *skill_ask_windows(records, corpus),
        *rewrite_arrival(records, corpus),
        *flag_arrivals(records, corpus),
        *exit2_texts(records, corpus),
        *feedback_texts(records, corpus),
        *refusal_texts(records, corpus),
        *fixed_refusal_texts(records, corpus),
        *check_arrivals(records, corpus),
        *legacy_check_windows(records, corpus),
        *blocked_part_windows(records, corpus),
        *part_form_windows(records, corpus),
        *read_only_arrivals(records, corpus),
        *redirect_windows(records, corpus),
        *known_variable_arrivals(records, corpus),
        *cancel_windows(records, corpus),
        *denial_fallback_windows(records, corpus),
        *classifier_turn_windows(records, corpus),
        *allow_outside_windows(records, corpus),
        *settings_dirs_arrival(records, corpus),
        *untrusted_permission_windows(records, corpus),
        *first_path_windows(records, corpus),
        *verb_check_windows(records, corpus),
        *input_read_arrival(records, corpus),
        *flag_unchecked_windows(records, corpus),
        *assignment_rules(records, corpus),
        *quoted_variable_windows(records, corpus),
        *left_out_windows(records, corpus),
        *plan_check_arrival(records, corpus),
        *write_verb_arrivals(records, corpus),
        *changer_arrivals(records, corpus),
        *event_name_arrivals(records, corpus),
        *on_failure_arrival(records, corpus),
        *if_arrival(records, corpus),
        *deny_rule_arrival(records, corpus),
        *wildcard_rule_arrival(records, corpus),
        *exit2_json_arrival(records, corpus),
        *continue_deny_arrival(records, corpus),
        *stop_text_arrival(records, corpus),
        *unknown_command_windows(records, corpus),
        *load_arrivals(records, corpus),
        *stop_cap_arrival(records, corpus),
        *max_turns_windows(records, corpus),
        *json_like_arrival(records, corpus),
        *missing_script_arrival(records, corpus),
        *no_reason_texts(records, corpus),
        *compound_rule_arrival(records, corpus),
        *more_text_forms(records, corpus),
    ]


# --- reading the records -----------------------------------------------------------------------


def _stored(records: Records, corpus: Corpus, sid: str) -> list[tuple[str, Mapping[str, Any]]]:
    """The releases that stored ``sid`` as the corpus has it now, oldest first."""
    if sid not in corpus:
        return []
    fingerprint = digest(corpus[sid])
    return [
        (version, record[sid])
        for version, record in records.items()
        if sid in record and record[sid].get("scenario") == fingerprint
    ]


def _points(
    records: Records, corpus: Corpus, sids: Sequence[str], shown: Shown
) -> list[tuple[str, bool]]:
    """Per stored release, whether every observation of ``sids`` there that can say shows
    the behaviour (a release where they disagree says nothing and is left out)."""
    seen: dict[str, set[bool]] = {}
    for sid in sids:
        for version, observation in _stored(records, corpus, sid):
            said = shown(observation)
            if said is not None:
                seen.setdefault(version, set()).add(said)
    return _agreed(seen)


Value = TypeVar("Value")


def _agreed(seen: Mapping[str, set[Value]]) -> list[tuple[str, Value]]:
    """Per release (in npm's order), the one value its observations showed (a release that
    showed two says nothing and is left out)."""
    return [
        (version, next(iter(values)))
        for version, values in sorted(seen.items(), key=lambda item: release_key(item[0]))
        if len(values) == 1
    ]


def _at(records: Records, corpus: Corpus, sids: Sequence[str], version: str) -> list[str]:
    """The scenarios of ``sids`` that ``version`` stored (the ones that show a change there)."""
    return [sid for sid in sids if any(v == version for v, _ in _stored(records, corpus, sid))]


def _exact(since: str, previous: str) -> bool:
    return release_key(since)[0] - release_key(previous)[0] == 1


def _arrival(points: Sequence[tuple[str, bool]]) -> tuple[str, str] | None:
    """``(since, previous)`` when the behaviour is shown on every release up to one point
    and on none from it on (one change, the newest's behaviour arriving at ``since``)."""
    flips = [i for i in range(1, len(points)) if points[i][1] != points[i - 1][1]]
    if len(flips) != 1 or not points[0][1]:
        return None
    at = flips[0]
    return points[at][0], points[at - 1][0]


def _windows(points: Sequence[tuple[str, bool]]) -> Iterator[tuple[str, str, str | None]]:
    """``(since, previous, until)`` of each run of releases showing the behaviour that
    starts after the oldest (``until``: the first release after it not showing it), when
    both its ends lie between neighbouring releases on npm (a wider end says too little
    to bound a window)."""
    for i in range(1, len(points)):
        if points[i][1] and not points[i - 1][1]:
            end = next((j for j in range(i, len(points)) if not points[j][1]), None)
            until = None if end is None else points[end][0]
            bounded = end is None or _exact(points[end][0], points[end - 1][0])
            if _exact(points[i][0], points[i - 1][0]) and bounded:
                yield points[i][0], points[i - 1][0], until


def _rule(
    kind: str,
    says: str,
    events: Sequence[str],
    since: str,
    previous: str,
    sids: Sequence[str],
    **more: Any,
) -> dict[str, Any]:
    return {
        "kind": kind,
        "says": says,
        "events": sorted(set(events)),
        "since": since,
        "previous": previous,
        "exact": _exact(since, previous),
        "scenarios": sorted(set(sids)),
        **more,
    }


def _hook_groups(scenario: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Every handler the scenario's settings files give, with its event."""
    for settings in (scenario.get("settings") or {}).values():
        hooks = settings.get("hooks") if isinstance(settings, dict) else None
        for event, groups in (hooks or {}).items() if isinstance(hooks, dict) else ():
            for group in groups if isinstance(groups, list) else ():
                for handler in group.get("hooks") or [] if isinstance(group, dict) else ():
                    if isinstance(handler, dict):
                        yield event, handler


def _scripted_answers(scenario: Mapping[str, Any], event: str) -> list[Mapping[str, Any]]:
    """The JSON objects the scenario's hook scripts print on ``event``."""
    found: list[Mapping[str, Any]] = []
    for hook in (scenario.get("hooks") or {}).values():
        out = hook.get("out") if isinstance(hook, dict) else None
        specific = out.get("hookSpecificOutput") if isinstance(out, dict) else None
        if isinstance(specific, dict) and specific.get("hookEventName") == event:
            found.append(specific)
    return found


# --- the kinds -----------------------------------------------------------------------------------


def exec_form_arrival(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When a command hook's ``args`` (exec form) came to be read: scenarios whose every
    hook is a command hook with ``args``; a release shows the old behaviour where none of
    their hooks ran, the newest's where they ran (one change from the oldest on)."""
    sids = [
        sid
        for sid, scenario in corpus.items()
        if (handlers := [h for _, h in _hook_groups(scenario)])
        and all(h.get("type") == "command" and "args" in h for h in handlers)
    ]
    points = _points(records, corpus, sids, lambda o: not o.get("hooks"))
    found = _arrival(points)
    if found is None:
        return []
    since, previous = found
    events = [e for sid in sids for e, _ in _hook_groups(corpus[sid])]
    shown = _at(records, corpus, sids, since)
    return [
        _rule(
            "exec-form-arrives",
            "a command hook with `args` (exec form) runs its program with them (before, "
            "such a hook ran none of its script)",
            events,
            since,
            previous,
            shown,
            facet="handler.args",
            before=None,
            after="args",
        )
    ]


WRITE_BLOCKED = re.compile(
    r"^(?P<subject>\S+ in '[^']*') was blocked\. For security, Claude Code may only create "
    r"or modify files in the allowed working directories for this session: '(?P<cwd>[^']*)'\.$"
)
"""A shell command's file write refused before it runs, as some releases worded it."""
TOUCH_PHRASE = "create or modify files in"
"""What that text says the command may not do, for ``touch`` (other commands say their own:
``write_phrases``)."""
BLOCKED_ANY = re.compile(
    r"^(?P<verb>[a-z]+|Output)(?: in| redirection to) '[^']*' was blocked\. For security, "
    r"Claude Code may only "
    r"(?P<phrase>.+?) the allowed working directories for this session: "
)


def write_phrases(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """What a refused command's text said it may not do, per command (``touch``: "create or
    modify files in", ``mkdir``: ...): every stored Bash call refused so, the first release
    that showed each. The engine reads them inside the ``write-blocked`` windows."""
    reading = set(permission_facts().shell["path_verbs"])  # the newest's own words say them
    seen: dict[str, tuple[str, str, set[str]]] = {}
    for version, record in records.items():
        for sid, observation in record.items():
            for tool in observation.get("tools") or [] if sid in corpus else []:
                found = BLOCKED_ANY.match(str(tool.get("result")))
                if found and tool.get("name") == "Bash" and found["verb"] not in reading:
                    verb, phrase = found["verb"], found["phrase"]
                    seen.setdefault(verb, (version, phrase, set()))[2].add(sid)
    return [
        _rule(
            "write-phrase",
            f"a refused `{verb}` command's text says it may only `{phrase}` the working "
            f"directories (seen from {since})",
            ["PreToolUse"],
            since,
            since,
            sorted(sids),
            facet=f"bash.write.phrase.{verb}",
            before=None,
            after=phrase,
        )
        for verb, (since, phrase, sids) in sorted(seen.items())
    ]


def write_blocked_windows(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When a Bash command writing a file inside the project was refused as a write outside
    the allowed folders: scenarios calling Bash, those with a Bash allow rule (the write
    ``covered``) apart from the others (``uncovered``); per window of releases whose record
    refused a call so, its text with the subject and folders as ``{subject}``, ``{cwd}``."""
    found: list[dict[str, Any]] = []
    for sid, scenario in corpus.items():
        if '"name": "Bash"' not in _calls(scenario):
            continue
        # A project's allow rules hold only in a trusted folder (the harness trusts none).
        covered = any(rule.startswith("Bash(") for rule in _rules_of(scenario, "allow", "project"))
        if covered and _whole_command_rules(scenario):
            # A rule naming the compound whole covers no part once parts are judged
            # (compound-rule-arrives), whether it covered the write before is not shown.
            continue
        template: list[str] = []

        def blocked(observation: Mapping[str, Any], into: list[str] = template) -> bool:
            for tool in observation.get("tools") or []:
                seen = WRITE_BLOCKED.match(str(tool.get("result")))
                # A write outside the folders refused so is another window's (outside).
                inside = seen is not None and seen["subject"].split("'")[1].startswith(seen["cwd"])
                if seen and inside and tool.get("name") == "Bash":
                    text = str(tool["result"])
                    into[:] = [
                        text.replace(seen["subject"], "{subject}")
                        .replace(f"'{seen['cwd']}'", "'{cwd}'")
                        .replace(f" only {TOUCH_PHRASE} ", " only {phrase} ")
                    ]
                    return True
            return False

        points = _points(records, corpus, [sid], blocked)
        which = "covered" if covered else "uncovered"
        says = (
            f"a Bash command writing a file inside the project ({which} by an allow rule) is "
            "refused as a write outside the working directories"
        )
        windows = _call_windows("write-blocked", says, sid, points, template[:1])
        found += [{**rule, "facet": f"bash.write.{which}"} for rule in windows]
    return _merged(found, by_facet=True)


OUTSIDE_BLOCKED = re.compile(
    r"^(?P<subject>(?:[a-z]+ in|Output redirection to) '(?!\$ROOT/project)[^']*') was "
    r"blocked\. For security, Claude Code may only (?P<phrase>.+?) the allowed working "
    r"directories for this session: '(?P<cwd>[^']*)'\.$"
)
"""A shell command's write of a file outside the project, refused as blocked."""


OUTSIDE_SUBJECTS: Final = {"outside": r"[a-z]+ in '", "outside.redirect": "Output redirection to '"}
"""The writes outside the project a window is read for apart: a command's (``touch in``) and
an output redirection's, which older releases checked otherwise for longer."""


CHECKED: Final = ("auto", "plan")
"""Modes whose own check (auto mode's) judges a call before the path checks, in some
releases."""
READS: Final = frozenset(permission_facts().shell["path_verbs"])
"""Commands whose paths are checked as read (or entered), not written."""


def outside_write_windows(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When a Bash command writing a file outside the project was refused as blocked (a
    deny, its text saying what the command may only do), not as needing approval: per
    window of releases whose record refused a call so (scenarios calling Bash, a command's
    write and a redirection's apart), its text with subject, phrase and folders as
    ``{subject}``, ``{phrase}``, ``{cwd}``. A window shown by the oldest stored release
    starts there."""
    found: list[dict[str, Any]] = []
    for sid, scenario in corpus.items():
        # In auto mode its own check may come first (``denial-fallback``, auto refusals), in
        # plan mode from its release too (``plan-check-arrives``).
        if '"name": "Bash"' not in _calls(scenario) or _mode_given(scenario) in CHECKED:
            continue
        for which, subject in OUTSIDE_SUBJECTS.items():
            template: list[str] = []

            def blocked(
                observation: Mapping[str, Any], into: list[str] = template, start: str = subject
            ) -> bool | None:
                texts = [str(t.get("result")) for t in observation.get("tools") or []]
                # A read or a cd outside is refused by the path check every release has.
                texts = [t for t in texts if re.match(start, t) and t.split()[0] not in READS]
                for text in texts:
                    seen = OUTSIDE_BLOCKED.match(text)
                    if seen:
                        into[:] = [
                            text.replace(seen["subject"], "{subject}")
                            .replace(f"'{seen['cwd']}'", "'{cwd}'")
                            .replace(f" only {seen['phrase']} ", " only {phrase} ")
                        ]
                        return True
                outside = "needs approval. The path is outside the working directories"
                return False if any(outside in text for text in texts) else None

            points = _points(records, corpus, [sid], blocked)
            stored = sorted((v for v, _ in _stored(records, corpus, sid)), key=release_key)
            if points and points[0][1] and stored.index(points[0][0]) > 0:
                # Shown from the first release whose record can say (older ones word the
                # refusal otherwise): the release stored before it bounds the start.
                points = [(stored[stored.index(points[0][0]) - 1], False), *points]
            says = "a Bash command writing a file outside the project is refused as blocked"
            if which.endswith("redirect"):
                says = "an output redirection to a file outside the project is refused as blocked"
            for since, previous, until, _held in _runs(points):
                rule = _rule("write-blocked", says, ["PreToolUse"], since, previous, [sid])
                found.append(
                    {
                        **rule,
                        "until": until,
                        "facet": f"bash.write.{which}",
                        "before": None,
                        "after": template[0],
                    }
                )
    return _merged(found, by_facet=True)


GENERIC = (
    permission_facts().refusals["command"],
    permission_facts().refusals["compound"].partition(". ")[0],
)
"""How a command that needs approval for no reason of its own is refused, alone or as a
compound's part or parts (the catalogue's words; two parts needing approval or more are
listed together: "The following parts require approval: ...")."""


INSIDE_NEED = "needs approval. The path is inside the working directories"
"""The newest's refusal of a Bash command writing a file inside the working directories."""


def write_need_arrival(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When a Bash command writing a file inside the working directories came to be refused
    for its path (naming it): the calls of scenarios with no Bash allow rule that the
    newest refused so; per call, where it stopped being refused as any command needing
    approval (``_calls_arrival``); the earliest of them (a command judged as writing only
    later has its own rule: ``write-verb-arrives``)."""
    sids = {
        sid
        for sid, scenario in corpus.items()
        if not any(rule.startswith("Bash(") for rule in _rules_of(scenario, "allow"))
    }

    def named(call: Mapping[str, Any]) -> bool:
        text = _refused_text(call) or ""
        return (
            call.get("name") == "Bash"
            and bool(re.match(r"^\S+ in '", text))
            and (INSIDE_NEED in text)
        )

    calls = [(sid, at) for sid, at in _newest_calls(records, corpus, named) if sid in sids]

    def generic(call: Mapping[str, Any]) -> bool | None:
        text = _refused_text(call)
        if text is None or _generic(text):
            return None if text is None else True
        return False if re.match(r"^\S+ in '", text) else None  # a check of its own

    arrivals = [
        arrived
        for call in calls
        if (arrived := _calls_arrival(records, corpus, [call], generic)) is not None
    ]
    if not arrivals:
        return []
    since, previous, _ = min(arrivals, key=lambda arrived: release_key(arrived[0]))
    at = _at(records, corpus, sorted({sid for sid, _ in calls}), since)
    says = (
        "a Bash command writing a file needs approval for its path, named in the refusal "
        "(before, it was refused as any command that needs approval)"
    )
    more = {"facet": "bash.write", "before": None, "after": "path"}
    return [_rule("write-need-arrives", says, ["PreToolUse"], since, previous, at, **more)]


def _joint_arrival(
    records: Records,
    corpus: Corpus,
    sids: Sequence[str],
    shown: Shown,
    events: Sequence[str],
    rule: Mapping[str, str],
) -> list[dict[str, Any]]:
    """The rule (``kind``, ``says``, ``facet``, ``after``) of the newest's behaviour
    arriving where ``sids``' records, read together, stop showing the old one."""
    arrived = _arrival(_points(records, corpus, sids, shown))
    if arrived is None:
        return []
    at = _at(records, corpus, sids, arrived[0])
    more: dict[str, Any] = {"facet": rule["facet"], "before": None, "after": rule["after"]}
    return [_rule(rule["kind"], rule["says"], events, *arrived, at, **more)]


def _call_windows(
    kind: str, says: str, sid: str, points: Sequence[tuple[str, bool]], after: Sequence[str]
) -> list[dict[str, Any]]:
    """A rule per window of ``points`` of a behaviour of calls (``after``: its text)."""
    return [
        _rule(
            kind,
            says,
            ["PreToolUse"],
            since,
            previous,
            [sid],
            until=until,
            facet="tool[*].result",
            before=None,
            after=after[0],
        )
        for since, previous, until in _windows(points)
    ]


SKILL_ASKED = "Execute skill: {skill}"
"""The ask a Skill call got in the releases that asked for every skill (print mode refuses
it: the model reads it as the call's error)."""


def skill_ask_windows(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When every Skill call needed approval: scenarios calling the Skill tool whose newest
    record ran it; per window of releases whose record answered each Skill call with
    ``Execute skill: <skill>`` as an error (the text as a template, the skill's name as
    ``{skill}``)."""

    def asked(observation: Mapping[str, Any]) -> bool | None:
        calls = [t for t in observation.get("tools") or [] if t.get("name") == "Skill"]
        if not calls:
            return None
        return all(
            t.get("isError")
            and t.get("result")
            == SKILL_ASKED.replace("{skill}", str((t.get("input") or {}).get("skill")))
            for t in calls
        )

    found: list[dict[str, Any]] = []
    for sid, scenario in corpus.items():
        if '"name": "Skill"' not in _calls(scenario):
            continue
        stored = _stored(records, corpus, sid)
        if not stored or any(
            t.get("isError") for t in stored[-1][1].get("tools") or [] if t.get("name") == "Skill"
        ):
            continue  # the newest asks too (a skill with hooks): its wording is another rule
        points = _points(records, corpus, [sid], asked)
        says = f"every Skill call needs approval (print mode refuses it: `{SKILL_ASKED}`)"
        found += _call_windows("skill-asks", says, sid, points, [SKILL_ASKED])
    return _merged(found)


def _calls(scenario: Mapping[str, Any]) -> str:
    return json.dumps([turn.get("tools") for turn in scenario.get("turns") or []])


def _merged(rules: list[dict[str, Any]], by_facet: bool = False) -> list[dict[str, Any]]:
    """Rules of one kind and window (and facet), one rule with their scenarios together."""
    merged: dict[tuple[str, str | None, str], dict[str, Any]] = {}
    for rule in rules:
        key = (rule["since"], rule.get("until"), rule["facet"] if by_facet else "")
        if key in merged:
            merged[key]["scenarios"] = sorted({*merged[key]["scenarios"], *rule["scenarios"]})
        else:
            merged[key] = rule
    return sorted(merged.values(), key=lambda r: release_key(r["since"]))


def rewrite_arrival(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When a PreToolUse hook's ``updatedInput`` given without a ``permissionDecision``
    came to be applied: scenarios whose PreToolUse hooks answer so; a release shows the
    old behaviour where its calls' results differ from the newest's, the newest's where
    they are the same (one change from the oldest on)."""
    sids = [
        sid
        for sid, scenario in corpus.items()
        if (answers := _scripted_answers(scenario, "PreToolUse"))
        and all("updatedInput" in a and "permissionDecision" not in a for a in answers)
    ]
    says = (
        "a PreToolUse hook's `updatedInput` without a `permissionDecision` rewrites the "
        "call (before, the call ran as the model wrote it)"
    )
    return _results_arrival(
        records, corpus, sids, "rewrite-arrives", says, "output[PreToolUse].updatedInput"
    )


def _results_arrival(
    records: Records, corpus: Corpus, sids: Sequence[str], kind: str, says: str, facet: str
) -> list[dict[str, Any]]:
    """Per scenario of ``sids``: the release from which its calls' results stay the
    newest's, having differed on every stored release before (one rule per release)."""
    found: list[dict[str, Any]] = []
    for sid in sids:
        stored = _stored(records, corpus, sid)
        if not stored:
            continue
        newest = [t.get("result") for t in stored[-1][1].get("tools") or []]
        points = [
            (version, [t.get("result") for t in o.get("tools") or []] != newest)
            for version, o in stored
        ]
        arrived = _arrival(points)
        if arrived is not None:
            events = [event for event, _ in _hook_groups(corpus[sid])] or ["PreToolUse"]
            after = facet.rsplit(".", 1)[-1]
            found.append(
                _rule(kind, says, events, *arrived, [sid], facet=facet, before=None, after=after)
            )
    return _merged(found)


def flag_arrivals(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When a command-line flag came to be known: scenarios passing one option (with its
    values); a release shows the old behaviour where the run did not start (no request, no
    result line, no hook), the newest's where it did (one change from the oldest on). Where another
    scenario passing the same option started on a release before the change, what arrived
    is the option with that value (``--permission-mode auto``), else the option."""

    def not_started(observation: Mapping[str, Any]) -> bool:
        # Refused before anything ran: no request, no result line, no hook (a run a
        # WorktreeCreate hook stops never starts either, but its hook ran).
        result = observation.get("result") or {}
        started = observation.get("requests") or result.get("subtype") is not None
        return not started and not observation.get("hooks")

    def option(sid: str) -> list[str]:
        flags = [str(flag) for flag in corpus[sid].get("flags") or []]
        alone = flags[:1] and flags[0].startswith("--")
        return flags if alone and not any(f.startswith("-") for f in flags[1:]) else []

    found = []
    for sid in corpus:
        flags = option(sid)
        if not flags:
            continue
        arrived = _arrival(_points(records, corpus, [sid], not_started))
        if arrived is None:
            continue
        since, previous = arrived
        others = [
            other
            for other in corpus
            if other != sid
            and (option(other) or [""])[0] == flags[0]
            and any(
                release_key(v) <= release_key(previous) and not not_started(o)
                for v, o in _stored(records, corpus, other)
            )
        ]
        flag = " ".join(flags[:2]) if others and len(flags) > 1 else flags[0]
        found.append(
            _rule(
                "flag-arrives",
                f"claude accepts `{flag}` (before, a run given it did not start)",
                [],
                since,
                previous,
                [sid],
                facet="flags",
                before=None,
                after=flag,
            )
        )
    return found


EXIT2_NOW = re.compile(r"^PreToolUse:(?P<tool>\w+) hook error: (?P<error>\[.*)$", re.S)
"""The newest release's tool_result of a call a PreToolUse hook's exit 2 refused."""


def exit2_texts(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """How the tool_result of a call refused by a PreToolUse hook's exit 2 was worded:
    scenarios whose newest record refused one call so; on each stored release, that call's
    text with the tool and the hook's error (``[command]: stderr``) as ``{tool}`` and
    ``{error}``. A rule per change of the template (``before`` and ``after``)."""

    def placed(newest: Mapping[str, Any]) -> dict[str, str] | None:
        if not any(
            run.get("event") == "PreToolUse" and run.get("exit") == 2
            for run in newest.get("hooks") or []
        ):
            return None
        now = [EXIT2_NOW.match(str(t.get("result"))) for t in newest.get("tools") or []]
        if len(now) != 1 or now[0] is None:
            return None
        return {"{error}": now[0]["error"], "{tool}": now[0]["tool"]}

    def texts(observation: Mapping[str, Any]) -> list[str]:
        return [str(t.get("result")) for t in observation.get("tools") or []]

    says = "a call a PreToolUse hook's exit 2 refused reaches the model as"
    return _template_changes(records, corpus, "exit2-text", says, placed, texts, "tool[*].result")


REFUSALS_NOW = {
    "plan_write": re.compile(r"^Cannot write to (?P<value>.+) while in plan mode\.$", re.S),
    "skill": re.compile(r"^Execute skill: (?P<value>[^.]+)\. The user can add the allow rule "),
    "no_such_tool": re.compile(
        r"^<tool_use_error>Error: No such tool available: (?P<value>\w+)\. (?P=value) is disabled "
    ),
}
"""The newest release's refusals (the catalogue's names) whose wording changed, the value
they hold as ``value``."""
REFUSAL_FIELDS = {"plan_write": "{path}", "skill": "{skill}", "no_such_tool": "{tool}"}
"""The placeholder of each refusal's value, as the catalogue writes it."""


def refusal_texts(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """How a refusal of the permission step was worded (plan mode's refusal to write):
    scenarios whose newest record refused one call so; on each stored release, that
    call's text with the value as the catalogue's placeholder. A rule per change."""
    found: list[dict[str, Any]] = []
    for name, now in REFUSALS_NOW.items():

        def placed(newest: Mapping[str, Any], now: re.Pattern[str] = now, name: str = name):
            matches = [now.match(str(t.get("result"))) for t in newest.get("tools") or []]
            held = [match for match in matches if match is not None]
            return {REFUSAL_FIELDS[name]: held[0]["value"]} if len(held) == 1 else None

        def texts(observation: Mapping[str, Any]) -> list[str]:
            return [str(t.get("result")) for t in observation.get("tools") or []]

        says = f"the permission step's refusal `{name}` reaches the model as"
        facet = f"refusal.{name}"
        found += _template_changes(records, corpus, "refusal-text", says, placed, texts, facet)
    return found


def _generic(text: str) -> bool:
    """A refusal as any command needing approval gets (alone, or as a compound's parts)."""
    return text.startswith(GENERIC)


CANCELLED = re.compile(r"^<tool_use_error>Cancelled: parallel tool call (?P<call>.+) errored</")
"""A call cancelled because an earlier call of its turn was refused (some releases)."""
OTHER_CAUSE = re.compile(f"{AUTO_REFUSAL.pattern}|{CANCELLED.pattern}")
"""Refusals for a cause other than the call's own command: auto mode's (some releases ran a
session given no mode in auto mode), and a call cancelled because a sibling in its batch
failed (seen on 2.1.154 to 2.1.160)."""


def _newest_calls(
    records: Records, corpus: Corpus, picked: Callable[[Mapping[str, Any]], bool]
) -> list[tuple[str, int]]:
    """The calls of each scenario's newest record that ``picked`` takes: the scenario and
    the call's place."""
    found = []
    for sid in corpus:
        stored = _stored(records, corpus, sid)
        tools = stored[-1][1].get("tools") or [] if stored else []
        found += [(sid, i) for i, call in enumerate(tools) if picked(call)]
    return found


def _call_seen(
    records: Records, corpus: Corpus, sid: str, at: int
) -> list[tuple[str, Mapping[str, Any]]]:
    """The call at ``at`` on each stored release of ``sid`` with as many calls as its newest
    record, unless refused for another cause than its own command (``OTHER_CAUSE``)."""
    stored = _stored(records, corpus, sid)
    count = len(stored[-1][1].get("tools") or []) if stored else 0
    return [
        (version, tools[at])
        for version, observation in stored
        if len(tools := observation.get("tools") or []) == count
        and not OTHER_CAUSE.search(str(tools[at].get("result")))
    ]


def _newest_command(records: Records, corpus: Corpus, sid: str, at: int) -> str:
    """The command of the call at ``at`` in ``sid``'s newest record."""
    return str((_newest_call(records, corpus, sid, at).get("input") or {}).get("command"))


def _newest_call(records: Records, corpus: Corpus, sid: str, at: int) -> Mapping[str, Any]:
    """The call at ``at`` in ``sid``'s newest record."""
    call: Mapping[str, Any] = _stored(records, corpus, sid)[-1][1]["tools"][at]
    return call


def _calls_arrival(
    records: Records,
    corpus: Corpus,
    calls: Sequence[tuple[str, int]],
    old: Callable[[Mapping[str, Any]], bool | None],
) -> tuple[str, str, list[str]] | None:
    """Where ``calls``, read together, stop showing the ``old`` behaviour (one change from
    the oldest on; a release where they disagree says nothing): ``since``, ``previous`` and
    the scenarios stored at ``since``."""
    arrived = _arrival(_calls_points(records, corpus, calls, old))
    if arrived is None:
        return None
    return *arrived, _at(records, corpus, sorted({sid for sid, _ in calls}), arrived[0])


def _calls_points(
    records: Records,
    corpus: Corpus,
    calls: Sequence[tuple[str, int]],
    shown: Callable[[Mapping[str, Any]], bool | None],
) -> list[tuple[str, bool]]:
    """Per stored release, whether ``calls`` there show the behaviour (``shown`` of each;
    a release where they disagree says nothing and is left out)."""
    seen: dict[str, set[bool]] = {}
    for sid, at in calls:
        for version, call in _call_seen(records, corpus, sid, at):
            said = shown(call)
            if said is not None:
                seen.setdefault(version, set()).add(said)
    return _agreed(seen)


def _every_record_points(
    records: Records, corpus: Corpus, calls: Sequence[tuple[str, int]], shown: Shown
) -> list[tuple[str, bool]]:
    """``_calls_points`` read from every stored record, auto mode's refusals included
    (which ``_call_seen`` passes over as another cause's): for rules about them."""
    seen: dict[str, set[bool]] = {}
    for sid, at in calls:
        for version, observation in _stored(records, corpus, sid):
            tools = observation.get("tools") or []
            said = shown(tools[at]) if at < len(tools) else None
            if said is not None:
                seen.setdefault(version, set()).add(said)
    return _agreed(seen)


def _fixed_refusals() -> dict[str, str]:
    """The permission step's refusals without placeholders (the generic one left out)."""
    texts = permission_facts().refusals.items()
    return {name: text for name, text in texts if "{" not in text and name != "command"}


QUOTED_EXPANSION = re.compile(r'"[^"]*\$')
"""A double-quoted string holding an expansion: releases before 2.1.163 refused it as
quoted text (``Unhandled node type: string``) whatever else the command held."""


def _refused_as(text: str) -> Callable[[Mapping[str, Any]], bool]:
    """Picks a call refused with ``text`` (its placeholders any text) for its own sake: not
    one whose command holds a double-quoted expansion (``QUOTED_EXPANSION``), unless
    ``text`` is quoted text's."""
    quoted = text == permission_facts().refusals["quoted_text"]
    pattern = re.compile(re.sub(r"\\\{\w+\\\}", ".+", re.escape(text)))

    def picked(call: Mapping[str, Any]) -> bool:
        command = str((call.get("input") or {}).get("command"))
        refused = pattern.fullmatch(_refused_text(call) or "") is not None
        return refused and (quoted or not QUOTED_EXPANSION.search(command))

    return picked


def _refused_text(call: Mapping[str, Any]) -> str | None:
    return str(call.get("result")) if call.get("isError") else None


COMMAND_FAILED = re.compile(r"^(?:Exit code \d+\n)?[\w.-]+: ")
"""The result of a Bash call that ran and failed, not a refusal: its exit code, or the
command's own complaint (``grep: : No such file or directory``)."""


def _ran(call: Mapping[str, Any]) -> bool:
    """Whether a Bash call ran (it may have failed)."""
    return not call.get("isError") or COMMAND_FAILED.match(str(call.get("result"))) is not None


def _narrowed(
    changes: Mapping[tuple[str, str, str], tuple[str, str, set[str]]],
    name: str,
    sid: str,
    texts: Sequence[tuple[str, str]],
) -> dict[tuple[str, str, str], tuple[str, str, set[str]]]:
    """The changes of ``texts`` (per release) as ``changes`` keeps them, each bounded by
    every scenario that shows it: the narrowest span (``previous``, ``since``)."""
    found = {}
    for (previous, old), (since, new) in itertools.pairwise(texts):
        if old != new:
            low, high, sids = changes.get((name, old, new), (previous, since, set()))
            low = max(low, previous, key=release_key)
            found[(name, old, new)] = (low, min(high, since, key=release_key), {*sids, sid})
    return found


def _narrowest(
    records: Records,
    corpus: Corpus,
    texts: tuple[str, str],
    previous: str,
    since: str,
    sids: set[str],
) -> tuple[str, str, set[str]]:
    """``previous`` and ``since`` of a refusal's change of text (``texts``: before, after),
    narrowed by every stored Bash call that changed so between two of its releases inside
    that span (releases between them not stored say nothing)."""
    if _exact(since, previous):
        return previous, since, sids
    low, high = release_key(previous), release_key(since)
    for sid in corpus:
        stored = _stored(records, corpus, sid)
        count = len(stored[-1][1].get("tools") or []) if stored else 0
        for at in range(count):
            seen = [(v, _refused_text(call)) for v, call in _call_seen(records, corpus, sid, at)]
            for (a, old), (b, new) in itertools.pairwise(seen):
                if (old, new) == texts and low <= release_key(a) and release_key(b) <= high:
                    low, high, sids = release_key(a), release_key(b), {*sids, sid}
                    previous, since = a, b
    return previous, since, sids


def fixed_refusal_texts(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """How a refusal of the permission step without placeholders was worded (a command
    holding a variable) after its check arrived (``check-arrives``): per call the newest
    record refused so, a rule per change of its text between neighbouring releases
    (``before``, ``after``; a refusal as any command's and ``OTHER_CAUSE`` left out)."""
    changes: dict[tuple[str, str, str], tuple[str, str, set[str]]] = {}  # previous, since
    fixed = _fixed_refusals()
    for name, text in fixed.items():
        # Another refusal's words, or a check of the command's text, is not this one's.
        others = {other for key, other in fixed.items() if key != name}
        for sid, at in _newest_calls(records, corpus, _refused_as(text)):
            texts = [(v, _refused_text(call)) for v, call in _call_seen(records, corpus, sid, at)]
            own = [
                (v, t)
                for v, t in texts
                if t is not None
                and not _generic(t)
                and not LEGACY_TEXT.match(t)
                and t not in others
            ]
            changes.update(_narrowed(changes, name, sid, own))

    def within(inner: tuple[str, str], outer: tuple[str, str]) -> bool:
        return release_key(outer[0]) <= release_key(inner[0]) and release_key(
            inner[1]
        ) <= release_key(outer[1])

    # A wide span another scenario narrows through a wording between is that chain's.
    changes = {
        key: (previous, since, sids)
        for key, (previous, since, sids) in changes.items()
        if not any(
            other != key
            and other[0] == key[0]
            and (other[1] == key[1] or other[2] == key[2])
            and within(changes[other][:2], (previous, since))
            for other in changes
        )
    }
    # A span left wide is narrowed by any other call showing the same change inside it.
    changes = {key: _narrowest(records, corpus, key[1:], *value) for key, value in changes.items()}
    return [
        _rule(
            "refusal-text",
            f"the permission step's refusal `{name}` reaches the model as `{new}` (was `{old}`)",
            ["PreToolUse"],
            since,
            previous,
            sorted(sids),
            facet=f"refusal.{name}",
            before=old,
            after=new,
        )
        for (name, old, new), (previous, since, sids) in changes.items()
    ]


def known_variable_arrivals(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When the permission step came to fill in a variable it knows (``$HOME``): per such
    variable of the catalogue, Bash calls naming it that the newest record ran; a release
    shows the old behaviour where they were refused, the newest's where they ran
    (``_calls_arrival``). The text of an old refusal is the release's: a variable's, or
    inside double quotes quoted text's."""
    found = []
    for name in permission_facts().shell["known_variables"]:
        named = re.compile(rf"\${name}(?![A-Za-z0-9_])")

        def ran(call: Mapping[str, Any], named: re.Pattern[str] = named) -> bool:
            command = str((call.get("input") or {}).get("command"))
            return (
                call.get("name") == "Bash"
                and bool(named.search(command))
                and not call.get("isError")
            )

        calls = _newest_calls(records, corpus, ran)
        arrived = _calls_arrival(records, corpus, calls, lambda call: bool(call.get("isError")))
        if arrived is not None:
            says = (
                f"the permission step fills in `${name}`: a command using it is judged as if "
                "it were written out (before, refused as any variable; inside double quotes, "
                "as quoted text)"
            )
            found.append(
                _arrived_rule("known-variable-arrives", says, arrived, f"variable.{name}", name)
            )
    return found


def _arrived_rule(
    kind: str, says: str, arrived: tuple[str, str, list[str]], facet: str, after: str
) -> dict[str, Any]:
    """The rule of a behaviour of Bash calls arriving (``_calls_arrival``)."""
    since, previous, sids = arrived
    return _rule(
        kind, says, ["PreToolUse"], since, previous, sids, facet=facet, before=None, after=after
    )


def cancel_windows(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When a call refused as needing approval cancelled the later calls of its turn:
    scenarios with a turn of two calls or more; a release shows the behaviour where a
    call's text says it was cancelled, not where a call refused as any command needing
    approval (``_generic``) came before another and none was cancelled. A rule per window,
    ``after``: the text, the refused call (``Bash(<command>)``) as ``{call}``."""
    sids = [
        sid
        for sid, scenario in corpus.items()
        if any(len(turn.get("tools") or []) > 1 for turn in scenario.get("turns") or [])
    ]
    template: list[str] = []

    def cancelled(observation: Mapping[str, Any]) -> bool | None:
        tools = observation.get("tools") or []
        for tool in tools:
            seen = CANCELLED.match(str(tool.get("result")))
            if seen:
                template[:] = [str(tool.get("result")).replace(seen["call"], "{call}")]
                return True
        refused = [
            i for i, t in enumerate(tools) if t.get("isError") and _generic(str(t.get("result")))
        ]
        return False if refused and refused[0] < len(tools) - 1 else None

    points = _points(records, corpus, sids, cancelled)
    says = "a call refused as needing approval cancels the later calls of its turn: they "
    says += "read `" + (template or [""])[0] + "`"
    window = ("sibling-cancel", says, ["PreToolUse"], "tool[*].result")
    return _window_rules(records, corpus, sids, points, window, (template or [""])[0])


def _window_rules(
    records: Records,
    corpus: Corpus,
    sids: Sequence[str],
    points: Sequence[tuple[str, bool]],
    window: tuple[str, str, Sequence[str], str],
    after: Any,
) -> list[dict[str, Any]]:
    """A rule (``window``: kind, says, events, facet) per window of ``points``."""
    kind, says, events, facet = window
    return [
        _rule(
            kind,
            says,
            events,
            since,
            previous,
            _at(records, corpus, sids, since),
            until=until,
            facet=facet,
            before=None,
            after=after,
        )
        for since, previous, until in _windows(points)
    ]


def _in_auto_mode(scenario: Mapping[str, Any]) -> bool:
    return _mode_given(scenario) == "auto"


def _mode_given(scenario: Mapping[str, Any]) -> str:
    """The permission mode the scenario's flags give ("" for none)."""
    flags = [str(flag) for flag in scenario.get("flags") or []]
    pairs = itertools.pairwise(flags)
    return next((b for a, b in pairs if a == "--permission-mode"), "")


def _permissions(scenario: Mapping[str, Any], scope: str, key: str) -> bool:
    """Whether the scenario's ``scope`` settings give permissions under ``key``."""
    settings = (scenario.get("settings") or {}).get(scope)
    permissions = settings.get("permissions") if isinstance(settings, dict) else None
    return isinstance(permissions, dict) and bool(permissions.get(key))


SETTINGS_SCOPES: Final = ("user", "project", "local", "flag")
"""The settings files a scenario writes, by scope."""


def settings_dirs_arrival(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When settings' ``permissions.additionalDirectories`` came to be working directories,
    per settings file (``after``: its scope): the calls of scenarios whose settings give
    some in that scope alone (a project's in a trusted folder), and no ``--add-dir``, that
    the newest let run and some older release refused; the release from which they ran (a
    scope whose calls always ran has no rule)."""
    found = []
    for scope in SETTINGS_SCOPES:
        sids = {
            sid
            for sid, scenario in corpus.items()
            if [s for s in SETTINGS_SCOPES if _permissions(scenario, s, "additionalDirectories")]
            == [scope]
            and (scope != "project" or scenario.get("trust"))
            and "--add-dir" not in (scenario.get("flags") or [])
        }
        calls = [
            (sid, at)
            for sid, at in _newest_calls(records, corpus, lambda call: not call.get("isError"))
            if sid in sids
            and any(call.get("isError") for _, call in _call_seen(records, corpus, sid, at))
        ]
        arrived = _calls_arrival(records, corpus, calls, lambda call: bool(call.get("isError")))
        if arrived is None:
            continue
        since, previous, at = arrived
        says = (
            f"{scope} settings' `permissions.additionalDirectories` are working directories "
            "(before, a command in one was refused as outside them)"
        )
        more = {"facet": f"permissions.additionalDirectories.{scope}", "before": None}
        rule = _rule("settings-dirs-arrive", says, ["PreToolUse"], since, previous, at, **more)
        found.append({**rule, "after": scope})
    return found


INSIDE_BLOCKED = re.compile(
    r"^\S+ in '\$ROOT/project[/']|^Output redirection to '\$ROOT/project[/']"
)
"""A refusal as blocked of a path inside the project: a write refused whatever the rules
said (``write-blocked``), which says nothing of whether they held."""


def plan_check_arrival(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When plan mode came to leave a call it would not run to auto mode's check (offline:
    refused in auto mode's words, a PermissionDenied hook told): the calls of scenarios
    given ``--permission-mode plan`` that the newest refused so; a release shows the old
    behaviour where such a call was refused in other words (as default mode refuses it)."""
    sids = {sid for sid, scenario in corpus.items() if _mode_given(scenario) == "plan"}

    def auto(call: Mapping[str, Any]) -> bool:
        return bool(AUTO_REFUSAL.search(_refused_text(call) or "\0"))

    def other(call: Mapping[str, Any]) -> bool | None:
        return None if _refused_text(call) is None else not auto(call)

    calls = [(sid, at) for sid, at in _newest_calls(records, corpus, auto) if sid in sids]
    points = _every_record_points(records, corpus, calls, other)
    arrived = _arrival(points)
    if arrived is None:
        return []
    says = (
        "plan mode leaves a call it does not run to auto mode's check (before, it refused "
        "the call as default mode does, and no PermissionDenied hook ran)"
    )
    more = {"facet": "permissions.plan.check", "before": None, "after": "check"}
    at = _at(records, corpus, sorted(sids), arrived[0])
    events = ["PreToolUse", "PermissionDenied"]
    return [_rule("plan-check-arrives", says, events, *arrived, at, **more)]


SUBJECT = re.compile(r"^(?P<verb>[a-z]+) in '(?P<path>[^']*)'")
"""A refusal naming one command and one path (``cp in '<path>' ...``)."""


def first_path_windows(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When a refused command writing several files was named by its first path, not by the
    one the newest names (``cp a.txt /tmp/b``: the source inside the project, not the
    target outside): the Bash calls whose newest refusal names a path other than the
    command's first; a rule per window of releases whose refusal named the first."""

    def first(call: Mapping[str, Any]) -> str | None:
        command = str((call.get("input") or {}).get("command"))
        words = command.split()
        paths = [word for word in words[1:] if not word.startswith("-")]
        # One command writing files, each argument a path (cp, mv).
        one = len(simple_commands(command) or []) == 1
        if len(paths) < 2 or not one or words[0] not in permission_facts().shell["file_writing"]:
            return None
        return paths[0] if paths[0].startswith("/") else f"$ROOT/project/{paths[0]}"

    def named(call: Mapping[str, Any]) -> str | None:
        seen = SUBJECT.match(_refused_text(call) or "")
        return None if seen is None else seen["path"]

    def named_otherwise(call: Mapping[str, Any]) -> bool:
        written = first(call) if call.get("name") == "Bash" else None
        return written is not None and named(call) not in (None, written)

    calls = _newest_calls(records, corpus, named_otherwise)

    def first_named(call: Mapping[str, Any]) -> bool | None:
        path = named(call)
        return None if path is None else path == first(call)

    points = _calls_points(records, corpus, calls, first_named)
    sids = sorted({sid for sid, _ in calls})
    says = (
        "a refused command writing several files is named by its first path (the newest "
        "names the one outside the working directories)"
    )
    window = ("first-path-named", says, ["PreToolUse"], "bash.write.first_path")
    return _window_rules(records, corpus, sids, points, window, True)


VERB_CHECK = re.compile(r"^(?P<verb>[a-z]+) command requires approval \((?P<why>[^)]+)\)$")
"""A command refused by a check of its own, in words naming it and why (``sed``)."""


def verb_check_windows(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When a command writing a file inside the project was refused by a check of its own
    (``sed command requires approval (contains potentially dangerous operations)``): per
    command, the Bash calls some stored record refused so; a rule per run of releases that
    refused all of them with one such text (``after``)."""
    picked: dict[str, list[tuple[str, int]]] = {}
    for sid, at in _newest_calls(records, corpus, lambda call: call.get("name") == "Bash"):
        said = [
            VERB_CHECK.match(_refused_text(c) or "")
            for _, c in _call_seen(records, corpus, sid, at)
        ]
        verbs = {seen["verb"] for seen in said if seen}
        if len(verbs) == 1:
            picked.setdefault(verbs.pop(), []).append((sid, at))
    found = []
    for verb, calls in sorted(picked.items()):
        points = _texts_points(
            records,
            corpus,
            calls,
            lambda call: VERB_CHECK.match(_refused_text(call) or "") is not None,
        )
        sids = sorted({sid for sid, _ in calls})
        for since, previous, until, text in _runs(points):
            says = f"a `{verb}` command writing a file inside the project is refused as `{text}`"
            rule = _rule(
                "verb-check",
                says,
                ["PreToolUse"],
                since,
                previous,
                _at(records, corpus, sids, since),
            )
            found.append(
                {
                    **rule,
                    "until": until,
                    "facet": f"bash.check.{verb}",
                    "before": None,
                    "after": text,
                }
            )
    return found


def _texts_points(
    records: Records,
    corpus: Corpus,
    calls: Sequence[tuple[str, int]],
    kept: Callable[[Mapping[str, Any]], bool],
) -> list[tuple[str, str | None]]:
    """Per stored release, the one refusal text ``calls`` there got that ``kept`` takes (None
    where another refusal or a run; a release where they differ is left out)."""
    seen: dict[str, set[str | None]] = {}
    for sid, at in calls:
        for version, call in _call_seen(records, corpus, sid, at):
            text = _refused_text(call) if kept(call) else None
            seen.setdefault(version, set()).add(text)
    return _agreed(seen)


def input_read_arrival(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When an input redirection's file came to count as read by its command, so that a Read
    deny rule covering the file refuses it: Bash calls holding ``<`` that the newest refused
    with a deny rule's text; a release shows the old behaviour where such a call ran (a
    refusal in other words, such as the old text check of ``<``, says nothing)."""
    denied = permission_facts().refusals["deny_rule_command"].partition("{command}")[0]

    def holds_input(call: Mapping[str, Any]) -> bool:
        command = str((call.get("input") or {}).get("command"))
        return call.get("name") == "Bash" and "input_redirection" in legacy_constructs(command)

    def refused_by_rule(call: Mapping[str, Any]) -> bool:
        prefix = denied.replace("{tool}", "Bash")
        return holds_input(call) and (_refused_text(call) or "").startswith(prefix)

    def ran(call: Mapping[str, Any]) -> bool | None:
        if not call.get("isError"):
            return True
        return False if refused_by_rule(call) else None

    calls = _newest_calls(records, corpus, refused_by_rule)
    arrived = _calls_arrival(records, corpus, calls, ran)
    if arrived is None:
        return []
    says = (
        "an input redirection's file counts as read by its command: a Read deny rule covering "
        "it refuses the command (before, the command ran)"
    )
    more = {"facet": "bash.read.input_redirection", "before": None, "after": "read"}
    return [_rule("input-read-arrives", says, ["PreToolUse"], *arrived, **more)]


def flag_unchecked_windows(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When a flag the newest checks (the catalogue's ``checked_flags``: ``test -v``) let
    its read-only command run: per command and flag, the single Bash commands holding it
    that the newest refused as any command needing approval; a rule per window of releases
    where they ran."""
    checked = permission_facts().shell["checked_flags"]
    generic = permission_facts().refusals["command"]
    picked: dict[tuple[str, str], list[tuple[str, int]]] = {}
    for sid, at in _newest_calls(records, corpus, lambda call: _refused_text(call) == generic):
        command = _newest_command(records, corpus, sid, at)
        words = command.split()
        if len(simple_commands(command) or []) != 1 or not words:
            continue
        flags = [w for w in words[1:] if w in checked.get(words[0], ())]
        if len(flags) == 1:
            picked.setdefault((words[0], flags[0]), []).append((sid, at))
    found = []
    for (verb, flag), calls in sorted(picked.items()):
        points = _calls_points(records, corpus, calls, lambda call: not call.get("isError"))
        sids = sorted({sid for sid, _ in calls})
        says = f"`{verb} {flag}` runs where `{verb}` only reads (the newest checks the flag)"
        window = ("flag-unchecked", says, ["PreToolUse"], f"bash.flag.{verb}.{flag}")
        found += _window_rules(records, corpus, sids, points, window, flag)
    return found


ASSIGNMENT_CHECKS: Final = {
    "name": "an assignment of any variable before a read-only command lets it run",
    "path": "an assignment of a variable some tools read lets a read-only command run, "
    "its value like a path (`NODE_ENV=/tmp ls`)",
    "locale": "an assignment of a locale variable lets a read-only command run, its value "
    "not a locale (`LANG=xx ls`)",
}
"""What the newest checks of an assignment before a command, and what a release that did
not check it let run."""


def assignment_rules(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When assignments before a command's name (``LANG=C ls``) came to leave it judged as
    its name alone (``assignments-arrive``: single Bash commands starting with one that the
    newest ran; before, refused as any command), and when releases let through ones the
    newest refuses as any command (``assignment-unchecked``: per ``name``, a variable not
    in the catalogue's ``safe_assignments``, a ``path`` as the value, a non-locale value
    of a locale variable: ``ASSIGNMENT_CHECKS``; a rule per window of releases where they
    ran)."""
    generic = permission_facts().refusals["command"]
    safe = permission_facts().shell["safe_assignments"]
    path_like = re.compile(safe["path_like"])

    def assigned(sid: str, at: int) -> list[str]:
        command = _newest_command(records, corpus, sid, at)
        if len(simple_commands(command, keep_assignments=True) or []) != 1:
            return []
        words = command_words(command) or []
        return list(itertools.takewhile(lambda word: ASSIGNMENT.match(word) is not None, words))

    def ran(call: Mapping[str, Any]) -> bool | None:
        return True if _ran(call) else False if _refused_text(call) == generic else None

    def needed(call: Mapping[str, Any]) -> bool | None:
        said = ran(call)
        return None if said is None else not said

    def checked(call: tuple[str, int]) -> str:
        """What of its assignments the newest refused a call for: a name, or a value."""
        words = [word.partition("=") for word in assigned(*call)]
        if any(name not in safe["names"] for name, _, _ in words):
            return "name"
        return "path" if any(path_like.search(value) for _, _, value in words) else "locale"

    bash = _newest_calls(records, corpus, lambda call: call.get("name") == "Bash")
    newest = {c: ran(_newest_call(records, corpus, *c)) for c in bash if assigned(*c)}
    found = []
    arrived = _calls_arrival(records, corpus, [c for c, said in newest.items() if said], needed)
    if arrived is not None:
        says = (
            "a command after assignments of variables some tools read (`LANG=C ls`) is judged as "
            "its name alone (before, it needed approval as any command)"
        )
        more = {"facet": "bash.assignments", "before": None, "after": "read"}
        found.append(_rule("assignments-arrive", says, ["PreToolUse"], *arrived, **more))
    for what, says in ASSIGNMENT_CHECKS.items():
        picked = [c for c, said in newest.items() if said is False and checked(c) == what]
        points = _calls_points(records, corpus, picked, ran)
        sids = sorted({sid for sid, _ in picked})
        window = ("assignment-unchecked", says, ["PreToolUse"], f"bash.assignment.{what}")
        found += _window_rules(records, corpus, sids, points, window, what)
    return found


def quoted_variable_windows(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When a command holding a variable inside double quotes (``grep "$FOO" a.txt``) ran,
    the quoted text read as it stands: per command word, the single Bash commands the
    newest refused as holding a variable (its catalogue words); a rule per window of
    releases where they ran (a refusal by a check of the command's text, ``LEGACY_TEXT``,
    says nothing)."""
    variable = permission_facts().refusals["variable"]
    picked: dict[str, list[tuple[str, int]]] = {}
    for sid, at in _newest_calls(records, corpus, lambda call: _refused_text(call) == variable):
        command = _newest_command(records, corpus, sid, at)
        words = command.split()
        if len(simple_commands(command) or []) == 1 and words and QUOTED_EXPANSION.search(command):
            picked.setdefault(words[0], []).append((sid, at))

    def ran(call: Mapping[str, Any]) -> bool | None:
        return None if LEGACY_TEXT.match(_refused_text(call) or "") else _ran(call)

    found = []
    for verb, calls in sorted(picked.items()):
        points = _calls_points(records, corpus, calls, ran)
        sids = sorted({sid for sid, _ in calls})
        says = f"a `{verb}` command holding a variable inside double quotes runs (read as text)"
        window = ("quoted-variable-unchecked", says, ["PreToolUse"], f"bash.quoted_variable.{verb}")
        found += _window_rules(records, corpus, sids, points, window, verb)
    return found


def left_out_windows(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When a compound command's listing of the parts needing approval left out a part
    refused for its path, an output redirection to a file inside the project (``npm test
    && echo hi > out.txt`` listing ``npm test`` alone): compound Bash calls, no pipeline,
    of scenarios given no mode, holding one such redirection in a part the catalogue
    counts read-only (``cat``, ``echo``), whose newest listing names that part; a rule per
    window of releases whose listings leave it out (the part's own refusal winning says
    not; a release that let the redirection through unchecked, or named its file as a
    part, says nothing)."""
    says_nothing = _inside(
        [
            rule
            for rule in redirect_windows(records, corpus)
            if rule["facet"] in ("bash.redirect.part", "bash.redirect.inside.compound")
        ]
    )

    shell = permission_facts().shell
    read_only = {*shell["any_arguments"], *shell["output_only"]}
    redirected = "Output redirection to "
    picked: dict[tuple[str, int], str] = {}
    for sid, at in _newest_calls(records, corpus, lambda call: call.get("name") == "Bash"):
        command = _newest_command(records, corpus, sid, at)
        parts = simple_commands(command) or []
        targets = OUTPUT_TARGET.findall(command)
        listed = _listed(_refused_text(_newest_call(records, corpus, sid, at)) or "") or []
        if len(parts) < 2 or has_pipe(command) or len(targets) != 1 or targets[0].startswith("/"):
            continue
        holding = [part.partition(">")[0].strip() for part in parts if ">" in part]
        verb = holding[0].split()[0] if holding and holding[0] else ""
        if (
            verb in read_only
            and _mode_given(corpus[sid]) in ("", "default")
            and holding[0] in listed
        ):
            picked[(sid, at)] = holding[0]
    seen: dict[str, set[bool]] = {}
    for (sid, at), name in picked.items():
        for version, call in _call_seen(records, corpus, sid, at):
            text = _refused_text(call) or ""
            listed = _listed(text)
            if says_nothing(version):
                continue
            if listed is not None:
                seen.setdefault(version, set()).add(name not in listed)
            elif text.startswith(redirected):  # the part's own refusal won: not left out
                seen.setdefault(version, set()).add(False)
    sids = sorted({sid for sid, _ in picked})
    says = (
        "a compound command's listing of the parts needing approval leaves out a part refused "
        "for its output redirection to a file inside the project"
    )
    window = ("blocked-part-left-out", says, ["PreToolUse"], "bash.left_out.redirect")
    return _window_rules(records, corpus, sids, _agreed(seen), window, "redirect")


def untrusted_permission_windows(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When a project's permissions (allow rules, ``additionalDirectories``) held in a
    folder never trusted: scenarios in such a folder whose project settings give some, the
    calls their newest record refused; a release shows the behaviour where those calls
    ran. Says nothing: a release that ran a session given no mode in another mode (auto
    mode lets a write inside the project run either way), a refusal as blocked of a path
    inside the project, and a scenario giving only ``additionalDirectories`` before
    ``settings-dirs-arrive`` (no folder took them yet). A rule per run of releases."""
    sids = {sid for sid, scenario in corpus.items() if not scenario.get("trust")}
    keys = ("allow", "additionalDirectories")
    sids = {sid for sid in sids if any(_permissions(corpus[sid], "project", k) for k in keys)}
    default = _in_default_mode(records, corpus)
    dirs = [r for r in settings_dirs_arrival(records, corpus) if r["after"] == "project"]
    read_from = release_key(dirs[0]["since"]) if dirs else (0,)
    calls = [
        (sid, at)
        for sid, at in _newest_calls(records, corpus, lambda call: bool(call.get("isError")))
        if sid in sids
    ]
    seen: dict[str, set[bool]] = {}
    for sid, at in calls:
        dirs_only = not _permissions(corpus[sid], "project", "allow")
        for version, call in _call_seen(records, corpus, sid, at):
            if not default(version) or (dirs_only and release_key(version) < read_from):
                continue
            text = _refused_text(call) or ""
            if INSIDE_BLOCKED.match(text) and " was blocked. " in text:
                continue
            seen.setdefault(version, set()).add(not call.get("isError"))
    points = _agreed(seen)
    says = (
        "a project's permissions (its allow rules, its `additionalDirectories`) hold in a "
        "folder never trusted"
    )
    return [
        _rule(
            "untrusted-permissions",
            says,
            ["PreToolUse"],
            since,
            previous,
            _at(records, corpus, sorted({sid for sid, _ in calls}), since),
            until=until,
            facet="permissions.project.untrusted",
            before=None,
            after=True,
        )
        for since, previous, until, _held in _runs(points)
    ]


def classifier_turn_windows(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When auto mode's check sent its request as one of the main conversation, so that
    the scripted model's next turn answered it (no verdict) and the conversation went on
    from the turn after: scenarios run in auto mode, on releases whose record refused a
    call; a release shows it where a record made more requests than the scenario has
    turns, or holds fewer calls than it scripts, not where it made one a turn and holds
    every call. A rule per run of releases showing it (from auto mode's first)."""
    seen: dict[str, set[bool]] = {}
    for sid, scenario in corpus.items():
        turns = scenario.get("turns") or []
        scripted = sum(len(turn.get("tools") or []) for turn in turns)
        for version, observation in (
            _stored(records, corpus, sid) if _in_auto_mode(scenario) else ()
        ):
            tools, requests = observation.get("tools") or [], observation.get("requests")
            if not isinstance(requests, int) or all(_ran(call) for call in tools):
                continue
            if requests > len(turns) or len(tools) < scripted:
                seen.setdefault(version, set()).add(True)
            elif requests == len(turns):
                seen.setdefault(version, set()).add(False)
    says = (
        "auto mode's check sends its request as one of the main conversation: a scripted "
        "model's next turn answers it (no verdict), and the conversation goes on from the "
        "turn after"
    )
    sids = [sid for sid, scenario in corpus.items() if _in_auto_mode(scenario)]
    more = {"facet": "auto.classifier_request", "before": None, "after": "main"}
    return [
        _rule(
            "classifier-takes-turn",
            says,
            ["PreToolUse"],
            since,
            previous,
            _at(records, corpus, sids, since),
            until=until,
            **more,
        )
        for since, previous, until, _shown in _runs(_agreed(seen))
    ]


def allow_outside_windows(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When a rule for the whole Bash tool let a path outside the working directories run
    in auto mode, where the newest leaves it to auto mode's check: the Bash calls of
    scenarios run in auto mode with ``Bash`` allowed whole (``--allowedTools Bash``, or
    an allow rule), which the newest refused in auto mode's words; a rule per window of
    releases where they ran."""

    def whole(scenario: Mapping[str, Any]) -> bool:
        flags = [str(flag) for flag in scenario.get("flags") or []]
        given = [b for a, b in itertools.pairwise(flags) if a == "--allowedTools"]
        scopes = (scenario.get("settings") or {}).values()
        rules = [r for scope in scopes for r in (scope.get("permissions") or {}).get("allow", [])]
        return "Bash" in [*given, *rules]

    sids = {sid for sid, scenario in corpus.items() if _in_auto_mode(scenario) and whole(scenario)}
    refused = [
        (sid, at)
        for sid, at in _newest_calls(
            records, corpus, lambda call: AUTO_REFUSAL.search(_refused_text(call) or "") is not None
        )
        if sid in sids
    ]

    def ran(call: Mapping[str, Any]) -> bool | None:
        return (
            True if _ran(call) else False if AUTO_REFUSAL.search(str(call.get("result"))) else None
        )

    points = _every_record_points(records, corpus, refused, ran)
    says = (
        "in auto mode, a rule for the whole Bash tool lets a command naming a path outside the "
        "working directories run (the newest leaves it to auto mode's check)"
    )
    window = ("allow-outside-unchecked", says, ["PreToolUse"], "auto.allow_outside")
    return _window_rules(records, corpus, sorted({s for s, _ in refused}), points, window, "run")


def denial_fallback_windows(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When auto mode fell back to asking after its check gave no verdict on calls in a row:
    scenarios run in auto mode with a turn of three calls or more; a release shows the
    behaviour where a call refused after auto mode's refusals in a row reads a refusal of
    its own (the permission step's: as in default mode), not where every refused call
    reads auto mode's. A rule per window, ``after``: the refusals in a row before it."""
    sids = [
        sid
        for sid, scenario in corpus.items()
        if _in_auto_mode(scenario)
        and any(len(turn.get("tools") or []) > 2 for turn in scenario.get("turns") or [])
    ]
    streaks: set[int] = set()

    def fell_back(observation: Mapping[str, Any]) -> bool | None:
        streak = 0
        for tool in observation.get("tools") or []:
            text = _refused_text(tool)
            if text is None or text.startswith("Exit code"):
                continue  # it ran (an edit auto mode let run would start the streak again)
            if AUTO_REFUSAL.search(text):
                streak += 1
            elif CANCELLED.match(text) or not streak:
                return None
            else:
                streaks.add(streak)
                return True
        return False if streak > 2 else None

    found = []
    for since, previous, until in _windows(_points(records, corpus, sids, fell_back)):
        after = min(streaks)
        found.append(
            _rule(
                "denial-fallback",
                f"after {after} calls in a row that auto mode's check gave no verdict on, a "
                "call is refused as in default mode (the permission step's own refusal), not "
                "in auto mode's words",
                ["PreToolUse", "PermissionDenied"],
                since,
                previous,
                _at(records, corpus, sids, since),
                until=until,
                facet="permission.auto.fallback",
                before=None,
                after=after,
            )
        )
    return found


def write_verb_arrivals(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When a command came to be judged as writing a file (``tee``): per command of the
    catalogue's ``file_writing``, Bash calls the newest record refused for the path it
    writes (``<verb> in '<path>' ...``); a release shows the old behaviour where such a
    call was refused as any command needing approval (``_generic``), the newest's where
    its text names the command (``_calls_arrival``, between neighbouring releases)."""

    def named(verb: str, call: Mapping[str, Any]) -> bool:
        # A write outside the folders was named by the path check before (an older one).
        text = str(_refused_text(call))
        return (
            call.get("name") == "Bash" and text.startswith(f"{verb} in '") and (INSIDE_NEED in text)
        )

    def says(verb: str) -> str:
        return (
            f"`{verb}` is judged as writing the file it names (before, it needed "
            "approval as any command)"
        )

    # A span spot checks left wide is most likely the general arrival's
    # (write-need-arrives): only a change between neighbours says a command's own, and
    # only one after the general arrival (before it, the command's write outside the
    # folders was already named by the older path check).
    verbs = permission_facts().shell["file_writing"]
    found = _verb_arrivals(
        records, corpus, ("write-verb-arrives", "bash.write.verb"), verbs, named, says, exact=True
    )
    general = [release_key(rule["since"]) for rule in write_need_arrival(records, corpus)]
    return [rule for rule in found if not general or release_key(rule["since"]) > general[0]]


def changer_arrivals(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When a command came to count as a change of directory (``pushd``): per command of
    the catalogue's ``directory_changers``, Bash calls the newest record refused as several
    directory changes whose parts include it; a release shows the old behaviour where
    such a call was refused as any command needing approval (``_generic``: its parts
    listed), the newest's where as several changes (``_calls_arrival``)."""
    several = permission_facts().refusals["several_directory_changes"]

    def changes(verb: str, call: Mapping[str, Any]) -> bool:
        command = str((call.get("input") or {}).get("command"))
        verbs = [(command_words(part) or [""])[0] for part in simple_commands(command) or []]
        return _refused_text(call) == several and verb in verbs

    def says(verb: str) -> str:
        return (
            f"`{verb}` counts as a change of directory: two in one command are refused as "
            "several (before, its part needed approval as any command)"
        )

    verbs = permission_facts().shell["directory_changers"]
    return _verb_arrivals(
        records, corpus, ("changer-arrives", "bash.changer"), verbs, changes, says
    )


def _verb_arrivals(
    records: Records,
    corpus: Corpus,
    rule: tuple[str, str],
    verbs: Sequence[str],
    picks: Callable[[str, Mapping[str, Any]], bool],
    says: Callable[[str], str],
    exact: bool = False,
) -> list[dict[str, Any]]:
    """Per command of ``verbs``, where the Bash calls the newest record ``picks`` stop being
    refused as any command needing approval (``_calls_arrival``): a rule of ``rule`` (kind,
    facet without the command) each; ``exact``: only a change between neighbours."""
    kind, facet = rule
    found = []
    for verb in verbs:
        calls = _newest_calls(records, corpus, lambda call, verb=verb: picks(verb, call))
        arrived = _calls_arrival(records, corpus, calls, _generic_refusal)
        if arrived is not None and (not exact or _exact(*arrived[:2])):
            found.append(_arrived_rule(kind, says(verb), arrived, f"{facet}.{verb}", verb))
    return found


def _generic_refusal(call: Mapping[str, Any]) -> bool | None:
    """Whether a refused call was refused as any command needing approval (None: it ran)."""
    text = _refused_text(call)
    return None if text is None else _generic(text)


def _unchecked(call: Mapping[str, Any]) -> bool | None:
    """Whether a refused call was refused before the check on its parts was made: as any
    command needing approval, or for a construct found in its text (``LEGACY_TEXT``)."""
    generic = _generic_refusal(call)
    return generic or (generic is not None and bool(LEGACY_TEXT.match(str(call["result"]))))


def check_arrivals(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When the permission step came to refuse a command for what it holds (a variable):
    per refusal of ``_fixed_refusals``, the calls the newest record refused with its
    text; a release shows the old behaviour where they were refused as any command
    needing approval (alone, or as a compound's part), the newest's where in words of
    their own (``_calls_arrival`` per call; the latest release where they differ)."""
    refusals = permission_facts().refusals
    flags = {name: refusals[name] for name in permission_facts().shell["flag_refusals"].values()}
    found = []
    for name, text in {**_fixed_refusals(), **flags}.items():
        if name == "several_directory_changes":
            continue  # made from the oldest on: what arrived is a changer (changer_arrivals)
        # Calls may meet the check in different releases (a variable in a path argument
        # from 2.0.33, any variable from 2.1.89): the latest is when every call met it.
        calls = _newest_calls(records, corpus, _refused_as(text))
        each = [_calls_arrival(records, corpus, [call], _unchecked) for call in calls]
        arrivals = [arrived for arrived in each if arrived is not None]
        if arrivals:
            # Calls stored on fewer releases bound the arrival more widely: where every
            # call's span (previous, since] holds one release, the narrowest span is it.
            since = min((found[0] for found in arrivals), key=release_key)
            previous = max((found[1] for found in arrivals), key=release_key)
            if release_key(previous) < release_key(since):
                sids = sorted({sid for found in arrivals if found[0] == since for sid in found[2]})
                arrived = (since, previous, sids)
            else:
                arrived = max(arrivals, key=lambda found: release_key(found[0]))
            says = f"a command is refused as `{name}` (before, as any command needing approval)"
            found.append(_arrived_rule("check-arrives", says, arrived, f"refusal.{name}", name))
    return found


LEGACY_TEXT = re.compile(
    r"^(?:Command contains .+|Shell expansion syntax in paths requires manual approval)$"
)
"""A refusal in the words of a check made on a Bash command's text before its parts were
judged (``permissions.LEGACY_CONSTRUCTS``): ``Command contains backticks (`) ...``."""


def _listed(text: str) -> list[str] | None:
    """The parts a compound command's refusal names (None: the text names none)."""
    head, _, named = text.partition(" require approval: ")
    if not named:
        head, _, named = text.partition(" requires approval: ")
    return named.split(", ") if head.startswith(GENERIC[1]) and named else None


def read_only_arrivals(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When a command the newest lets run stopped needing approval: per command word of
    the simple commands of Bash calls, alone and in compound commands apart, the calls
    whose part with that word the newest record let run (the call ran, or its refusal
    named other parts); a release shows the old behaviour where such a part needed
    approval (refused as any command alone, or named in a compound's listing), the
    newest's where it ran or was left out (``_calls_arrival``)."""
    generic = permission_facts().refusals["command"]

    def parts(call: Mapping[str, Any]) -> list[str]:
        command = str((call.get("input") or {}).get("command"))
        return simple_commands(command.replace("$ROOT", "/root"), keep_assignments=True) or []

    def named(call: Mapping[str, Any], part: str) -> bool | None:
        text = _refused_text(call)
        if text is None:
            return False
        listed = _listed(text)
        if listed is None:
            return True if text == generic and len(parts(call)) == 1 else None
        # A listing names a part without its output redirection.
        return " ".join(OUTPUT_TARGET.sub("", part).split()) in listed

    groups: dict[str, list[tuple[str, int]]] = {}
    for sid in corpus:
        stored = _stored(records, corpus, sid)
        for at, call in enumerate(stored[-1][1].get("tools") or [] if stored else []):
            found = parts(call) if call.get("name") == "Bash" else []
            for part in found:
                words = command_words(part) or [""]
                # A part after assignments is read by assignment_rules.
                if words[0] and not ASSIGNMENT.match(words[0]) and named(call, part) is False:
                    key = words[0] + (".compound" if len(found) > 1 else "")
                    groups.setdefault(key, []).append((sid, at))
    found_rules = []
    for key, calls in sorted(groups.items()):
        verb, compound = key.partition(".compound")[0], key.endswith(".compound")

        def old(
            call: Mapping[str, Any], verb: str = verb, compound: bool = compound
        ) -> bool | None:
            held = [p for p in parts(call) if (command_words(p) or [""])[0] == verb]
            if not held or (len(parts(call)) > 1) != compound:
                return None
            said = [named(call, part) for part in held]
            return None if None in said else any(said)

        arrived = _calls_arrival(records, corpus, sorted(set(calls)), old)
        if arrived is not None:
            where = "in a compound command" if compound else "alone"
            says = (
                f"`{verb}` {where} runs without approval where it only reads (before, it "
                "needed approval as any command)"
            )
            found_rules.append(
                _arrived_rule("read-only-arrives", says, arrived, f"bash.read_only.{key}", key)
            )
    return found_rules


OUTPUT_TARGET = re.compile(r"(?<![0-9&<>])>\s*(?P<file>[^\s&;|<>]+)")
"""The file of an output redirection in a recorded command (``echo hi > out.txt``)."""


def _in_default_mode(records: Records, corpus: Corpus) -> Callable[[str], bool]:
    """Whether a release ran a session given no permission mode in default mode (not
    inside a ``default-mode`` window)."""
    moded = _inside(default_modes(records, corpus))
    return lambda version: not moded(version)


def _inside(rules: Sequence[Mapping[str, Any]]) -> Callable[[str], bool]:
    """Whether a release lies in one of ``rules``' windows (``since`` until ``until``)."""
    spans = [(release_key(rule["since"]), rule.get("until")) for rule in rules]

    def inside(version: str) -> bool:
        key = release_key(version)
        return any(
            since <= key and (until is None or key < release_key(until)) for since, until in spans
        )

    return inside


def redirect_windows(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When an output redirection to a file was named as a part of its own needing
    approval (``redirect-as-part``: a listing names the file), or let through unchecked
    (``redirect-unchecked``: the call ran; a listing naming its file says not, one
    leaving its part out says nothing; inside the project and outside, alone and in a
    compound command apart): the Bash calls of scenarios run in default mode holding one
    redirection to a file (``legacy_constructs``), a rule per run of releases whose
    records all show it (a release running a session given no mode in another mode,
    ``default-mode``, says nothing)."""
    picked: dict[str, list[tuple[str, int]]] = {}
    for sid, at in _newest_calls(records, corpus, lambda call: call.get("name") == "Bash"):
        command = _newest_command(records, corpus, sid, at)
        held = legacy_constructs(command.replace("$ROOT", "/root"))
        targets = OUTPUT_TARGET.findall(command)
        redirected = [c for c in held if c.startswith("output_redirection")]
        if len(targets) == 1 and redirected and _mode_given(corpus[sid]) in ("", "default"):
            outside = targets[0].startswith("/") and not targets[0].startswith("$ROOT")
            where = ("outside" if outside else "inside") + redirected[0][18:]  # .compound
            picked.setdefault(where, []).append((sid, at))
    # Releases that ran a session given no mode in another mode say nothing of the checks.
    default = _in_default_mode(records, corpus)

    def target(call: Mapping[str, Any]) -> str:
        return str(OUTPUT_TARGET.findall(str((call.get("input") or {}).get("command")))[0])

    def as_part(call: Mapping[str, Any]) -> bool:
        return target(call) in (_listed(_refused_text(call) or "") or [])

    def unchecked(call: Mapping[str, Any]) -> bool | None:
        # A listing without the redirection's part says nothing: some releases left a
        # part they refused as blocked out of it (2.1.89 to 2.1.96).
        text = _refused_text(call)
        listed = None if text is None else _listed(text)
        if listed is not None:
            return False if target(call) in listed else None
        # Refused as any command: for the command itself (printf before it was read-only).
        return None if text == GENERIC[0] else text is None

    found = []
    for where, calls in sorted(picked.items()):
        sids = sorted({sid for sid, _ in calls})
        for kind, shown, facet in (
            ("redirect-as-part", as_part, "bash.redirect.part"),
            ("redirect-unchecked", unchecked, f"bash.redirect.{where}"),
        ):
            if kind == "redirect-as-part" and where != "inside":
                continue  # read from a file inside the project alone: one window for all
            points = [p for p in _calls_points(records, corpus, calls, shown) if default(p[0])]
            for since, previous, until, _shown in _runs(points):
                says = (
                    "an output redirection's file is named as a part of its own needing approval"
                    if kind == "redirect-as-part"
                    else f"an output redirection to a file {where.split('.')[0]} the project"
                    f"{' in a compound command' * where.endswith('.compound')} runs unchecked"
                )
                at = _at(records, corpus, sids, since)
                rule = _rule(kind, says, ["PreToolUse"], since, previous, at)
                found.append(
                    {**rule, "until": until, "facet": facet, "before": None, "after": where}
                )
    return found


CONSTRUCT_WORDS: Final = {
    "backticks": "backticks",
    "command_substitution": "a command substitution (`$(`)",
    "braced_variable": "a variable in braces (`${`)",
    "input_redirection": "an input redirection (`<`)",
    "output_redirection": "an output redirection (`>`)",
    "path_variable": "a variable in a path argument",
    "quoted_redirection": "a `<` or `>` inside quotes",
}
"""How a rule names each of ``permissions.LEGACY_CONSTRUCTS``."""


def legacy_check_windows(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When the permission step refused a Bash command for a construct found in its text
    (``legacy_constructs``: backticks, ``$(``, ``<``, a variable in a path argument, ...)
    in words of that check's own (``LEGACY_TEXT``): per construct, alone or in a compound
    command, the Bash calls of every scenario holding it; a rule per run of releases that
    refused all of them with one such text (``after``), ``until`` the first that did
    not. A run from the oldest stored release starts there (``previous`` is ``since``)."""
    picked: dict[str, list[tuple[str, int]]] = {}
    ran: set[tuple[str, int]] = set()
    for sid in corpus:
        stored = _stored(records, corpus, sid)
        for at, call in enumerate(stored[-1][1].get("tools") or [] if stored else []):
            command = (call.get("input") or {}).get("command")
            if call.get("name") != "Bash" or not isinstance(command, str):
                continue
            # The records write the scenario's folder as $ROOT, no variable of the call's.
            held = legacy_constructs(command.replace("$ROOT", "/root"))
            if len(held) == 1:  # a call holding two says nothing of either alone
                picked.setdefault(held[0], []).append((sid, at))
            if not call.get("isError"):
                ran.add((sid, at))
    generic = permission_facts().refusals["command"]
    found = []
    for construct, calls in sorted(picked.items()):
        seen: dict[str, set[str | None]] = {}
        for sid, at in calls:
            for version, call in _call_seen(records, corpus, sid, at):
                text = _refused_text(call) or ""
                # A call the newest runs, refused as any command: for its construct alone.
                own = LEGACY_TEXT.match(text) or (text == generic and (sid, at) in ran)
                seen.setdefault(version, set()).add(text if own else None)
        points = _agreed(seen)
        sids = sorted({sid for sid, _ in calls})
        for since, previous, until, text in _runs(points):
            name, _, compound = construct.partition(".")
            says = (
                f"a {'compound ' * bool(compound)}Bash command holding {CONSTRUCT_WORDS[name]} "
                f"is refused as `{text}`, checked in its text before its parts"
            )
            at = _at(records, corpus, sids, since)
            found.append(
                _window("legacy-check", says, (since, previous, until), at, construct, text)
            )
    return found


def blocked_part_windows(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When a compound Bash command (no pipeline) was refused with the text of a part
    refused for its path, whatever its other parts needed: the calls the newest record
    refused listing two parts or more that some release refused as blocked
    (``BLOCKED_ANY``), per kind of part (``outside``: a command of the catalogue's path
    verbs; ``redirect``; ``write``); a rule per run of releases refusing all of them so,
    ``until`` the first listing their parts. A run from the oldest stored release starts
    there (``previous`` is ``since``)."""
    listing = permission_facts().refusals["compound_parts"].partition("{")[0]
    verbs = permission_facts().shell["path_verbs"]
    picked: dict[str, list[tuple[str, int]]] = {}
    for sid, at in _newest_calls(
        records, corpus, lambda call: str(_refused_text(call)).startswith(listing)
    ):
        command = _newest_command(records, corpus, sid, at)
        if has_pipe(command):  # a pipeline's parts are listed in every release
            continue
        blocked = [
            seen
            for _, call in _call_seen(records, corpus, sid, at)
            if (seen := BLOCKED_ANY.match(_refused_text(call) or ""))
        ]
        if blocked:
            verb = blocked[0]["verb"]
            kind = "redirect" if verb == "Output" else "outside" if verb in verbs else "write"
            picked.setdefault(kind, []).append((sid, at))

    def first(call: Mapping[str, Any]) -> bool | None:
        text = _refused_text(call) or ""
        if BLOCKED_ANY.match(text):
            return True
        return False if text.startswith(GENERIC[1]) else None

    found = []
    for kind, calls in sorted(picked.items()):
        points = _calls_points(records, corpus, calls, first)
        says = (
            f"a compound Bash command is refused with the text of a part refused for its "
            f"path ({kind}), whatever its other parts need"
        )
        sids = sorted({sid for sid, _ in calls})
        for since, previous, until, _shown in _runs(points):
            at = _at(records, corpus, sids, since)
            found.append(
                _window("blocked-part-first", says, (since, previous, until), at, kind, kind)
            )
    return found


PART_FORMS: Final = (
    ("part-spacing", "  ", "collapsed", "with each run of blanks as one space"),
    ("part-braces", "${", "dropped", "with each variable in braces written `$NAME`"),
)
"""How a compound command's refusal may name its parts otherwise than as written: the
kind, what a part as written holds, ``after``, ``says``."""


def part_form_windows(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When a compound Bash command's refusal named its parts otherwise than as written
    (``PART_FORMS``: runs of blanks as one space, ``${NAME}`` as ``$NAME``): per form, the
    Bash calls whose command holds it; a release whose refusal lists parts shows the older
    form where the listing names a part (a ``$`` for braces) without it, the newest's
    where it keeps it. A rule per run of releases showing the older form."""
    listing = GENERIC[1]
    found = []
    for kind, written, after, how in PART_FORMS:
        named = "$" if written == "${" else ""

        def holds(call: Mapping[str, Any], written: str = written) -> bool:
            command = str((call.get("input") or {}).get("command"))
            parts = simple_commands(command, keep_assignments=True) or []
            return call.get("name") == "Bash" and len(parts) > 1 and written in command

        def older(call: Mapping[str, Any], written: str = written, named: str = named) -> Any:
            text = _refused_text(call) or ""
            if not text.startswith(listing) or named not in text:
                return None
            return written not in text

        calls = _newest_calls(records, corpus, holds)
        points = _calls_points(records, corpus, calls, older)
        stored = sorted(
            {v for sid, at in calls for v, _ in _call_seen(records, corpus, sid, at)},
            key=release_key,
        )
        says = f"a compound Bash command's refusal names its parts {how}"
        sids = sorted({sid for sid, _ in calls})
        for since, previous, until, _shown in _runs(points):
            if until is None:
                # Later records list no such part: the run ends at the next one stored
                # (the newest names parts as written).
                last = max((v for v, shown in points if shown), key=release_key)
                until = next((v for v in stored if release_key(v) > release_key(last)), None)
            at = _at(records, corpus, sids, since)
            found.append(_window(kind, says, (since, previous, until), at, "", after))
    return found


def _runs(points: Sequence[tuple[str, Any]]) -> Iterator[tuple[str, str, str | None, Any]]:
    """``(since, previous, until, value)`` of each run of releases showing one value that
    is not false (``until``: the first release after it showing another). A run from the
    oldest point starts there: ``previous`` is ``since``, no release before it is known."""
    for start, (version, value) in enumerate(points):
        if not value or (start and points[start - 1][1] == value):
            continue
        end = next((j for j in range(start, len(points)) if points[j][1] != value), None)
        previous = points[start - 1][0] if start else version
        yield version, previous, None if end is None else points[end][0], value


def _window(
    kind: str, says: str, span: Sequence[str | None], sids: Sequence[str], facet: str, after: str
) -> dict[str, Any]:
    """A rule of a window (``span``: since, previous, until) of Bash calls' behaviour."""
    since, previous, until = span
    assert since is not None and previous is not None
    facets = {"legacy-check": "legacy", "blocked-part-first": "bash.first"}
    rule = _rule(kind, says, ["PreToolUse"], since, previous, sids)
    named = f"{facets[kind]}.{facet}" if kind in facets else f"bash.part.{kind[5:]}"
    return {**rule, "until": until, "facet": named, "before": None, "after": after}


FEEDBACK_NOW = re.compile(r"^(?P<event>\w+) hook feedback:\n(?P<reason>.+)$", re.S)
"""The newest release's model text of a Stop (or SubagentStop) hook's block."""


def feedback_texts(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """How the model was told of a Stop hook's block: scenarios whose newest record shows
    one such text; on each stored release, the text holding its reason, with event and
    reason as ``{event}`` and ``{reason}``. A rule per change of the template."""

    def placed(newest: Mapping[str, Any]) -> dict[str, str] | None:
        now = [FEEDBACK_NOW.match(str(text)) for text in newest.get("modelTexts") or []]
        found = [match for match in now if match is not None]
        if len(found) != 1:
            return None
        return {"{reason}": found[0]["reason"], "{event}": found[0]["event"]}

    def texts(observation: Mapping[str, Any]) -> list[str]:
        return [str(t) for t in observation.get("modelTexts") or [] if "hook feedback:" in str(t)]

    says = "a Stop hook's block reaches the model as"
    return _template_changes(records, corpus, "feedback-text", says, placed, texts, "modelTexts")


def _template_changes(
    records: Records,
    corpus: Corpus,
    kind: str,
    says: str,
    placed: Callable[[Mapping[str, Any]], dict[str, str] | None],
    texts: Callable[[Mapping[str, Any]], list[str]],
    facet: str,
) -> list[dict[str, Any]]:
    """A rule per change of a text's template between neighbouring stored releases: per
    scenario, ``placed`` reads the newest record's values of the placeholders (None: the
    scenario does not show the text), ``texts`` an observation's candidate texts; a
    release's template is its one text holding the first value, values replaced."""
    changes: dict[tuple[str, str], tuple[str, str, set[str]]] = {}
    for sid in corpus:
        stored = _stored(records, corpus, sid)
        values = placed(stored[-1][1]) if stored else None
        if values is None:
            continue
        first = next(iter(values.values()))

        def template(
            observation: Mapping[str, Any], values: dict[str, str] = values, first: str = first
        ) -> str:
            held = [text for text in texts(observation) if first in text]
            if len(held) != 1:
                return ""
            text = held[0]
            for name, value in values.items():
                text = text.replace(value, name)
            return text

        shown = [(v, template(o)) for v, o in stored]
        for (low, old), (high, new) in itertools.pairwise(shown):
            if old and new and old != new:
                changes.setdefault((old, new), (high, low, set()))[2].add(sid)
    return [
        _rule(
            kind,
            f"{says} `{new}` (was `{old}`)",
            ["Stop"] if facet == "modelTexts" else ["PreToolUse"],
            since,
            previous,
            sorted(sids),
            facet=facet,
            before=old,
            after=new,
        )
        for (old, new), (since, previous, sids) in changes.items()
    ]


def event_name_arrivals(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When a release came to know an event's name: scenarios with one settings file whose
    hooks are on two or more events; a release shows the old behaviour where none of the
    file's hooks ran, the newest's where some did (one change from the oldest on). The
    events none of whose hooks ran on the release of the change are the names it came to
    know (their own hooks may run only later: another rule's arrival); a name no release
    knows gives the release from which an unknown name was dropped alone. A run that did
    not start says nothing, and the hooks that ran on the release of the change must
    include an event the oldest stored release ran hooks of (else what arrived may be the
    event that sets them off, not a name), or the file's allow rules must have let its
    calls run there (the file was read, though none of its hooks ran)."""
    known = set(load_catalogue())
    oldest = min(records, key=release_key, default=None)
    basic = {
        run.get("event")
        for observation in (records[oldest].values() if oldest else [])
        for run in observation.get("hooks") or []
    }

    def calls_ran(observation: Mapping[str, Any]) -> bool:
        return any(not t.get("isError") for t in observation.get("tools") or [])

    found = []
    for sid, scenario in corpus.items():
        documents = [
            settings
            for settings in (scenario.get("settings") or {}).values()
            if isinstance(settings, dict) and isinstance(settings.get("hooks"), dict)
        ]
        if len(documents) != 1 or len(documents[0]["hooks"]) < 2:
            continue
        # A file whose allow rules let the calls run was read, whether its hooks ran or not.
        ruled = bool((documents[0].get("permissions") or {}).get("allow"))

        def unread(observation: Mapping[str, Any], ruled: bool = ruled) -> bool | None:
            started = observation.get("requests") or (observation.get("result") or {}).get(
                "subtype"
            )
            if not started:
                return None
            return not observation.get("hooks") and not (ruled and calls_ran(observation))

        arrived = _arrival(_points(records, corpus, [sid], unread))
        if arrived is None:
            continue
        since, previous = arrived
        at_since = [o for version, o in _stored(records, corpus, sid) if version == since]
        ran = {run.get("event") for o in at_since for run in o.get("hooks") or []}
        if not ran & basic and not (ruled and any(calls_ran(o) for o in at_since)):
            continue
        files = [documents[0]["hooks"]]
        for event in sorted(set(files[0]) - ran):
            if event not in known:
                # A name no release knows: what arrived is that an unknown name costs only
                # its own hooks.
                found.append(
                    _rule(
                        "unknown-name-dropped",
                        "a settings file naming an event the release does not know loses only "
                        "that event's hooks (before, the release ran none of the file's hooks)",
                        [],
                        since,
                        previous,
                        [sid],
                        facet="settings.hooks.unknown",
                        before=None,
                        after=event,
                    )
                )
                continue
            found.append(
                _rule(
                    "event-name-arrives",
                    f"a settings file with {event} hooks is read (before, the release did not "
                    f"know the name and ran none of that file's hooks)",
                    [event],
                    since,
                    previous,
                    [sid],
                    facet=f"settings.hooks.{event}",
                    before=None,
                    after=event,
                )
            )
    return _joined(found)


def _joined(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One rule per kind and facet where several scenarios show the same arrival: the
    narrowest span they bound (the latest ``previous``, the earliest ``since``), their
    scenarios together."""
    joined: dict[tuple[str, str], dict[str, Any]] = {}
    for rule in found:
        kept = joined.setdefault((rule["kind"], rule["facet"]), rule)
        if kept is not rule:
            since = min(kept["since"], rule["since"], key=release_key)
            previous = max(kept["previous"], rule["previous"], key=release_key)
            sids = [*kept["scenarios"], *rule["scenarios"]]
            own = ("kind", "says", "events", "since", "previous", "exact", "scenarios")
            more = {key: value for key, value in kept.items() if key not in own}
            joined[(rule["kind"], rule["facet"])] = _rule(
                kept["kind"], kept["says"], kept["events"], since, previous, sids, **more
            )
    return list(joined.values())


def _every_handler_has(scenario: Mapping[str, Any], key: str) -> bool:
    handlers = [handler for _, handler in _hook_groups(scenario)]
    return bool(handlers) and all(key in handler for handler in handlers)


def on_failure_arrival(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When a handler's ``onFailure`` came to be heeded: scenarios whose every handler sets
    it; the release from which their calls' results stay the newest's."""
    sids = [sid for sid, scenario in corpus.items() if _every_handler_has(scenario, "onFailure")]
    says = "a handler's `onFailure` is heeded (before, a failed run did not block)"
    return _results_arrival(records, corpus, sids, "on-failure-arrives", says, "handler.onFailure")


def if_arrival(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When a handler's ``if`` came to be read: scenarios whose every handler has one; a
    release shows the old behaviour where their hooks ran another number of times than on
    the newest, the newest's where as often (one change from the oldest on)."""
    found = []
    for sid, scenario in corpus.items():
        if not _every_handler_has(scenario, "if"):
            continue
        stored = _stored(records, corpus, sid)
        runs = len(stored[-1][1].get("hooks") or []) if stored else 0
        points = [(v, len(o.get("hooks") or []) != runs) for v, o in stored]
        arrived = _arrival(points)
        if arrived is not None:
            events = [event for event, _ in _hook_groups(scenario)]
            says = "a handler's `if` is read (before, the hook ran on every call its group matched)"
            found.append(
                _rule(
                    "if-arrives",
                    says,
                    events,
                    *arrived,
                    [sid],
                    facet="handler.if",
                    before=None,
                    after="if",
                )
            )
    return _merged(found)


def _rules_of(scenario: Mapping[str, Any], behaviour: str, skip: str = "") -> list[str]:
    """The permission rules of ``behaviour`` in the scenario's settings (``skip``: a
    settings source left out)."""
    return [
        str(rule)
        for source, settings in (scenario.get("settings") or {}).items()
        if isinstance(settings, dict) and source != skip
        for rule in (settings.get("permissions") or {}).get(behaviour) or []
    ]


def deny_rule_arrival(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When a deny rule came to stop a call a PreToolUse hook allowed: scenarios with a deny
    rule whose PreToolUse hooks all answer allow; a release shows the old behaviour where
    its hooks ran and every call ran, the newest's where a call was refused (a release
    whose hooks ran none says nothing)."""

    def ran(observation: Mapping[str, Any]) -> bool | None:
        if not observation.get("hooks"):
            return None
        return not any(t.get("isError") for t in observation.get("tools") or [])

    sids = [
        sid
        for sid, scenario in corpus.items()
        if _rules_of(scenario, "deny")
        and (answers := _scripted_answers(scenario, "PreToolUse"))
        and all(a.get("permissionDecision") == "allow" for a in answers)
    ]
    says = "a deny rule stops a call a PreToolUse hook allowed (before, the allow let it run)"
    rule = {"kind": "deny-rule-over-allow", "says": says, "facet": "permissions.deny"}
    return _joint_arrival(records, corpus, sids, ran, ["PreToolUse"], {**rule, "after": "allow"})


def exit2_json_arrival(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When a hook's exit 2 came to decide even with a JSON answer on its stdout: scenarios
    with a hook that exits 2 printing a JSON allow; a release shows the old behaviour
    where its hooks ran and every call ran (the JSON decided), the newest's where a call
    was refused (a release whose hooks ran none says nothing)."""

    def ran(observation: Mapping[str, Any]) -> bool | None:
        if not observation.get("hooks"):
            return None
        return not any(t.get("isError") for t in observation.get("tools") or [])

    sids = [
        sid
        for sid, scenario in corpus.items()
        if any(
            isinstance(hook, dict) and hook.get("exit") == 2 and isinstance(hook.get("out"), dict)
            for hook in (scenario.get("hooks") or {}).values()
        )
        # Where the JSON lets the call run, exit 2 and JSON answer apart.
        and (answers := _scripted_answers(scenario, "PreToolUse"))
        and all(a.get("permissionDecision") == "allow" for a in answers)
    ]
    says = (
        "a hook that exits 2 blocks even with a JSON answer on stdout (before, the JSON "
        "decided and the exit code was not read)"
    )
    rule = {"kind": "exit2-over-json", "says": says, "facet": "exit2.json", "after": "exit2"}
    return _joint_arrival(records, corpus, sids, ran, ["PreToolUse"], rule)


def continue_deny_arrival(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When ``continue: false`` beside a PreToolUse deny came to stop Claude: scenarios whose
    PreToolUse hooks all answer deny with ``continue: false``; a release shows the old
    behaviour where the model was asked again after the denied call, the newest's where it
    was not (a release whose hooks ran none says nothing)."""

    def went_on(observation: Mapping[str, Any]) -> bool | None:
        if not observation.get("hooks"):
            return None
        return int(observation.get("requests") or 0) > 1

    sids = [
        sid
        for sid, scenario in corpus.items()
        if (answers := _scripted_answers(scenario, "PreToolUse"))
        and all(a.get("permissionDecision") == "deny" for a in answers)
        and all(
            isinstance(out := hook.get("out"), dict) and out.get("continue") is False
            for hook in (scenario.get("hooks") or {}).values()
            if isinstance(hook, dict)
        )
    ]
    says = (
        "`continue: false` beside a PreToolUse deny stops Claude (before, the deny applied "
        "and the model was asked again)"
    )
    rule = {
        "kind": "continue-beside-deny",
        "says": says,
        "facet": "common.continue",
        "after": "deny",
    }
    return _joint_arrival(records, corpus, sids, went_on, ["PreToolUse"], rule)


def stop_text_arrival(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When a call refused beside ``continue: false`` came to reach the model with its
    refusal's own text: scenarios whose hooks all answer PreToolUse with ``continue:
    false`` and one stopReason; a release shows the old behaviour where its one refused
    call's text holds the stopReason and no deny reason of the hooks, the newest's where
    it does not (a release that refused no call says nothing). ``before``: that old
    text, the stopReason as ``{stopReason}``; a rule per distinct change."""

    def refused(observation: Mapping[str, Any]) -> str | None:
        """The text of the one call the observation refused (None: none, or several)."""
        texts = [t for c in observation.get("tools") or [] if (t := _refused_text(c)) is not None]
        return texts[0] if len(texts) == 1 else None

    found: dict[tuple[str, str, str], list[str]] = {}
    for sid, scenario in corpus.items():
        outs = [h.get("out") for h in (scenario.get("hooks") or {}).values() if isinstance(h, dict)]
        reasons = {out.get("stopReason") for out in outs if isinstance(out, dict)}
        if not _scripted_answers(scenario, "PreToolUse") or len(reasons) != 1:
            continue
        reason = next(iter(reasons))
        if (
            not isinstance(reason, str)
            or not reason
            or any(not isinstance(out, dict) or out.get("continue") is not False for out in outs)
        ):
            continue
        # The refusal's own text is the hooks' reasons (a stopReason may be part of one).
        own = {
            str(a["permissionDecisionReason"])
            for a in _scripted_answers(scenario, "PreToolUse")
            if a.get("permissionDecisionReason")
        }

        def held(
            observation: Mapping[str, Any], reason: str = reason, own: set[str] = own
        ) -> bool | None:
            text = refused(observation)
            if text is None:
                return None
            return reason in text and not any(mine in text for mine in own)

        arrived = _arrival(_points(records, corpus, [sid], held))
        if arrived is None:
            continue
        old = next(
            refused(o) for version, o in _stored(records, corpus, sid) if version == arrived[1]
        )
        before = str(old).replace(reason, "{stopReason}")
        found.setdefault((*arrived, before), []).append(sid)
    says = (
        "a call refused beside `continue: false` reaches the model with its refusal's own "
        "text (before, as `{before}`)"
    )
    return [
        _rule(
            "stop-text-yields",
            says.format(before=before),
            ["PreToolUse"],
            since,
            previous,
            sids,
            facet="tool[*].result",
            before=before,
            after=None,
        )
        for (since, previous, before), sids in found.items()
    ]


COMMAND_PROMPT = re.compile(r"^/([A-Za-z0-9_-]+)(?:\s|$)")
"""A prompt naming a command (its name)."""


def unknown_command_windows(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When print mode did not find custom commands: scenarios whose prompt names a
    command of their ``.claude/commands``; a release shows the behaviour where no hook ran,
    no model request was made and the result line names the command, not where a request
    was made or a hook ran. A rule per window, ``after``: that result line's text, the
    name as ``{name}``."""
    by_name: dict[str, list[str]] = {}
    for sid, scenario in corpus.items():
        named = COMMAND_PROMPT.match(str(scenario.get("prompt") or ""))
        if named and f".claude/commands/{named[1]}.md" in (scenario.get("files") or {}):
            by_name.setdefault(named[1], []).append(sid)

    def said(observation: Mapping[str, Any]) -> str:
        return str((observation.get("result") or {}).get("result") or "")

    found: dict[tuple[str, str, str | None, str], list[str]] = {}
    for name, sids in by_name.items():

        def refused(observation: Mapping[str, Any], name: str = name) -> bool | None:
            if observation.get("hooks") or observation.get("requests"):
                return False
            return True if name in said(observation) else None

        for since, previous, until in _windows(_points(records, corpus, sids, refused)):
            shown = [
                said(o) for sid in sids for v, o in _stored(records, corpus, sid) if v == since
            ]
            text = shown[0].replace(name, "{name}")
            found.setdefault((since, previous, until, text), []).extend(
                _at(records, corpus, sids, since)
            )
    return [
        _rule(
            "command-unknown",
            f"print mode does not find custom commands: the user is shown `{text}`",
            ["UserPromptSubmit"],
            since,
            previous,
            sids,
            until=until,
            facet="prompt.command",
            before=None,
            after=text,
        )
        for (since, previous, until, text), sids in found.items()
    ]


FILE_LOADS = ("nested_traversal", "path_glob_match")
"""The ``load_reason`` of an instruction file a file tool's call loaded on its way."""


def load_arrivals(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When a file tool's call came to load the instruction files on its way: per tool,
    scenarios whose calls are all that tool's and whose newest record ran InstructionsLoaded
    hooks for a file so loaded; a release shows the old behaviour where none ran, the
    newest's where one did. Only releases that ran InstructionsLoaded hooks in some record
    say anything (before, the event itself had not arrived)."""
    knew = {
        version
        for version, record in records.items()
        for observation in record.values()
        for run in observation.get("hooks") or []
        if run.get("event") == "InstructionsLoaded"
    }

    def loaded(observation: Mapping[str, Any]) -> bool:
        return any(
            run.get("event") == "InstructionsLoaded"
            and (run.get("payload") or {}).get("load_reason") in FILE_LOADS
            for run in observation.get("hooks") or []
        )

    by_tool: dict[str, list[str]] = {}
    for sid, scenario in corpus.items():
        tools = {
            call.get("name")
            for turn in scenario.get("turns") or []
            for call in turn.get("tools") or []
        }
        stored = _stored(records, corpus, sid)
        if len(tools) == 1 and stored and loaded(stored[-1][1]):
            by_tool.setdefault(str(tools.pop()), []).append(sid)
    found = []
    for tool, sids in sorted(by_tool.items()):
        points = [
            point
            for point in _points(records, corpus, sids, lambda o: not loaded(o))
            if point[0] in knew
        ]
        arrived = _arrival(points)
        if arrived is None:
            continue
        found.append(
            _rule(
                "loads-arrive",
                f"a {tool} call loads the instruction files on its way (InstructionsLoaded)",
                ["InstructionsLoaded"],
                *arrived,
                _at(records, corpus, sids, arrived[0]),
                facet=f"loads.{tool}",
                before=None,
                after=tool,
            )
        )
    return found


def _looped(observation: Mapping[str, Any]) -> bool | None:
    """Whether a run was stopped at the harness's time limit (no result line after a
    request); None where no request was made."""
    if not observation.get("requests"):
        return None
    return (observation.get("result") or {}).get("subtype") is None


def _always_blocking_stop(corpus: Corpus, max_turns: bool) -> list[str]:
    """Scenarios with a Stop hook that blocks every time, given ``--max-turns`` or not."""
    return [
        sid
        for sid, scenario in corpus.items()
        if any(event == "Stop" for event, _ in _hook_groups(scenario))
        and ("--max-turns" in (scenario.get("flags") or [])) == max_turns
        and (hooks := [h for h in (scenario.get("hooks") or {}).values() if isinstance(h, dict)])
        and all(
            isinstance(h.get("out"), dict)
            and h["out"].get("decision") == "block"
            and "times" not in h
            for h in hooks
        )
    ]


def stop_cap_arrival(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When Stop hooks' continuations came to be capped: scenarios with a Stop hook that
    blocks every time (no ``--max-turns``: ``max_turns_windows``); a release shows the old
    behaviour where the run was stopped at the harness's time limit, the newest's where it
    ended."""
    says = (
        "Stop hooks' continuations are capped (`CLAUDE_CODE_STOP_HOOK_BLOCK_CAP`; before, a "
        "Stop hook that always blocks looped for ever)"
    )
    rule = {"kind": "stop-cap-arrives", "says": says, "facet": "stop.cap", "after": "cap"}
    sids = _always_blocking_stop(corpus, max_turns=False)
    return _joint_arrival(records, corpus, sids, _looped, ["Stop"], rule)


def json_like_arrival(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When a hook's stdout that looks like JSON but does not parse (``{oops}``) came to be
    read as a failed JSON answer, not as plain stdout: scenarios whose only hook prints such
    text, exit 0, on an event whose plain stdout reaches the model; a release shows the old
    behaviour where a model text held it."""
    from hookcourse.engine.catalogue import get_event
    from hookcourse.engine.reading import looks_like_json

    picked: dict[str, tuple[str, str]] = {}  # scenario: its event, the text its hook prints
    for sid, scenario in corpus.items():
        hooks = [h for h in (scenario.get("hooks") or {}).values() if isinstance(h, dict)]
        events = {event for event, _ in _hook_groups(scenario)}
        if len(hooks) != 1 or len(events) != 1 or hooks[0].get("exit", 0) != 0:
            continue
        out, event = hooks[0].get("out"), events.pop()
        spec = get_event(event)
        if isinstance(out, str) and looks_like_json(out) and spec and spec.plain_stdout_is_context:
            picked[sid] = (event, out)
    says = (
        "a hook's stdout that looks like JSON but does not parse is read as a failed JSON "
        "answer (before, it reached the model as plain stdout)"
    )
    rule = {"kind": "json-like-arrives", "says": says, "facet": "stdout.json_like"}
    found = []
    for sid, (event, out) in picked.items():

        def shown(observation: Mapping[str, Any], out: str = out) -> bool | None:
            texts = observation.get("modelTexts") or []
            return any(out in text for text in texts) if observation.get("requests") else None

        # Before its event's plain stdout reached the model at all, nothing is said: the
        # arrival is where the text, once shown, stopped being shown for good.
        points = _points(records, corpus, [sid], shown)
        last = max((i for i, (_, held) in enumerate(points) if held), default=None)
        if last is None or last == len(points) - 1:
            continue
        since, previous = points[last + 1][0], points[last][0]
        at = _at(records, corpus, [sid], since)
        more = {"facet": rule["facet"], "before": None, "after": "error"}
        found.append(_rule(rule["kind"], rule["says"], [event], since, previous, at, **more))
    return _merged(found)


def max_turns_windows(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When ``--max-turns`` did not end a run a Stop hook kept continuing: scenarios giving
    it beside a Stop hook that blocks every time; a release shows it where the run went on
    until the harness's time limit, the newest's where it ended at the limit."""
    sids = _always_blocking_stop(corpus, max_turns=True)
    says = (
        "`--max-turns` does not end a run a Stop hook keeps continuing: each continuation "
        "gets another model response, past the limit"
    )
    window = ("max-turns-unchecked", says, ["Stop"], "stop.max_turns")
    return _window_rules(
        records, corpus, sids, _points(records, corpus, sids, _looped), window, True
    )


def missing_script_arrival(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When a Stop hook whose script is missing (``sh`` exits 2 saying it cannot open it)
    came to be read as a broken install, not a block: scenarios covering a missing script;
    a release shows the old behaviour where the model was asked again after the first
    stop (the exit 2 blocked), the newest's where it was not."""

    def blocked(observation: Mapping[str, Any]) -> bool | None:
        return int(observation.get("requests") or 0) > 1 if observation.get("requests") else None

    sids = [
        sid
        for sid, scenario in corpus.items()
        if {"exit.missing", "Stop.missing-script"} & set(scenario.get("covers") or [])
    ]
    says = (
        "a Stop hook's exit 2 saying its script is missing is a non-blocking error (before, it "
        "blocked as any exit 2)"
    )
    rule = {
        "kind": "missing-script-arrives",
        "says": says,
        "facet": "exit.missing",
        "after": "spared",
    }
    return _joint_arrival(records, corpus, sids, blocked, ["Stop"], rule)


def _denies_without_reason(scenario: Mapping[str, Any]) -> bool:
    """Whether the scenario's hooks all answer a PreToolUse deny (or a legacy block) and
    none gives a reason."""
    outs = [h.get("out") for h in (scenario.get("hooks") or {}).values() if isinstance(h, dict)]
    if not outs or not all(isinstance(out, dict) for out in outs):
        return False
    for out in outs:
        specific = out.get("hookSpecificOutput") or {}
        denies = out.get("decision") in ("block", "deny") or (
            specific.get("permissionDecision") == "deny"
        )
        if not denies or "reason" in out or "permissionDecisionReason" in specific:
            return False
    return True


def no_reason_texts(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """How a call a PreToolUse hook denied without a reason was refused: scenarios whose
    hooks all deny (or block) with no reason; per stored release, the one refused call's
    text with the hook (``PreToolUse:<tool>``) as ``{hook}``, then the tool as ``{tool}``;
    a rule per change between
    neighbouring releases that show one (``before`` and ``after``)."""
    sids = [sid for sid, scenario in corpus.items() if _denies_without_reason(scenario)]
    shown: dict[str, set[str]] = {}
    showing: dict[str, set[str]] = {}
    for sid in sids:
        for version, observation in _stored(records, corpus, sid):
            if not observation.get("hooks"):
                continue
            for call in observation.get("tools") or []:
                if call.get("isError"):
                    tool = str(call.get("name"))
                    text = str(call.get("result")).replace(f"PreToolUse:{tool}", "{hook}")
                    shown.setdefault(version, set()).add(text.replace(tool, "{tool}"))
                    showing.setdefault(version, set()).add(sid)
    ordered = [v for v in sorted(shown, key=release_key) if len(shown[v]) == 1]
    found = []
    for low, high in itertools.pairwise(ordered):
        [before], [after] = shown[low], shown[high]
        if before != after:
            says = f"a call a PreToolUse hook denied without a reason is refused as `{after}`"
            found.append(
                _rule(
                    "no-reason-text",
                    says,
                    ["PreToolUse"],
                    high,
                    low,
                    sorted(showing[high]),
                    facet="tool[*].result",
                    before=before,
                    after=after,
                )
            )
    return found


def _whole_command_rules(scenario: Mapping[str, Any]) -> bool:
    """Whether the scenario allows a compound Bash command by one rule naming it whole
    (``Bash(touch made.txt && echo TOOL-RAN)``), and every call is that command."""
    rules = _rules_of(scenario, "allow")
    calls = [
        str((tool.get("input") or {}).get("command"))
        for turn in scenario.get("turns") or []
        for tool in turn.get("tools") or []
    ]
    compound = [c for c in calls if "&&" in c or ";" in c or "|" in c]
    return bool(compound) and all(f"Bash({c})" in rules for c in calls)


def compound_rule_arrival(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When an allow rule naming a compound command whole stopped letting it run (each part
    judged on its own): scenarios allowing their compound calls so; the first release where
    a call was refused, every release before it having run them all."""

    def ran(observation: Mapping[str, Any]) -> bool | None:
        calls = observation.get("tools") or []
        return None if not calls else not any(t.get("isError") for t in calls)

    sids = [sid for sid, scenario in corpus.items() if _whole_command_rules(scenario)]
    points = _points(records, corpus, sids, ran)
    # The first refusal after runs from the oldest on: later releases may let the call run
    # again for another reason (a default mode that lets edits run).
    first = next((i for i, (_, shown) in enumerate(points) if not shown), None)
    if not first:
        return []
    since, previous = points[first][0], points[first - 1][0]
    says = (
        "an allow rule naming a compound Bash command whole no longer lets it run: each part "
        "is judged (before, the rule matched the whole command)"
    )
    at = _at(records, corpus, sids, since)
    more = {"facet": "permissions.allow", "before": None, "after": "parts"}
    return [_rule("compound-rule-arrives", says, ["PreToolUse"], since, previous, at, **more)]


def wildcard_rule_arrival(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """When a settings file with a Bash rule whose ``*`` does not follow ``:`` (``Bash(rm
    *)``) came to be read: scenarios with such a rule in a file with hooks; a release shows
    the old behaviour where none of its hooks ran (one change from the oldest on)."""
    sids = [
        sid
        for sid, scenario in corpus.items()
        if any(
            star_not_prefix(rule)
            for behaviour in ("allow", "ask", "deny")
            for rule in _rules_of(scenario, behaviour)
        )
        and any(True for _ in _hook_groups(scenario))
    ]
    says = (
        "a settings file with a Bash rule whose `*` does not follow `:` (`Bash(rm *)`) is read "
        "(before, the release refused the rule and read none of the file)"
    )
    rule = {"kind": "wildcard-rule-arrives", "says": says, "facet": "permissions.rule"}
    return _joint_arrival(
        records, corpus, sids, lambda o: not o.get("hooks"), [], {**rule, "after": "Bash(... *)"}
    )


def more_text_forms(records: Records, corpus: Corpus) -> list[dict[str, Any]]:
    """``text-form`` rules of the scenarios outside the core that bisection ran (the
    ledger reads the core's): only those whose change lies between neighbouring releases."""
    from oracle_sweep import core_ids, text_forms

    core = set(core_ids())
    others = [sid for sid in corpus if sid not in core and len(_stored(records, corpus, sid)) > 2]
    return [rule for rule in text_forms(records, sids=others) if rule["exact"]]
