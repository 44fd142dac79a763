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
``CLAUDE_CODE_STOP_HOOK_BLOCK_CAP``, default 8). Around it: Setup (a startup flag)
before SessionStart, the project's CLAUDE.md loading after it, the user turns a
SessionStart hook asks for before the first prompt, SessionEnd at the end. What a
running call sets off (``printMode.whenRun``) fires before its PostToolUse: a cd
moves the shell, a skill registers its hooks, an Agent call runs a subagent
(SubagentStart, SubagentStop until it may stop) whose completion, as print mode
runs subagents in the background, is one more main turn after the model stops.
``--worktree NAME`` fires WorktreeCreate first and moves the session into the hook's
folder (EnterWorktree does so mid-session; a failed creation ends it before it starts);
a task-list call fires TaskCreated or TaskCompleted as it runs; an MCP call whose server
asks for input fires Elicitation (and ElicitationResult when nobody answered); a call
auto mode's check gives no verdict is refused and fires PermissionDenied.
Every event goes through ``hookcourse.engine.api.fire`` (``Session.fired`` keeps
each report, in order); what the model is shown comes from its ``print_mode``;
nothing here reads or merges a hook's answer. ``requests`` is the one loop over
model turns: a learner's loop plugs its own tool turn and turn end into it, and the
Claude Code scenarios of tests/claude_code are predicted by playing them through it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hookcourse.engine.api import (
    DEFAULT_STOP_BLOCK_CAP,
    STANDARD_SOURCES,
    Answered,
    CallPlace,
    FireReport,
    FireRequest,
    PrintMode,
    SetOff,
    SettingsPlaces,
    SettingsSource,
    Task,
    UserAnswer,
    agent_in_background,
    answer_dialog,
    auto_fallback_after,
    auto_refusal_text,
    cancelled_text,
    checked_against,
    classifier_takes_turn,
    concurrency_safe,
    event_fires,
    file_written,
    fire,
    flag_note,
    instructions_at_start,
    load_catalogue,
    load_settings,
    model_of,
    model_text,
    own_subagents,
    path_blocked,
    permission_facts,
    prompt_expansion,
    refused_command,
    shows_dialog,
    startup_events,
    subagent_cut_off,
    task_event,
    watched_names,
    worktree_at_start,
)
from hookcourse.errors import InputError
from hookcourse.js import json as jsjson
from hookcourse.js.values import JSValue, Undefined, js_trim

from . import turns as scripted
from .script import Layout, SessionScript, flag_settings, laid_out, script_env, substitute
from .tools import Grant, ToolRun, confinement, hook_environment, run_tool, session_texts
from .transcript import Transcript, event_run, relative

SESSION_ID = "00000000-0000-4000-8000-0000005e5510"
MAX_REQUESTS = 60
"""More model requests than any script needs: past it the session is a runaway loop."""
CAP_VARIABLE = "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP"


ToolTurn = Callable[
    ["Session", dict[str, Any], int, list[Mapping[str, Any]], int],
    tuple[dict[str, Any] | None, list[bool]],
]
"""Plays one turn's calls (session, round, turn index, calls, response number): the end
of the run if it ends there, and which tool_results were errors."""
TurnEnd = Callable[["Session", dict[str, Any], int, bool, int], dict[str, Any] | None]
"""The model stopped (session, round, consecutive blocks, stop_hook_active, response
number): how the prompt ends, or None when the model goes back to work."""
Prompt = Callable[["Session", list[dict[str, Any]], int], tuple[dict[str, Any], int]]
"""Plays one prompt's requests from a turn: how it ended, and the next turn."""


def engine_name() -> str:
    return f"hookcourse's engine (model of Claude Code {model_of(checked_against())})"


@dataclass(frozen=True)
class CommandLine:
    """What claude's command line sets for every event, in ``fire``'s terms."""

    flags: tuple[str, ...] = ()
    """claude's own words (a startup flag such as ``--init`` fires Setup)."""
    permission_mode: str | None = None
    allowed_tools: tuple[str, ...] = ()
    disallowed_tools: tuple[str, ...] = ()
    added_dirs: tuple[str, ...] = ()
    max_turns: int | None = None
    """Model responses a prompt may get; a subagent's SubagentStop is not counted against it."""
    sources: frozenset[SettingsSource] = STANDARD_SOURCES
    settings: str | None = None
    """The ``--settings`` JSON text."""


