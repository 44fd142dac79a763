"""What hookcourse predicts for a scenario: the scenario played by ``hookcourse/session/loop.py``.

The loop that ``hookcourse session`` runs plays every scenario; this module only maps
one onto it and reads what it did:

1. In: the scenario's prompt and turns make a session script; claude's flags become
   the loop's ``CommandLine`` (the scenario's ``--settings`` with the harness's probe);
   the environment is the one Claude Code gets; every payload starts from
   ``fixtures/payloads/<Event>.json``. A scripted call does not run a tool: it gets a
   stand-in result, failing (``Exit code 1``, so PostToolUseFailure) where the
   scenario marks it ``fails``.
2. Out: every report the loop fired (as ``fire --json`` prints it) gives the model
   texts, notices and unfinished hooks; the loop's calls give the tools; its end
   gives the terminal reason; the hooks' own dumps give the hooks that started.

``FireServer`` is one prediction process (this file run as a script), so predictions
run in parallel and a crash costs one scenario.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from interactive_scenario import interactive_settings, is_interactive
from oracle_observe import _normal, hook_runs
from oracle_record import stable_runs
from oracle_scenario import DEFAULT_PROMPT, PROBE, claude_env, flag_settings

from hookcourse.engine.report import report_json
from hookcourse.engine.settings import STANDARD_SOURCES, SettingsSource
from hookcourse.engine.versions import answering_as, payload_key_sent, terminal_reason
from hookcourse.errors import InputError
from hookcourse.js import json as jsjson
from hookcourse.session.loop import SESSION_ID, CommandLine, Session, play, stop_block_cap
from hookcourse.session.script import Layout, SessionScript, substitute

REPO = Path(__file__).resolve().parents[2]
PAYLOADS = REPO / "fixtures" / "payloads"
HOOK_NAME = re.compile(r"/hooks/([A-Za-z0-9_.-]+)")
PREDICTED_KEYS = ("hooks", "tools", "modelTexts", "notices", "userNotes", "unfinished")
STAND_IN = {"stdout": "", "stderr": "", "interrupted": False, "isImage": False}
"""The ``tool_response`` of a scripted call that succeeds."""


class FireServer:
    """One prediction process answering many scenarios (restarted if it dies)."""

    def __init__(self) -> None:
        self.process = self._start()

    @staticmethod
    def _start() -> subprocess.Popen[str]:
        return subprocess.Popen(
            [str(REPO / ".venv" / "bin" / "python"), str(Path(__file__).resolve())],
            cwd=REPO,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )

    def predict(self, scenario: Mapping[str, Any], layout: Layout) -> dict[str, Any]:
        """The prediction for a laid-out scenario; a dead process is one failed prediction."""
        assert self.process.stdin is not None and self.process.stdout is not None
        request = {"scenario": dict(scenario), "root": str(layout.root)}
        try:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
            reply: dict[str, Any] = json.loads(self.process.stdout.readline())
            return reply
        except (OSError, ValueError) as error:
            self.close()
            self.process = self._start()
            return _failed(f"the prediction process died: {error}")

    def close(self) -> None:
        with contextlib.suppress(OSError):
            if self.process.stdin is not None:
                self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def predict(server: FireServer, scenario: Mapping[str, Any], layout: Layout) -> dict[str, Any]:
    """The prediction for a laid-out scenario (the hooks run for real, in ``fire-dumps``)."""
    return server.predict(scenario, layout)


def _failed(error: str) -> dict[str, Any]:
    """A prediction that could not be made: every field empty, the error said."""
    empty: dict[str, Any] = {key: {} if key == "hooks" else [] for key in PREDICTED_KEYS}
    return {
        **empty,
        "terminal": None,
        "requests": 0,
        "promptBlocked": False,
        "userMessage": None,
        "errors": [error],
        "hookRuns": [],
        "payloadKeys": payload_keys(),
        "fired": [],
    }


# -- in: a scenario as the loop's inputs ----------------------------------------------------------

LIST_FLAGS = {
    "--allowedTools": "allowed_tools",
    "--allowed-tools": "allowed_tools",
    "--disallowedTools": "disallowed_tools",
    "--disallowed-tools": "disallowed_tools",
    "--add-dir": "added_dirs",
}
"""claude's list flags (each takes the words up to the next option), and what they set."""


