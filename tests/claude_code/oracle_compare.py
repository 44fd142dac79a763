"""Compare what ``fire`` predicted with what Claude Code did, field by field.

Each field is a small function of (prediction, observation) giving the two sides
as plain values; they agree when the values are equal. A scenario may name an
exception (``exceptions.json``): the fields it lists are then reported as
``exception`` with its reason instead of being compared, never silently dropped. A
field measured to flap on the release a record is of (``oracle_flaps``: two values or
more over three runs or more) is reported as ``flaps`` when fire's value is one seen
there; any other value still disagrees. Where fire's session and Claude Code's run both
went round until stopped (a Stop hook that always blocks, on a release with no cap), the
counts of that loop are not compared, only the distinct hooks and texts (``loops``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from oracle_record import stable

from hookcourse.session.loop import MAX_REQUESTS

HERE = Path(__file__).resolve().parent
EXCEPTIONS: dict[str, dict[str, Any]] = json.loads(
    (HERE / "exceptions.json").read_text(encoding="utf-8")
)
SAYS = re.compile(r"^[A-Za-z]+(?::\S*)? says: (.*)$", re.S)

Side = Callable[[Mapping[str, Any], Mapping[str, Any]], tuple[Any, Any]]


def _hooks(p: Mapping[str, Any], o: Mapping[str, Any]) -> tuple[Any, Any]:
    observed: dict[str, list[str]] = {}
    for run in o["hooks"]:
        observed.setdefault(str(run["event"]), []).append(run["hook"])
    return (
        {k: sorted(v) for k, v in sorted(p["hooks"].items())},
        {k: sorted(v) for k, v in sorted(observed.items())},
    )


def _unfinished(p: Mapping[str, Any], o: Mapping[str, Any]) -> tuple[Any, Any]:
    """Hooks that started but did not finish (cancelled, or killed at their timeout)."""
    return sorted(p["unfinished"]), sorted(r["hook"] for r in o["hooks"] if r["exit"] is None)


def _paired_rows(o: Mapping[str, Any]) -> tuple[list[Any], list[Any]]:
    """Per call, the probe row that saw it finish with the same input (or None), matched in
    order; and the probe rows no call claimed (calls a hook rewrote, in the order they ran)."""
    unused = list(o["probe"])
    rows = []
    for call in o["tools"]:
        seen = next(
            (
                p
                for p in unused
                if p["tool"] == call.get("name") and p["input"] == call.get("input")
            ),
            None,
        )
        if seen is not None:
            unused.remove(seen)
        rows.append(seen)
    return rows, unused


def tools_ran(o: Mapping[str, Any]) -> list[bool]:
    """Per call, whether the tool ran: a structured result, or the probe saw it finish
    (PostToolUse, or PostToolUseFailure for a command that failed), matched in order."""
    rows, _ = _paired_rows(o)
    return [
        bool(call.get("structured")) or seen is not None
        for call, seen in zip(o["tools"], rows, strict=True)
    ]


UNSEEN = "<the record cannot show whether it ran>"
"""A call's place in ``toolRuns`` where the record cannot show whether it ran."""


def _shown(o: Mapping[str, Any]) -> list[bool]:
    """Per call, whether the record can show whether it ran: a structured result, or a
    probe that could have seen it (``probeRan``, False for a release that ran no
    ``--settings`` hook: a call without a structured result reads there as refused)."""
    probe_ran = o.get("probeRan", True)
    return [probe_ran or bool(t.get("structured")) for t in o["tools"]]


def _tool_runs(p: Mapping[str, Any], o: Mapping[str, Any]) -> tuple[Any, Any]:
    shown = _shown(o)
    unseen = {i for i, s in enumerate(shown) if not s}
    predicted = [UNSEEN if i in unseen else t["runs"] for i, t in enumerate(p["tools"])]
    observed = [UNSEEN if i in unseen else ran for i, ran in enumerate(tools_ran(o))]
    return predicted, observed