@dataclass
class Session:
    """The state one session carries from request to request."""

    script: SessionScript
    layout: Layout
    env: dict[str, str]
    cap: int
    command_line: CommandLine = CommandLine()
    shown: list[dict[str, Any]] = field(default_factory=list)
    rounds: list[dict[str, Any]] = field(default_factory=list)
    cwd: str = ""
    """The shell's folder (a Bash ``cd`` moves it; hooks run there): the project at first."""
    skills: list[str] = field(default_factory=list)
    """Skills launched so far: their frontmatter hooks run too."""
    allow_outside: bool = False
    """File tools may run outside the project where Claude Code would let them."""
    fired: list[FireReport] = field(default_factory=list)
    """Every event's report, in the order fired."""
    unheard: list[FireReport] = field(default_factory=list)
    """Reports whose texts reached no model: those of a subagent the release started on
    its own where its texts reached none, or of one the run's end cut off."""
    results: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Every tool_result the model is shown, by call id."""
    requests: int = 0
    """Model requests, a subagent's included."""
    turns_taken: int = 0
    """Scripted turns a release's auto-mode check took as its own answers this turn (its
    request reached the scripted model as a main one): the session skips them."""
    unjudged_streak: int = 0
    """Calls in a row auto mode's check gave no verdict on (a call that runs ends the
    streak): some releases fell back to asking after a few."""
    background: int = 0
    """Subagents finished in the background whose completion has not started a turn yet."""
    tasks: dict[str, Task] = field(default_factory=dict)
    """The task list the TaskCreate and TaskUpdate calls keep, by task id."""
    worktree: str | None = None
    """The folder a WorktreeCreate hook made for ``--worktree``, where the session runs."""
    dialogs: list[Mapping[str, Any]] | None = None
    """Interactive only: the user's answers to the permission dialogs still to come (None
    in print mode, where no dialog is shown)."""

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
        # Its fields go in after the common ones (FileChanged has one named ``event``).
        payload = {**self.payload(step.event), **dict(step.fields)}
        return self.fire(step.event, payload)

    def settings_places(self) -> SettingsPlaces:
        """The settings files every event of the session reads."""
        line = self.command_line
        return SettingsPlaces(
            project_dir=self.layout.project,
            home=self.layout.home,
            extra=(line.settings,) if line.settings is not None else (),
            sources=line.sources,
            skills=tuple(self.skills),
        )

    def fire(
        self, event: str, payload: Mapping[str, Any], blocks: int = 0, turn: int = 1
    ) -> FireReport:
        """``event`` through the engine; ``blocks``: consecutive Stop blocks before it;
        ``turn``: which model response of the prompt it follows."""
        line = self.command_line
        places = self.settings_places()
        request = FireRequest(
            event=event,
            payload_text=jsjson.stringify(dict(payload)),
            payload_name=f"the {event} payload",
            places=places,
            consecutive_stop_blocks=blocks,
            stop_block_cap=self.cap,
            base_env=self.env,
            permission_mode=line.permission_mode,
            added_dirs=line.added_dirs,
            allowed_tools=line.allowed_tools,
            disallowed_tools=line.disallowed_tools,
            max_turns=None if event == "SubagentStop" else line.max_turns,
            turn=turn,
        )
        report = fire(request)
        self.fired.append(report)
        return report


def hooks_run(report: FireReport) -> list[dict[str, Any]]:
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


def event_label(report: FireReport) -> str:
    subject = report.matcher_subject
    return f"{report.event}:{subject}" if isinstance(subject, str) else report.event


def system_texts(report: FireReport) -> list[dict[str, Any]]:
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
        session = script_session(script, layout, env)
        session.allow_outside = allow_outside
        transcript = play(session)
        return relative(transcript, str(layout.root), keep)


def script_session(script: SessionScript, layout: Layout, env: dict[str, str]) -> Session:
    """A session script's state at its start, in the folders of ``layout``."""
    line = CommandLine(
        permission_mode=script.data.get("permissionMode"),
        settings=flag_settings(script, layout),
    )
    cap = stop_block_cap(script.name, env)
    return Session(script, layout, env, cap, line, cwd=str(layout.project))


def stop_block_cap(where: str, env: Mapping[str, str]) -> int:
    """``CLAUDE_CODE_STOP_HOOK_BLOCK_CAP`` as Claude Code reads it: unset is 8, 0 no cap."""
    raw = env.get(CAP_VARIABLE, "").strip()
    if not raw:
        return DEFAULT_STOP_BLOCK_CAP
    if not raw.isdigit():
        raise InputError(
            where,
            f"{CAP_VARIABLE} is {raw!r}, not a whole number",
            "give 0 (no cap) or more",
            ["env", CAP_VARIABLE],
        )
    return int(raw)


def play(
    session: Session, engine: str | None = None, per_prompt: Prompt | None = None
) -> Transcript:
    """The whole session: its prompts, each to its end, then SessionEnd. ``engine``: whose
    decisions the transcript shows; ``per_prompt``: what plays one prompt's requests (a
    learner's loop wraps ``requests``)."""
    script = session.script
    prompt_requests = requests if per_prompt is None else per_prompt
    # An older release answered as (--claude-version) refused a flag it did not know yet.
    refused = flag_note(session.command_line.flags)
    start_runs = _worktree(session) if refused is None else []
    transcript: Transcript = {
        "script": script.name,
        "engine": engine or engine_name(),
        "start": start_runs,
        "rounds": session.rounds,
        "end": {},
    }
    if refused is not None:
        transcript.update(end={"reason": NOT_STARTED, "notes": [refused]}, closing=[])
        return transcript
    if start_runs and session.worktree is None:
        # No folder to run in: the session never starts (2.1.332: "Error creating
        # worktree: ...", exit 1, before SessionStart and any request).
        transcript.update(end={"reason": NOT_STARTED}, closing=[])
        return transcript
    start_runs += [_set_off(session, step) for step in startup_events(session.command_line.flags)]
    start = session.fire("SessionStart", session.payload("SessionStart", source="startup"))
    start_runs.append(event_run("SessionStart", event_label(start), hooks_run(start)))
    start_runs += [_set_off(session, step) for step in instructions_at_start(session.place())]
    start_runs += _own_subagents(session)
    session.shown = _start_texts(start)
    user_turns = [] if start.print_mode is None else list(start.print_mode.user_turns)
    # The scripted model plays in the conversation its first prompt begins; one a hook's
    # user turn begins gets the fallback text throughout.
    turns = [] if user_turns else script.turns
    if script.data.get("interactive") is not None:
        return _interactive(session, transcript, turns, user_turns, prompt_requests)
    end: dict[str, Any] = {}
    next_turn = 0
    for number, text in enumerate([*user_turns, *script.prompts]):
        end, next_turn = _prompt(
            session, transcript, number, text, end, turns, next_turn, prompt_requests
        )
    transcript["end"] = end
    closing = session.fire("SessionEnd", session.payload("SessionEnd", reason="other"))
    transcript["closing"] = [event_run("SessionEnd", event_label(closing), hooks_run(closing))]
    return transcript