def command_line(flags: list[str], settings: str) -> CommandLine:
    """What the scenario's claude flags set for every event."""
    lists: dict[str, list[str]] = {"allowed_tools": [], "disallowed_tools": [], "added_dirs": []}
    values: dict[str, str] = {}
    i = 0
    while i < len(flags):
        name, _, inline = flags[i].partition("=")
        i += 1
        if name in LIST_FLAGS:
            taken = [inline] if inline else []
            while not inline and i < len(flags) and not flags[i].startswith("-"):
                taken.append(flags[i])
                i += 1
            lists[LIST_FLAGS[name]] += taken
        elif name in ("--max-turns", "--setting-sources", "--permission-mode"):
            values[name] = inline or (flags[i] if i < len(flags) else "")
            i += 0 if inline else 1
    # As in Claude Code, --dangerously-skip-permissions wins over --permission-mode.
    skip = "--dangerously-skip-permissions" in flags
    sources = values.get("--setting-sources")
    return CommandLine(
        flags=tuple(flags),
        permission_mode="bypassPermissions" if skip else values.get("--permission-mode"),
        allowed_tools=tuple(lists["allowed_tools"]),
        disallowed_tools=tuple(lists["disallowed_tools"]),
        added_dirs=tuple(lists["added_dirs"]),
        max_turns=int(values["--max-turns"]) if "--max-turns" in values else None,
        sources=STANDARD_SOURCES
        if sources is None
        else frozenset(SettingsSource(word.strip()) for word in sources.split(",") if word.strip()),
        settings=settings,
    )


def _stand_in(call: Mapping[str, Any]) -> dict[str, Any]:
    """A scripted call with the result its tool is taken to give."""
    fails = bool(call.get("fails"))
    result: dict[str, Any] = (
        {"text": "Exit code 1", "isError": True}
        if fails
        else {"text": "", "isError": False, "response": STAND_IN}
    )
    given = {key: call[key] for key in ("classifier", "elicits") if key in call}
    # The harness runs Claude Code offline: auto mode's check never gives a verdict.
    given.setdefault("classifier", "none")
    return {"name": call["name"], "input": call.get("input", {}), "result": result, **given}


class _ScenarioSession(Session):
    """The loop's session with the oracle's payloads."""

    def payload(self, event: str, **fields: Any) -> dict[str, Any]:
        base: dict[str, Any] = json.loads((PAYLOADS / f"{event}.json").read_text(encoding="utf-8"))
        base.update(
            session_id=SESSION_ID,
            transcript_path=str(self.transcript_path),
            cwd=self.cwd,
            hook_event_name=event,
        )
        # Without a --permission-mode flag the session's mode is fire's to find (settings
        # defaultMode), as Claude Code finds it.
        mode = self.command_line.permission_mode
        if base.pop("permission_mode", None) is not None and mode is not None:
            base["permission_mode"] = mode
        if event == "InstructionsLoaded":
            for key in ("globs", "trigger_file_path", "parent_file_path"):
                base.pop(key, None)
        base.update(fields)
        return base


def _session(scenario: Mapping[str, Any], layout: Layout) -> _ScenarioSession:
    dumps = layout.root / "fire-dumps"
    dumps.mkdir(exist_ok=True)
    env = {**claude_env(scenario, layout), "ORACLE_DUMPS": str(dumps)}
    turns = substitute(scenario.get("turns", []), layout)
    data = {
        "prompt": scenario.get("prompt", DEFAULT_PROMPT),
        "turns": [
            {**turn, "tools": [_stand_in(call) for call in turn.get("tools") or []]}
            for turn in turns
        ],
    }
    settings = flag_settings(scenario, layout)
    if is_interactive(scenario):
        # The user's actions (prompts, answers to dialogs, slash commands) play in order.
        data["interactive"] = substitute(scenario["interactive"], layout)
        settings = interactive_settings(scenario, layout)
    script = SessionScript(str(scenario["id"]), data, layout.root)
    line = command_line(list(substitute(scenario.get("flags", []), layout)), json.dumps(settings))
    cap = stop_block_cap(script.name, env)
    return _ScenarioSession(script, layout, env, cap, line, cwd=str(layout.project))


# -- out: what the loop did as the predicted dict -------------------------------------------------


def predict_here(scenario: Mapping[str, Any], layout: Layout) -> dict[str, Any]:
    """The prediction, in this process: the loop plays the scenario."""
    session = _session(scenario, layout)
    errors: list[str] = []
    end: Mapping[str, Any] = {"reason": "completed"}
    try:
        end = play(session)["end"]
    except InputError as error:
        errors.append(str(error))
    reports = [json.loads(jsjson.stringify(report_json(r))) for r in session.fired]
    predicted: dict[str, Any] = {key: {} if key == "hooks" else [] for key in PREDICTED_KEYS}
    predicted.update(
        terminal=terminal_reason(end.get("reason")),
        requests=session.requests,
        promptBlocked=False,
        userMessage=None,
        errors=errors,
        looped=end.get("reason") == "runaway",
    )
    unheard = {id(report) for report in session.unheard}
    for report, fired in zip(reports, session.fired, strict=True):
        _gather(predicted, report, heard=id(fired) not in unheard)
    if not predicted["promptBlocked"] and "shown" in end:
        # The prompt ended before any hook could stop it (a command the release refused).
        predicted.update(promptBlocked=True, userMessage=end["shown"])
    predicted["tools"] = [
        _tool(call, session.results.get(call["id"]))
        for round_ in session.rounds
        for call in round_["calls"]
    ]
    runs = [r for r in hook_runs(layout.root / "fire-dumps") if r["hook"] != PROBE]
    # Hooks started are read as on Claude Code's side, from the scripts' own dumps: a
    # command line that fails before its script starts (exit 127) started nothing.
    for run in runs:
        predicted["hooks"].setdefault(str(run["event"]), []).append(run["hook"])
    predicted["hookRuns"] = stable_runs(runs)
    predicted["payloadKeys"] = payload_keys()
    predicted["fired"] = [_fired(report) for report in reports]
    normal: dict[str, Any] = _normal(predicted, str(layout.root))
    return normal


