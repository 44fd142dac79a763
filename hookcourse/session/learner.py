"""A session script played by the learner's own loop: their ``run_hooks`` and ``run_stop_loop``.

The course gives the edges, as ``hookcourse session`` does: the scripted model, the
real tools in a scratch project, the real hook processes (each one started through
the engine's runner, with the session's environment), Claude Code's wording of what
the model is shown, and the events the learner's stages do not cover (SessionStart,
UserPromptSubmit, PostToolBatch) through the engine. The decisions are the learner's:

- each tool call goes through ``run_hooks(hooks, tool, results)`` (stage run-hooks),
  handed the settings' PreToolUse and PostToolUse groups, a tool that runs when its
  ``response`` is read and results that start a hook when they are read;
- each time the model ends a turn, ``run_stop_loop(hook, cap)`` (stage stop-loop)
  drives the Stop hooks as a ``LiveStopHook``: reading ``whenActive`` is the model's
  next stop attempt, so the model plays its continuation first.

Where a course rule differs from Claude Code's (no permission step, PostToolUse after
a failed tool too, the Stop cap counting every block), the transcript shows it and
``hookcourse session --compare`` names it. ``run_learner_module`` runs a learner's
module file in a child process with a time limit; nothing of it is imported here.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib.util
import json
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from hookcourse import browser
from hookcourse.course.labs.live_stop import LiveStopHook
from hookcourse.engine.api import (
    CommandHandler,
    FireReport,
    FireRequest,
    Handler,
    SettingsPlaces,
    contexts_joined,
    event_spec,
    fire,
    load_catalogue,
    load_settings,
    model_text,
)
from hookcourse.errors import InputError, visible
from hookcourse.js import json as jsjson
from hookcourse.js.values import js_trim, strict_equals_number
from hookcourse.stages.merge_decisions.solution import merge_pre_tool_use

from . import turns as scripted
from .loop import (
    MAX_REQUESTS,
    Session,
    confined,
    event_label,
    hooks_run,
    requests,
    run_call,
    script_session,
    system_texts,
)
from .loop import play as play_session
from .replay import TRACED, NotRecorded, replaying, trace_of
from .script import SessionScript, flag_settings, laid_out, load, script_env, substitute
from .tools import Grant, ToolRun, hook_environment
from .transcript import Transcript, differences, event_run, relative

ENGINE: Final = "your loop"
TIMEOUT_S: Final = 180.0
"""How long a learner's module may take over one session script (tools and hooks included)."""
NOTHING: Final[dict[str, Any]] = {"code": 0, "stdout": "", "stderr": ""}
RunHooks = Callable[[Mapping[str, Any], Mapping[str, Any], Mapping[str, Any]], Any]
RunStopLoop = Callable[[Mapping[str, Any], int], Any]


class LearnerError(InputError):
    """The learner's code raised, returned the wrong shape, or broke the loop: one line."""

    def __init__(self, problem: str) -> None:
        super().__init__("your loop", problem, "fix your module and run it again")

    def __str__(self) -> str:
        return visible(self.problem)


class _Runaway(Exception):
    """More model requests than any script needs: ends the session from inside a stop loop."""


@dataclass(frozen=True)
class LearnerLoop:
    """The learner's two functions the loop calls."""

    run_hooks: RunHooks
    run_stop_loop: RunStopLoop
    name: str = ENGINE


@dataclass
class _Call:
    """One tool call's lazy edges: the hooks it started, in order, and the tool's run."""

    session: Session
    given: Mapping[str, Any]
    name: str
    call_id: str
    tool_input: Any
    handlers: dict[str, dict[str, Handler]]
    pre_runs: list[dict[str, Any]] = field(default_factory=list)
    post_runs: list[dict[str, Any]] = field(default_factory=list)
    handed: dict[str, list[tuple[str, dict[str, Any]]]] = field(default_factory=dict)
    tool: ToolRun | None = None
    ran_input: Any = None

    def result(self, event: str, command: str) -> dict[str, Any]:
        """Run the handler ``command`` of ``event`` now (the learner read its result)."""
        handler = self.handlers.get(event, {}).get(command)
        if handler is None:
            raise KeyError(command)  # as a plain dict of results would
        if event == "PreToolUse":
            payload = self.session.payload(
                event, tool_name=self.name, tool_input=self.tool_input, tool_use_id=self.call_id
            )
        else:
            if self.tool is None:
                raise LearnerError(
                    f"run_hooks read a PostToolUse result of {command} before the tool ran: "
                    "read tool['response'] first"
                )
            payload = self.session.payload(
                event,
                tool_name=self.name,
                tool_input=self.ran_input,
                tool_use_id=self.call_id,
                tool_response=self.tool.response,
            )
        report = _run_one(self.session, event, handler, payload)
        (self.pre_runs if event == "PreToolUse" else self.post_runs).extend(hooks_run(report))
        answer = _answer(report)
        self.handed.setdefault(event, []).append((command, answer))
        return dict(answer)

    def run_tool(self) -> Any:
        """Run the tool (the learner read its response): with the input its PreToolUse
        results settle, as the stage's page says."""
        if self.tool is None:
            given = [answer for _, answer in self.handed.get("PreToolUse", [])]
            merged = merge_pre_tool_use(given, self.tool_input)
            self.ran_input = merged.get("input", self.tool_input)
            # Confined as the engine's loop confines a call (a hook's allow grants it).
            allowed = "PreToolUse hook allowed it" if merged.get("decision") == "allow" else None
            grant = Grant("default", allowed, self.session.allow_outside)
            refused = None
            if "result" not in self.given:
                refused = confined(self.session, self.name, self.ran_input, grant)
            # A call whose script gives its result returns that result.
            self.tool = (
                ToolRun(refused, True, refused)
                if refused is not None
                else run_call(self.session, self.given, self.name, self.ran_input, grant)
            )
        return self.tool.response