def _tool_results(p: Mapping[str, Any], o: Mapping[str, Any]) -> tuple[Any, Any]:
    """The tool_result of every call that did not run: text and is_error. Where the record
    cannot show whether a call ran, its text is compared only if fire says it was refused
    (a call that ran leaves its output, which fire does not predict)."""
    predicted = [[t["result"], t["isError"]] if t["runs"] is False else None for t in p["tools"]]
    observed = [
        None if ran else [t.get("result"), t.get("isError")]
        for t, ran in zip(o["tools"], tools_ran(o), strict=True)
    ]
    for i, shown in enumerate(_shown(o)):
        if not shown and i < len(predicted) and predicted[i] is None:
            observed[i] = None
    return predicted, observed


def _ran_input(p: Mapping[str, Any], o: Mapping[str, Any]) -> tuple[Any, Any]:
    """The input a call ran with, for calls a hook rewrote (the probe's PostToolUse payload)."""
    rewritten = [i for i, t in enumerate(p["tools"]) if t["runs"] and t.get("rewritten")]
    if not rewritten:
        return None, None
    # A rewritten call's probe row differs from its input, so pair it with the next
    # unclaimed row of the same tool, as tools_ran pairs the calls that kept theirs.
    _, unclaimed = _paired_rows(o)
    observed = []
    for i in rewritten:
        name = o["tools"][i].get("name") if i < len(o["tools"]) else None
        row = next((r for r in unclaimed if r["tool"] == name), None)
        if row is not None:
            unclaimed.remove(row)
        observed.append(None if row is None else row["input"])
    return [p["tools"][i]["input"] for i in rewritten], observed


RELEASE_CONTEXT = re.compile(
    r"\n\n(?:The following skills are available for use with the Skill tool:"
    r"|Available agent types for the Agent tool:|<total_tokens>)",
)
"""Where a release's own context begins inside the message holding a hook's text: the
skills list and the agent types (2.1.154 to 2.1.267) and the tokens left (2.1.233 to
2.1.312), which those releases appended to it; never a hook's (the scripted model and
the scratch home shape them)."""


def hook_part(text: str) -> str:
    """A model text without the context the release appended after the hook's text."""
    found = RELEASE_CONTEXT.search(text)
    return text if found is None else text[: found.start()]


def unjoined(texts: Iterable[str]) -> list[str]:
    """The distinct texts, without the copies a release ended with a newline because
    another text followed them in the same message (2.1.78 to 2.1.330, seen in the mock's
    request log): ``T\n`` goes where ``T`` is there too."""
    given = list(dict.fromkeys(texts))
    present = set(given)
    return [text for text in given if not (text.endswith("\n") and text[:-1] in present)]


def _model_texts(p: Mapping[str, Any], o: Mapping[str, Any]) -> tuple[Any, Any]:
    """Each side's texts exactly, whitespace and final newlines included; of the observed
    ones, the hook's part (``hook_part``), without a joined copy (``unjoined``)."""
    observed = unjoined(hook_part(t) for t in o["modelTexts"])
    return sorted(p["modelTexts"]), sorted(observed)


def _notice_text(notice: str) -> str | None:
    """The systemMessage of a notice: 2.1.332 puts ``<hook> says: `` before every line."""
    m = SAYS.match(notice)
    if m is None:
        return None
    prefix = notice[: m.start(1)]
    return m.group(1).replace("\n" + prefix, "\n")


def _notices(p: Mapping[str, Any], o: Mapping[str, Any]) -> tuple[Any, Any]:
    """fire's notices are the systemMessages as written; the observed ones lose the prefix."""
    observed = [
        t for n in o["notices"] if isinstance(n, str) and (t := _notice_text(n)) is not None
    ]
    return sorted(p["notices"]), sorted(observed)


USER_NOTE = re.compile(r"^(?:Not run|Ran anyway) in /")
"""Print mode's own lines about a skill's shell lines (not a hook's systemMessage)."""


def _user_notes(p: Mapping[str, Any], o: Mapping[str, Any]) -> tuple[Any, Any]:
    """What the user is told about a skill's shell lines a hook refused or failed on."""
    observed = [n for n in o["notices"] if isinstance(n, str) and USER_NOTE.match(n)]
    return sorted(p.get("userNotes", [])), sorted(observed)


