"""The desktop's process results for a session script, recorded once, replayed in the browser.

A browser kernel (Pyodide) cannot start a process, so a hook command or a Bash call has
no answer there. The loop stays the one loop (``loop.py``, with a learner's
``run_hooks`` and ``run_stop_loop`` in the middle): only its two process edges answer
from a trace, ``runner.run_jobs`` (each hook's ``{code, stdout, stderr}`` for the payload
it was given) and ``tools.run_tool`` (each tool call's result). Every decision, the
learner's and the engine's, is still computed live.

A trace is what the desktop's runner gave while the course's own loops played the
script: the engine's (``hookcourse session``) and the learner's loop with the teacher's
functions. The scratch folder is written ``$ROOT``, so a replay in another folder finds
the same answers. The n-th time a hook gets one payload it gives the n-th recorded
answer (a hook may keep state, a count of its runs); a call the trace never saw (a bug
made another call or another payload) raises ``NotRecorded``, one line naming the call,
never an invented answer.

``python -m hookcourse.session.replay_traces update | check`` writes the traces of the sessions
notebook 08 plays (``data/session_traces.json``) or checks that it is current.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Final, TypeVar

from hookcourse.engine.api import Execution, Job, RunSetting, hook_run, run_jobs
from hookcourse.errors import InputError
from hookcourse.js import json as jsjson

from .tools import Grant, ToolRun, run_tool

TRACES: Final = "data/session_traces.json"
TRACED: Final = ("guard-retry", "decide-modify-inject", "stop-loop")
"""The sessions notebook 08 plays: its own, and the two ``check_loop`` plays unseen."""
ROOT_WORD: Final = "$ROOT"
ABOUT: Final = (
    "What the desktop's hook processes and tools gave while the course's loops played each "
    "session script (written by python -m hookcourse.session.replay_traces update; $ROOT is the "
    "scratch folder). The browser replays them: see hookcourse/session/replay.py."
)
HookKey = tuple[str, str]
"""(the handler as the engine describes it, the payload's JSON text), ``$ROOT`` written."""
ToolKey = tuple[str, str, str]
"""(the tool, its input's JSON text, the shell's folder), ``$ROOT`` written."""
Answer = dict[str, Any]
K = TypeVar("K", bound=tuple[str, ...])


class NotRecorded(InputError):
    """The loop asked for a process result the desktop never gave: one line naming it."""

    def __init__(self, what: str) -> None:
        super().__init__(
            "your loop",
            f"{what}, which the course's loop never asks for, so this browser has no "
            "recorded answer for it",
            "compare your functions with the rules of their exercise; on the desktop the "
            "same call runs for real",
        )

    def __str__(self) -> str:
        return f"{self.problem}: {self.fix}"


def _scratch_pattern() -> re.Pattern[str]:
    """A session's scratch folder (``script.scratch``), wherever the temporary folder is."""
    bases = {tempfile.gettempdir(), os.path.realpath(tempfile.gettempdir())}
    spelled = "|".join(re.escape(b.rstrip("/")) for b in sorted(bases, key=len, reverse=True))
    return re.compile(rf"(?:{spelled})/hookcourse-session-[A-Za-z0-9_.-]+")


def _rooted(value: Any, root: str) -> Any:
    """``value`` with the scratch folder ``root`` written ``$ROOT`` (strings, lists, dicts)."""
    if isinstance(value, str):
        return value.replace(root, ROOT_WORD) if root else value
    if isinstance(value, list):
        return [_rooted(item, root) for item in value]
    if isinstance(value, dict):
        return {key: _rooted(item, root) for key, item in value.items()}
    return value


def _unrooted(value: Any, root: str) -> Any:
    """``value`` with ``$ROOT`` written back as the scratch folder ``root``."""
    if isinstance(value, str):
        return value.replace(ROOT_WORD, root)
    if isinstance(value, list):
        return [_unrooted(item, root) for item in value]
    if isinstance(value, dict):
        return {key: _unrooted(item, root) for key, item in value.items()}
    return value


def _root_in(*texts: str) -> str:
    """The scratch folder the texts name (the first found), or "" when none does."""
    pattern = _scratch_pattern()
    for text in texts:
        found = pattern.search(text)
        if found is not None:
            return found.group(0)
    return ""


def _hook_key(job: Job, payload_json: str, root: str) -> HookKey:
    return (_rooted(job.handler.describe(), root), _rooted(payload_json, root))


def _tool_key(name: str, tool_input: Mapping[str, Any], cwd: Path, root: str) -> ToolKey:
    text = jsjson.stringify(dict(tool_input))
    return (name, _rooted(text, root), _rooted(str(cwd), root))


@dataclass
class SessionTrace:
    """One session script's recorded process results, each key's answers in order."""

    hooks: dict[HookKey, list[Answer]] = field(default_factory=dict)
    tools: dict[ToolKey, list[Answer]] = field(default_factory=dict)
    if_run: dict[ToolKey, Answer] = field(default_factory=dict)
    """What a call the course's loop did not run as the model wrote it (a hook denied or
    rewrote it) gives when it runs, in a copy of the scratch folder at that moment."""

    def to_json(self) -> dict[str, Any]:
        return {
            "hooks": [
                {"handler": handler, "payload": json.loads(payload), "answers": answers}
                for (handler, payload), answers in self.hooks.items()
            ],
            "tools": [
                {"tool": tool, "input": json.loads(given), "cwd": cwd, "results": results}
                for (tool, given, cwd), results in self.tools.items()
            ],
            "ifRun": [
                {"tool": tool, "input": json.loads(given), "cwd": cwd, "result": result}
                for (tool, given, cwd), result in self.if_run.items()
            ],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SessionTrace:
        trace = cls()
        for hook in data["hooks"]:
            hook_key = (hook["handler"], jsjson.stringify(hook["payload"]))
            trace.hooks[hook_key] = list(hook["answers"])
        for tool in data["tools"]:
            tool_key = (tool["tool"], jsjson.stringify(tool["input"]), tool["cwd"])
            trace.tools[tool_key] = list(tool["results"])
        for tool in data["ifRun"]:
            tool_key = (tool["tool"], jsjson.stringify(tool["input"]), tool["cwd"])
            trace.if_run[tool_key] = dict(tool["result"])
        return trace

    def merged(self, other: SessionTrace) -> SessionTrace:
        """Both runs' answers: per key the longer list, which must begin with the shorter
        (the same process gives the same answers in the same order)."""
        tools = _merged(self.tools, other.tools)
        if_run = {**other.if_run, **self.if_run}
        kept = {key: answer for key, answer in if_run.items() if key not in tools}
        return SessionTrace(_merged(self.hooks, other.hooks), tools, kept)


def _merged(mine: dict[K, list[Answer]], theirs: dict[K, list[Answer]]) -> dict[K, list[Answer]]:
    into: dict[K, list[Answer]] = {}
    for key in [*mine, *(k for k in theirs if k not in mine)]:
        first, second = mine.get(key, []), theirs.get(key, [])
        longer, shorter = (first, second) if len(first) >= len(second) else (second, first)
        if longer[: len(shorter)] != shorter:
            raise ValueError(f"two runs of the same session disagree on {key}")
        into[key] = longer
    return into


def _answer(execution: Execution, root: str) -> dict[str, Any]:
    run = execution.run
    return {
        "exitCode": run.exit_code,
        "stdout": _rooted(run.stdout, root),
        "stderr": _rooted(run.stderr, root),
        "timedOut": run.timed_out,
        "startError": run.start_error,
        "stdoutCut": run.stdout_cut,
        "finish": execution.finish_index,
        "notes": [_rooted(note, root) for note in execution.notes],
    }


def _tool_answer(ran: ToolRun, root: str) -> dict[str, Any]:
    return {
        "text": _rooted(ran.text, root),
        "isError": ran.is_error,
        "response": _rooted(ran.response, root),
    }


def _folder_root(folder: Path | None) -> str:
    """The scratch folder above a session's project folder (``root``'s parent)."""
    return "" if folder is None else _root_in(str(folder) + "/")


class _ToolEdge:
    """``tools.run_tool``'s place: a call's key in a trace, answered by ``answer``."""

    def tool(
        self,
        name: str,
        tool_input: Mapping[str, Any],
        project: Path,
        env: Mapping[str, str],
        grant: Grant | None = None,
        root: Path | None = None,
    ) -> ToolRun:
        scratch = _folder_root(root or project)

        def for_real() -> ToolRun:
            return run_tool.real(name, tool_input, project, env, grant, root)

        return self.answer(_tool_key(name, tool_input, project, scratch), scratch, for_real)

    def answer(self, key: ToolKey, scratch: str, for_real: Callable[[], ToolRun]) -> ToolRun:
        raise NotImplementedError


@dataclass
class Recorder(_ToolEdge):
    """The process edges, run for real, each answer kept in a ``SessionTrace``."""

    trace: SessionTrace = field(default_factory=SessionTrace)

    def jobs(self, jobs: Sequence[Job], payload_json: str, setting: RunSetting) -> list[Execution]:
        root = _root_in(payload_json, setting.cwd)
        payload = json.loads(payload_json)
        if jobs and root and payload.get("hook_event_name") == "PreToolUse":
            self._if_run(payload, setting.base_env, root)
        executions = run_jobs.real(jobs, payload_json, setting)
        for execution in executions:
            key = _hook_key(execution.job, payload_json, root)
            self.trace.hooks.setdefault(key, []).append(_answer(execution, root))
        return executions

    def _if_run(self, payload: Mapping[str, Any], env: Mapping[str, str], root: str) -> None:
        """The call ``payload`` is about, run as the model wrote it in a copy of the scratch
        folder: the answer a loop that wrongly lets it through (or skips its rewrite) gets."""
        tool_input, cwd = payload.get("tool_input"), payload.get("cwd")
        if not isinstance(tool_input, dict) or not isinstance(cwd, str):
            return
        key = _tool_key(str(payload.get("tool_name")), tool_input, Path(cwd), root)
        if key in self.trace.if_run:
            return
        spare = tempfile.mkdtemp(prefix="hookcourse-if-run-")
        copy = str(Path(spare) / "root")
        try:
            shutil.copytree(root, copy, symlinks=True)
            there = _unrooted(_rooted(dict(tool_input), root), copy)
            ran = run_tool.real(
                key[0],
                there,
                Path(_unrooted(key[2], copy)),
                {name: _unrooted(_rooted(value, root), copy) for name, value in env.items()},
                Grant(),
                Path(copy) / "project",
            )
            self.trace.if_run[key] = _tool_answer(ran, copy)
        finally:
            shutil.rmtree(spare, ignore_errors=True)

    def answer(self, key: ToolKey, scratch: str, for_real: Callable[[], ToolRun]) -> ToolRun:
        ran = for_real()
        self.trace.tools.setdefault(key, []).append(_tool_answer(ran, scratch))
        return ran


def _hook_name(job: Job, root: str) -> str:
    handler = job.handler
    return str(_rooted(handler.named_by or handler.describe(), root))


def _said(value: object, root: str, limit: int = 120) -> str:
    text = str(_rooted(value if isinstance(value, str) else jsjson.stringify(value), root))
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass
class Replay(_ToolEdge):
    """The process edges answered from a ``SessionTrace``."""

    trace: SessionTrace
    asked: Counter[tuple[str, ...]] = field(default_factory=Counter)

    def _next(self, answers: dict[Any, list[dict[str, Any]]], key: Any) -> dict[str, Any] | None:
        """The next recorded answer for ``key`` (the n-th for its n-th ask), or None."""
        given = answers.get(key, [])
        count = self.asked[key]
        if count >= len(given):
            return None
        self.asked[key] += 1
        return given[count]

    def jobs(self, jobs: Sequence[Job], payload_json: str, setting: RunSetting) -> list[Execution]:
        root = _root_in(payload_json, setting.cwd)
        answered = []
        for index, job in enumerate(jobs):
            key = _hook_key(job, payload_json, root)
            answer = self._next(self.trace.hooks, key)
            if answer is None:
                payload = json.loads(payload_json)
                event = payload.get("hook_event_name", setting.event)
                about = _what_it_got(payload, root)
                again = _ordinal(self.asked[key] + 1) if key in self.trace.hooks else ""
                raise NotRecorded(
                    f"your loop ran the {event} hook {_hook_name(job, root)} {about}{again}"
                )
            answered.append((answer.get("finish", index), index, job, answer))
        finishing = sorted(answered, key=lambda entry: (entry[0], entry[1]))
        order = {entry[1]: rank for rank, entry in enumerate(finishing)}
        return [
            Execution(
                job=job,
                run=hook_run(
                    job,
                    exit_code=answer["exitCode"],
                    stdout=_unrooted(answer["stdout"], root),
                    stderr=_unrooted(answer["stderr"], root),
                    timed_out=answer["timedOut"],
                    start_error=answer["startError"],
                    stdout_cut=answer["stdoutCut"],
                ),
                started_ms=0.0,
                duration_ms=0.0,
                finish_index=order[index],
                notes=tuple(_unrooted(note, root) for note in answer["notes"]),
            )
            for _finish, index, job, answer in answered
        ]

    def answer(self, key: ToolKey, scratch: str, for_real: Callable[[], ToolRun]) -> ToolRun:
        result = self._next(self.trace.tools, key)
        if result is None and key not in self.trace.tools:
            result = self.trace.if_run.get(key)
        if result is None:
            given = _said(json.loads(key[1]), scratch)
            raise NotRecorded(f"your loop ran the {key[0]} call {given}")
        return ToolRun(
            _unrooted(result["text"], scratch),
            bool(result["isError"]),
            _unrooted(result["response"], scratch),
        )


def _ordinal(count: int) -> str:
    """`` a 2nd time`` for a run past the recorded ones."""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(count % 10 if count % 100 not in (11, 12, 13) else 0)
    article = "an" if str(count).startswith("8") or count in (11, 18) else "a"
    return f" {article} {count}{suffix or 'th'} time"


def _what_it_got(payload: Mapping[str, Any], root: str) -> str:
    """The part of a hook's payload that tells one call from another, in a few words."""
    if "tool_name" in payload:
        told = f"on the {payload['tool_name']} call {_said(payload.get('tool_input'), root)}"
        if "tool_response" in payload:
            told += f" that gave {_said(payload['tool_response'], root, 60)}"
        return told
    if "stop_hook_active" in payload:
        return f"with stop_hook_active {jsjson.stringify(payload['stop_hook_active'])}"
    return "on this payload"


@contextlib.contextmanager
def replaying(trace: SessionTrace) -> Iterator[Replay]:
    """Every hook process and tool call inside the block answered from ``trace``."""
    replay = Replay(trace)
    with run_jobs.swapped(replay.jobs), run_tool.swapped(replay.tool):
        yield replay


@contextlib.contextmanager
def recording() -> Iterator[Recorder]:
    """Every hook process and tool call inside the block run for real, and kept."""
    recorder = Recorder()
    with run_jobs.swapped(recorder.jobs), run_tool.swapped(recorder.tool):
        yield recorder


def load_traces() -> dict[str, SessionTrace]:
    """The shipped traces, by session name."""
    text = resources.files("hookcourse").joinpath(TRACES).read_text("utf-8")
    sessions = json.loads(text)["sessions"]
    return {name: SessionTrace.from_json(data) for name, data in sessions.items()}


def trace_of(name: str) -> SessionTrace:
    """The shipped trace of session ``name``; ValueError for a session without one."""
    traces = load_traces()
    if name not in traces:
        raise ValueError(
            f"no recorded process results for {name!r}; there are: {', '.join(traces)}"
        )
    return traces[name]