class _Results(Mapping[str, Any]):
    """``results[event][command]``: starts the hook on its first lookup."""

    def __init__(self, call: _Call, event: str | None = None) -> None:
        self._call, self._event = call, event
        self._seen: dict[str, dict[str, Any]] = {}

    def _keys(self) -> list[str]:
        if self._event is None:
            return ["PreToolUse", "PostToolUse"]
        return list(self._call.handlers.get(self._event, {}))

    def __getitem__(self, key: str) -> Any:
        if self._event is None:
            if key not in ("PreToolUse", "PostToolUse"):
                raise KeyError(key)
            return _Results(self._call, key)
        if key not in self._seen:
            self._seen[key] = self._call.result(self._event, key)
        return dict(self._seen[key])

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys())

    def __len__(self) -> int:
        return len(self._keys())


class _Tool(Mapping[str, Any]):
    """The call ``{name, input, response}``: reading ``response`` runs the tool."""

    def __init__(self, call: _Call) -> None:
        self._call = call

    def __getitem__(self, key: str) -> Any:
        if key == "name":
            return self._call.name
        if key == "input":
            return jsjson.parse(jsjson.stringify(self._call.tool_input))  # the learner's copy
        if key == "response":
            return self._call.run_tool()
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(("name", "input", "response"))

    def __len__(self) -> int:
        return 3


# -- the hooks, as the course's runner starts them ------------------------------------------------


def _settings(session: Session) -> tuple[dict[str, Any], dict[str, dict[str, Handler]]]:
    """The settings' hook groups in the stage's shape, and each command's handler."""
    flag = flag_settings(session.script, session.layout)
    places = SettingsPlaces(
        project_dir=session.layout.project,
        home=session.layout.home,
        extra=(flag,) if flag is not None else (),
    )
    catalogue = load_catalogue()
    guards = [name for name, event in catalogue.items() if event.guard]
    settings = load_settings(places, catalogue.keys(), guards)
    hooks: dict[str, Any] = {}
    handlers: dict[str, dict[str, Handler]] = {}
    for event in ("PreToolUse", "PostToolUse"):
        groups = []
        for group in settings.groups_for(event):
            entries = []
            for handler in group.handlers:
                command = handler.named_by or handler.describe()
                handlers.setdefault(event, {}).setdefault(command, handler)
                entries.append({"type": handler.type, "command": command})
            groups.append(
                {**({} if group.matcher is None else {"matcher": group.matcher}), "hooks": entries}
            )
        if groups:
            hooks[event] = groups
    return hooks, handlers


def _inline(handler: Handler) -> str:
    """One handler as a settings file of its own (so the engine runs that handler alone)."""
    entry: dict[str, Any] = {"type": handler.type}
    if isinstance(handler, CommandHandler):
        entry["command"] = handler.command
        if handler.args is not None:
            entry["args"] = list(handler.args)
        if handler.shell is not None:
            entry["shell"] = handler.shell
    if handler.timeout_s is not None:
        entry["timeout"] = handler.timeout_s
    return json.dumps({"hooks": {"PreToolUse": [{"hooks": [entry]}]}})


def _run_one(
    session: Session, event: str, handler: Handler, payload: Mapping[str, Any]
) -> FireReport:
    """Start one handler on ``payload`` through the engine, with the session's environment."""
    inline = _inline(handler).replace('"PreToolUse"', json.dumps(event), 1)
    request = FireRequest(
        event=event,
        payload_text=jsjson.stringify(dict(payload)),
        payload_name=f"the {event} payload",
        places=SettingsPlaces(
            project_dir=session.layout.project,
            home=session.layout.home,
            extra=(inline,),
            sources=frozenset(),
        ),
        base_env=session.env,
    )
    return fire(request)


def _answer(report: FireReport) -> dict[str, Any]:
    """The first hook's ``{code, stdout, stderr}`` (a hook that never exited has no code)."""
    if not report.hooks:
        return dict(NOTHING)
    run = report.hooks[0].execution.run
    return {"code": run.exit_code, "stdout": run.stdout, "stderr": run.stderr}