NOT_STARTED = "not_started"
"""How a session ends that never started (a WorktreeCreate hook gave no folder)."""


def _worktree(session: Session) -> list[dict[str, Any]]:
    """``--worktree NAME``: WorktreeCreate before the session starts."""
    step = worktree_at_start(session.command_line.flags)
    if step is None:
        return []
    return [_create_worktree(session, step)]


def _enter_worktree(session: Session, round_: dict[str, Any], tool_input: Any) -> None:
    """The EnterWorktree tool, as it runs: WorktreeCreate for the name it was given (a
    name Claude Code makes up when none is given is not modelled)."""
    given = tool_input.get("name") if isinstance(tool_input, dict) else None
    if isinstance(given, str) and given:
        round_["events"].append(
            _create_worktree(session, SetOff("WorktreeCreate", {"name": given}))
        )


def _create_worktree(session: Session, step: SetOff) -> dict[str, Any]:
    """WorktreeCreate; the session moves into the folder its hook answers (a relative path
    is taken from the hook's folder, as 2.1.332 takes it), where later hooks run."""
    report = session.set_off(step)
    path = report.outcome.event_output.get("worktreePath")
    if isinstance(path, str) and path and not report.outcome.blocked:
        session.worktree = os.path.normpath(Path(session.cwd or session.layout.project, path))
        session.cwd = session.worktree
    return event_run(report.event, event_label(report), hooks_run(report))


def _interactive(
    session: Session,
    transcript: Transcript,
    turns: list[dict[str, Any]],
    user_turns: list[str],
    prompt_requests: Prompt,
) -> Transcript:
    """The session as the interactive interface plays it: the user's actions in order
    (prompts, answers to dialogs, slash commands, files written); SessionEnd only when a
    command ends the session (a session still open when the script ends is not closed).
    Each command or file written is an entry of ``actions``: what the user did, the
    request it came before (``round``), the events it set off."""
    actions = substitute(list(session.script.data["interactive"]), session.layout)
    session.dialogs = [action for action in actions if "answer" in action]
    transcript["mode"] = "interactive"
    done: list[dict[str, Any]] = []
    transcript["actions"] = done
    end: dict[str, Any] = {}
    next_turn, number = 0, 0
    for text in user_turns:
        end, next_turn = _prompt(
            session, transcript, number, text, end, turns, next_turn, prompt_requests
        )
        number += 1
    # Whether the conversation has been sent to the model (since the start or /clear).
    warm = bool(user_turns)
    for action in actions:
        if "prompt" in action:
            text = str(action["prompt"])
            end, next_turn = _prompt(
                session, transcript, number, text, end, turns, next_turn, prompt_requests
            )
            number += 1
            warm = True
            continue
        runs: list[dict[str, Any]] = []
        ends = False
        if "write" in action:
            runs = _written(session, str(action["write"]), str(action.get("text", "")))
            said = f"writes {action['write']}"
        elif "command" in action:
            runs, ends = _command(session, str(action["command"]), warm, action.get("worktree"))
            said = str(action["command"])
            name = said.split()[0]
            if name in ("/clear", "/compact"):
                # The conversation the scripted model plays in is gone.
                turns, next_turn = [], 0
            warm = warm and name != "/clear"
        else:
            continue  # an answer: the dialog it answers takes it
        done.append({"action": said, "round": len(session.rounds), "events": runs})
        if ends:
            break
    transcript["end"] = end
    return transcript


def _written(session: Session, path: str, text: str) -> list[dict[str, Any]]:
    """The user changes a file outside Claude Code: ConfigChange or FileChanged, if any."""
    Path(path).write_text(text, encoding="utf-8")
    catalogue = load_catalogue()
    settings = load_settings(session.settings_places(), catalogue.keys())
    watched = watched_names(group.matcher for group in settings.groups_for("FileChanged"))
    return [_set_off(session, step) for step in file_written(path, session.place(), watched)]


COMPACT_SUMMARY = "The user asked; the model answered."
"""The summary the scripted model writes when ``/compact`` asks for one."""


def _command(
    session: Session, line: str, warm: bool, worktree: Any = None
) -> tuple[list[dict[str, Any]], bool]:
    """A slash command typed in the interface: the events it fires, and whether it ends
    the session. 2.1.332: ``/exit`` ends it (SessionEnd ``prompt_input_exit``);
    ``/clear`` ends one session and starts the next (SessionEnd ``clear``, SessionStart
    ``clear``); ``/compact [instructions]`` fires PreCompact, SessionStart ``compact``
    and PostCompact; ``/model NAME`` PreModelSwitch and PostModelSwitch, and when the
    conversation has been sent (``warm``: its cache is warm) PreModelSwitch twice, around
    the dialog that confirms the switch; ``/add-dir DIR`` (once the user trusts it)
    DirectoryAdded. ``/exit`` in a session a WorktreeCreate hook made a folder for asks
    whether to keep it: ``worktree: "remove"`` (the user's answer) fires WorktreeRemove
    first. A hook that blocks (PreCompact, PreModelSwitch) ends the command."""
    name, _, argument = line.strip().partition(" ")
    argument = argument.strip()
    steps: list[SetOff] = []
    if name == "/exit":
        steps = [SetOff("SessionEnd", {"reason": "prompt_input_exit"})]
        if session.worktree is not None and worktree == "remove":
            steps.insert(0, SetOff("WorktreeRemove", {"worktree_path": session.worktree}))
    elif name == "/clear":
        steps = [
            SetOff("SessionEnd", {"reason": "clear"}),
            SetOff("SessionStart", {"source": "clear"}),
        ]
    elif name == "/compact":
        steps = [
            SetOff("PreCompact", {"trigger": "manual", "custom_instructions": argument or None}),
            SetOff("SessionStart", {"source": "compact"}),
            SetOff("PostCompact", {"trigger": "manual", "compact_summary": COMPACT_SUMMARY}),
        ]
    elif name == "/model":
        switch: dict[str, JSValue] = {
            "requested_model": argument,
            "source": "command",
            "prompt_cache_warm": warm,
        }
        asked = [SetOff("PreModelSwitch", switch)] * (2 if warm else 1)
        steps = [*asked, SetOff("PostModelSwitch", switch)]
    elif name == "/add-dir":
        steps = [SetOff("DirectoryAdded", {"directory": argument, "source": "slash_command"})]
    runs = []
    for step in steps:
        report = session.set_off(step)
        runs.append(event_run(report.event, event_label(report), hooks_run(report)))
        if report.outcome.blocked:
            # A PreCompact or PreModelSwitch hook that blocks stops the command there.
            break
    return runs, name == "/exit"


