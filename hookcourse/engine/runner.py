"""Runs hook handlers for real, all at once: command, http, prompt and agent.

* ``command``: shell form runs ``sh -c COMMAND``, as Claude Code 2.1.332 does on
  POSIX whatever ``shell`` says; exec form (``args`` set) runs ``[command, *args]``
  with no shell. Processes are started and stopped by ``processes`` (own session,
  group kill at the timeout and on an interrupt, output capped); a timed-out hook's
  output is dropped, as Claude Code drops it. A program that cannot start is reported, not raised.
* ``http``: a real POST of the payload as JSON; header ``$VAR`` / ``${VAR}`` are
  filled only for names in ``allowedEnvVars`` (others become empty strings). The
  body is read up to the same cap as a command's stdout.
* ``prompt`` / ``agent``: handed to an ``Evaluator``; with none configured the run
  says so (``evaluator_missing``) and nothing pretends a model answered. A
  ``CommandEvaluator`` runs as a process like a command hook, killed with its group.
* ``mcp_tool``: needs a connected MCP server, which this runner has not; it is
  reported as not started (a non-blocking error, as for a disconnected server).

Text from a payload or a settings file can hold what no process can receive: a NUL
character cannot be in an argument or an environment variable, and a lone
surrogate has no UTF-8 form (Claude Code, in JavaScript, writes U+FFFD for it).
Such values are reported in the run's notes, never raised.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import os
import re
import secrets
import shlex
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Protocol, TypeVar

from hookcourse.browser import require_desktop
from hookcourse.system.edge import Edge
from hookcourse.system.interrupts import kill_traced
from hookcourse.system.processes import (
    OUTPUT_CAP_BYTES,
    REAP_GRACE_S,
    CannotStart,
    Finished,
    run_process,
)

from .catalogue import hook_env_facts
from .placeholders import substitute
from .reading import HookRun
from .settings import CommandHandler, EvaluatorHandler, Handler, HttpHandler, McpToolHandler
from .versions import env_exported_on, on_failure_heeded, release_variables

_HEADER_VARIABLE: Final = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")
_LONE_SURROGATE: Final = re.compile("[\ud800-\udfff]")
SHELL_PREFIX_ENV: Final = "CLAUDE_CODE_SHELL_PREFIX"
POSIX_SHELL: Final = "/bin/sh"
"""Node's ``spawn(..., {shell: true})`` on POSIX: the shell Claude Code runs hooks in."""
NOT_FOUND_EXIT: Final = 127
"""What a POSIX shell exits with when the command it was given does not exist."""
ENV_FILE_EVENTS: Final = frozenset({"SessionStart", "Setup", "CwdChanged", "FileChanged"})
"""Events whose hooks get ``CLAUDE_ENV_FILE`` (reference §7a)."""

T = TypeVar("T")

HELD_OUTPUT_GRACE_S = 0.1
"""How long output is read after a hook exits while something still holds its pipes."""


# --- evaluators for prompt and agent hooks ---------------------------------------------------


@dataclass(frozen=True)
class EvaluationRequest:
    """What a prompt or agent hook asks: the prompt (payload already inserted) and context."""

    hook_type: str
    prompt: str
    model: str | None
    event: str
    payload_json: str
    timeout_s: float


class Evaluator(Protocol):
    """Answers a prompt or agent hook with ``{"ok": bool, "reason": str, "impossible": bool}``."""

    async def evaluate(self, request: EvaluationRequest) -> Mapping[str, object]: ...


class EvaluatorError(Exception):
    """The evaluator ran but gave no usable answer; the message says why."""


@dataclass(frozen=True)
class CallableEvaluator:
    """A Python function from the prompt text to the ``{ok, reason}`` answer (run on a thread)."""

    answer: Callable[[str], Mapping[str, object]]

    async def evaluate(self, request: EvaluationRequest) -> Mapping[str, object]:
        result = await _in_thread_async(lambda: self.answer(request.prompt))
        if not isinstance(result, Mapping):
            raise EvaluatorError(f"the evaluator returned {type(result).__name__}, not a mapping")
        return result