def _stop_answer(report: FireReport) -> tuple[str, dict[str, Any]]:
    """The Stop hooks' one answer and whose it is (a course rule): the first that blocks or
    halts, else the first, else nothing."""
    answers = [
        (
            h.planned.handler.named_by or h.planned.handler.describe(),
            {
                "code": h.execution.run.exit_code,
                "stdout": h.execution.run.stdout,
                "stderr": h.execution.run.stderr,
            },
        )
        for h in report.hooks
    ]
    for command, answer in answers:
        output = _json(answer["stdout"])
        if (
            strict_equals_number(answer["code"], 2)
            or output.get("decision") == "block"
            or output.get("continue") is False
        ):
            return command, answer
    return answers[0] if answers else ("", dict(NOTHING))


def _json(stdout: object) -> dict[str, Any]:
    text = stdout if isinstance(stdout, str) else ""
    if not text.lstrip().startswith("{"):
        return {}
    try:
        value = jsjson.parse(text)
    except jsjson.JSONSyntaxError:
        return {}
    return value if isinstance(value, dict) else {}


# -- what the model is shown, in Claude Code's words ----------------------------------------------


def _said_by(handed: Sequence[tuple[str, dict[str, Any]]], reason: str) -> tuple[str, str] | None:
    """The hook whose answer gave ``reason``, and the reason as Claude Code quotes it: after
    exit 2, ``[<command>]: `` and stderr as written; a JSON reason as written."""
    for command, answer in handed:
        written = answer.get("stderr")
        stderr = written if isinstance(written, str) else ""
        if strict_equals_number(answer.get("code"), 2):
            if js_trim(stderr) == reason or (not js_trim(stderr) and reason == "hook blocked"):
                return command, f"[{command}]: {stderr}"
        elif _json(answer.get("stdout")).get("reason") == reason:
            return command, reason
    return None


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise LearnerError(f"{what} is {jsjson.stringify(value)!s}, not a string")
    return value


def _texts(value: object, what: str) -> list[str]:
    if not isinstance(value, list | tuple):
        raise LearnerError(f"{what} is {type(value).__name__}, not a list")
    return [_text(item, f"an item of {what}") for item in value]


def _contexts(event: str, hook: str, contexts: list[str]) -> list[dict[str, Any]]:
    spec = event_spec(event)
    shown = spec.name if spec.context_without_query else hook
    joined = (
        ["\n".join(contexts)]
        if contexts and contexts_joined(spec.name, spec.contexts_joined)
        else contexts
    )
    return [
        {"kind": "system", "text": model_text("additional_context", hook=shown, text=text)}
        for text in joined
    ]


def _refusal(run: Mapping[str, Any], hook: str, call: _Call) -> str:
    """The tool_result of a call the learner's hooks kept from running."""
    pre = run["pre"]
    decision, reason = pre.get("decision"), pre.get("reason")
    if decision == "ask":
        return reason if isinstance(reason, str) else model_text("asked_no_reason", hook=hook)
    if not isinstance(reason, str):
        return model_text("hook_error", hook=hook, error=model_text("denied_no_reason"))
    said = _said_by(call.handed.get("PreToolUse", []), reason)
    return model_text("hook_error", hook=hook, error=said[1] if said else reason)


def _feedback(items: list[str], hook: str, call: _Call) -> list[dict[str, Any]]:
    shown = []
    for item in items:
        said = _said_by(call.handed.get("PostToolUse", []), item)
        command, reason = said if said else ("", item)
        text = model_text("blocking_error_from_command", hook=hook, command=command, reason=reason)
        shown.append({"kind": "system", "text": text})
    return shown


# -- the loop -------------------------------------------------------------------------------------


def _learners_run(loop: LearnerLoop, call: _Call, hooks: dict[str, Any]) -> Mapping[str, Any]:
    try:
        run = loop.run_hooks(hooks, _Tool(call), _Results(call))
    except (LearnerError, _Runaway, NotRecorded):
        raise
    except Exception as error:
        raise LearnerError(
            f"your run_hooks raised {_raised(error)} on the {call.name} call {call.call_id}"
            f"{_run_first(error)}"
        ) from None
    if not isinstance(run, Mapping) or not all(key in run for key in ("pre", "tool", "post")):
        raise LearnerError(
            f"your run_hooks returned {_shape(run)} on the {call.name} call {call.call_id}; "
            "return a dict with the keys pre, tool and post"
        )
    for key in ("pre", "tool"):
        if not isinstance(run[key], Mapping):
            raise LearnerError(f"your run_hooks returned {key} = {_shape(run[key])}; return a dict")
    return run


def _raised(error: BaseException) -> str:
    text = str(error).splitlines()[0] if str(error) else ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _run_first(error: Exception) -> str:
    """For a name a cell of the open notebook defines (08's ``mine(...)`` after a
    restart): which cell to run, as the course's NameError line says it; else ""."""
    from hookcourse.course.checks.kernel_hook import cell_to_run

    cell = cell_to_run(error.name or "") if isinstance(error, NameError) else None
    return "" if cell is None else f". {cell}"


def _shape(value: object) -> str:
    return "None" if value is None else f"a {type(value).__name__}"