def _prompt(
    session: Session,
    transcript: Transcript,
    number: int,
    text: str,
    end: dict[str, Any],
    turns: list[dict[str, Any]],
    next_turn: int,
    prompt_requests: Prompt,
) -> tuple[dict[str, Any], int]:
    """One prompt of the session (``number`` counts from 0), to its end: how it ended, and
    the scripted model's next turn."""
    refused = refused_command(text, session.place())
    if refused is not None:
        # An older release answered as did not find the command: no hook, no request.
        shown, why = refused
        if number != 0:
            entry = {"prompt": text, "round": len(session.rounds), "events": [], "before": end}
            transcript.setdefault("prompts", []).append(entry)
        return _prompt_blocked(shown, why), next_turn
    expansion = prompt_expansion(text, session.place())
    expanded = None if expansion is None else session.set_off(expansion)
    reports = [] if expanded is None else [expanded]
    if expanded is None or not expanded.outcome.blocked:
        # A blocked expansion stops the prompt: UserPromptSubmit never fires.
        reports.append(
            session.fire("UserPromptSubmit", session.payload("UserPromptSubmit", prompt=text))
        )
    prompt = reports[-1]
    runs = [event_run(r.event, event_label(r), hooks_run(r)) for r in reports]
    if number == 0:
        transcript["start"].extend(runs)
    else:
        entry = {"prompt": text, "round": len(session.rounds), "events": runs, "before": end}
        transcript.setdefault("prompts", []).append(entry)
    for report in reports[:-1]:
        session.shown = session.shown + system_texts(report)
    mode = prompt.print_mode
    if mode is not None and mode.run_stops:
        # The prompt never reaches the model; the next one is read as usual.
        return _prompt_blocked(mode.user_message or ""), next_turn
    session.shown = session.shown + system_texts(prompt)
    end, next_turn = prompt_requests(session, turns, next_turn)
    session.shown = []
    return end, next_turn


def _prompt_blocked(shown: str, *why: str) -> dict[str, Any]:
    """How a prompt that never reached the model ended: what the user is shown (``shown``,
    for the oracle's comparison too), and why when the release answered as says why."""
    return {
        "reason": "prompt_blocked",
        "shown": shown,
        "notes": [f"the user is shown: {shown}", *why],
    }


def _set_off(session: Session, step: SetOff) -> dict[str, Any]:
    """An event the session sets off on its own, as the transcript shows it."""
    report = session.set_off(step)
    return event_run(report.event, event_label(report), hooks_run(report))


def _start_texts(report: FireReport) -> list[dict[str, Any]]:
    """SessionStart: context and plain stdout reach the model as system texts."""
    texts = system_texts(report)
    success = session_texts()["session_start_success"]
    mode = report.print_mode
    if mode is not None and not mode.system_reminders:
        for hook in report.hooks:
            out = hook.execution.run.stdout.strip()
            if hook.execution.run.exit_code == 0 and out and not out.startswith("{"):
                texts.append(
                    {"kind": "system", "text": success.format(hook=event_label(report), text=out)}
                )
    return texts


def requests(
    session: Session,
    turns: list[dict[str, Any]],
    next_index: int,
    tool_turn: ToolTurn | None = None,
    turn_end: TurnEnd | None = None,
) -> tuple[dict[str, Any], int]:
    """One prompt's loop, from the turn at ``next_index``: how it ended, and the next turn.

    The only loop over model turns: a turn with calls goes to ``tool_turn`` (default:
    each call through PreToolUse, the tool, PostToolUse) and on to the next request; a
    turn without one goes to ``turn_end`` (default: Stop), which ends the prompt or,
    returning None, sends the model back to work; a background subagent's completion
    starts one more turn before the prompt completes."""
    play_calls = _tool_turn if tool_turn is None else tool_turn
    stop = _stop if turn_end is None else turn_end
    errors: list[bool] = []
    blocks, in_stop_chain, response = 0, False, 0
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
        session.requests += 1
        response += 1
        if isinstance(turn.get("error"), Mapping):
            return _api_error(session, round_, turn["error"]), next_index
        if text is not None and session.dialogs is not None:
            # The interface shows the model's text as it streams (display hooks only).
            round_["events"].append(_set_off(session, _display(text)))
        if calls:
            ended, errors = play_calls(session, round_, index or 0, calls, response)
            next_index, session.turns_taken = min(len(turns), next_index + session.turns_taken), 0
            if ended is not None:
                return ended, next_index
            blocks = 0  # a continuation that ran a tool resets the consecutive count
            continue
        errors = []
        ended = stop(session, round_, blocks, in_stop_chain, response)
        if ended is None:
            blocks, in_stop_chain = blocks + 1, True
        elif ended["reason"] == "completed" and session.background:
            # A background subagent's completion notification starts one more turn.
            session.background -= 1
            session.shown = []
        else:
            return ended, next_index
    return {"reason": "runaway", "notes": [f"stopped after {MAX_REQUESTS} requests"]}, next_index


