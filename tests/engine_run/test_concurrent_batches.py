"""Batches run side by side in one program (threads: a notebook's guard check) stay apart.

The sweep at the end of a batch kills the processes that escaped their group; it must
not kill a hook another batch is still waiting for.
"""

from __future__ import annotations

import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from hookcourse.engine.runner import Job, RunSetting, run_jobs
from hookcourse.engine.settings import CommandHandler, Origin, SettingsSource

ORIGIN = Origin(SettingsSource.PROJECT, "settings.json", ("hooks", "PreToolUse", 0, "hooks", 0))


def test_a_batch_that_ends_leaves_other_batches_hooks_alone(tmp_path: Path) -> None:
    setting = RunSetting(str(tmp_path), "PreToolUse", dict(os.environ), {}, {})
    slow = CommandHandler(
        origin=ORIGIN,
        command=sys.executable,
        args=("-c", "import time; time.sleep(0.4); print('done')"),
    )
    quick = CommandHandler(origin=ORIGIN, command=sys.executable, args=("-c", "pass"))

    def batch(handler: CommandHandler) -> int | None:
        return run_jobs([Job(handler, 10)], "{}", setting)[0].run.exit_code

    with ThreadPoolExecutor(4) as pool:
        slow_runs = [pool.submit(batch, slow) for _ in range(2)]
        quick_runs = [pool.submit(batch, quick) for _ in range(6)]
        assert [run.result() for run in quick_runs] == [0] * 6
        assert [run.result() for run in slow_runs] == [0, 0]