def _tool_turn(
    loop: LearnerLoop,
    session: Session,
    round_: dict[str, Any],
    index: int,
    calls: list[Mapping[str, Any]],
    response: int,
) -> tuple[None, list[bool]]:
    """One turn's calls through the learner's ``run_hooks``, then PostToolBatch (the run
    goes on: the course's loop has no hook that ends it here)."""
    hooks, handlers = _settings(session)
    results: list[dict[str, Any]] = []
    texts: list[dict[str, Any]] = []
    batch: list[dict[str, Any]] = []
    for number, given in enumerate(calls):
        call_id = scripted.tool_use_id(index, number)
        name = str(given["name"])
        tool_input = substitute(given.get("input", {}), session.layout)
        call = _Call(session, given, name, call_id, tool_input, handlers)
        run = _learners_run(loop, call, hooks)
        label = f"PreToolUse:{name}"
        round_["events"].append(event_run("PreToolUse", label, call.pre_runs, call=call_id))
        runs = run["tool"].get("runs") is True
        entry: dict[str, Any] = {
            "id": call_id,
            "name": name,
            "input": tool_input,
            "inputText": jsjson.stringify(tool_input),
            "runs": runs,
        }
        if runs and call.tool is None:
            call.run_tool()  # the learner's run_hooks said it runs without reading response
        if runs and call.ran_input != tool_input:
            entry["ranInput"] = call.ran_input
        round_["calls"].append(entry)
        texts.extend(
            _contexts("PreToolUse", label, _texts(run["pre"].get("contexts", []), "pre.contexts"))
        )
        if not runs:
            results.append(
                {
                    "kind": "tool_result",
                    "id": call_id,
                    "text": _refusal(run, label, call),
                    "isError": True,
                }
            )
            continue
        tool = call.tool
        assert tool is not None
        results.append(
            {"kind": "tool_result", "id": call_id, "text": tool.text, "isError": tool.is_error}
        )
        batch.append(
            {
                "tool_name": name,
                "tool_input": call.ran_input,
                "tool_use_id": call_id,
                "tool_response": tool.text,
            }
        )
        post = run.get("post")
        post_label = f"PostToolUse:{name}"
        round_["events"].append(event_run("PostToolUse", post_label, call.post_runs, call=call_id))
        if isinstance(post, Mapping):
            texts.extend(
                _feedback(_texts(post.get("feedback", []), "post.feedback"), post_label, call)
            )
            texts.extend(
                _contexts(
                    "PostToolUse", post_label, _texts(post.get("contexts", []), "post.contexts")
                )
            )
    after = session.fire("PostToolBatch", session.payload("PostToolBatch", tool_calls=batch))
    round_["events"].append(event_run("PostToolBatch", event_label(after), hooks_run(after)))
    texts.extend(system_texts(after))
    session.shown = results + texts
    return None, [bool(item["isError"]) for item in results]


MODEL_STOPPED: Final = "model stopped"
"""How ``requests`` ends when the learner's stop loop takes over at a turn end."""


def _handed_back(
    session: Session, round_: dict[str, Any], blocks: int, active: bool, response: int
) -> dict[str, Any]:
    """The model ended a turn: the learner's ``run_stop_loop`` decides what follows."""
    session.shown = []
    return {"reason": MODEL_STOPPED}


@dataclass
class _Player:
    """The model's side of one prompt, played by the session loop: turns until it stops."""

    loop: LearnerLoop
    session: Session
    turns: list[dict[str, Any]]
    next_index: int

    def until_it_stops(self) -> None:
        """Play turns (tool turns through the learner's hooks) until one ends without a
        tool call; _Runaway past the requests any script needs."""
        tool_turn = functools.partial(_tool_turn, self.loop)
        ended, self.next_index = requests(
            self.session, self.turns, self.next_index, tool_turn, _handed_back
        )
        if ended["reason"] != MODEL_STOPPED:
            raise _Runaway


def _requests(
    loop: LearnerLoop, session: Session, turns: list[dict[str, Any]], next_index: int
) -> tuple[dict[str, Any], int]:
    """One prompt: turns until the model stops, then the learner's Stop loop drives the rest."""
    player = _Player(loop, session, turns, next_index)
    answers: list[tuple[str, dict[str, Any]]] = []  # each stop attempt's answer, and whose
    after: list[int] = []  # the first round after each attempt the loop went on from

    def attempt(active: bool) -> dict[str, Any]:
        if answers:  # the loop asked again: the model went on working first
            after.append(len(session.rounds))
            player.until_it_stops()
        round_ = session.rounds[-1]
        payload = session.payload(
            "Stop",
            stop_hook_active=active,
            last_assistant_message=round_["text"],
            background_tasks=[],
            session_crons=[],
        )
        report = session.fire("Stop", payload)
        event = event_run("Stop", "Stop", hooks_run(report), stopHookActive=active, notes=[])
        round_["events"].append(event)
        answers.append(_stop_answer(report))
        return answers[-1][1]

    try:
        player.until_it_stops()
        try:
            turns = loop.run_stop_loop(LiveStopHook(attempt), session.cap or MAX_REQUESTS)
        except (_Runaway, LearnerError, NotRecorded):
            raise
        except Exception as error:
            raise LearnerError(
                f"your run_stop_loop raised {_raised(error)}{_run_first(error)}"
            ) from None
    except _Runaway:
        ended = {"reason": "runaway", "notes": [f"stopped after {MAX_REQUESTS} requests"]}
        return ended, player.next_index
    read = _stop_turns(turns, len(answers))
    for number, first in enumerate(after):
        reason = read[number].get("reason")
        if read[number].get("continues") is True and isinstance(reason, str):
            said = _said_by(answers[number : number + 1], reason)
            text = model_text("stop_feedback", event="Stop", reason=said[1] if said else reason)
            session.rounds[first]["shown"] = [{"kind": "reminder", "text": text}]
    last = read[-1] if read else {}
    if last.get("continues") is True:
        notes = ["your run_stop_loop ended on an attempt that continues"]
        return {"reason": "completed", "notes": notes}, player.next_index
    if last.get("capped") is not True and isinstance(last.get("reason"), str):
        return {"reason": "stop_hook_prevented"}, player.next_index
    return {"reason": "completed"}, player.next_index