STOP_FAILURES = {"invalid_request_error": "unknown"}
"""The ``error`` StopFailure's payload gives for an API error type, as 2.1.332 was seen to
(a 400 ``invalid_request_error`` is ``unknown``); the types not seen give ``unknown`` too."""


def _api_error(
    session: Session, round_: dict[str, Any], error: Mapping[str, Any]
) -> dict[str, Any]:
    """The model request failed with an API error Claude Code gives up on: StopFailure
    fires instead of Stop, and the prompt ends."""
    kind = str(error.get("type", "invalid_request_error"))
    said = f"API Error: {int(error.get('status', 400))} {error.get('message', '')}"
    failure = SetOff(
        "StopFailure",
        {
            "error": STOP_FAILURES.get(kind, "unknown"),
            "last_assistant_message": said,
        },
    )
    round_["events"].append(_set_off(session, failure))
    return {"reason": "api_error", "notes": [said]}


def _display(text: str) -> SetOff:
    """MessageDisplay for one assistant text, shown whole (the mock sends it in one piece)."""
    fields: dict[str, JSValue] = {
        "turn_id": "turn",
        "message_id": "message",
        "index": 0,
        "final": True,
        "delta": text,
    }
    return SetOff("MessageDisplay", fields)


def _stop(
    session: Session, round_: dict[str, Any], blocks: int, active: bool, response: int
) -> dict[str, Any] | None:
    """Stop at the end of a turn: how the prompt ends, or None when a hook sends the model
    back to work (what it is shown then is the next request's)."""
    stop = session.fire(
        "Stop",
        session.payload(
            "Stop",
            stop_hook_active=active,
            last_assistant_message=round_["text"],
            background_tasks=[],
            session_crons=[],
        ),
        blocks,
        response,
    )
    round_["events"].append(
        event_run(
            "Stop",
            "Stop",
            hooks_run(stop),
            stopHookActive=active,
            notes=list(stop.outcome.notices),
        )
    )
    mode = stop.print_mode
    if mode is not None and mode.run_stops:
        # continue: false ends the run, whatever else the hooks said (stop_hook_prevented).
        return {"reason": mode.terminal_reason or "stop_hook_prevented"}
    if mode is None or not mode.turn_continues:
        return {"reason": "completed"}
    session.shown = system_texts(stop)
    if mode.stop_feedback is not None:
        session.shown.append({"kind": "reminder", "text": mode.stop_feedback})
    return None


def _ending(modes: list[PrintMode | None]) -> dict[str, Any] | None:
    """The end of the run when one of ``modes`` (the first that says so) stops it."""
    for mode in modes:
        if mode is not None and mode.run_stops:
            return {"reason": mode.terminal_reason or "hook_stopped"}
    return None


