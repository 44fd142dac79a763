"""Runs hook handlers for real, all at once: command, http, prompt and agent.

* ``command``: shell form runs ``sh -c COMMAND`` (``bash -c`` with ``"shell": "bash"``);
  exec form (``args`` set) runs ``[command, *args]`` with no shell. Each starts in
  its own session, so its process group can be killed whole. The payload goes to
  stdin; a hook that never reads it cannot stall the runner. stdout and stderr are
  kept up to ``OUTPUT_CAP_BYTES`` each; the rest is read and thrown away. When the
  timeout passes, the whole group gets SIGKILL and the output is dropped, as
  Claude Code drops a timed-out hook's output. A program that cannot start is
  reported, not raised.
* ``http``: a real POST of the payload as JSON; header ``$VAR`` / ``${VAR}`` are
  filled only for names in ``allowedEnvVars`` (others become empty strings).
* ``prompt`` / ``agent``: handed to an ``Evaluator``; with none configured the run
  says so (``evaluator_missing``) and nothing pretends a model answered.
* ``mcp_tool``: needs a connected MCP server, which this runner has not; it is
  reported as not started (a non-blocking error, as for a disconnected server).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import subprocess
import threading
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol, TypeVar

from hookcourse.browser import require_desktop

from .reading import HookRun
from .settings import Handler

OUTPUT_CAP_BYTES: Final = 1_048_576
"""How much of each of stdout and stderr is kept per hook (1 MiB); the rest is discarded."""

PLACEHOLDERS: Final = ("CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA")
_PLACEHOLDER: Final = re.compile(r"\$\{([A-Z_]+)\}")
_HEADER_VARIABLE: Final = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")
_READ_CHUNK: Final = 65_536
REAP_GRACE_S: Final = 1.0

T = TypeVar("T")


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

    def evaluate(self, request: EvaluationRequest) -> Mapping[str, object]: ...


class EvaluatorError(Exception):
    """The evaluator ran but gave no usable answer; the message says why."""


@dataclass(frozen=True)
class CallableEvaluator:
    """A Python function from the prompt text to the ``{ok, reason}`` answer."""

    answer: Callable[[str], Mapping[str, object]]

    def evaluate(self, request: EvaluationRequest) -> Mapping[str, object]:
        result = self.answer(request.prompt)
        if not isinstance(result, Mapping):
            raise EvaluatorError(f"the evaluator returned {type(result).__name__}, not a mapping")
        return result


@dataclass(frozen=True)
class CommandEvaluator:
    """A shell command that reads the prompt on stdin and prints ``{"ok": ..., "reason": ...}``.

    It also gets ``HOOKCOURSE_HOOK_TYPE``, ``HOOKCOURSE_HOOK_EVENT`` and, when the
    handler names one, ``HOOKCOURSE_HOOK_MODEL`` in its environment.
    """

    command: str

    def evaluate(self, request: EvaluationRequest) -> Mapping[str, object]:
        env = dict(os.environ)
        env["HOOKCOURSE_HOOK_TYPE"] = request.hook_type
        env["HOOKCOURSE_HOOK_EVENT"] = request.event
        if request.model is not None:
            env["HOOKCOURSE_HOOK_MODEL"] = request.model
        with subprocess.Popen(
            ["sh", "-c", self.command],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            start_new_session=True,
        ) as process:
            try:
                out, err = process.communicate(request.prompt.encode(), timeout=request.timeout_s)
            except subprocess.TimeoutExpired:
                _kill_group(process.pid)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.communicate(timeout=REAP_GRACE_S)
                raise EvaluatorError(f"the evaluator ran past {request.timeout_s:g} s") from None
        text = out.decode("utf-8", "replace").strip()
        if process.returncode != 0:
            detail = err.decode("utf-8", "replace").strip().splitlines()[:1]
            raise EvaluatorError(
                f"the evaluator exited {process.returncode}" + (f": {detail[0]}" if detail else "")
            )
        try:
            answer = json.loads(text)
        except ValueError:
            raise EvaluatorError(f"the evaluator printed {text[:80]!r}, not JSON") from None
        if not isinstance(answer, dict):
            raise EvaluatorError("the evaluator printed JSON that is not an object")
        return answer


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


def hook_exports(
    project_dir: str,
    payload: Mapping[str, object],
    plugin_root: str | None = None,
    plugin_data: str | None = None,
) -> tuple[dict[str, str], dict[str, str]]:
    """The placeholder values, and every variable exported to hooks (placeholders included)."""
    placeholders = {"CLAUDE_PROJECT_DIR": project_dir}
    if plugin_root is not None:
        placeholders["CLAUDE_PLUGIN_ROOT"] = plugin_root
    if plugin_data is not None:
        placeholders["CLAUDE_PLUGIN_DATA"] = plugin_data
    exports = dict(placeholders)
    exports["CLAUDECODE"] = "1"
    session_id = payload.get("session_id")
    if isinstance(session_id, str):
        exports["CLAUDE_CODE_SESSION_ID"] = session_id
    effort = payload.get("effort")
    level = effort.get("level") if isinstance(effort, dict) else None
    if isinstance(level, str):
        exports["CLAUDE_EFFORT"] = level
    return placeholders, exports


def substitute(text: str, placeholders: Mapping[str, str]) -> str:
    """Replace ``${NAME}`` for the known placeholders; anything else is left as written."""
    return _PLACEHOLDER.sub(lambda m: placeholders.get(m.group(1), m.group(0)), text)


def command_argv(handler: Handler, placeholders: Mapping[str, str]) -> tuple[str, ...]:
    """The argv a command handler runs: exec form as written, shell form through a shell."""
    command = substitute(handler.command or "", placeholders)
    if handler.args is not None:
        return (command, *(substitute(arg, placeholders) for arg in handler.args))
    if handler.shell == "bash":
        return ("bash", "-c", command)
    if handler.shell == "powershell":
        return ("pwsh", "-NoProfile", "-Command", command)
    return ("sh", "-c", command)


def interpolate_headers(handler: Handler, env: Mapping[str, str]) -> dict[str, str]:
    """Header values with ``$VAR`` filled for allowed names only; others become empty."""
    allowed = set(handler.allowed_env_vars)

    def value(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        return env.get(name, "") if name in allowed else ""

    return {name: _HEADER_VARIABLE.sub(value, text) for name, text in handler.headers}


# --- running ---------------------------------------------------------------------------------


def run_jobs(jobs: Sequence[Job], payload_json: str, setting: RunSetting) -> list[Execution]:
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


async def run_jobs_async(
    jobs: Sequence[Job], payload_json: str, setting: RunSetting
) -> list[Execution]:
    """The coroutine behind ``run_jobs``."""
    batch_start = time.monotonic()
    finished: list[int] = []

    async def one(index: int, job: Job) -> Execution:
        started = time.monotonic()
        outcome = await _run_one(job, payload_json, setting)
        ended = time.monotonic()
        finished.append(index)
        return Execution(
            job=job,
            run=outcome.run,
            started_ms=(started - batch_start) * 1000,
            duration_ms=(ended - started) * 1000,
            finish_index=len(finished) - 1,
            argv=outcome.argv,
            truncated=outcome.truncated,
            notes=outcome.notes,
        )

    return list(await asyncio.gather(*(one(i, job) for i, job in enumerate(jobs))))


async def _run_one(job: Job, payload_json: str, setting: RunSetting) -> _Outcome:
    handler = job.handler
    if handler.type == "command":
        return await _run_command(job, payload_json, setting)
    if handler.type == "http":
        return await _run_http(job, payload_json, setting)
    if handler.type in ("prompt", "agent"):
        return await _run_evaluator(job, payload_json, setting)
    why = "mcp_tool hooks call a connected MCP server, and hookcourse has none to call"
    return _Outcome(hook_run(job, start_error=why))


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
        **fields,
    )


async def _run_command(job: Job, payload_json: str, setting: RunSetting) -> _Outcome:
    argv = command_argv(job.handler, setting.placeholders)
    env = {**setting.base_env, **setting.exports}
    try:
        process = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=setting.cwd,
            env=env,
            start_new_session=True,
        )
    except OSError as error:
        reason = error.strerror or str(error)
        return _Outcome(hook_run(job, start_error=f"cannot start {argv[0]}: {reason}"), argv)
    assert process.stdin and process.stdout and process.stderr
    feeder = asyncio.create_task(_feed(process.stdin, payload_json.encode()))
    readers = (
        asyncio.create_task(_drain(process.stdout, setting.output_cap)),
        asyncio.create_task(_drain(process.stderr, setting.output_cap)),
    )
    try:
        await asyncio.wait_for(asyncio.gather(process.wait(), *readers), job.timeout_s)
    except TimeoutError:
        exited = process.returncode
        _kill_group(process.pid)
        for task in (feeder, *readers):
            task.cancel()
        await _reap(process)
        killed = [f"killed after the {job.timeout_s:g} s timeout; output dropped"]
        if exited is not None:
            killed.append(
                f"the hook itself exited {exited}, but a process it left behind kept its "
                "output open until the timeout"
            )
        return _Outcome(hook_run(job, timed_out=True), argv, notes=tuple(killed))
    feeder.cancel()
    (out, out_cut), (err, err_cut) = (reader.result() for reader in readers)
    truncated = tuple(name for name, cut in (("stdout", out_cut), ("stderr", err_cut)) if cut)
    notes = tuple(f"{name} cut at {setting.output_cap} bytes" for name in truncated)
    run = hook_run(
        job,
        exit_code=process.returncode,
        stdout=out.decode("utf-8", "replace"),
        stderr=err.decode("utf-8", "replace"),
    )
    return _Outcome(run, argv, truncated, notes)


async def _reap(process: asyncio.subprocess.Process) -> None:
    """Wait for the killed hook; let go of pipes a process that left the group still holds."""
    try:
        await asyncio.wait_for(asyncio.shield(process.wait()), REAP_GRACE_S)
    except TimeoutError:
        # wait() also waits for the pipes to close, which a process that started its own
        # session (and so escaped the group kill) may never do.
        transport = getattr(process, "_transport", None)
        if isinstance(transport, asyncio.SubprocessTransport):
            transport.close()


async def _feed(stdin: asyncio.StreamWriter, data: bytes) -> None:
    """Write the payload; a hook that exits or closes stdin without reading is fine."""
    try:
        stdin.write(data)
        await stdin.drain()
        stdin.close()
        await stdin.wait_closed()
    except (BrokenPipeError, ConnectionResetError):
        pass


async def _drain(stream: asyncio.StreamReader, cap: int) -> tuple[bytes, bool]:
    """Read a stream to its end, keeping the first ``cap`` bytes."""
    kept = bytearray()
    cut = False
    while chunk := await stream.read(_READ_CHUNK):
        room = cap - len(kept)
        kept += chunk[:room]
        cut = cut or len(chunk) > room
    return bytes(kept), cut


def _kill_group(pid: int) -> None:
    """SIGKILL the process group led by ``pid``: the hook and everything it started."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