def _stop_turns(turns: object, attempts: int) -> list[Mapping[str, Any]]:
    """The learner's list of stop attempts, each as a mapping; LearnerError if it is not one,
    or does not match the attempts it asked the hook for."""
    if not isinstance(turns, list | tuple):
        raise LearnerError(f"your run_stop_loop returned {_shape(turns)}; return a list")
    read = []
    for turn in turns:
        as_json = getattr(turn, "to_json", None)
        value = as_json() if callable(as_json) else turn
        if not isinstance(value, Mapping):
            raise LearnerError(f"your run_stop_loop returned an attempt that is {_shape(value)}")
        read.append(value)
    if len(read) != attempts:
        raise LearnerError(
            f"your run_stop_loop returned {len(read)} attempt(s) but asked the hook "
            f"{attempts} time(s): read hook['whenActive'] or hook['whenInactive'] once per attempt"
        )
    return read


def run_learner_session(script: SessionScript, loop: LearnerLoop, keep: bool = False) -> Transcript:
    """The transcript of ``script`` played by the learner's loop; LearnerError when their
    code breaks it (one line), InputError for a script that cannot run.

    Played in a thread of its own: a notebook's kernel runs an event loop, and the tools
    start their processes with ``asyncio.run``, which cannot run inside one.
    """
    return _off_the_event_loop(_session, script, loop, keep)


def _off_the_event_loop(play: Callable[..., Transcript], *arguments: Any) -> Transcript:
    """``play(*arguments)`` in a thread of its own, where no event loop runs (in the
    browser, where no thread can start, here: its processes are replayed, not started)."""
    if browser.IN_BROWSER:
        return play(*arguments)
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(play, *arguments).result()


def _session(script: SessionScript, loop: LearnerLoop, keep: bool) -> Transcript:
    with laid_out(script, keep=keep) as layout:
        env = hook_environment(os.environ, layout.home, layout.tmp)
        env.update(script_env(script, layout))
        session = script_session(script, layout, env)
        transcript = _play(loop, session)
        return relative(transcript, str(layout.root), keep)


def _play(loop: LearnerLoop, session: Session) -> Transcript:
    """The session through the one session loop, each prompt's requests the learner's."""

    def per_prompt(
        session: Session, turns: list[dict[str, Any]], next_index: int
    ) -> tuple[dict[str, Any], int]:
        return _requests(loop, session, turns, next_index)

    return play_session(session, loop.name, per_prompt)


# -- the check of the whole loop ---------------------------------------------------------------

BROWSER_NOTE: Final = (
    "(In the browser no process can start: each hook and tool gives the answer it gave on "
    "the desktop for the same call. Your run_hooks and run_stop_loop decide live.)"
)


@contextlib.contextmanager
def processes_for(name: str) -> Iterator[None]:
    """Session ``name``'s hooks and tools: real processes on the desktop; in the browser,
    the answers the desktop's processes gave (``replay``)."""
    if not browser.IN_BROWSER:
        yield
        return
    if name not in TRACED:
        browser.require_desktop(
            f"the session {name}",
            f"its transcript (this browser has the desktop's answers for {', '.join(TRACED)})",
        )
    with replaying(trace_of(name)):
        yield


CHECK_SESSIONS: Final = ("decide-modify-inject", "stop-loop")
"""Sessions notebook 08 does not show, whose recorded Claude Code 2.1.332 run the teacher's
loop reproduces exactly: a rewrite, a denial and a context (run_hooks), and a Stop hook
that blocks until the cap ends the turn (run_stop_loop)."""


@dataclass(frozen=True)
class LoopCheck:
    """``check_loop``'s report: for each session, the differences from the real run."""

    found: tuple[tuple[str, tuple[str, ...]], ...]
    note: str = ""
    """How the hooks ran, when not as processes (the browser)."""

    @property
    def all_pass(self) -> bool:
        return all(not lines_off for _, lines_off in self.found)

    def __str__(self) -> str:
        lines = [self.note] if self.note else []
        for name, lines_off in self.found:
            if not lines_off:
                lines.append(f"✓ {name}: your loop gives the recorded Claude Code run exactly")
                continue
            lines.append(f"✗ {name}: {len(lines_off)} difference(s) from the recorded run")
            lines += [f"    ≠ {line}" for line in lines_off]
        passed = sum(not lines_off for _, lines_off in self.found)
        lines.append(f"check_loop: {passed} of {len(self.found)} sessions as Claude Code ran them")
        return "\n".join(lines)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(str(self))


