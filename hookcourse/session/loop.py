"""A whole scripted session through hookcourse's engine, as ``claude -p`` runs it.

One loop, as Claude Code 2.1.332 in print mode goes: SessionStart, then for each
prompt UserPromptSubmit (a block skips that prompt: it never reaches the model)
and request after request, the turns continuing from the prompt before: the
scripted model plays a turn; each tool call fires PreToolUse (with the
permission step, and PermissionRequest where a dialog would be shown), runs if
allowed (for real, in the scratch project), then fires PostToolUse or
PostToolUseFailure; a turn with tool calls ends with PostToolBatch
and the next request; a turn without one fires Stop, with ``stop_hook_active``
and the consecutive-block count (reset when a continuation ran a tool, capped by
``CLAUDE_CODE_STOP_HOOK_BLOCK_CAP``, default 8). Every event goes through
``hookcourse.engine.api.fire``; what the model is shown comes from its
``print_mode``; nothing here reads or merges a hook's answer.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hookcourse.engine.api import FireReport, FireRequest, fire
from hookcourse.engine.catalogue import checked_against
from hookcourse.engine.lifecycle import SetOff, prompt_expansion
from hookcourse.engine.outcome import DEFAULT_STOP_BLOCK_CAP
from hookcourse.engine.permission_rule import CallPlace
from hookcourse.engine.settings import SettingsPlaces
from hookcourse.errors import InputError
from hookcourse.js import json as jsjson
from hookcourse.js.values import Undefined

from . import turns as scripted
from .script import Layout, SessionScript, flag_settings, laid_out, script_env, substitute
from .tools import Grant, ToolRun, confinement, hook_environment, run_tool, session_texts
from .transcript import Transcript, event_run, relative

SESSION_ID = "00000000-0000-4000-8000-0000005e5510"
MAX_REQUESTS = 60
"""More model requests than any script needs: past it the session is a runaway loop."""
CAP_VARIABLE = "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP"


def engine_name() -> str:
    return f"hookcourse's engine (model of Claude Code {checked_against()})"


@dataclass
class _Session:
    """The state one session carries from request to request."""

    script: SessionScript
    layout: Layout
    env: dict[str, str]
    cap: int
    shown: list[dict[str, Any]] = field(default_factory=list)
    rounds: list[dict[str, Any]] = field(default_factory=list)
    cwd: str = ""
    """The shell's folder (a Bash ``cd`` moves it; hooks run there): the project at first."""
    skills: list[str] = field(default_factory=list)
    """Skills launched so far: their frontmatter hooks run too."""
    allow_outside: bool = False
    """File tools may run outside the project where Claude Code would let them."""

    def place(self) -> CallPlace:
        return CallPlace(str(self.layout.project), self.cwd, str(self.layout.home))

    @property
    def transcript_path(self) -> Path:
        """The session's own transcript: the engine reads what earlier calls did there
        (which instruction files they loaded, which files were Read)."""
        return self.layout.home / ".claude" / "projects" / "session" / f"{SESSION_ID}.jsonl"

    def record(self, *blocks: Mapping[str, Any]) -> None:
        """One message of the transcript: tool calls, or their results."""
        self.transcript_path.parent.mkdir(parents=True, exist_ok=True)
        with self.transcript_path.open("a", encoding="utf-8") as stream:
            stream.write(jsjson.stringify({"message": {"content": [dict(b) for b in blocks]}}))
            stream.write("\n")

    def payload(self, event: str, **fields: Any) -> dict[str, Any]:
        base: dict[str, Any] = {
            "session_id": SESSION_ID,
            "transcript_path": str(self.transcript_path),
            "cwd": self.cwd or str(self.layout.project),
            "hook_event_name": event,
        }
        if event in (
            "PreToolUse",
            "PostToolUse",
            "PostToolUseFailure",
            "PostToolBatch",
            "UserPromptSubmit",
            "Stop",
        ):
            base["permission_mode"] = self.script.data.get("permissionMode", "default")
        return {**base, **fields}

    def set_off(self, step: SetOff) -> FireReport:
        """An event the session fires on its own."""
        return self.fire(step.event, self.payload(step.event, **dict(step.fields)))

    def fire(self, event: str, payload: Mapping[str, Any], blocks: int = 0) -> FireReport:
        flag = flag_settings(self.script, self.layout)
        places = SettingsPlaces(
            project_dir=self.layout.project,
            home=self.layout.home,
            extra=(flag,) if flag is not None else (),
            skills=tuple(self.skills),
        )
        request = FireRequest(
            event=event,
            payload_text=jsjson.stringify(dict(payload)),
            payload_name=f"the {event} payload",
            places=places,
            consecutive_stop_blocks=blocks,
            stop_block_cap=self.cap,
            base_env=self.env,
            permission_mode=self.script.data.get("permissionMode"),
        )
        return fire(request)