def _terminal(p: Mapping[str, Any], o: Mapping[str, Any]) -> tuple[Any, Any]:
    """The result line's terminal reason; a run with no request ended on a blocked prompt,
    or never started when it wrote no result line at all (a failed WorktreeCreate)."""
    observed = o["result"].get("terminal_reason")
    if o["requests"] == 0:
        observed = "prompt_blocked" if o["result"].get("subtype") else "not_started"
    return p["terminal"], observed


def _user_message(p: Mapping[str, Any], o: Mapping[str, Any]) -> tuple[Any, Any]:
    """What the user is shown for a prompt a hook stopped (the result line of a run that
    never asked the model)."""
    return p.get("userMessage"), o["result"].get("result") if o["requests"] == 0 else None


def _requests(p: Mapping[str, Any], o: Mapping[str, Any]) -> tuple[Any, Any]:
    return p["requests"], o["requests"]


def _played(p: Mapping[str, Any], o: Mapping[str, Any]) -> tuple[Any, Any]:
    """Interactive: every step was played (the step a run waited on in vain, else None)."""
    return None, o["result"].get("stuck")


FIELDS: dict[str, Side] = {
    "hooks": _hooks,
    "unfinished": _unfinished,
    "toolRuns": _tool_runs,
    "toolResults": _tool_results,
    "ranInput": _ran_input,
    "modelTexts": _model_texts,
    "notices": _notices,
    "userNotes": _user_notes,
    "terminal": _terminal,
    "requests": _requests,
    "userMessage": _user_message,
}
"""Every field compared, in report order."""
INTERACTIVE_FIELDS = {
    name: FIELDS[name]
    for name in (
        "hooks",
        "unfinished",
        "toolRuns",
        "toolResults",
        "ranInput",
        "modelTexts",
        "requests",
    )
} | {"played": _played}
"""The fields of an interactive run: the interface has no result line (terminal reason,
the user's message) and shows notices on the screen only; a request sent again after an
API error counts once (``interactive_observe``)."""


def compare(
    scenario: Mapping[str, Any],
    predicted: Mapping[str, Any],
    observed: Mapping[str, Any],
    probe_ran: bool = True,
    release: str | None = None,
) -> dict[str, Any]:
    """``{"verdict": agree|disagree|exception, "fields": {name: {...}}}`` (a field's
    verdict may also be ``flaps``, or ``loops`` where both runs went round until stopped
    and the field holds the same distinct values: the whole counts either as agreeing).
    ``observed`` is a live observation or its recorded form (``oracle_record.stable``):
    both compare alike.
    ``probe_ran``: whether the release observed ran the harness's ``--settings`` probe;
    where it did not, a call without a structured result is not compared on whether it
    ran (``_shown``). ``release``: the stored release ``observed`` is the record of; a
    field measured to flap there (``oracle_flaps``) takes any value seen in its runs
    (verdict ``flaps``)."""
    flapping = {} if release is None else _flapping(release, str(scenario.get("id")), observed)
    observed = {**stable(observed), "probeRan": probe_ran}
    exception = scenario.get("exception")
    excused = set(EXCEPTIONS[exception]["fields"]) if exception else set()
    fields: dict[str, Any] = {}
    compared = INTERACTIVE_FIELDS if scenario.get("interactive") is not None else FIELDS
    looping = _both_loop(predicted, observed)
    for name, side in compared.items():
        fire_says, claude_did = side(predicted, observed)
        if looping and name in LOOP_FIELDS and _alike_in_a_loop(name, fire_says, claude_did):
            fields[name] = {"verdict": "loops", "fire": fire_says, "claude": claude_did}
        elif name in excused:
            fields[name] = {
                "verdict": "exception",
                "fire": fire_says,
                "claude": claude_did,
                "reason": EXCEPTIONS[exception]["reason"],
            }
        elif fire_says != claude_did and fire_says in flapping.get(name, []):
            seen = flapping[name]
            fields[name] = {"verdict": "flaps", "fire": fire_says, "claude": claude_did}
            fields[name]["seen"] = seen
        else:
            verdict = "agree" if fire_says == claude_did else "disagree"
            fields[name] = {"verdict": verdict, "fire": fire_says, "claude": claude_did}
    for check in scenario.get("checks", []):
        fire_says, claude_did = EXTRA_CHECKS[check](scenario, predicted, observed)
        fields[check] = {
            "verdict": "agree" if fire_says == claude_did else "disagree",
            "fire": fire_says,
            "claude": claude_did,
        }
    if predicted.get("errors"):
        fields["fireErrors"] = {"verdict": "disagree", "fire": predicted["errors"], "claude": None}
    verdicts = {f["verdict"] for f in fields.values()}
    verdict = (
        "disagree"
        if "disagree" in verdicts
        else "exception"
        if "exception" in verdicts
        else "agree"
    )
    return {"verdict": verdict, "fields": fields}