def check_loop(run_hooks: RunHooks, run_stop_loop: RunStopLoop) -> LoopCheck:
    """Play two sessions the notebook does not show with the learner's two functions and
    compare each transcript with the recorded Claude Code 2.1.332 run; never raises. In the
    browser the hooks and tools give the desktop's recorded answers."""
    from .recorded import load_recorded, script_path

    loop = LearnerLoop(run_hooks, run_stop_loop)
    found: list[tuple[str, tuple[str, ...]]] = []
    for name in CHECK_SESSIONS:
        real = load_recorded(name)["transcript"]
        try:
            with processes_for(name):
                ours = run_learner_session(load(Path(str(script_path(name)))), loop)
        except InputError as error:
            found.append((name, (str(error),)))
            continue
        found.append((name, tuple(differences(ours, real))))
    return LoopCheck(tuple(found), BROWSER_NOTE if browser.IN_BROWSER else "")


# -- in a notebook: play a session, and set it beside the engine and Claude Code ---------------


def play(
    run_hooks: RunHooks, run_stop_loop: RunStopLoop, name: str = "guard-retry"
) -> Transcript | None:
    """The course's session ``name`` played by the learner's two functions, in this kernel;
    None (and one line saying why) when their code breaks the loop. In the browser the
    hooks and tools give the desktop's recorded answers (a line says so)."""
    from .recorded import script_path

    try:
        with processes_for(name):
            if browser.IN_BROWSER:
                print(BROWSER_NOTE)
            return run_learner_session(
                load(Path(str(script_path(name)))), LearnerLoop(run_hooks, run_stop_loop)
            )
    except InputError as error:
        print(f"your loop stopped: {error}")
        return None


@dataclass(frozen=True)
class ThreeWays:
    """The learner's transcript beside the engine's and the recorded Claude Code run's."""

    ours: Transcript
    engine: Transcript
    real: Transcript
    width: int = 38
    in_full: int | None = None  # a request to show uncut as well (the columns cut lines)

    def _request_marks(self) -> list[tuple[str, str]]:
        """Per block (start, each request, end): how ours compares with the engine, and
        with Claude Code (``=`` the same, ``≠`` not)."""
        from .transcript import _same_block, comparable

        mine, engine, real = (comparable(t) for t in (self.ours, self.engine, self.real))
        count = max(len(t["rounds"]) for t in (self.ours, self.engine, self.real)) + 2
        return [
            (
                "=" if _same_block(mine, engine, n) else "≠",
                "=" if _same_block(mine, real, n) else "≠",
            )
            for n in range(count)
        ]

    def text(self) -> str:
        """Three columns, then each difference of the learner's loop, explained."""
        from .transcript import _blocks, _cut

        width = self.width
        names = ("your loop", "the course's engine", "Claude Code 2.1.332 (recorded)")
        out = ["   ".join(f"{name:<{width}}" for name in names).rstrip()]
        columns = [_blocks(t) for t in (self.ours, self.engine, self.real)]
        for n, (by_engine, by_real) in enumerate(self._request_marks()):
            blocks = [c[n] if n < len(c) else [] for c in columns]
            for i in range(max(len(b) for b in blocks)):
                cells = [_cut(b[i], width) if i < len(b) else "" for b in blocks]
                row = f"{cells[0]:<{width}} {by_engine} {cells[1]:<{width}} {by_real} {cells[2]}"
                out.append(row.rstrip())
        full = self.first_in_full(columns)
        asked = self.request_in_full(columns)
        return visible("\n".join([*out, "", *asked, *full, *self.explained()]), keep="\n")

    def request_in_full(self, columns: list[list[list[str]]]) -> list[str]:
        """Request ``in_full``, uncut, in each column; columns whose lines are the same are
        shown once, under all their names."""
        n = self.in_full
        if n is None:
            return []
        names = ("your loop", "the course's engine", "Claude Code 2.1.332")
        shown: dict[tuple[str, ...], list[str]] = {}
        for name, column in zip(names, columns, strict=True):
            shown.setdefault(tuple(column[n]) if 0 <= n < len(column) else (), []).append(name)
        lines = [f"{_where(n, max(len(column) for column in columns))} in full:"]
        for block, who in shown.items():
            body = block or ("(not in this run)",)
            lines += [f"  {' and '.join(who)}:", *(f"    {line}" for line in body)]
        return [*lines, ""]

    def first_in_full(self, columns: list[list[list[str]]]) -> list[str]:
        """The first block where the learner's loop differs, uncut: its lines and those of
        the column it differs from (Claude Code's, else the engine's); the later
        differences follow from this one. Nothing when all three agree."""
        marks = self._request_marks()
        differing = [n for n, pair in enumerate(marks) if "≠" in pair]
        if not differing:
            return []
        n = differing[0]
        by_real = marks[n][1]
        other = (2, "Claude Code 2.1.332") if by_real == "≠" else (1, "the course's engine")
        where = _where(n, len(marks))
        later = "; the later ones follow from it" if len(differing) > 1 else ""
        lines = [f"{where} is the first difference{later}. In full:"]
        for index, name in ((0, "your loop"), other):
            block = columns[index][n] if n < len(columns[index]) else []
            lines += [f"  {name}:", *(f"    {line}" for line in block)]
        return [*lines, ""]

    def explained(self) -> list[str]:
        """Each request where the learner's loop differs, and whose rule it is."""
        marks = self._request_marks()
        lines = []
        for n, (by_engine, by_real) in enumerate(marks):
            where = _where(n, len(marks))
            if by_engine == "≠" and by_real == "≠":
                lines.append(
                    f"≠ {where}: a bug in your loop (the engine and Claude Code agree here)"
                )
            elif by_real == "≠":
                lines.append(
                    f"≠ {where}: a course rule: your loop does as the engine, Claude Code differs"
                )
            elif by_engine == "≠":
                lines.append(f"≠ {where}: your loop does as Claude Code, where the engine differs")
        if not lines:
            return ["your loop, the engine and Claude Code 2.1.332 agree on every request"]
        found = differences(self.ours, self.real)
        return [*lines, "what differs from Claude Code:", *(f"  ≠ {line}" for line in found)]

    def __str__(self) -> str:
        return self.text()

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(self.text())