@dataclass(frozen=True)
class CommandEvaluator:
    """A shell command that reads the prompt on stdin and prints ``{"ok": ..., "reason": ...}``.

    It runs like a command hook (its own process group, killed at the timeout or on an
    interrupt) and also gets ``HOOKCOURSE_HOOK_TYPE``, ``HOOKCOURSE_HOOK_EVENT`` and,
    when the handler names one, ``HOOKCOURSE_HOOK_MODEL`` in its environment.
    """

    command: str

    async def evaluate(self, request: EvaluationRequest) -> Mapping[str, object]:
        env = dict(os.environ)
        env["HOOKCOURSE_HOOK_TYPE"] = request.hook_type
        env["HOOKCOURSE_HOOK_EVENT"] = request.event
        if request.model is not None:
            env["HOOKCOURSE_HOOK_MODEL"] = well_formed(request.model)
        try:
            done = await run_process(
                ["sh", "-c", self.command],
                stdin=well_formed(request.prompt).encode(),
                env={k: v for k, v in env.items() if "\0" not in v},
                cwd=None,
                timeout_s=request.timeout_s,
            )
        except CannotStart as error:
            raise EvaluatorError(str(error)) from None
        if done.timed_out:
            raise EvaluatorTimeout(f"the evaluator ran past {request.timeout_s:g} s")
        text = done.stdout.decode("utf-8", "replace").strip()
        if done.exit_code != 0:
            detail = done.stderr.decode("utf-8", "replace").strip().splitlines()[:1]
            raise EvaluatorError(
                f"the evaluator exited {done.exit_code}" + (f": {detail[0]}" if detail else "")
            )
        try:
            answer = json.loads(text)
        except ValueError:
            raise EvaluatorError(f"the evaluator printed {text[:80]!r}, not JSON") from None
        if not isinstance(answer, dict):
            raise EvaluatorError("the evaluator printed JSON that is not an object")
        return answer


class EvaluatorTimeout(EvaluatorError):
    """The evaluator ran past the hook's timeout and was killed with its group."""


def evaluation_prompt(prompt: str, payload_json: str) -> str:
    """``$ARGUMENTS`` replaced by the payload JSON; without it the JSON is appended."""
    if "$ARGUMENTS" in prompt:
        return prompt.replace("$ARGUMENTS", payload_json)
    return f"{prompt}\n\n{payload_json}"


# --- what to run and what happened -----------------------------------------------------------


@dataclass(frozen=True)
class RunSetting:
    """Everything a batch of handlers shares: directory, environment, evaluator."""

    cwd: str
    event: str
    base_env: Mapping[str, str]
    placeholders: Mapping[str, str]
    exports: Mapping[str, str]
    evaluator: Evaluator | None = None
    output_cap: int = OUTPUT_CAP_BYTES
    cancel_on_exit2: bool = False
    """A hook that exits 2 cancels the ones still running (UserPromptSubmit)."""


@dataclass(frozen=True)
class Job:
    """One handler to run, with the timeout that applies to it."""

    handler: Handler
    timeout_s: float


@dataclass(frozen=True)
class Execution:
    """What running one handler did, with timing relative to the batch start."""

    job: Job
    run: HookRun
    started_ms: float
    duration_ms: float
    finish_index: int = 0
    argv: tuple[str, ...] | None = None
    truncated: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass
class _Outcome:
    run: HookRun
    argv: tuple[str, ...] | None = None
    truncated: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    trace: str = ""


