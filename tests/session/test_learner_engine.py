"""``hookcourse session --engine``: a learner's module plays a session script as a third engine,
in a child process; the whole-loop check against the recorded real runs; the live Stop hook."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookcourse.course.labs.live_stop import LiveStopHook, live_stop_loop
from hookcourse.session import command
from hookcourse.session.learner import (
    LearnerError,
    check_loop,
    run_learner_module,
)
from hookcourse.session.loop import run_session
from hookcourse.session.script import load
from hookcourse.session.transcript import differences, render
from hookcourse.stages.run_hooks.solution import run_hooks
from hookcourse.stages.stop_loop.solution import run_stop_loop

ROOT = Path(__file__).resolve().parents[2]
GUARD_RETRY = ROOT / "fixtures" / "sessions" / "guard-retry.json"
TEACHER = """
from hookcourse.stages.stop_loop.solution import run_stop_loop
from hookcourse.stages.run_hooks.solution import run_hooks
"""
STOPS_AT_ONCE = (
    TEACHER
    + '''
def run_stop_loop(hook, cap):
    """A bug: one attempt, whatever the hook answers."""
    hook["whenInactive"]
    return [{"stopHookActive": False, "continues": False, "reason": None, "capped": False}]
'''
)
TINY = {"name": "tiny", "prompt": "Say hello.", "turns": [{"text": "Hello."}]}


def module(tmp_path: Path, text: str, name: str = "my_hooks.py") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def tiny(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(TINY), encoding="utf-8")
    return path


def test_the_teachers_module_gives_the_engines_transcript_exactly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    teacher = module(tmp_path, TEACHER)
    ours = run_learner_module(teacher, GUARD_RETRY)
    engine = run_session(load(GUARD_RETRY))
    assert differences(ours, engine) == []
    # Line for line, past the header that names the engine.
    assert render(ours).splitlines()[1:] == render(engine).splitlines()[1:]
    status = command.main([str(GUARD_RETRY), "--engine", str(teacher), "--json"])
    document = json.loads(capsys.readouterr().out)
    assert status == command.HELD
    assert document["sessions"][0]["transcripts"][0]["engine"] == "your loop (my_hooks.py)"


def test_a_buggy_module_gives_a_readable_difference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    buggy = module(tmp_path, STOPS_AT_ONCE, "stop_once.py")
    status = command.main([str(GUARD_RETRY), "--engine", str(buggy), "--compare"])
    out = capsys.readouterr().out
    assert status == command.BROKEN
    assert "≠ request 7: only hookcourse's engine makes it" in out
    assert "✗ your loop (stop_once.py): Stop hooks run 2 times: they ran 1 times" in out


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("raise RuntimeError('boom')\n", "importing it raised RuntimeError: boom"),
        ("def run_hooks(:\n", "my_hooks.py:1: "),
        ("x = 1\n", "defines no run_hooks and no run_stop_loop: write it in notebook 08"),
        (
            TEACHER + "def run_hooks(hooks, tool, results):\n    return {}[1]\n",
            "your run_hooks raised KeyError: 1",
        ),
        (
            TEACHER + "def run_stop_loop(hook, cap):\n    return 'stop'\n",
            "your run_stop_loop returned a str; return a list",
        ),
    ],
)
def test_a_module_that_breaks_gets_one_line_and_no_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, said: str
) -> None:
    script = GUARD_RETRY if "run_hooks(hooks" in text else tiny(tmp_path)
    status = command.main([str(script), "--engine", str(module(tmp_path, text))])
    err = capsys.readouterr().err
    assert status == command.CANNOT_RUN
    assert said in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_a_module_that_hangs_or_prints_is_bounded_and_still_heard(tmp_path: Path) -> None:
    hangs = module(tmp_path, TEACHER + "def run_stop_loop(hook, cap):\n    while True: pass\n")
    with pytest.raises(LearnerError, match=r"did not finish .* within 3 s"):
        run_learner_module(hangs, tiny(tmp_path), timeout_s=3)
    talks = module(tmp_path, "print('{junk')\n" + TEACHER, "talks.py")
    transcript = run_learner_module(talks, tiny(tmp_path))
    assert transcript["end"] == {"reason": "completed"}


def test_the_teachers_loop_reproduces_the_recorded_real_runs_the_notebook_does_not_show() -> None:
    report = check_loop(run_hooks, run_stop_loop)
    assert report.all_pass, str(report)
    assert "2 of 2 sessions" in str(report)


def test_check_loop_names_the_difference_a_capless_stop_loop_makes() -> None:
    def no_cap(hook: dict[str, dict[str, object]], cap: int) -> list[dict[str, object]]:
        return run_stop_loop(hook, 100)

    report = check_loop(run_hooks, no_cap)
    assert not report.all_pass
    assert "✗ stop-loop" in str(report) and "✓ decide-modify-inject" in str(report)


def test_a_live_stop_hook_runs_once_per_attempt_with_the_flag_it_is_read_with() -> None:
    seen: list[bool] = []

    def blocks_twice(active: bool) -> dict[str, object]:
        seen.append(active)
        code = 2 if len(seen) <= 2 else 0
        return {"code": code, "stdout": "", "stderr": "not yet\n" if code else ""}

    turns, hook = live_stop_loop(blocks_twice, 8, run_stop_loop)
    assert seen == [False, True, True]
    assert [t["continues"] for t in turns] == [True, True, False]  # type: ignore[index, union-attr]
    assert [active for active, _ in hook.asked] == seen
    capped, _ = live_stop_loop(lambda active: {"code": 2, "stderr": "again"}, 2, run_stop_loop)
    assert [t["capped"] for t in capped] == [False, False, True]  # type: ignore[index, union-attr]
    assert sorted(LiveStopHook(blocks_twice)) == ["whenActive", "whenInactive"]


def test_a_notebook_kernels_running_event_loop_does_not_stop_the_loop() -> None:
    import asyncio

    from hookcourse.session.learner import play

    async def in_a_kernel() -> object:
        return play(run_hooks, run_stop_loop, "decide-modify-inject")

    transcript = asyncio.run(in_a_kernel())
    assert isinstance(transcript, dict) and transcript["end"] == {"reason": "completed"}


def test_engine_with_real_or_a_missing_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    teacher = module(tmp_path, TEACHER)
    assert command.main([str(GUARD_RETRY), "--engine", str(teacher), "--real"]) == 2
    assert command.main([str(GUARD_RETRY), "--engine", str(tmp_path / "none.py")]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].endswith(
        "--engine: cannot go with --real; fix: compare your module with "
        "the engine (--compare), or run --real alone"
    )
    assert lines[1].endswith("none.py: no such file; give the path of your my_hooks.py")


def test_a_graded_program_plays_as_an_engine_too(tmp_path: Path) -> None:
    """A ``your_program.sh`` in any language: here the Python adapter over the teacher's
    functions, started with this interpreter."""
    import sys

    from hookcourse.course.grading.my_program import PROGRAM

    teacher = (
        "from hookcourse.stages.merge_decisions.solution import merge_pre_tool_use\n"
        "from hookcourse.stages.matcher_and_dispatch.solution import match_hook\n"
        "from hookcourse.stages.stop_loop.solution import run_stop_loop\n" + TEACHER
    )
    module(tmp_path, teacher, "hooks.py")
    module(tmp_path, PROGRAM, "program.py")
    program = module(
        tmp_path,
        f'#!/bin/sh\nexec {sys.executable} "$(dirname "$0")/program.py" "$@"\n',
        "your_program.sh",
    )
    program.chmod(0o755)
    script = ROOT / "fixtures" / "sessions" / "decide-modify-inject.json"
    ours = run_learner_module(program, script)
    assert ours["engine"] == "your loop (your_program.sh)"
    assert differences(ours, run_session(load(script))) == []