def _where(n: int, count: int) -> str:
    """Block ``n`` of ``count`` (the start, each request, the end) in words."""
    if n == 0:
        return "before the first request"
    return "the end" if n == count - 1 else f"request {n}"


def three_ways(
    ours: Transcript | None, name: str = "guard-retry", *, in_full: int | None = None
) -> ThreeWays | None:
    """``ours`` beside the engine's transcript of the same session and Claude Code's
    recording, with request ``in_full`` also shown uncut; None (and a line) when there is
    no transcript of the learner's loop."""
    from .loop import run_session
    from .recorded import load_recorded, script_path

    if ours is None:
        print("no transcript of your loop to compare yet")
        return None
    with processes_for(name):
        engine = _off_the_event_loop(run_session, load(Path(str(script_path(name)))))
    return ThreeWays(ours, engine, load_recorded(name)["transcript"], in_full=in_full)


# -- a learner's module file, in a child process -------------------------------------------------

NEEDED: Final = ("run_hooks", "run_stop_loop")


class ProgramLoop:
    """A graded program (``your_program.sh``, any language) as the learner's two functions.

    ``run_hooks`` asks ``hook-run`` three times: with empty answers, for which handlers
    the program runs (its ``ran`` lists do not depend on the answers); with the real
    PreToolUse answers, for whether the tool runs; and with every answer and the tool's
    response. ``run_stop_loop`` asks ``hook-stop`` once per attempt: after k blocks the
    program's loop over ``{whenInactive: the first answer, whenActive: this one}`` makes
    the same k-th decision as a live loop, since every attempt before it blocked too.
    """

    def __init__(self, program: Path, timeout_s: float = 10.0) -> None:
        self.program, self.timeout_s = program, timeout_s

    def ask(self, command: str, case: Mapping[str, Any], key: str) -> Any:
        """The program's answer to one case of ``command``; LearnerError when it has none."""
        import tempfile

        from hookcourse.system.processes import CannotStart, run

        with tempfile.TemporaryDirectory(prefix="hookcourse-program-") as folder:
            file = Path(folder) / "case.json"
            file.write_text(jsjson.stringify({"cases": [dict(case)]}), encoding="utf-8")
            argv = [str(self.program), command, str(file)]
            try:
                done = run(argv, cwd=self.program.parent, timeout_s=self.timeout_s)
            except CannotStart as error:
                raise LearnerError(f"cannot start {self.program.name}: {error}") from None
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        why = f": {said[-1][:200]}" if said else ""
        if done.timed_out or done.exit_code != 0:
            how = "did not answer in time" if done.timed_out else f"exited {done.exit_code}"
            raise LearnerError(f"{self.program.name} {command} {how}{why}")
        try:
            printed: Any = jsjson.parse(done.stdout.decode("utf-8", "replace"))
            return printed[key][0]
        except (jsjson.JSONSyntaxError, KeyError, IndexError, TypeError):
            raise LearnerError(f"{self.program.name} {command} printed no {key} list") from None

    def run_hooks(self, hooks: Mapping[str, Any], tool: Mapping[str, Any], results: Any) -> Any:
        quiet = {"code": 0, "stdout": "", "stderr": ""}
        events = ("PreToolUse", "PostToolUse")
        commands = {
            event: [h["command"] for g in hooks.get(event) or [] for h in g["hooks"]]
            for event in events
        }
        call = {"name": tool["name"], "input": tool["input"], "response": None}
        probe = {event: dict.fromkeys(commands[event], quiet) for event in events}
        first = self.ask("hook-run", {"hooks": hooks, "tool": call, "results": probe}, "runs")
        pre_ran = list(first["pre"]["ran"])
        pre = {command: results["PreToolUse"][command] for command in pre_ran}
        given = {"PreToolUse": {**probe["PreToolUse"], **pre}, "PostToolUse": probe["PostToolUse"]}
        second = self.ask("hook-run", {"hooks": hooks, "tool": call, "results": given}, "runs")
        if second["tool"]["runs"] is not True:
            return second
        call["response"] = tool["response"]
        post_ran = list((first.get("post") or {}).get("ran", []))
        post = {command: results["PostToolUse"][command] for command in post_ran}
        given["PostToolUse"] = {**probe["PostToolUse"], **post}
        return self.ask("hook-run", {"hooks": hooks, "tool": call, "results": given}, "runs")

    def run_stop_loop(self, hook: Mapping[str, Any], cap: int) -> list[Any]:
        first = dict(hook["whenInactive"])
        turns: list[Any] = []
        answer = first
        while True:
            canned = {"hook": {"whenInactive": first, "whenActive": answer}, "cap": cap}
            loop = self.ask("hook-stop", canned, "loops")
            turn = loop[len(turns)] if len(loop) > len(turns) else loop[-1]
            turns.append({**turn, "stopHookActive": bool(turns)})
            if turn.get("continues") is not True:
                return turns
            answer = dict(hook["whenActive"])