LOOP_FIELDS = ("hooks", "unfinished", "modelTexts", "notices", "terminal", "requests")
"""The fields whose counts a run that loops until it is stopped cannot give (how many
times it went round depends on when it was stopped)."""


def looped(observed: Mapping[str, Any]) -> bool:
    """Whether Claude Code's run went round until the time limit stopped it: no result
    line, after more requests than fire's session allows (``MAX_REQUESTS``)."""
    timed_out = (observed.get("result") or {}).get("subtype") is None
    return timed_out and int(observed.get("requests") or 0) >= MAX_REQUESTS


def _both_loop(predicted: Mapping[str, Any], observed: Mapping[str, Any]) -> bool:
    """Whether fire's session went round until its request bound (``looped``) and Claude
    Code's run was stopped at the time limit past that bound."""
    return bool(predicted.get("looped")) and looped(observed)


def _alike_in_a_loop(name: str, fire_says: Any, claude_did: Any) -> bool:
    """Two sides of a loop field agree when they hold the same distinct values (the same
    hooks per event, the same texts): counts, the hook the time limit cut off and the
    missing end are the loop's, not a difference."""
    if name == "hooks":
        return {k: set(v) for k, v in fire_says.items()} == {
            k: set(v) for k, v in claude_did.items()
        }
    if name in ("modelTexts", "notices"):
        return {json.dumps(x) for x in fire_says} == {json.dumps(x) for x in claude_did}
    return True


def _flapping(release: str, sid: str, observed: Mapping[str, Any]) -> dict[str, list[Any]]:
    """The fields measured to flap on ``release`` for ``sid``, each with the values seen."""
    import oracle_flaps  # it reads the fields of this module

    return oracle_flaps.seen(oracle_flaps.stored_runs(), release, sid, observed)


def disagreements(result: Mapping[str, Any]) -> dict[str, Any]:
    """Only the fields that disagree."""
    return {k: v for k, v in result["fields"].items() if v["verdict"] == "disagree"}


Check = Callable[[Mapping[str, Any], Mapping[str, Any], Mapping[str, Any]], tuple[Any, Any]]


def _env_names(s: Mapping[str, Any], p: Mapping[str, Any], o: Mapping[str, Any]) -> tuple[Any, Any]:
    """Per event, the Claude Code variables its first hook's environment holds (names;
    values differ per run)."""
    return _first_per_event(p["hookRuns"], "env"), _first_per_event(o["hooks"], "env")


def _first_per_event(runs: list[Mapping[str, Any]], key: str) -> dict[str, Any]:
    first: dict[str, Any] = {}
    for run in runs:
        first.setdefault(str(run["event"]), run[key])
    return first


PROJECT = "$ROOT/project"
"""The project folder as observations write it (oracle_observe normalises the scratch root)."""
RESET_RACE = "<the folder cd went to, or the project: the shell reset races the hook's start>"


def _cwd(s: Mapping[str, Any], p: Mapping[str, Any], o: Mapping[str, Any]) -> tuple[Any, Any]:
    return _cwd_rows(p["hookRuns"]), _cwd_rows(o["hooks"])