async def _run_http(job: Job, payload_json: str, setting: RunSetting) -> _Outcome:
    # Imported here: urllib.request adds about 20 ms to `hookcourse fire`'s start-up, and
    # most events have no http hook.
    import urllib.error
    import urllib.request

    handler = job.handler
    url = handler.url or ""
    headers = {"Content-Type": "application/json"}
    headers.update(interpolate_headers(handler, setting.base_env))
    request = urllib.request.Request(url, payload_json.encode(), headers, method="POST")

    def post() -> tuple[int, str]:
        try:
            with urllib.request.urlopen(request, timeout=job.timeout_s) as response:
                return response.status, response.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode("utf-8", "replace")

    try:
        status, body = await asyncio.wait_for(_in_thread_async(post), job.timeout_s)
    except TimeoutError:
        return _Outcome(
            hook_run(job, timed_out=True), notes=(f"no answer within {job.timeout_s:g} s",)
        )
    except (urllib.error.URLError, OSError, ValueError) as error:
        reason = getattr(error, "reason", error)
        return _Outcome(hook_run(job, start_error=f"POST {url} failed: {reason}"))
    run = hook_run(job, stdout=body, http_status=status)
    return _Outcome(run)


async def _run_evaluator(job: Job, payload_json: str, setting: RunSetting) -> _Outcome:
    handler = job.handler
    kind = handler.type
    if setting.evaluator is None:
        missing = hook_run(job, evaluator_missing=True)
        return _Outcome(
            missing, notes=(f"no evaluator configured, so no model judged this {kind} hook",)
        )
    request = EvaluationRequest(
        hook_type=kind,
        prompt=evaluation_prompt(handler.prompt or "", payload_json),
        model=handler.model,
        event=setting.event,
        payload_json=payload_json,
        timeout_s=job.timeout_s,
    )
    evaluator = setting.evaluator
    try:
        answer = await asyncio.wait_for(
            _in_thread_async(lambda: evaluator.evaluate(request)), job.timeout_s
        )
    except TimeoutError:
        return _Outcome(
            hook_run(job, timed_out=True),
            notes=(f"the evaluator gave no answer within {job.timeout_s:g} s",),
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