def _hooks(report: FireReport) -> list[dict[str, Any]]:
    return [
        {
            "command": hook.planned.handler.describe(),
            "exitCode": hook.execution.run.exit_code,
            "stdout": hook.execution.run.stdout,
            "stderr": hook.execution.run.stderr,
            "read": hook.reading.how,
        }
        for hook in report.hooks
    ]


def _label(report: FireReport) -> str:
    subject = report.matcher_subject
    return f"{report.event}:{subject}" if isinstance(subject, str) else report.event


def _system_texts(report: FireReport) -> list[dict[str, Any]]:
    mode = report.print_mode
    texts = [] if mode is None else list(mode.system_reminders)
    return [{"kind": "system", "text": text} for text in texts]


def run_session(
    script: SessionScript, keep: bool = False, allow_outside: bool = False
) -> Transcript:
    """The transcript of ``script`` through the engine, in a scratch folder of its own.

    ``allow_outside``: a file tool Claude Code would run outside the project (a rule, a
    hook's allow, bypassPermissions) runs; without it, such a call is refused.
    """
    with laid_out(script, keep=keep) as layout:
        env = hook_environment(os.environ, layout.home, layout.tmp)
        env.update(script_env(script, layout))
        cap = _stop_block_cap(script, env)
        session = _Session(script, layout, env, cap, cwd=str(layout.project))
        session.allow_outside = allow_outside
        transcript = _play(session)
        return relative(transcript, str(layout.root), keep)


def _stop_block_cap(script: SessionScript, env: Mapping[str, str]) -> int:
    """``CLAUDE_CODE_STOP_HOOK_BLOCK_CAP`` as Claude Code reads it: unset is 8, 0 no cap."""
    raw = env.get(CAP_VARIABLE, "").strip()
    if not raw:
        return DEFAULT_STOP_BLOCK_CAP
    if not raw.isdigit():
        raise InputError(
            script.name,
            f"{CAP_VARIABLE} is {raw!r}, not a whole number",
            "give 0 (no cap) or more",
            ["env", CAP_VARIABLE],
        )
    return int(raw)


def _play(session: _Session) -> Transcript:
    script = session.script
    start = session.fire("SessionStart", session.payload("SessionStart", source="startup"))
    transcript: Transcript = {
        "script": script.name,
        "engine": engine_name(),
        "start": [event_run("SessionStart", _label(start), _hooks(start))],
        "rounds": session.rounds,
        "end": {},
    }
    session.shown = _start_texts(start)
    end: dict[str, Any] = {}
    next_turn = 0
    for number, text in enumerate(script.prompts):
        expansion = prompt_expansion(text, session.place())
        expanded = None if expansion is None else session.set_off(expansion)
        reports = [] if expanded is None else [expanded]
        if expanded is None or not expanded.outcome.blocked:
            # A blocked expansion stops the prompt: UserPromptSubmit never fires.
            reports.append(
                session.fire("UserPromptSubmit", session.payload("UserPromptSubmit", prompt=text))
            )
        prompt = reports[-1]
        runs = [event_run(r.event, _label(r), _hooks(r)) for r in reports]
        if number == 0:
            transcript["start"].extend(runs)
        else:
            entry = {"prompt": text, "round": len(session.rounds), "events": runs, "before": end}
            transcript.setdefault("prompts", []).append(entry)
        for report in reports[:-1]:
            session.shown = session.shown + _system_texts(report)
        mode = prompt.print_mode
        if mode is not None and mode.run_stops:
            # The prompt never reaches the model; the next one is read as usual.
            said = f"the user is shown: {mode.user_message or ''}"
            end = {"reason": "prompt_blocked", "notes": [said]}
            continue
        session.shown = session.shown + _system_texts(prompt)
        end, next_turn = _requests(session, next_turn)
        session.shown = []
    transcript["end"] = end
    return transcript


def _start_texts(report: FireReport) -> list[dict[str, Any]]:
    """SessionStart: context and plain stdout reach the model as system texts."""
    texts = _system_texts(report)
    success = session_texts()["session_start_success"]
    mode = report.print_mode
    if mode is not None and not mode.system_reminders:
        for hook in report.hooks:
            out = hook.execution.run.stdout.strip()
            if hook.execution.run.exit_code == 0 and out and not out.startswith("{"):
                texts.append(
                    {"kind": "system", "text": success.format(hook=_label(report), text=out)}
                )
    return texts