def _tool_turn(
    session: Session,
    round_: dict[str, Any],
    index: int,
    calls: list[Mapping[str, Any]],
    response: int,
) -> tuple[dict[str, Any] | None, list[bool]]:
    """The calls of one turn and PostToolBatch; the end of the session if it ends here."""
    results: list[dict[str, Any]] = []
    texts: list[dict[str, Any]] = []
    batch: list[dict[str, Any]] = []
    ended: dict[str, Any] | None = None
    cancelled: tuple[str, str] | None = None
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
    beside = False  # the previous call may run beside this one (concurrency_safe)
    refused_beside = 0  # auto-mode refusals among the calls checked at once with it
    for number, call in enumerate(calls):
        call_id = scripted.tool_use_id(index, number)
        name = str(call["name"])
        tool_input = substitute(call.get("input", {}), session.layout)
        if cancelled is not None:
            # An older release answered as cancelled the rest of the turn (no hook runs).
            cancel_text, why = cancelled
            text = jsjson.stringify(tool_input)
            round_["calls"].append(
                {
                    "id": call_id,
                    "name": name,
                    "input": tool_input,
                    "inputText": text,
                    "runs": False,
                    "cancelled": why,
                }
            )
            session.record({"type": "tool_result", "tool_use_id": call_id, "is_error": True})
            _result(session, results, call_id, cancel_text, True)
            continue
        pre = session.fire(
            "PreToolUse",
            session.payload(
                "PreToolUse", tool_name=name, tool_input=tool_input, tool_use_id=call_id
            ),
        )
        round_["events"].append(
            event_run("PreToolUse", event_label(pre), hooks_run(pre), call=call_id)
        )
        texts.extend(system_texts(pre))
        # Only auto mode's streak of refusals reads which calls run side by side.
        auto = pre.permission is not None and pre.permission.mode == "auto"
        safe = auto and concurrency_safe(name, tool_input, session.place())
        refused_beside, beside = refused_beside if safe and beside else 0, safe
        mode = pre.print_mode
        effects = None if mode is None else mode.when_run
        # Where print mode would ask; the interactive interface also asks after a hook's ask.
        dialog = mode is not None and mode.permission_request
        if session.dialogs is not None:
            dialog = shows_dialog(pre)
        asked = None
        if dialog:
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
            round_["events"].append(
                event_run("PermissionRequest", event_label(asked), hooks_run(asked))
            )
            if asked.print_mode is None or asked.print_mode.tool_runs is None:
                asked = None  # no answer: the call goes as PreToolUse left it
        answer = None
        if asked is None and dialog and session.dialogs:
            # No hook answered: the interface shows the dialog and the user answers.
            answer = _dialog(session, round_, pre)
        decided = mode if asked is None else asked.print_mode
        runs = decided is None or decided.tool_runs is not False
        if answer is not None:
            runs = answer.tool_runs
        unjudged = (runs and _unjudged(pre, call)) or (not runs and _refused_unjudged(pre))
        fallback = _auto_fallback(session, pre, name) if unjudged else None
        if unjudged:
            runs = False
        entry: dict[str, Any] = {
            "id": call_id,
            "name": name,
            "input": tool_input,
            "inputText": jsjson.stringify(tool_input),
            "runs": runs,
        }
        if answer is not None:
            entry["dialog"] = {"answer": answer.answer.answer, "feedback": answer.answer.feedback}
        rewrites = [pre.outcome.updated_input]
        if asked is not None:
            rewrites.append(asked.outcome.updated_input)
        for rewrite in rewrites:
            if not isinstance(rewrite, Undefined) and runs:
                # What runs is the hooks' rewrite; the model's call stays as it wrote it.
                tool_input = rewrite
                entry["ranInput"] = tool_input
        round_["calls"].append(entry)
        # Which answer ends the run when several could: the dialog's, then PreToolUse's.
        stopping = [None if asked is None else asked.print_mode, mode]
        if not runs and answer is not None:
            session.record({"type": "tool_result", "tool_use_id": call_id, "is_error": True})
            _result(session, results, call_id, answer.tool_result or "", True)
            if answer.interrupted:
                ended = {"reason": "interrupted"}
                break
            continue
        if fallback is not None:
            # The release fell back to asking: refused as in default mode, no PermissionDenied
            # (its check was asked all the same).
            _check_asked(session)
            session.record({"type": "tool_result", "tool_use_id": call_id, "is_error": True})
            _result(session, results, call_id, fallback, True)
            cancelled = _cancels(session, pre, name, tool_input)
            ended = _ending(stopping)
            if ended is not None:
                break
            continue
        if unjudged and pre.permission is not None:
            session.unjudged_streak += 1
            refused_beside += 1
            _check_asked(session)
            session.record({"type": "tool_result", "tool_use_id": call_id, "is_error": True})
            # The check's refusal, the same text whether auto or plan mode asked for it
            # (worded as the release answered as worded it).
            unjudged_text = auto_refusal_text(name, permission_facts().refusal("plan", tool=name))
            _result(session, results, call_id, unjudged_text, True)
            denied = session.set_off(
                SetOff(
                    "PermissionDenied",
                    {
                        "permission_mode": pre.permission.mode,
                        "tool_name": name,
                        "tool_input": tool_input,
                        "tool_use_id": call_id,
                        "reason": CLASSIFIER_UNAVAILABLE,
                    },
                )
            )
            round_["events"].append(
                event_run("PermissionDenied", event_label(denied), hooks_run(denied), call=call_id)
            )
            texts.extend(system_texts(denied))
            cancelled = _cancels(session, pre, name, tool_input)
            ended = _ending(stopping)
            if ended is not None:
                break
            continue
        if not runs:
            session.record({"type": "tool_result", "tool_use_id": call_id, "is_error": True})
            if decided is not None and decided.tool_result is not None:
                shown = decided.tool_result
                _result(session, results, call_id, shown.text, shown.is_error)
            cancelled = _cancels(session, pre, name, tool_input) if asked is None else None
            ended = _ending(stopping)
            if ended is not None:
                break
            continue
        if pre.permission is not None:
            # A call that runs starts the streak again (2.1.332 resets it on every allow;
            # perm2-auto-static-checks, 2.1.72), but after the refusals of calls checked at
            # once with it, which land later (hidden-readonly-mix-2, 2.1.286).
            session.unjudged_streak = refused_beside
        grant = _grant(session, pre)
        refusal = None if "result" in call else confined(session, name, tool_input, grant)
        if refusal is not None:
            # Refused as a permission is: the tool does not run, no PostToolUse fires.
            entry["runs"] = False
            _result(session, results, call_id, refusal, True)
            continue
        if effects is not None:
            for step in effects.events:
                round_["events"].append(_set_off(session, step))
        if isinstance(call.get("elicits"), dict):
            entry["elicited"] = _elicit(session, round_, name, call["elicits"])
        if name == "EnterWorktree":
            _enter_worktree(session, round_, tool_input)
        blocked_task = _task_hooks(session, round_, name, tool_input)
        tool = run_call(session, call, name, tool_input, grant)
        if blocked_task is not None:
            entry["hookFeedback"] = blocked_task.text
            tool = blocked_task
        if effects is not None:
            session.cwd = effects.cwd or session.cwd
            if effects.skill is not None and effects.skill not in session.skills:
                session.skills.append(effects.skill)
            if effects.subagent is not None:
                _subagent(session, round_, effects.subagent)
        _result(session, results, call_id, tool.text, tool.is_error)
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
        round_["events"].append(
            event_run(post.event, event_label(post), hooks_run(post), call=call_id)
        )
        replaced = _mcp_output(name, post)
        if replaced is not None:
            entry["shownOutput"] = session.results[call_id]["text"] = replaced
        texts.extend(system_texts(post))
        ended = _ending([post.print_mode, *stopping])
        if ended is not None:
            break
    if ended is None:
        after = session.fire(
            "PostToolBatch", session.payload("PostToolBatch", tool_calls=batch), turn=response
        )
        round_["events"].append(event_run("PostToolBatch", event_label(after), hooks_run(after)))
        texts.extend(system_texts(after))
        ended = _ending([after.print_mode])
    session.shown = results + texts
    return ended, [bool(item["isError"]) for item in results]


