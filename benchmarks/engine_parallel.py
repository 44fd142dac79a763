"""Benchmarks for the hook runner (issue 4, point 8). Prints figures; not a test.

    .venv/bin/python benchmarks/engine_parallel.py [--runs N]

(a) 16 matching hooks that each ``sleep 0.3``: wall time for all of them together,
    through the runner alone and through a whole ``fire`` (settings file, matching,
    reading, merging). Target: at most 0.45 s.
(b) Per-hook overhead: one exec-form hook run through the runner, against a bare
    ``subprocess.run`` of the same program with the same pipes.
(c) A hook that leaves a sleeping grandchild and overruns its timeout: time from
    the deadline until the hook and the grandchild are both gone. Target: 0.2 s.

Run it on a quiet machine (check ``uptime``); medians of ``--runs`` repetitions.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from hookcourse.engine.api import FireRequest, fire
from hookcourse.engine.runner import Job, RunSetting, run_jobs
from hookcourse.engine.settings import CommandHandler, Origin, SettingsPlaces, SettingsSource

ORIGIN = Origin(SettingsSource.FLAG, "benchmark", ())
PARALLEL_HOOKS = 16
SLEEP_S = 0.3


def setting(directory: str) -> RunSetting:
    return RunSetting(
        cwd=directory,
        event="PreToolUse",
        base_env=dict(os.environ),
        placeholders={"CLAUDE_PROJECT_DIR": directory},
        exports={"CLAUDE_PROJECT_DIR": directory, "CLAUDECODE": "1"},
    )


def command(text: str, args: tuple[str, ...] | None = None) -> CommandHandler:
    return CommandHandler(origin=ORIGIN, command=text, args=args)


def parallel_runner(directory: str) -> float:
    jobs = [Job(command(f"sleep {SLEEP_S}"), 10) for _ in range(PARALLEL_HOOKS)]
    start = time.perf_counter()
    executions = run_jobs(jobs, "{}", setting(directory))
    elapsed = time.perf_counter() - start
    assert all(e.run.exit_code == 0 for e in executions)
    return elapsed


def parallel_fire(directory: str) -> float:
    project = Path(directory)
    # Distinct commands: identical handlers would be deduplicated and run once.
    handlers = [
        {"type": "command", "command": f"sleep {SLEEP_S}; : {i}"} for i in range(PARALLEL_HOOKS)
    ]
    settings = {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": handlers}]}}
    (project / "settings.json").write_text(json.dumps(settings))
    payload = {
        "session_id": "bench",
        "transcript_path": "/dev/null",
        "cwd": directory,
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "ls"},
        "tool_use_id": "toolu_bench",
    }
    request = FireRequest(
        event="PreToolUse",
        payload_text=json.dumps(payload),
        payload_name="benchmark",
        places=SettingsPlaces(
            project, None, (str(project / "settings.json"),), sources=frozenset()
        ),
    )
    start = time.perf_counter()
    report = fire(request)
    elapsed = time.perf_counter() - start
    assert len(report.hooks) == PARALLEL_HOOKS
    return elapsed


def one_hook(directory: str) -> float:
    job = Job(command("/bin/true", ()), 10)
    start = time.perf_counter()
    (execution,) = run_jobs([job], "{}", setting(directory))
    elapsed = time.perf_counter() - start
    assert execution.run.exit_code == 0
    return elapsed


def batch_of_true(directory: str) -> float:
    jobs = [Job(command("/bin/true", ()), 10) for _ in range(PARALLEL_HOOKS)]
    start = time.perf_counter()
    run_jobs(jobs, "{}", setting(directory))
    return time.perf_counter() - start


def bare_spawn(directory: str) -> float:
    start = time.perf_counter()
    subprocess.run(
        ["/bin/true"],
        input=b"{}",
        capture_output=True,
        cwd=directory,
        start_new_session=True,
        check=True,
    )
    return time.perf_counter() - start


def alive(pid: int) -> bool:
    """True while ``pid`` runs; a zombie waiting for its parent to reap it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def timeout_kill(directory: str, timeout_s: float = 0.5) -> float:
    pids = Path(directory) / "pids"
    pids.unlink(missing_ok=True)
    body = f'echo $$ > "{pids}"; sleep 30 & echo $! >> "{pids}"; sleep 30'
    job = Job(command(body), timeout_s)
    start = time.perf_counter()
    (execution,) = run_jobs([job], "{}", setting(directory))
    # The deadline counted from before the batch started: a conservative (early) estimate.
    deadline = start + timeout_s
    assert execution.run.timed_out
    hook, grandchild = (int(line) for line in pids.read_text().split())
    while alive(hook) or alive(grandchild):
        if time.perf_counter() - deadline > 5:
            raise AssertionError("the hook or its grandchild survived the timeout")
        time.sleep(0.001)
    return time.perf_counter() - deadline


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="repetitions per figure (default 7)")
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as directory:
        print(f"load average before: {os.getloadavg()[0]:.2f} (cores: {os.cpu_count()})")
        runner = [parallel_runner(directory) for _ in range(runs)]
        whole = [parallel_fire(directory) for _ in range(runs)]
        print(
            f"(a) {PARALLEL_HOOKS} hooks x sleep {SLEEP_S} s: runner median "
            f"{median_ms(runner):.0f} ms (max {max(runner) * 1000:.0f}), whole fire median "
            f"{median_ms(whole):.0f} ms (max {max(whole) * 1000:.0f}); target <= 450 ms"
        )
        spawns = runs * 10
        hooks = [one_hook(directory) for _ in range(spawns)]
        bare = [bare_spawn(directory) for _ in range(spawns)]
        print(
            f"(b) one /bin/true hook through the runner: median {median_ms(hooks):.2f} ms; "
            f"bare subprocess.run: {median_ms(bare):.2f} ms; overhead "
            f"{median_ms(hooks) - median_ms(bare):.2f} ms per hook ({spawns} runs each)"
        )
        batch = [batch_of_true(directory) for _ in range(runs)]
        print(
            f"    {PARALLEL_HOOKS} /bin/true hooks in one batch: median {median_ms(batch):.1f} ms "
            f"({median_ms(batch) / PARALLEL_HOOKS:.2f} ms per hook)"
        )
        kills = [timeout_kill(directory) for _ in range(runs)]
        print(
            f"(c) timed-out hook and its sleeping grandchild gone {median_ms(kills):.1f} ms "
            f"after the deadline (median; max {max(kills) * 1000:.1f}); target <= 200 ms"
        )
        print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