def load_module(path: Path) -> LearnerLoop:
    """Import the learner's module file (in the child process only); LearnerError if it
    cannot be imported or lacks a function."""
    if not path.is_file():
        raise LearnerError(f"{path}: no such file; give the path of your my_hooks.py")
    if path.suffix == ".sh":
        program = ProgramLoop(path.resolve())
        return LearnerLoop(program.run_hooks, program.run_stop_loop, f"{ENGINE} ({path.name})")
    folder = str(path.resolve().parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)  # its own imports of files beside it
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        raise LearnerError(f"{path}: not a Python module; give a .py file")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except SyntaxError as error:
        raise LearnerError(f"{path}:{error.lineno}: {error.msg}") from None
    except BaseException as error:
        raise LearnerError(f"{path}: importing it raised {_raised(error)}") from None
    missing = [name for name in NEEDED if not callable(getattr(module, name, None))]
    if missing:
        raise LearnerError(
            f"{path} defines no {' and no '.join(missing)}: write it in notebook 08 "
            "(its check keeps it in my_hooks.py)"
        )
    return LearnerLoop(module.run_hooks, module.run_stop_loop, f"{ENGINE} ({path.name})")


def _child(argv: Sequence[str]) -> int:
    """``python -m hookcourse.session.learner MODULE SCRIPT [--keep]``: one JSON line on
    stdout, ``{"transcript": ...}`` or ``{"error": "..."}``; what the module prints goes
    to stderr."""
    parser = argparse.ArgumentParser(prog="hookcourse.session.learner")
    parser.add_argument("module")
    parser.add_argument("script")
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args(list(argv))
    out = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    answer: dict[str, Any]
    with contextlib.redirect_stdout(sys.stderr):
        try:
            loop = load_module(Path(args.module))
            answer = {"transcript": run_learner_session(load(Path(args.script)), loop, args.keep)}
        except LearnerError as error:
            answer = {"error": str(error)}
        except InputError as error:
            answer = {"error": str(error), "input": True}
        except RecursionError:
            answer = {"error": "your module recursed without end (RecursionError)"}
    out.write(json.dumps(answer, ensure_ascii=False) + "\n")
    out.close()
    return 0


def run_learner_module(
    module: Path, script: Path, keep: bool = False, timeout_s: float = TIMEOUT_S
) -> Transcript:
    """The transcript of ``script`` played by the learner's module file, run in a child
    process for at most ``timeout_s``; LearnerError (one line) when it cannot be."""
    from hookcourse.system.processes import CannotStart, run

    argv = [sys.executable, "-m", "hookcourse.session.learner", str(module), str(script)]
    try:
        done = run([*argv, *(["--keep"] if keep else [])], timeout_s=timeout_s)
    except CannotStart as error:
        raise LearnerError(f"cannot start Python for {module}: {error}") from None
    if done.timed_out:
        raise LearnerError(
            f"{module} did not finish {script} within {timeout_s:g} s: look for a loop "
            "that never ends (a Stop loop without its cap?)"
        )
    lines = done.stdout.decode("utf-8", "replace").strip().splitlines()
    try:
        answer = json.loads(lines[-1]) if lines else None
    except json.JSONDecodeError:
        answer = None
    if not isinstance(answer, dict):
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        last = f": {said[-1][:200]}" if said else ""
        raise LearnerError(f"{module} ended (exit {done.exit_code}) without a transcript{last}")
    if "error" in answer:
        if answer.get("input"):
            raise InputError(str(script), str(answer["error"]), "fix the session script")
        raise LearnerError(str(answer["error"]))
    transcript: Transcript = answer["transcript"]
    return transcript


def learner_transcripts(
    script: SessionScript, path: Path, module: Path, compare: bool, keep: bool
) -> tuple[list[Transcript], list[str]]:
    """``hookcourse session --engine MODULE``: the learner's transcript (with ``compare``
    first the engine's, then theirs) and the differences of theirs from the engine's."""
    from .loop import run_session

    ours = run_learner_module(module, path, keep)
    if not compare:
        return [ours], []
    engine = run_session(script, keep)
    return [engine, ours], differences(ours, engine)


if __name__ == "__main__":
    sys.exit(_child(sys.argv[1:]))