def _tool(call: Mapping[str, Any], result: Mapping[str, Any] | None) -> dict[str, Any]:
    """A call as the comparison reads it: whether it ran, what the model was told if it
    did not, the input it ran with."""
    refused = not call["runs"] and result is not None
    entry: dict[str, Any] = {
        "id": call["id"],
        "name": call["name"],
        "runs": call["runs"],
        "result": result["text"] if refused and result is not None else None,
        "isError": result["isError"] if refused and result is not None else None,
        "input": call.get("ranInput", call["input"]),
    }
    if "ranInput" in call:
        entry["rewritten"] = True
    for key in ("elicited", "hookFeedback", "shownOutput"):
        if key in call:
            entry[key] = call[key]
    return entry


def _fired(report: Mapping[str, Any]) -> dict[str, Any]:
    outcome = report.get("outcome", {})
    return {
        "event": report["event"],
        "status": report.get("exitStatus"),
        "printMode": report.get("printMode"),
        "outcome": {
            k: outcome.get(k)
            for k in (
                "blocked",
                "decision",
                "reason",
                "continue",
                "keepsGoing",
                "updatedInput",
                "additionalContext",
            )
        },
        "permission": report.get("permission"),
    }


def scenario_hooks(report: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    """The scenario's hook scripts a report ran, with their entries (the probe left out)."""
    found = []
    for hook in report.get("hooks", []):
        match = HOOK_NAME.search(str(hook.get("handler", "")))
        if match and match.group(1) != PROBE:
            found.append((match.group(1), hook))
    return found


def _gather(predicted: dict[str, Any], report: Mapping[str, Any], heard: bool = True) -> None:
    """Hooks unfinished, notices, user notes, model texts (``heard``: a model was asked
    after it) and a blocked prompt of one report."""
    ran = scenario_hooks(report)
    predicted["unfinished"].extend(
        name for name, hook in ran if hook.get("cancelled") or hook.get("timedOut")
    )
    outcome = report.get("outcome", {})
    mode = report.get("printMode")
    if not isinstance(mode, dict):
        predicted["notices"].extend(outcome.get("systemMessages", []))
        return
    predicted["notices"].extend(mode.get("notices") or [])
    predicted["userNotes"].extend(mode.get("userNotes") or [])
    texts = [*(mode.get("systemReminders") or []), *filter(None, [mode.get("stopFeedback")])]
    for text in texts if heard else []:
        if text not in predicted["modelTexts"]:
            predicted["modelTexts"].append(text)
    prompt = report["event"] in ("UserPromptSubmit", "UserPromptExpansion")
    if prompt and outcome.get("blocked") and not predicted["promptBlocked"]:
        # The prompt never reaches the model; the user is shown why.
        predicted["promptBlocked"] = True
        predicted["userMessage"] = mode.get("userMessage")


def payload_keys() -> dict[str, dict[str, list[str]]]:
    """Per event, the payload fields the catalogue says always arrive, and those that may."""
    document = json.loads(
        (REPO / "hookcourse" / "data" / "events.json").read_text(encoding="utf-8")
    )
    common = document["common_input_fields"]
    keys = {}
    for event in document["events"]:
        given = event.get("input", {})
        required = [
            *common["required"],
            *(["permission_mode"] if given.get("permission_mode") else []),
            *given.get("fields", []),
        ]
        optional = [
            *common["optional"],
            *given.get("optional", []),
            *(common.get("tool_context_optional", []) if event.get("tool_event") else []),
        ]
        # A release answered as (fire --claude-version) may not send some yet.
        required = [key for key in required if payload_key_sent(key)]
        keys[event["name"]] = {"required": sorted(set(required)), "optional": sorted(set(optional))}
    return keys


def serve() -> None:
    """Each stdin line ``{"scenario": {...}, "root": DIR}`` (laid out there) gets one line:
    its prediction."""
    # Replies go to a private copy of stdout; anything else that writes to fd 1 (a child
    # process, a stray print) lands on stderr instead of in a reply.
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    for line in sys.stdin:
        request = json.loads(line)
        try:
            # A replay of another release (oracle.py replay --version) says which.
            with answering_as(request["scenario"].get("claudeVersion")):
                predicted = predict_here(request["scenario"], Layout(Path(request["root"])))
        except Exception as error:  # a harness bug: one failed prediction, not a dead run
            predicted = _failed(f"the prediction raised {error!r}")
        replies.write(json.dumps(predicted) + "\n")
        replies.flush()


if __name__ == "__main__":
    serve()