def _requests(session: _Session, next_index: int) -> tuple[dict[str, Any], int]:
    """One prompt's loop, from the turn at ``next_index``: how it ended, and the next turn."""
    turns = session.script.turns
    errors: list[bool] = []
    blocks, in_stop_chain = 0, False
    while len(session.rounds) < MAX_REQUESTS:
        index = scripted.choose(turns, next_index, errors)
        turn: Mapping[str, Any] = {} if index is None else turns[index]
        next_index = len(turns) if index is None else index + 1
        calls = list(turn.get("tools") or [])
        text = turn.get("text") or (None if calls else scripted.FALLBACK_TEXT)
        round_: dict[str, Any] = {
            "turn": index,
            "text": text,
            "shown": session.shown,
            "calls": [],
            "events": [],
        }
        session.rounds.append(round_)
        if calls:
            ended, errors = _tool_turn(session, round_, index or 0, calls)
            if ended is not None:
                return ended, next_index
            blocks = 0  # a continuation that ran a tool resets the consecutive count
            continue
        errors = []
        stop = session.fire(
            "Stop",
            session.payload(
                "Stop",
                stop_hook_active=in_stop_chain,
                last_assistant_message=text,
                background_tasks=[],
                session_crons=[],
            ),
            blocks,
        )
        round_["events"].append(
            event_run(
                "Stop",
                "Stop",
                _hooks(stop),
                stopHookActive=in_stop_chain,
                notes=list(stop.outcome.notices),
            )
        )
        mode = stop.print_mode
        if mode is not None and mode.run_stops:
            # continue: false ends the run, whatever else the hooks said (stop_hook_prevented).
            return {"reason": mode.terminal_reason or "stop_hook_prevented"}, next_index
        if mode is None or not mode.turn_continues:
            return {"reason": "completed"}, next_index
        blocks, in_stop_chain = blocks + 1, True
        session.shown = _system_texts(stop)
        if mode.stop_feedback is not None:
            session.shown.append({"kind": "reminder", "text": mode.stop_feedback})
    return {"reason": "runaway", "notes": [f"stopped after {MAX_REQUESTS} requests"]}, next_index


