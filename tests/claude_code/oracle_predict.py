"""What ``hookcourse fire --json`` predicts for a scenario, event by event.

A scenario is one print-mode session; ``fire`` models one event. The mapping:

1. SessionStart (``source: startup``), then UserPromptSubmit; a blocked prompt ends it.
   Each user turn a SessionStart hook asks for (``printMode.userTurns``) is a whole turn
   before the prompt's: UserPromptSubmit with its text, a model request, Stop.
2. Each scripted turn's tool calls, in order: PreToolUse (the permission step is
   part of its report); a call that runs is followed by PostToolUse; after the
   turn's calls, PostToolBatch.
3. A turn with no tool call ends the turn: Stop, fired with ``--stop-blocks`` set to
   the consecutive blocks so far. The count starts again after a continuation that
   ran a tool (Claude Code resets it then, reference 2.1.332 §8). When ``fire`` says
   the turn continues, the next scripted turn is played, as the mock does.

Payloads come from ``fixtures/payloads/<Event>.json`` with the scenario's session,
cwd, tool call and prompt filled in. Every field is read from ``printMode`` when
``fire`` gives it (the print-mode consequences), else from ``outcome``/``permission``.
"""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from oracle_observe import _normal, hook_runs
from oracle_record import stable_runs
from oracle_scenario import DEFAULT_PROMPT, PROBE, claude_env, flag_settings

from hookcourse.engine.lifecycle import (
    SetOff,
    instructions_at_start,
    prompt_expansion,
    startup_events,
)
from hookcourse.engine.permission_rule import CallPlace
from hookcourse.session.script import Layout, substitute
from hookcourse.session.turns import FALLBACK_TEXT

REPO = Path(__file__).resolve().parents[2]
PAYLOADS = REPO / "fixtures" / "payloads"
SESSION = "00000000-0000-4000-8000-00000000cafe"
MAX_STEPS = 40
"""More model turns than any scenario needs; a longer prediction is a runaway loop."""
HOOK_NAME = re.compile(r"/hooks/([A-Za-z0-9_.-]+)")