def _cwd_rows(runs: list[Mapping[str, Any]]) -> list[list[Any]]:
    """Event, hook and the folder it ran in, sorted. A CwdChanged hook for a cd out of the
    project starts while Claude Code resets its shell to the project: 2.1.332 runs it in
    either folder from one run to the next (seen in CI), so there either one agrees."""
    rows = []
    for run in runs:
        payload = run["payload"] if isinstance(run["payload"], dict) else {}
        went = str(payload.get("new_cwd"))
        left = went != PROJECT and not went.startswith(PROJECT + "/")
        cwd = run["cwd"]
        if run["event"] == "CwdChanged" and left and cwd in (went, PROJECT):
            cwd = RESET_RACE
        rows.append([run["event"], run["hook"], cwd])
    return sorted(rows, key=json.dumps)


def _payload_keys(
    s: Mapping[str, Any], p: Mapping[str, Any], o: Mapping[str, Any]
) -> tuple[Any, Any]:
    """The payload fields per event: the catalogue's (required and optional) vs what arrived."""
    observed = {
        event: sorted(payload)
        for event, payload in _first_per_event(o["hooks"], "payload").items()
        if isinstance(payload, dict)
    }
    predicted = {}
    for event, keys in observed.items():
        known = p["payloadKeys"].get(event, {"required": [], "optional": []})
        predicted[event] = sorted(
            {*known["required"], *(k for k in keys if k in known["optional"])}
        )
    return predicted, observed


ELICITED = re.compile(r"^action=(\w+) content=(.*)$", re.S)
"""The text ``mcp_stub.py``'s ``ask`` returns: the answer its elicitation got."""


def _elicited(s: Mapping[str, Any], p: Mapping[str, Any], o: Mapping[str, Any]) -> tuple[Any, Any]:
    """Per call that elicits, the action and content its MCP server got back."""
    asked = [i for i, call in enumerate(p["tools"]) if "elicited" in call]
    predicted = [p["tools"][i]["elicited"] for i in asked]
    observed: list[Any] = []
    for i in asked:
        text = o["tools"][i].get("result") if i < len(o["tools"]) else None
        match = ELICITED.match(text) if isinstance(text, str) else None
        observed.append(
            None
            if match is None
            else {"action": match.group(1), "content": json.loads(match.group(2))}
        )
    return predicted, observed


def _mcp_output(
    s: Mapping[str, Any], p: Mapping[str, Any], o: Mapping[str, Any]
) -> tuple[Any, Any]:
    """Per call of an MCP tool that fire says ran, the text the model read: a PostToolUse
    hook's ``updatedMCPToolOutput``, else what ``mcp_stub.py`` returns for the answer it
    got (a refused call's text is ``toolResults``')."""
    predicted: list[Any] = []
    observed: list[Any] = []
    for i, call in enumerate(p["tools"]):
        if not str(call.get("name", "")).startswith("mcp__"):
            continue
        stub = call.get("elicited")
        said = (
            # The client took no elicitation: what mcp_stub.py then returns.
            ("no elicitation" if "elicited" in call else None)
            if stub is None
            else f"action={stub['action']} content={json.dumps(stub['content'], sort_keys=True)}"
        )
        if call.get("runs") is False:
            # A call fire refuses has no output: its refusal is compared in toolResults.
            predicted.append(None)
            observed.append(None)
            continue
        predicted.append(call.get("shownOutput", said))
        observed.append(o["tools"][i].get("result") if i < len(o["tools"]) else None)
    return predicted, observed


FEEDBACK = re.compile(r"^(?:TaskCreated|TaskCompleted) hook feedback:\n")
"""How a task-list call's result begins when a TaskCreated or TaskCompleted hook blocked."""


def _hook_feedback(
    s: Mapping[str, Any], p: Mapping[str, Any], o: Mapping[str, Any]
) -> tuple[Any, Any]:
    """Per call, the hook feedback that became its result (None where no hook blocked)."""
    observed = [
        text if isinstance(text := call.get("result"), str) and FEEDBACK.match(text) else None
        for call in o["tools"]
    ]
    return [call.get("hookFeedback") for call in p["tools"]], observed


EXTRA_CHECKS: dict[str, Check] = {
    "env": _env_names,
    "cwd": _cwd,
    "payload": _payload_keys,
    "elicited": _elicited,
    "feedback": _hook_feedback,
    "mcpOutput": _mcp_output,
}
"""Checks a scenario asks for by name in ``checks``."""
