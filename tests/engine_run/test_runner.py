"""The runner as a library: evaluators, event loops, placeholders and headers."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Mapping
from pathlib import Path

import pytest

from hookcourse.engine.runner import (
    CallableEvaluator,
    CommandEvaluator,
    EvaluationRequest,
    Job,
    RunSetting,
    command_argv,
    evaluation_prompt,
    interpolate_headers,
    run_jobs,
    substitute,
)
from hookcourse.engine.settings import (
    CommandHandler,
    EvaluatorHandler,
    Handler,
    HttpHandler,
    Origin,
    SettingsSource,
)
from tests.support.processes import ended

ORIGIN = Origin(SettingsSource.PROJECT, "settings.json", ("hooks", "Stop", 0, "hooks", 0))


def handler(kind: str, **fields: object) -> Handler:
    if kind in ("prompt", "agent"):
        return EvaluatorHandler(type=kind, origin=ORIGIN, **fields)  # type: ignore[arg-type]
    kinds = {"command": CommandHandler, "http": HttpHandler}
    return kinds[kind](origin=ORIGIN, **fields)  # type: ignore[arg-type]


def setting(tmp_path: Path, evaluator: object = None) -> RunSetting:
    return RunSetting(
        cwd=str(tmp_path),
        event="Stop",
        base_env=dict(os.environ),
        placeholders={"CLAUDE_PROJECT_DIR": str(tmp_path)},
        exports={"CLAUDE_PROJECT_DIR": str(tmp_path), "CLAUDECODE": "1"},
        evaluator=evaluator,  # type: ignore[arg-type]
    )


def test_callable_evaluator_receives_the_prompt_with_the_payload(tmp_path: Path) -> None:
    prompts: list[str] = []

    def judge(prompt: str) -> Mapping[str, object]:
        prompts.append(prompt)
        return {"ok": False, "reason": "not yet"}

    job = Job(handler("prompt", prompt="Check: $ARGUMENTS"), 30)
    (execution,) = run_jobs([job], '{"a":1}', setting(tmp_path, CallableEvaluator(judge)))
    assert prompts == ['Check: {"a":1}']
    assert execution.run.evaluator == {"ok": False, "reason": "not yet"}
    assert execution.run.evaluator_missing is False


def test_a_failing_evaluator_is_reported_not_raised(tmp_path: Path) -> None:
    def broken(prompt: str) -> Mapping[str, object]:
        raise RuntimeError("model offline")

    job = Job(handler("agent", prompt="x"), 30)
    (execution,) = run_jobs([job], "{}", setting(tmp_path, CallableEvaluator(broken)))
    assert execution.run.start_error == "the evaluator failed: model offline"


def test_a_slow_evaluator_times_out(tmp_path: Path) -> None:
    evaluator = CommandEvaluator("sleep 30")
    (execution,) = run_jobs(
        [Job(handler("prompt", prompt="x"), 0.5)], "{}", setting(tmp_path, evaluator)
    )
    assert execution.run.timed_out is True


def test_command_evaluator_rejects_output_that_is_not_an_answer(tmp_path: Path) -> None:
    request = EvaluationRequest("prompt", "p", None, "Stop", "{}", 10)
    with pytest.raises(Exception, match="not JSON"):
        asyncio.run(CommandEvaluator("echo maybe").evaluate(request))
    with pytest.raises(Exception, match="exited 3: bad"):
        asyncio.run(CommandEvaluator("echo bad >&2; exit 3").evaluate(request))


def test_prompt_without_arguments_gets_the_payload_appended() -> None:
    assert evaluation_prompt("Is it done?", "{}") == "Is it done?\n\n{}"


def test_run_jobs_works_inside_a_running_event_loop(tmp_path: Path) -> None:
    async def from_a_notebook() -> int | None:
        (execution,) = run_jobs(
            [Job(handler("command", command="exit 3"), 10)], "{}", setting(tmp_path)
        )
        return execution.run.exit_code

    assert asyncio.run(from_a_notebook()) == 3


def test_placeholders_and_command_forms() -> None:
    places = {"CLAUDE_PROJECT_DIR": "/p q"}
    assert substitute("${CLAUDE_PROJECT_DIR}/x ${OTHER} $CLAUDE_PROJECT_DIR", places) == (
        "/p q/x ${OTHER} $CLAUDE_PROJECT_DIR"
    )
    exec_form = handler(
        "command", command="${CLAUDE_PROJECT_DIR}/h.sh", args=("${CLAUDE_PROJECT_DIR}",)
    )
    assert command_argv(exec_form, places) == ("/p q/h.sh", "/p q")
    shell_form = handler("command", command="${CLAUDE_PROJECT_DIR}/h.sh", args=None)
    assert command_argv(shell_form, places) == ("/bin/sh", "-c", "/p q/h.sh")
    bash_form = handler("command", command="echo", shell="bash")
    # Claude Code 2.1.332 runs shell-form hooks under /bin/sh -c whatever "shell" says.
    assert command_argv(bash_form, places) == ("/bin/sh", "-c", "echo")


def test_headers_fill_only_allowed_variables() -> None:
    http = handler(
        "http",
        url="http://x",
        headers=(("A", "$ONE-${TWO}-$THREE"),),
        allowed_env_vars=("ONE", "TWO"),
    )
    assert interpolate_headers(http, {"ONE": "1", "THREE": "3"}) == {"A": "1--"}


def test_a_process_that_escapes_the_group_does_not_stall_the_runner(tmp_path: Path) -> None:
    """It started its own session, so the group kill misses it, and it holds the pipes open."""
    pid_file = tmp_path / "escaped.pid"
    body = f'setsid sleep 30 & echo $! > "{pid_file}"; sleep 30'
    start = time.monotonic()
    (execution,) = run_jobs([Job(handler("command", command=body), 0.5)], "{}", setting(tmp_path))
    elapsed = time.monotonic() - start
    assert execution.run.timed_out is True
    # Bounded by the timeout plus the reaping grace, far below the escapee's 30 s.
    assert elapsed < 10
    # It carried the batch's trace in its environment, so it was found and killed too.
    assert any("session of their own" in note for note in execution.notes)
    assert ended(int(pid_file.read_text()))