def _tool_turn(
    session: _Session, round_: dict[str, Any], index: int, calls: list[Mapping[str, Any]]
) -> tuple[dict[str, Any] | None, list[bool]]:
    """The calls of one turn and PostToolBatch; the end of the session if it ends here."""
    results: list[dict[str, Any]] = []
    texts: list[dict[str, Any]] = []
    batch: list[dict[str, Any]] = []
    ended: dict[str, Any] | None = None
    session.record(
        *(
            {
                "type": "tool_use",
                "id": scripted.tool_use_id(index, number),
                "name": str(call["name"]),
                "input": substitute(call.get("input", {}), session.layout),
            }
            for number, call in enumerate(calls)
        )
    )
    for number, call in enumerate(calls):
        call_id = scripted.tool_use_id(index, number)
        name = str(call["name"])
        tool_input = substitute(call.get("input", {}), session.layout)
        pre = session.fire(
            "PreToolUse",
            session.payload(
                "PreToolUse", tool_name=name, tool_input=tool_input, tool_use_id=call_id
            ),
        )
        round_["events"].append(event_run("PreToolUse", _label(pre), _hooks(pre), call=call_id))
        texts.extend(_system_texts(pre))
        mode = pre.print_mode
        effects = None if mode is None else mode.when_run
        asked = None
        if mode is not None and mode.permission_request:
            # Where a dialog would be shown, PermissionRequest hooks may answer it.
            asked = session.fire(
                "PermissionRequest",
                session.payload(
                    "PermissionRequest",
                    tool_name=name,
                    tool_input=tool_input,
                    permission_suggestions=[],
                ),
            )
            round_["events"].append(event_run("PermissionRequest", _label(asked), _hooks(asked)))
            answer = asked.print_mode
            if answer is not None and answer.tool_runs is not None:
                mode = answer
        runs = mode is None or mode.tool_runs is not False
        entry: dict[str, Any] = {
            "id": call_id,
            "name": name,
            "input": tool_input,
            "inputText": jsjson.stringify(tool_input),
            "runs": runs,
        }
        rewrites = [pre.outcome.updated_input]
        if asked is not None and mode is asked.print_mode:
            rewrites.append(asked.outcome.updated_input)
        for rewrite in rewrites:
            if not isinstance(rewrite, Undefined) and runs:
                # What runs is the hooks' rewrite; the model's call stays as it wrote it.
                tool_input = rewrite
                entry["ranInput"] = tool_input
        round_["calls"].append(entry)
        if not runs:
            session.record({"type": "tool_result", "tool_use_id": call_id, "is_error": True})
            if mode is not None and mode.tool_result is not None:
                results.append(
                    {
                        "kind": "tool_result",
                        "id": call_id,
                        "text": mode.tool_result.text,
                        "isError": mode.tool_result.is_error,
                    }
                )
            if mode is not None and mode.run_stops:
                ended = {"reason": mode.terminal_reason or "hook_stopped"}
                break
            continue
        grant = _grant(session, pre)
        refusal = None if "result" in call else _confined(session, name, tool_input, grant)
        if refusal is not None:
            # Refused as a permission is: the tool does not run, no PostToolUse fires.
            entry["runs"] = False
            results.append({"kind": "tool_result", "id": call_id, "text": refusal, "isError": True})
            continue
        if effects is not None:
            for step in effects.events:
                report = session.set_off(step)
                round_["events"].append(event_run(report.event, _label(report), _hooks(report)))
        tool = _run(session, call, name, tool_input, grant)
        if effects is not None:
            session.cwd = effects.cwd or session.cwd
            if effects.skill is not None and effects.skill not in session.skills:
                session.skills.append(effects.skill)
        results.append(
            {"kind": "tool_result", "id": call_id, "text": tool.text, "isError": tool.is_error}
        )
        session.record({"type": "tool_result", "tool_use_id": call_id, "is_error": tool.is_error})
        batch.append(
            {
                "tool_name": name,
                "tool_input": tool_input,
                "tool_use_id": call_id,
                "tool_response": tool.text,
            }
        )
        post = _after_tool(session, name, tool_input, call_id, tool)
        round_["events"].append(event_run(post.event, _label(post), _hooks(post), call=call_id))
        texts.extend(_system_texts(post))
        stopping = [m for m in (mode, post.print_mode) if m is not None and m.run_stops]
        if stopping:
            ended = {"reason": stopping[0].terminal_reason or "hook_stopped"}
            break
    if ended is None:
        after = session.fire("PostToolBatch", session.payload("PostToolBatch", tool_calls=batch))
        round_["events"].append(event_run("PostToolBatch", _label(after), _hooks(after)))
        texts.extend(_system_texts(after))
    session.shown = results + texts
    return ended, [bool(item["isError"]) for item in results]


def _grant(session: _Session, pre: FireReport) -> Grant:
    """What let the call past the permission step: a rule, a hook's allow, or the mode."""
    step = pre.permission
    mode = session.script.data.get("permissionMode", "default") if step is None else step.mode
    granted = None
    if step is not None and step.rule is not None:
        granted = "allow rule in the settings lets it"
    elif pre.outcome.decision == "allow":
        granted = "PreToolUse hook allowed it"
    elif mode == "bypassPermissions":
        granted = "bypassPermissions mode runs it"
    return Grant(mode, granted, session.allow_outside)


def _confined(session: _Session, name: str, tool_input: Any, grant: Grant) -> str | None:
    inputs = tool_input if isinstance(tool_input, dict) else {}
    cwd = Path(session.cwd or session.layout.project)
    return confinement(name, inputs, session.layout.project, cwd, grant)


def _run(
    session: _Session, call: Mapping[str, Any], name: str, tool_input: Any, grant: Grant
) -> ToolRun:
    given = call.get("result")
    if isinstance(given, dict):
        text = str(substitute(given.get("text", ""), session.layout))
        return ToolRun(text, given.get("isError") is True, text)
    inputs = tool_input if isinstance(tool_input, dict) else {}
    cwd = Path(session.cwd or session.layout.project)
    return run_tool(name, inputs, cwd, session.env, grant, session.layout.project)


def _after_tool(
    session: _Session, name: str, tool_input: Any, call_id: str, tool: ToolRun
) -> FireReport:
    if tool.is_error:
        payload = session.payload(
            "PostToolUseFailure",
            tool_name=name,
            tool_input=tool_input,
            tool_use_id=call_id,
            error=tool.text,
            is_interrupt=False,
        )
        return session.fire("PostToolUseFailure", payload)
    payload = session.payload(
        "PostToolUse",
        tool_name=name,
        tool_input=tool_input,
        tool_use_id=call_id,
        tool_response=tool.response,
    )
    return session.fire("PostToolUse", payload)