def _mcp_output(tool: str, post: FireReport) -> str | None:
    """What the model reads of an MCP tool's call instead of its output, when a PostToolUse
    hook gave ``updatedMCPToolOutput`` (a text, or content blocks whose texts are joined
    by newlines; 2.1.332: mcp-output-text, mcp-output-blocks); None otherwise."""
    if post.event != "PostToolUse" or not tool.startswith("mcp__"):
        return None
    given = post.outcome.event_output.get("updatedMCPToolOutput")
    if isinstance(given, str):
        return given
    if isinstance(given, list):
        texts = [block.get("text") for block in given if isinstance(block, dict)]
        return "\n".join(text for text in texts if isinstance(text, str))
    return None


def _task_hooks(
    session: Session, round_: dict[str, Any], tool: str, tool_input: Any
) -> ToolRun | None:
    """TaskCreated or TaskCompleted as a task-list call runs (2.1.332); the call's result
    when a hook blocks: "<Event> hook feedback:" and the reason. A blocked TaskCreated
    rolls the task back and fails the call (PostToolUseFailure, the reason trimmed); a
    blocked TaskCompleted leaves the task open and the call succeeds with the reason as
    written (after exit 2: "[<command>]: " and stderr, its final newline kept)."""
    found = task_event(tool, tool_input, session.tasks)
    if found is None:
        return None
    step, task = found
    report = session.set_off(step)
    round_["events"].append(event_run(report.event, event_label(report), hooks_run(report)))
    outcome = report.outcome
    if outcome.decision != "block":
        # continue: false stops a teammate, not the session's own call (tk-completed-stop).
        session.tasks[task.task_id] = task
        return None
    reason = outcome.blocking_error if outcome.decided_by_exit2 else outcome.reason
    created = step.event == "TaskCreated"
    text = model_text(
        "stop_feedback", event=step.event, reason=js_trim(reason or "") if created else reason or ""
    )
    return ToolRun(text, created, text)


def _elicit(
    session: Session, round_: dict[str, Any], tool: str, asked: Mapping[str, Any]
) -> dict[str, Any] | None:
    """An MCP tool's server asks the user for input while the call runs (2.1.332, print
    mode): Elicitation fires, and a hook's action (exit 2: decline) with its content is the
    answer; else nobody can answer, the elicitation is cancelled and ElicitationResult
    fires, whose hooks may change the action and content. What the server gets back; None
    where the release answered as took no elicitation (before its Elicitation hooks ran,
    measured: the server was told the client cannot elicit)."""
    if not event_fires("Elicitation"):
        return None
    server = tool.split("__")[1] if tool.startswith("mcp__") and tool.count("__") >= 2 else ""
    form = {"mcp_server_name": server, "mode": "form"}
    report = session.set_off(
        SetOff(
            "Elicitation",
            {**form, "message": asked.get("message", ""), "requested_schema": asked.get("schema")},
        )
    )
    round_["events"].append(event_run("Elicitation", event_label(report), hooks_run(report)))
    answer = _elicitation_answer(report)
    if answer is not None:
        return answer
    result = session.set_off(SetOff("ElicitationResult", {**form, "action": "cancel"}))
    round_["events"].append(event_run("ElicitationResult", event_label(result), hooks_run(result)))
    return _elicitation_answer(result) or {"action": "cancel", "content": None}


def _elicitation_answer(report: FireReport) -> dict[str, Any] | None:
    """The action and content the hooks of an Elicitation or ElicitationResult gave."""
    action = report.outcome.decision
    if action not in ("accept", "decline", "cancel"):
        return None
    content = report.outcome.event_output.get("content")
    return {"action": action, "content": content if action == "accept" else None}


CLASSIFIER_UNAVAILABLE = "Classifier unavailable"
"""PermissionDenied's ``reason`` when auto mode's check gave no verdict (2.1.332)."""


def _check_asked(session: Session) -> None:
    """Auto mode's check was asked about a call: where the release sent it as a request of
    the main conversation, it took the scripted model's next turn (``classifier_takes_turn``)."""
    if classifier_takes_turn():
        session.turns_taken += 1
        session.requests += 1


def _unjudged(pre: FireReport, call: Mapping[str, Any]) -> bool:
    """Auto mode leaves the call to its safety check, and the script says the check gives
    no verdict (``"classifier": "none"``, as against a server that runs none): 2.1.332
    refuses the call and fires PermissionDenied. A verdict is a model's, which a script
    does not play: without the key the call goes on as the check allowed it."""
    step = pre.permission
    return (
        step is not None
        and step.decision == "classifier"
        and not pre.outcome.blocked
        and call.get("classifier") == "none"
    )


def _auto_fallback(session: Session, pre: FireReport, name: str) -> str | None:
    """The refusal of a call auto mode's check gave no verdict on where the release answered
    as asked as default mode does: after as many such calls in a row as it allowed
    (``auto_fallback_after``), or always where it refused them in the permission step's
    plain words (its check not asked); the permission step's own refusal. None where auto
    mode's check refuses the call."""
    after, step = auto_fallback_after(), pre.permission
    if step is None or step.fallback is None:
        return None
    facts = permission_facts()
    unasked = auto_refusal_text(name, facts.refusal("plan", tool=name)) == facts.refusal("command")
    if unasked or (after is not None and session.unjudged_streak >= after):
        return step.fallback
    return None