def well_formed(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD, as JavaScript encodes it."""
    return _LONE_SURROGATE.sub("\ufffd", text)


ENTRYPOINT: Final = "sdk-cli"
"""``CLAUDE_CODE_ENTRYPOINT`` in print mode (``claude -p``), the mode ``fire`` models."""


def hook_exports(
    project_dir: str,
    payload: Mapping[str, object],
    plugin_root: str | None = None,
    plugin_data: str | None = None,
) -> tuple[dict[str, str], dict[str, str]]:
    """The placeholder values, and every variable exported to hooks (placeholders included).

    Reference §7a and 2.1.332 §9: the placeholders, ``CLAUDECODE=1``,
    ``CLAUDE_CODE_CHILD_SESSION=1``, ``CLAUDE_PID`` (this process stands in for Claude
    Code), ``CLAUDE_CODE_ENTRYPOINT`` and ``CLAUDE_CODE_SESSION_ATTENDED=0`` (print
    mode: nobody attends), the session id and the effort level from the payload.
    """
    placeholders = {"CLAUDE_PROJECT_DIR": project_dir}
    if plugin_root is not None:
        placeholders["CLAUDE_PLUGIN_ROOT"] = plugin_root
    if plugin_data is not None:
        placeholders["CLAUDE_PLUGIN_DATA"] = plugin_data
    exports = dict(placeholders)
    exports["CLAUDECODE"] = "1"
    exports["CLAUDE_CODE_CHILD_SESSION"] = "1"
    exports["CLAUDE_PID"] = str(os.getpid())
    exports["CLAUDE_CODE_ENTRYPOINT"] = ENTRYPOINT
    exports["CLAUDE_CODE_SESSION_ATTENDED"] = "0"
    exports.update(_session_variables(project_dir, payload))
    session_id = payload.get("session_id")
    if isinstance(session_id, str):
        exports["CLAUDE_CODE_SESSION_ID"] = session_id
    effort = payload.get("effort")
    level = effort.get("level") if isinstance(effort, dict) else None
    if isinstance(level, str):
        exports["CLAUDE_EFFORT"] = level
    # An older release answered as (fire --claude-version) lacked some of them, and set
    # others itself, each event's hooks getting its own.
    event = str(payload.get("hook_event_name", ""))
    exports.update(release_variables(event))
    kept = {name: value for name, value in exports.items() if env_exported_on(name, event)}
    return placeholders, kept


def _session_variables(project_dir: str, payload: Mapping[str, object]) -> dict[str, str]:
    """2.1.332's further session variables: ``AI_AGENT``, the child-notes folder and, on
    every event but SessionEnd, the messaging socket and token (names and shapes only:
    no socket listens, as hookcourse has no session to message)."""
    facts = hook_env_facts()
    session = payload.get("session_id")
    folder = re.sub(r"[^A-Za-z0-9]", "-", project_dir)
    claude_tmp = os.path.join(tempfile.gettempdir(), f"claude-{os.getuid()}")
    found = {
        "AI_AGENT": str(facts["AI_AGENT"]),
        "CLAUDE_CODE_CHILD_NOTES_DIR": os.path.join(
            claude_tmp, folder, session if isinstance(session, str) else "session", "started"
        ),
    }
    if payload.get("hook_event_name") not in facts["no_messaging_on"]:
        socks = os.path.join(tempfile.gettempdir(), "cc-socks")
        found["CLAUDE_CODE_MESSAGING_SOCKET"] = os.path.join(socks, f"{os.getpid()}.sock")
        found["CLAUDE_CODE_MESSAGING_TOKEN"] = secrets.token_hex(16)
    return found


def hook_environment(
    base_env: Mapping[str, str], exports: Mapping[str, str]
) -> tuple[dict[str, str], tuple[str, ...]]:
    """The environment a hook gets, and a note for every export it cannot carry.

    ``OTEL_*`` exporter variables are removed (reference §7a); an export holding a NUL
    is left out; lone surrogates become U+FFFD.
    """
    env = {name: value for name, value in base_env.items() if not name.startswith("OTEL_")}
    notes: list[str] = []
    for name, value in exports.items():
        if "\0" in value:
            notes.append(f"{name} is not exported: its value holds a NUL character")
            continue
        fixed = well_formed(value)
        if fixed != value:
            notes.append(f"{name} holds a lone surrogate, exported as U+FFFD")
        env[name] = fixed
    return env, tuple(notes)


def command_argv(
    handler: CommandHandler, placeholders: Mapping[str, str], shell_prefix: str | None = None
) -> tuple[str, ...]:
    """The argv a command handler runs: exec form as written, shell form through a shell.

    ``CLAUDE_CODE_SHELL_PREFIX`` wraps shell-form commands only: the prefix runs with
    the command as one argument.
    """
    command = substitute(handler.command, placeholders)
    if handler.args is not None:
        return (command, *(substitute(arg, placeholders) for arg in handler.args))
    if handler.shell == "powershell":
        return ("pwsh", "-NoProfile", "-Command", command)
    if shell_prefix:
        command = f"{shell_prefix} {shlex.quote(command)}"
    return (POSIX_SHELL, "-c", command)


def _shell_notes(handler: CommandHandler, exit_code: int | None) -> tuple[str, ...]:
    """What a user must know about the shell: a ``shell`` other than powershell is not
    used, and exit 127 means the shell found no such command (the hook never started)."""
    notes = []
    if handler.args is None and handler.shell not in (None, "powershell"):
        notes.append(
            f"shell {json.dumps(handler.shell)} is ignored: Claude Code 2.1.332 runs a shell-form "
            f"command with {POSIX_SHELL} -c whatever shell says"
        )
    if exit_code == NOT_FOUND_EXIT:
        notes.append(
            f"exit {NOT_FOUND_EXIT}: the shell found no such command (see stderr), so the "
            "program the command line names never started"
        )
    return tuple(notes)


def interpolate_headers(handler: HttpHandler, env: Mapping[str, str]) -> dict[str, str]:
    """Header values with ``$VAR`` filled for allowed names only; others become empty."""
    allowed = set(handler.allowed_env_vars)

    def value(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        return env.get(name, "") if name in allowed else ""

    return {name: _HEADER_VARIABLE.sub(value, text) for name, text in handler.headers}


# --- running ---------------------------------------------------------------------------------


def start_jobs(jobs: Sequence[Job], payload_json: str, setting: RunSetting) -> list[Execution]:
    """Run every job in parallel and return their executions in job order."""
    if not jobs:
        return []
    require_desktop(
        "running hook handlers",
        "each handler's exit code, stdout and stderr, and what Claude Code makes of them",
    )
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(run_jobs_async(jobs, payload_json, setting))
    # Called from inside an event loop (a notebook): run the batch on a loop of its own.
    return _in_thread(lambda: asyncio.run(run_jobs_async(jobs, payload_json, setting)))


run_jobs: Final = Edge(start_jobs)
"""How every batch of handlers runs: ``start_jobs``, unless a run swaps it (``run_jobs.swapped``:
a session replayed from the desktop's recorded answers in the browser, or recorded)."""


async def run_jobs_async(
    jobs: Sequence[Job], payload_json: str, setting: RunSetting
) -> list[Execution]:
    """The coroutine behind ``run_jobs``."""
    batch_start = time.monotonic()
    finished: list[int] = []
    sibling_exited_2: list[bool] = []

    async def one(index: int, job: Job) -> tuple[Execution, str]:
        started = time.monotonic()
        try:
            outcome = await _run_one(job, payload_json, setting)
        except asyncio.CancelledError:
            if not sibling_exited_2:
                raise
            outcome = _Outcome(hook_run(job, cancelled=True), notes=(CANCELLED_NOTE,))
        ended = time.monotonic()
        finished.append(index)
        execution = Execution(
            job=job,
            run=outcome.run,
            started_ms=(started - batch_start) * 1000,
            duration_ms=(ended - started) * 1000,
            finish_index=len(finished) - 1,
            argv=outcome.argv,
            truncated=outcome.truncated,
            notes=outcome.notes,
        )
        return execution, outcome.trace

    tasks = [asyncio.create_task(one(i, job)) for i, job in enumerate(jobs)]
    if setting.cancel_on_exit2:
        pending: set[asyncio.Task[tuple[Execution, str]]] = set(tasks)
        while pending and not sibling_exited_2:
            ready, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            if any(task.result()[0].run.exit_code == 2 for task in ready):
                sibling_exited_2.append(True)
                for task in pending:
                    task.cancel()
    done = await asyncio.gather(*tasks)
    escaped = kill_traced({trace for _, trace in done if trace})  # this batch's only
    return [_with_escapees(execution, trace, escaped) for execution, trace in done]


def _with_escapees(execution: Execution, trace: str, escaped: Counter[str]) -> Execution:
    count = escaped.get(trace, 0) if trace else 0
    if not count:
        return execution
    note = (
        f"{count} process(es) it started in a session of their own (setsid) outlived it; "
        "killed when the batch ended"
    )
    return replace(execution, notes=(*execution.notes, note))


async def _run_one(job: Job, payload_json: str, setting: RunSetting) -> _Outcome:
    match job.handler:
        case CommandHandler() as command:
            return await _run_command(job, command, payload_json, setting)
        case HttpHandler() as http:
            return await _run_http(job, http, payload_json, setting)
        case EvaluatorHandler() as evaluated:
            return await _run_evaluator(job, evaluated, payload_json, setting)
        case McpToolHandler():
            why = "mcp_tool hooks call a connected MCP server, and hookcourse has none to call"
            return _Outcome(hook_run(job, start_error=why))


CANCELLED_NOTE: Final = "cancelled when a sibling hook exited 2; its group was killed"


def hook_run(job: Job, **observed: Any) -> HookRun:
    """A HookRun for ``job``: nothing observed unless ``observed`` says otherwise."""
    fields: dict[str, Any] = {
        "exit_code": None,
        "stdout": "",
        "stderr": "",
        "timed_out": False,
        "start_error": None,
    }
    fields.update(observed)
    handler = job.handler
    return HookRun(
        handler_type=handler.type,
        label=handler.describe(),
        continue_on_block=handler.continue_on_block,
        command=handler.named_by,
        # An older release answered as (fire --claude-version) ignored onFailure.
        on_failure_block=handler.blocks_on_failure and on_failure_heeded(),
        **fields,
    )


def _cut_notes(cap: int, *streams: tuple[str, bool]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    cut = tuple(name for name, was_cut in streams if was_cut)
    return cut, tuple(f"{name} cut at {cap:,} bytes; the rest was read and dropped" for name in cut)


async def _run_command(
    job: Job, handler: CommandHandler, payload_json: str, setting: RunSetting
) -> _Outcome:
    argv = command_argv(handler, setting.placeholders, setting.base_env.get(SHELL_PREFIX_ENV))
    if any("\0" in word for word in argv):
        why = "the command holds a NUL character, which no program argument can carry"
        return _Outcome(hook_run(job, start_error=why), argv)
    sent = tuple(well_formed(word) for word in argv)
    env, notes = hook_environment(setting.base_env, setting.exports)
    if sent != argv:
        notes += ("the command holds a lone surrogate, passed as U+FFFD",)
    try:
        done = await run_process(
            sent,
            stdin=well_formed(payload_json).encode(),
            env=env,
            cwd=setting.cwd,
            timeout_s=job.timeout_s,
            cap=setting.output_cap,
            # Claude Code 2.1.332 does not wait for pipes a process the hook left running
            # holds open (x-background-*); a moment's grace lets a child that is about to
            # let go of them (a redirect just after its fork) do so.
            linger_s=HELD_OUTPUT_GRACE_S,
        )
    except CannotStart as error:
        return _Outcome(hook_run(job, start_error=str(error)), sent, notes=notes)
    if done.timed_out:
        timed_out = hook_run(job, timed_out=True)
        return _Outcome(timed_out, sent, notes=(*notes, *_overran(job, done)), trace=done.trace)
    truncated, cut_notes = _cut_notes(
        setting.output_cap, ("stdout", done.stdout_cut), ("stderr", done.stderr_cut)
    )
    if done.left_running:
        notes += ("it left processes running in its group; they were killed when it ended",)
    notes += _shell_notes(handler, done.exit_code)
    if done.output_held:
        notes += (
            "a process it left running still held its output when it exited: its stdout "
            "is not read (Claude Code 2.1.332), its stderr is read as it was then",
        )
    run = hook_run(
        job,
        exit_code=done.exit_code,
        stdout="" if done.output_held else done.stdout.decode("utf-8", "replace"),
        stderr=done.stderr.decode("utf-8", "replace"),
        stdout_cut=done.stdout_cut,
    )
    return _Outcome(run, sent, truncated, (*notes, *cut_notes), done.trace)


def _overran(job: Job, done: Finished) -> tuple[str, ...]:
    killed = [f"killed after the {job.timeout_s:g} s timeout; output dropped"]
    if done.exited_before_timeout is not None:
        killed.append(
            f"the hook itself exited {done.exited_before_timeout}, but a process it left "
            "behind kept its output open until the timeout"
        )
    return tuple(killed)


NODE_CONNECT_ERRORS: Final = frozenset(
    {"ECONNREFUSED", "ECONNRESET", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL", "ETIMEDOUT"}
)
"""Socket errors Node reports as ``connect <CODE> <host>:<port>``."""


def http_failure(url: str, reason: object) -> str:
    """The detail 2.1.332 gives for a POST that failed before any answer: Node's wording
    for the usual socket errors (``connect ECONNREFUSED 127.0.0.1:9``, ``getaddrinfo
    ENOTFOUND host``), else what Python says. For a host name, Node names the address it
    tried; urllib does not say which, so the name stands in for it."""
    import socket
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        host, port = parts.hostname or "", parts.port
    except ValueError:
        return f"POST {url} failed: {reason}"
    if port is None:
        port = 443 if parts.scheme == "https" else 80
    if isinstance(reason, socket.gaierror):
        return f"getaddrinfo ENOTFOUND {host}"
    code = errno.errorcode.get(reason.errno or 0) if isinstance(reason, OSError) else None
    if code in NODE_CONNECT_ERRORS:
        return f"connect {code} {host}:{port}"
    return f"POST {url} failed: {reason}"


async def _run_http(
    job: Job, handler: HttpHandler, payload_json: str, setting: RunSetting
) -> _Outcome:
    # Imported here: urllib.request adds about 20 ms to `hookcourse fire`'s start-up, and
    # most events have no http hook.
    import urllib.error
    import urllib.request

    url = handler.url
    headers = {"Content-Type": "application/json"}
    headers.update(interpolate_headers(handler, setting.base_env))
    cap = setting.output_cap

    def post() -> tuple[int, bytes]:
        request = urllib.request.Request(
            url, well_formed(payload_json).encode(), headers, method="POST"
        )
        try:
            with urllib.request.urlopen(request, timeout=job.timeout_s) as response:
                return response.status, response.read(cap + 1)
        except urllib.error.HTTPError as error:
            return error.code, error.read(cap + 1)

    try:
        status, body = await asyncio.wait_for(_in_thread_async(post), job.timeout_s)
    except TimeoutError:
        return _Outcome(
            hook_run(job, timed_out=True), notes=(f"no answer within {job.timeout_s:g} s",)
        )
    except (urllib.error.URLError, OSError, ValueError) as error:
        reason = getattr(error, "reason", error)
        return _Outcome(hook_run(job, start_error=http_failure(url, reason)))
    truncated, notes = _cut_notes(cap, ("body", len(body) > cap))
    text = body[:cap].decode("utf-8", "replace")
    run = hook_run(job, stdout=text, http_status=status, stdout_cut=bool(truncated))
    return _Outcome(run, truncated=truncated, notes=notes)


async def _run_evaluator(
    job: Job, handler: EvaluatorHandler, payload_json: str, setting: RunSetting
) -> _Outcome:
    kind = handler.type
    if setting.evaluator is None:
        missing = hook_run(job, evaluator_missing=True)
        return _Outcome(
            missing, notes=(f"no evaluator configured, so no model judged this {kind} hook",)
        )
    request = EvaluationRequest(
        hook_type=kind,
        prompt=evaluation_prompt(handler.prompt, payload_json),
        model=handler.model,
        event=setting.event,
        payload_json=payload_json,
        timeout_s=job.timeout_s,
    )
    try:
        # A CommandEvaluator stops itself at the timeout (and kills its group); the outer
        # limit, a little later, bounds any other evaluator without racing that kill.
        limit = job.timeout_s + REAP_GRACE_S + 1
        answer = await asyncio.wait_for(setting.evaluator.evaluate(request), limit)
    except (TimeoutError, EvaluatorTimeout):
        return _Outcome(
            hook_run(job, timed_out=True),
            notes=(f"the evaluator gave no answer within {job.timeout_s:g} s; it was killed",),
        )
    except Exception as error:  # a user-supplied evaluator may fail in any way
        return _Outcome(hook_run(job, start_error=f"the evaluator failed: {error}"))
    run = hook_run(job, stdout=json.dumps(dict(answer)), evaluator=dict(answer))
    return _Outcome(run)


def _in_thread(work: Callable[[], T]) -> T:
    """Run ``work`` on a fresh thread and wait for it."""
    box: list[T] = []
    errors: list[BaseException] = []

    def target() -> None:
        try:
            box.append(work())
        except BaseException as error:
            errors.append(error)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join()
    if errors:
        raise errors[0]
    return box[0]


def _in_thread_async(work: Callable[[], T]) -> Awaitable[T]:
    """Run blocking ``work`` on a daemon thread; a timed-out call is abandoned, not awaited."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def deliver(result: T | None, error: BaseException | None) -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)  # type: ignore[arg-type]

    def target() -> None:
        try:
            outcome: tuple[T | None, BaseException | None] = (work(), None)
        except BaseException as error:
            outcome = (None, error)
        # A call abandoned at its timeout may end after the loop has closed.
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(deliver, *outcome)

    threading.Thread(target=target, daemon=True).start()
    return future