class FireServer:
    """One ``fire_server.py`` process answering many ``fire`` invocations (restarted if it dies)."""

    def __init__(self) -> None:
        self.process = self._start()

    @staticmethod
    def _start() -> subprocess.Popen[str]:
        return subprocess.Popen(
            [str(REPO / ".venv" / "bin" / "python"), str(Path(__file__).parent / "fire_server.py")],
            cwd=REPO,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )

    def fire(
        self, argv: list[str], env: Mapping[str, str], payload: Mapping[str, Any]
    ) -> dict[str, Any]:
        """One invocation's status, stdout and stderr; a dead server is one failed call."""
        assert self.process.stdin is not None and self.process.stdout is not None
        request = {"argv": argv, "env": dict(env), "payload": json.dumps(payload)}
        try:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
            reply: dict[str, Any] = json.loads(self.process.stdout.readline())
            return reply
        except (OSError, ValueError) as error:
            self.close()
            self.process = self._start()
            return {"status": -1, "stdout": "", "stderr": f"the fire server died: {error}"}

    def close(self) -> None:
        with contextlib.suppress(OSError):
            if self.process.stdin is not None:
                self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _payload(event: str, layout: Layout, mode: str | None, **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = json.loads((PAYLOADS / f"{event}.json").read_text(encoding="utf-8"))
    base.update(
        session_id=SESSION,
        transcript_path=str(layout.home / ".claude" / "projects" / "p" / f"{SESSION}.jsonl"),
        cwd=str(layout.project),
        hook_event_name=event,
    )
    # Without a --permission-mode flag the session's mode is fire's to find (settings
    # defaultMode), as Claude Code finds it.
    if base.pop("permission_mode", None) is not None and mode is not None:
        base["permission_mode"] = mode
    base.update(fields)
    return base


def _flag(flags: list[str], name: str) -> str | None:
    return (
        flags[flags.index(name) + 1]
        if name in flags and flags.index(name) + 1 < len(flags)
        else None
    )


VARIADIC_FLAGS = {
    "--allowedTools": "--allowed-tools",
    "--allowed-tools": "--allowed-tools",
    "--disallowedTools": "--disallowed-tools",
    "--disallowed-tools": "--disallowed-tools",
    "--add-dir": "--add-dir",
}
"""claude's list flags (each takes the words up to the next option), and fire's."""


def forwarded_flags(flags: list[str], subagent: bool = False) -> list[str]:
    """The scenario's claude flags that ``fire`` takes too, in fire's spelling; a subagent's
    event does not get ``--max-turns`` (the main conversation's limit, not the subagent's)."""
    argv: list[str] = []
    i = 0
    while i < len(flags):
        name, _, inline = flags[i].partition("=")
        i += 1
        if name in VARIADIC_FLAGS:
            values = [inline] if inline else []
            while not inline and i < len(flags) and not flags[i].startswith("-"):
                values.append(flags[i])
                i += 1
            argv += [VARIADIC_FLAGS[name], *values]
        elif name == "--dangerously-skip-permissions":
            argv.append(name)
        elif name in ("--max-turns", "--setting-sources"):
            value = inline or (flags[i] if i < len(flags) else "")
            i += 0 if inline else 1
            argv += [] if subagent and name == "--max-turns" else [name, value]
    return argv


def scenario_hooks(report: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    """The scenario's hook scripts a report ran, with their entries (the probe left out)."""
    found = []
    for hook in report.get("hooks", []):
        match = HOOK_NAME.search(str(hook.get("handler", "")))
        if match and match.group(1) != PROBE:
            found.append((match.group(1), hook))
    return found


def _tool_label(call: Mapping[str, Any]) -> str:
    return str(call.get("name"))


class Prediction:
    """Fires a scenario's events in order and gathers what ``fire`` says happens."""

    def __init__(self, server: FireServer, scenario: Mapping[str, Any], layout: Layout) -> None:
        self.server = server
        self.scenario = scenario
        self.layout = layout
        self.flags = list(substitute(scenario.get("flags", []), layout))
        self.mode = (
            "bypassPermissions"
            if "--dangerously-skip-permissions" in self.flags
            else _flag(self.flags, "--permission-mode")
        )
        self.env = {**claude_env(scenario, layout), "ORACLE_DUMPS": str(layout.root / "fire-dumps")}
        (layout.root / "fire-dumps").mkdir(exist_ok=True)
        self.settings = json.dumps(flag_settings(scenario, layout))
        self.fired: list[dict[str, Any]] = []
        self.errors: list[str] = []
        # What the session keeps between events (hookcourse.engine.lifecycle): the shell's
        # folder, the instruction files loaded, the skills launched, background subagents.
        self.cwd = str(layout.project)
        self.skills: list[str] = []
        # The session's transcript, as fire reads it: what earlier calls loaded.
        self.transcript = Path(_payload("Stop", layout, None)["transcript_path"])
        self.transcript.parent.mkdir(parents=True, exist_ok=True)
        self.background = 0

    def _payload(self, event: str, **fields: Any) -> dict[str, Any]:
        return _payload(event, self.layout, self.mode, **{"cwd": self.cwd, **fields})

    def _place(self) -> CallPlace:
        return CallPlace(str(self.layout.project), self.cwd, str(self.layout.home))

    def _set_off(self, predicted: dict[str, Any], step: SetOff) -> dict[str, Any] | None:
        """Fire an event the session sets off on its own."""
        payload = self._payload(step.event, **dict(step.fields))
        for key in ("globs", "trigger_file_path", "parent_file_path"):
            if key not in step.fields and step.event == "InstructionsLoaded":
                payload.pop(key, None)
        report = self.fire(step.event, payload)
        self._gather(predicted, step.event, report)
        return report

    def _record(self, *blocks: dict[str, Any]) -> None:
        """One message of the session's transcript (tool calls, or their results)."""
        with self.transcript.open("a", encoding="utf-8") as stream:
            stream.write(json.dumps({"message": {"content": list(blocks)}}) + "\n")

    def fire(self, event: str, payload: dict[str, Any], *extra: str) -> dict[str, Any] | None:
        argv = [
            "fire",
            event,
            "--json",
            "--project-dir",
            str(self.layout.project),
            "--settings",
            self.settings,
            *extra,
            *(word for skill in self.skills for word in ("--skill", skill)),
        ]
        if self.mode is not None:
            argv += ["--permission-mode", self.mode]
        argv += forwarded_flags(self.flags, subagent=event == "SubagentStop")
        reply = self.server.fire(argv, self.env, payload)
        try:
            report: dict[str, Any] = json.loads(reply["stdout"])
        except ValueError:
            self.errors.append(
                f"{event}: fire exited {reply['status']}: {reply['stderr'].strip()[:400]}"
            )
            self.fired.append({"event": event, "report": None, "status": reply["status"]})
            return None
        self.fired.append({"event": event, "report": report, "status": reply["status"]})
        return report

    def run(self) -> dict[str, Any]:
        predicted: dict[str, Any] = {
            "hooks": {},
            "tools": [],
            "modelTexts": [],
            "notices": [],
            "userNotes": [],
            "terminal": "completed",
            "unfinished": [],
            "requests": 0,
            "promptBlocked": False,
            "userMessage": None,
        }
        for setup in startup_events(self.flags):
            self._set_off(predicted, setup)
        start = self.fire("SessionStart", self._payload("SessionStart", source="startup"))
        self._gather(predicted, "SessionStart", start)
        for loaded in instructions_at_start(self._place()):
            self._set_off(predicted, loaded)
        prompt = self.scenario.get("prompt", DEFAULT_PROMPT)
        mode = (start or {}).get("printMode")
        user_turns = list(mode.get("userTurns") or []) if isinstance(mode, dict) else []
        # The mock plays its script in the conversation that begins with the prompt; one
        # that begins with a hook's user turn gets its fallback text throughout.
        script = [] if user_turns else list(substitute(self.scenario.get("turns", []), self.layout))
        for number, text in enumerate([*user_turns, prompt]):
            if self._prompt_turn(predicted, text, script if number == len(user_turns) else []):
                break
        return self._finish(predicted)

    def _prompt_turn(self, predicted: dict[str, Any], prompt: str, turns: list[Any]) -> bool:
        """One user turn: UserPromptSubmit, the model's turns, Stop; True when the run ends."""
        expansion = prompt_expansion(prompt, self._place())
        expanded = None if expansion is None else self._set_off(predicted, expansion)
        if _prompt_blocked(predicted, expanded):
            return True
        submitted = self.fire("UserPromptSubmit", self._payload("UserPromptSubmit", prompt=prompt))
        self._gather(predicted, "UserPromptSubmit", submitted)
        if _prompt_blocked(predicted, submitted):
            return True
        blocks = 0
        ran_tool_since_stop = False
        step = 0
        while step < MAX_STEPS:
            turn = turns[step] if step < len(turns) else {}
            step += 1
            predicted["requests"] += 1
            calls = turn.get("tools", [])
            if calls:
                self._record(
                    *(
                        {
                            "type": "tool_use",
                            "id": f"toolu_t{step - 1}c{n}",
                            "name": c["name"],
                            "input": c.get("input", {}),
                        }
                        for n, c in enumerate(calls)
                    )
                )
            for number, call in enumerate(calls):
                outcome = self._tool_call(predicted, call, f"toolu_t{step - 1}c{number}")
                if outcome == "stops":
                    return True
                ran_tool_since_stop = True
            if calls:
                batch = self.fire(
                    "PostToolBatch",
                    self._payload(
                        "PostToolBatch",
                        tool_calls=[
                            {
                                "tool_name": c["name"],
                                "tool_input": c.get("input", {}),
                                "tool_use_id": f"toolu_t{step - 1}c{n}",
                            }
                            for n, c in enumerate(calls)
                        ],
                    ),
                    "--turn",
                    str(step),
                )
                self._gather(predicted, "PostToolBatch", batch)
                if batch is not None and self._run_stops(batch):
                    mode = batch.get("printMode")
                    terminal = mode.get("terminalReason") if isinstance(mode, dict) else None
                    predicted["terminal"] = terminal or "hook_stopped"
                    return True
                continue
            if ran_tool_since_stop:
                blocks = 0
            ran_tool_since_stop = False
            stop = self.fire(
                "Stop",
                self._payload(
                    "Stop",
                    stop_hook_active=blocks > 0,
                    last_assistant_message=turn.get("text", "Done."),
                    background_tasks=[],
                    session_crons=[],
                ),
                "--stop-blocks",
                str(blocks),
                "--turn",
                str(step),
            )
            self._gather(predicted, "Stop", stop)
            if stop is None or not self._turn_continues(stop):
                mode = (stop or {}).get("printMode")
                if isinstance(mode, dict) and mode.get("terminalReason"):
                    predicted["terminal"] = mode["terminalReason"]
                    return True
                if self.background:
                    # A background subagent's completion notification starts a turn.
                    self.background -= 1
                    continue
                return False
            blocks += 1
        predicted["terminal"] = "runaway"
        return True

    def _run_stops(self, report: Mapping[str, Any]) -> bool:
        mode = report.get("printMode")
        if isinstance(mode, dict) and mode.get("runStops") is not None:
            return bool(mode["runStops"])
        outcome = report.get("outcome", {})
        return bool(outcome.get("blocked")) or not outcome.get("continue", True)

    def _finish(self, predicted: dict[str, Any]) -> dict[str, Any]:
        end = self.fire("SessionEnd", self._payload("SessionEnd", reason="other"))
        self._gather(predicted, "SessionEnd", end)
        predicted["errors"] = self.errors
        runs = [r for r in hook_runs(self.layout.root / "fire-dumps") if r["hook"] != PROBE]
        # Hooks started are read as on Claude Code's side, from the scripts' own dumps: a
        # command line that fails before its script starts (exit 127) started nothing.
        for run in runs:
            predicted["hooks"].setdefault(str(run["event"]), []).append(run["hook"])
        predicted["hookRuns"] = stable_runs(runs)
        predicted["payloadKeys"] = payload_keys()
        predicted["fired"] = [
            {
                "event": f["event"],
                "status": f["status"],
                "printMode": (f["report"] or {}).get("printMode"),
                "outcome": {
                    k: (f["report"] or {}).get("outcome", {}).get(k)
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
                "permission": (f["report"] or {}).get("permission"),
            }
            for f in self.fired
        ]
        return predicted

    def _gather(
        self, predicted: dict[str, Any], event: str, report: Mapping[str, Any] | None
    ) -> None:
        """Hooks run, notices and model texts of one report."""
        if report is None:
            return
        ran = scenario_hooks(report)
        predicted["unfinished"].extend(
            name for name, hook in ran if hook.get("cancelled") or hook.get("timedOut")
        )
        outcome = report.get("outcome", {})
        mode = report.get("printMode")
        notices = mode.get("notices") if isinstance(mode, dict) else None
        predicted["notices"].extend(
            notices if isinstance(notices, list) else outcome.get("systemMessages", [])
        )
        if isinstance(mode, dict):
            predicted["userNotes"].extend(mode.get("userNotes") or [])
        if isinstance(mode, dict):
            texts = list(mode.get("systemReminders") or [])
            if mode.get("stopFeedback"):
                texts.append(mode["stopFeedback"])
        else:
            texts = list(outcome.get("additionalContext", []))
            if event == "Stop" and self._turn_continues(report) and outcome.get("reason"):
                texts.append(outcome["reason"])
        for text in texts:
            if text not in predicted["modelTexts"]:
                predicted["modelTexts"].append(text)

    def _turn_continues(self, report: Mapping[str, Any]) -> bool:
        mode = report.get("printMode")
        if isinstance(mode, dict) and mode.get("turnContinues") is not None:
            return bool(mode["turnContinues"])
        return bool(report.get("outcome", {}).get("keepsGoing"))

    def _while_running(self, predicted: dict[str, Any], effects: Mapping[str, Any]) -> None:
        """What a running call sets off (``printMode.whenRun``), before its PostToolUse."""
        for step in effects.get("events") or []:
            self._set_off(predicted, SetOff(step["event"], step["fields"]))
        if effects.get("cwd"):
            self.cwd = str(effects["cwd"])
        if effects.get("skill") and effects["skill"] not in self.skills:
            self.skills.append(effects["skill"])
        if effects.get("subagent"):
            self._subagent(predicted, str(effects["subagent"]))

    def _subagent(self, predicted: dict[str, Any], agent_type: str) -> None:
        """A subagent: SubagentStart, its model turns (the mock answers them with its
        fallback text), SubagentStop until it lets the subagent stop. In print mode 2.1.332
        runs it in the background: its completion is one more main turn later."""
        agent_id = f"a{len(self.fired):016x}"
        fields = {"agent_id": agent_id, "agent_type": agent_type}
        self._set_off(predicted, SetOff("SubagentStart", fields))
        transcript = self.layout.home / ".claude" / "projects" / "p" / SESSION / "subagents"
        for blocks in range(MAX_STEPS):
            predicted["requests"] += 1
            stop = self.fire(
                "SubagentStop",
                self._payload(
                    "SubagentStop",
                    **fields,
                    stop_hook_active=blocks > 0,
                    agent_transcript_path=str(transcript / f"agent-{agent_id}.jsonl"),
                    last_assistant_message=FALLBACK_TEXT,
                    background_tasks=[],
                    session_crons=[],
                ),
                "--stop-blocks",
                str(blocks),
            )
            self._gather(predicted, "SubagentStop", stop)
            if stop is None or not self._turn_continues(stop):
                break
        self.background += 1

    def _permission_request(self, predicted: dict[str, Any], entry: dict[str, Any]) -> str | None:
        """PermissionRequest where a dialog would be shown: its hooks may answer it."""
        report = self.fire(
            "PermissionRequest",
            self._payload(
                "PermissionRequest",
                tool_name=entry["name"],
                tool_input=entry["input"],
                permission_suggestions=[],
            ),
        )
        self._gather(predicted, "PermissionRequest", report)
        mode = (report or {}).get("printMode")
        if not isinstance(mode, dict) or mode.get("toolRuns") is None:
            return None
        entry["runs"] = mode["toolRuns"]
        result = mode.get("toolResult")
        entry["result"], entry["isError"] = (
            (result.get("text"), result.get("isError"))
            if isinstance(result, dict)
            else (None, None)
        )
        rewrite = (report or {}).get("outcome", {}).get("updatedInput")
        if entry["runs"] and rewrite is not None:
            entry["input"], entry["rewritten"] = rewrite, True
        return str(mode.get("terminalReason") or "hook_stopped") if mode.get("runStops") else None

    def _tool_call(self, predicted: dict[str, Any], call: Mapping[str, Any], tool_id: str) -> str:
        name, tool_input = call["name"], call.get("input", {})
        report = self.fire(
            "PreToolUse",
            self._payload(
                "PreToolUse",
                tool_name=name,
                tool_input=tool_input,
                tool_use_id=tool_id,
            ),
        )
        self._gather(predicted, "PreToolUse", report)
        entry: dict[str, Any] = {
            "id": tool_id,
            "name": name,
            "runs": None,
            "result": None,
            "isError": None,
            "input": tool_input,
        }
        predicted["tools"].append(entry)
        if report is None:
            return "goes on"
        outcome, permission, mode = (
            report["outcome"],
            report.get("permission"),
            report.get("printMode"),
        )
        if outcome.get("updatedInput") is not None:
            entry["input"], entry["rewritten"] = outcome["updatedInput"], True
        if isinstance(mode, dict):
            entry["runs"] = mode.get("toolRuns")
            result = mode.get("toolResult")
            if isinstance(result, dict):
                entry["result"], entry["isError"] = result.get("text"), result.get("isError")
            stops = bool(mode.get("runStops"))
            terminal = mode.get("terminalReason")
        else:
            permitted = permission is None or permission.get("decision") == "allow"
            entry["runs"] = not outcome["blocked"] and permitted
            if not entry["runs"]:
                entry["result"] = outcome.get("reason")
                entry["isError"] = True
            stops = not outcome.get("continue", True)
            terminal = "hook_stopped" if stops else None
        if isinstance(mode, dict) and mode.get("permissionRequest"):
            ended = self._permission_request(predicted, entry)
            if ended is not None:
                stops, terminal = True, ended
        if entry["runs"]:
            when_run = mode.get("whenRun") if isinstance(mode, dict) else None
            if isinstance(when_run, dict):
                self._while_running(predicted, when_run)
            # A call the scenario marks "fails" (a command exiting non-zero) ends in
            # PostToolUseFailure instead.
            response = {"stdout": "", "stderr": "", "interrupted": False, "isImage": False}
            event, result = (
                ("PostToolUseFailure", {"error": "Exit code 1", "is_interrupt": False})
                if call.get("fails")
                else ("PostToolUse", {"tool_response": response})
            )
            after = self.fire(
                event,
                self._payload(
                    event,
                    tool_name=name,
                    tool_input=entry["input"],
                    tool_use_id=tool_id,
                    **result,
                ),
            )
            self._gather(predicted, event, after)
            if (
                after is not None
                and isinstance(after.get("printMode"), dict)
                and after["printMode"].get("runStops")
            ):
                stops, terminal = True, after["printMode"].get("terminalReason") or "hook_stopped"
        failed = not entry["runs"] or bool(call.get("fails"))
        self._record({"type": "tool_result", "tool_use_id": tool_id, "is_error": failed})
        if stops:
            predicted["terminal"] = terminal or "hook_stopped"
            return "stops"
        return "goes on"


def _prompt_blocked(predicted: dict[str, Any], report: Mapping[str, Any] | None) -> bool:
    """A UserPromptExpansion or UserPromptSubmit block: the prompt never reaches the model."""
    if report is None or not report["outcome"]["blocked"]:
        return False
    mode = report.get("printMode")
    predicted["promptBlocked"] = True
    predicted["userMessage"] = mode.get("userMessage") if isinstance(mode, dict) else None
    predicted["terminal"] = "prompt_blocked"
    return True


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
        keys[event["name"]] = {"required": sorted(set(required)), "optional": sorted(set(optional))}
    return keys


def predict(server: FireServer, scenario: Mapping[str, Any], layout: Layout) -> dict[str, Any]:
    """The prediction for a laid-out scenario (the hooks run for real, in ``fire-dumps``)."""
    predicted: dict[str, Any] = _normal(
        Prediction(server, scenario, layout).run(), str(layout.root)
    )
    return predicted