def _refused_unjudged(pre: FireReport) -> bool:
    """The permission step refused the call because the check gave no verdict (plan mode
    in print mode), and no hook decided it first."""
    step = pre.permission
    return step is not None and step.unjudged and not pre.outcome.blocked


def _dialog(session: Session, round_: dict[str, Any], pre: FireReport) -> Answered:
    """The user's answer to the permission dialog of ``pre``'s call; Notification
    (``permission_prompt``) first when the user lets the dialog wait for it."""
    assert session.dialogs
    action = session.dialogs.pop(0)
    if action.get("notified"):
        notice = {
            "message": "Claude needs your permission",
            "notification_type": "permission_prompt",
        }
        round_["events"].append(_set_off(session, SetOff("Notification", notice)))
    return answer_dialog(pre, UserAnswer(str(action["answer"]), str(action.get("feedback") or "")))


def _cancels(
    session: Session, pre: FireReport, name: str, tool_input: JSValue
) -> tuple[str, str] | None:
    """What the later calls of the turn read when this refused Bash call cancels them, and
    why (the release answered as did so for a call refused as needing approval or by auto
    mode's check, not for a hook's refusal nor a path's block); None otherwise."""
    command = tool_input.get("command") if isinstance(tool_input, dict) else None
    step = pre.permission
    if name != "Bash" or not isinstance(command, str) or pre.outcome.blocked:
        return None
    asked = step is not None and step.decision in ("ask", "classifier")
    if not asked or path_blocked(command, session.place()):
        return None
    return cancelled_text(f"Bash({command})")


def _result(
    session: Session, results: list[dict[str, Any]], call_id: str, text: str, is_error: bool
) -> None:
    """A tool_result the model is shown."""
    shown = {"kind": "tool_result", "id": call_id, "text": text, "isError": is_error}
    session.results[call_id] = shown
    results.append(shown)


def _subagent(session: Session, round_: dict[str, Any], agent_type: str) -> None:
    """A subagent: SubagentStart, its requests (the scripted model's fallback text), and
    SubagentStop until it lets the subagent stop. Print mode runs it in the background:
    its completion starts one more main turn once the model stops (not in the releases
    whose Agent call waited for the subagent)."""
    fields = {"agent_id": f"a{len(session.fired):016x}", "agent_type": agent_type}
    round_["events"].append(_set_off(session, SetOff("SubagentStart", fields)))
    round_["events"] += _subagent_stops(session, fields, 1, heard=True)
    if agent_in_background():
        session.background += 1


def _subagent_stops(
    session: Session, fields: Mapping[str, str], asks: int, heard: bool
) -> list[dict[str, Any]]:
    """A subagent's SubagentStop after each of its turns (``asks`` model requests each),
    until a hook lets it stop, or, in a release whose run ended first, until a hook blocks
    it. A block's feedback reaches no model (``unheard``) when the run's end cut the
    subagent off or its texts are ``heard`` by none."""
    agents = session.transcript_path.parent / SESSION_ID / "subagents"
    runs = []
    for blocks in range(MAX_REQUESTS):
        session.requests += asks
        stop = session.fire(
            "SubagentStop",
            session.payload(
                "SubagentStop",
                **fields,
                stop_hook_active=blocks > 0,
                agent_transcript_path=str(agents / f"agent-{fields['agent_id']}.jsonl"),
                last_assistant_message=scripted.FALLBACK_TEXT,
                background_tasks=[],
                session_crons=[],
            ),
            blocks,
        )
        runs.append(event_run("SubagentStop", event_label(stop), hooks_run(stop)))
        if stop.print_mode is None or not stop.print_mode.turn_continues:
            break
        cut_off = subagent_cut_off()
        if cut_off or not heard:
            session.unheard.append(stop)  # no request carries the block's feedback
        if cut_off:
            break
    return runs


def _own_subagents(session: Session) -> list[dict[str, Any]]:
    """The subagents the release answered as started on its own at startup: each starts,
    makes its model requests and stops as a subagent does; where their texts reached no
    model, its hooks' context reaches none (``unheard``)."""
    own = own_subagents()
    runs = []
    for agent_type in own.agents:
        fields = {"agent_id": f"a{len(session.fired):016x}"}
        # A type is unknown only where the release ran no SubagentStart hook yet: no hook
        # saw the subagent start, so no start is played.
        if agent_type is not None:
            fields["agent_type"] = agent_type
            report = session.set_off(SetOff("SubagentStart", fields))
            runs.append(event_run(report.event, event_label(report), hooks_run(report)))
            if not own.heard:
                session.unheard.append(report)
        runs += _subagent_stops(session, fields, own.requests, own.heard)
    return runs


def _grant(session: Session, pre: FireReport) -> Grant:
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


def confined(session: Session, name: str, tool_input: Any, grant: Grant) -> str | None:
    inputs = tool_input if isinstance(tool_input, dict) else {}
    cwd = Path(session.cwd or session.layout.project)
    return confinement(name, inputs, session.layout.project, cwd, grant)


def run_call(
    session: Session, call: Mapping[str, Any], name: str, tool_input: Any, grant: Grant
) -> ToolRun:
    given = call.get("result")
    if isinstance(given, dict):
        text = str(substitute(given.get("text", ""), session.layout))
        # A given result may carry the tool's structured response (PostToolUse's field).
        response = substitute(given["response"], session.layout) if "response" in given else text
        return ToolRun(text, given.get("isError") is True, response)
    inputs = tool_input if isinstance(tool_input, dict) else {}
    cwd = Path(session.cwd or session.layout.project)
    return run_tool(name, inputs, cwd, session.env, grant, session.layout.project)


def _after_tool(
    session: Session, name: str, tool_input: Any, call_id: str, tool: ToolRun
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
