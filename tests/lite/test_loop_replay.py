"""Notebook 08's loop with no processes (the browser): the hooks and tools answer from the
desktop's recorded results (hookcourse/session/replay.py), the decisions stay live.

The browser side is simulated by setting hookcourse.browser.IN_BROWSER, with every way
of starting a process made to fail; tests/lite/test_capstone_in_browser.py runs the same
in Chromium.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

import hookcourse.system.processes as processes
from hookcourse import browser
from hookcourse.session import replay, replay_traces
from hookcourse.session.learner import check_loop, play, three_ways
from hookcourse.session.recorded import load_recorded
from hookcourse.session.transcript import differences
from hookcourse.stages.run_hooks.solution import run_hooks
from hookcourse.stages.stop_loop.solution import run_stop_loop
from hookcourse.system.edge import Edge

MERGED = '    merged = merge_pre_tool_use(look_up(results, "PreToolUse", pre_ran), tool["input"])\n'
# A classic mistake: the decision read from a top-level permissionDecision, where the
# sessions' hooks never write it (they write it inside hookSpecificOutput): no deny is seen.
TOP_LEVEL = (
    '    given = look_up(results, "PreToolUse", pre_ran)\n'
    '    merged = merge_pre_tool_use(given, tool["input"])\n'
    '    printed = [stdout_object(result.get("stdout")) or {} for result in given]\n'
    '    merged["decision"] = next((out["permissionDecision"] for out in printed\n'
    '                               if "permissionDecision" in out), None)\n'
)


def in_the_browser(monkeypatch: pytest.MonkeyPatch) -> None:
    """IN_BROWSER, and any process start fails the test."""

    def started(*arguments: Any, **options: Any) -> Any:
        raise AssertionError(f"a process started: {arguments[:1]}")

    monkeypatch.setattr(browser, "IN_BROWSER", True)
    for name in ("run", "run_process", "call_in_child"):
        monkeypatch.setattr(processes, name, started)


@pytest.fixture
def no_processes(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The browser, for the whole test."""
    in_the_browser(monkeypatch)
    yield


def quietly(work: Any, *arguments: Any) -> tuple[Any, str]:
    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        value = work(*arguments)
    return value, said.getvalue()


def test_an_edge_answers_with_the_innermost_swap_until_its_block_ends() -> None:
    edge = Edge(lambda x: f"real {x}")
    assert edge(1) == "real 1" and not edge.swapped_now
    with edge.swapped(lambda x: f"outer {x}"):
        with edge.swapped(lambda x: f"inner {x}"):
            assert edge(2) == "inner 2"
        assert edge(3) == "outer 3"
        with pytest.raises(ValueError), edge.swapped(lambda x: f"gone {x}"):
            raise ValueError
        assert edge(4) == "outer 4"
    assert edge(5) == "real 5"


@pytest.mark.usefixtures("no_processes")
@pytest.mark.parametrize("name", replay.TRACED)
def test_in_the_browser_the_teachers_loop_gives_the_recorded_claude_code_run(name: str) -> None:
    ours, said = quietly(play, run_hooks, run_stop_loop, name)
    assert said.startswith("(In the browser no process can start")
    assert differences(ours, load_recorded(name)["transcript"]) == []
    compared = three_ways(ours, name)
    assert compared is not None
    # Where the course's engine differs from Claude Code, it does so as on the desktop.
    assert compared.explained() == [
        "your loop, the engine and Claude Code 2.1.332 agree on every request"
    ]


@pytest.mark.usefixtures("no_processes")
def test_in_the_browser_check_loop_passes_the_teacher_and_says_how_the_hooks_ran() -> None:
    report = check_loop(run_hooks, run_stop_loop)
    assert report.all_pass, str(report)
    assert str(report).startswith("(In the browser no process can start")


def run_hooks_reading_twice(
    hooks: Mapping[str, Any], tool: Mapping[str, Any], results: Mapping[str, Any]
) -> Any:
    """A bug: every PreToolUse result looked up twice, so each hook runs twice."""
    for group in hooks.get("PreToolUse") or []:
        for handler in group["hooks"]:
            results["PreToolUse"][handler["command"]]
    return run_hooks(hooks, tool, results)


@pytest.mark.usefixtures("no_processes")
def test_a_hook_run_the_desktop_never_gave_is_one_line_naming_it() -> None:
    ours, said = quietly(play, run_hooks_reading_twice, run_stop_loop, "decide-modify-inject")
    assert ours is None
    (line,) = [line for line in said.splitlines() if line.startswith("your loop stopped")]
    assert 'the PreToolUse hook sh $ROOT/hooks/gate on the Bash call {"command":"ls"}' in line
    assert line.endswith(
        " a 2nd time, which the course's loop never asks for, so this browser "
        "has no recorded answer for it: compare your functions with the rules "
        "of their exercise; on the desktop the same call runs for real"
    )


@pytest.mark.usefixtures("no_processes")
def test_a_stop_loop_past_its_cap_fails_check_loop_in_one_line_naming_the_stop_hook() -> None:
    def no_cap(hook: Mapping[str, Any], cap: int) -> Any:
        return run_stop_loop(hook, 100)

    report = check_loop(run_hooks, no_cap)
    assert not report.all_pass and "✓ decide-modify-inject" in str(report)
    (stopped,) = dict(report.found)["stop-loop"]
    assert stopped.startswith(
        "your loop ran the Stop hook sh $ROOT/hooks/never-done with stop_hook_active true"
    )


def test_a_denied_call_has_the_result_it_gives_when_a_wrong_loop_runs_it() -> None:
    trace = replay.trace_of("decide-modify-inject")
    if_run = {(tool, given): answer["text"] for (tool, given, _), answer in trace.if_run.items()}
    assert if_run == {
        ("Bash", '{"command":"ls"}'): "build.sh",
        ("Bash", '{"command":"cat .env"}'): "TOKEN=secret",
    }
    assert not set(trace.if_run) & set(trace.tools)  # only calls the course's loop did not run


def test_a_trace_reads_back_as_written_and_two_runs_that_disagree_are_refused() -> None:
    trace = replay.trace_of("guard-retry")
    assert replay.SessionTrace.from_json(trace.to_json()) == trace
    (key, answers), *_ = trace.hooks.items()
    other = replay.SessionTrace({key: [{**answers[0], "exitCode": 9}]})
    with pytest.raises(ValueError, match="two runs of the same session disagree"):
        trace.merged(other)
    longer = replay.SessionTrace({key: [*answers, answers[0]]})
    assert trace.merged(longer).hooks[key] == [*answers, answers[0]]


def test_a_session_without_a_trace_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="no recorded process results for 'events-tour'"):
        replay.trace_of("events-tour")


@pytest.mark.slow
def test_the_shipped_traces_are_what_the_desktop_gives_now() -> None:
    # About 15 s: each traced session played twice with real hooks, git and sh.
    fix = "run: python -m hookcourse.session.replay_traces update"
    assert replay_traces.main(["check"]) == 0, fix


@pytest.mark.usefixtures("no_processes")
def test_in_the_browser_a_session_without_recorded_answers_needs_the_desktop() -> None:
    with pytest.raises(browser.NeedsDesktop, match="the session events-tour cannot run"):
        play(run_hooks, run_stop_loop, "events-tour")


def reading_top_level() -> Any:
    """The teacher's run_hooks with the TOP_LEVEL mistake, as a learner's cell defines it."""
    import hookcourse.stages.run_hooks.solution as solution

    text = Path(solution.__file__).read_text(encoding="utf-8")
    assert text.count(MERGED) == 1
    scope: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(text.replace(MERGED, TOP_LEVEL), "<cell>", "exec"), scope)
    return scope["run_hooks"]


def test_a_wrong_run_hooks_shows_the_desktops_differences_in_the_browser(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    wrong = reading_top_level()

    def both() -> tuple[str, str]:
        ours, _ = quietly(play, wrong, run_stop_loop, "guard-retry")
        return str(three_ways(ours)), str(check_loop(wrong, run_stop_loop))

    desktop = both()
    in_the_browser(monkeypatch)
    in_browser = both()
    assert in_browser[0] == desktop[0]
    note, *rest = in_browser[1].splitlines()
    assert (
        note.startswith("(In the browser no process can start") and rest == desktop[1].splitlines()
    )
    # The denied read of .env ran, with what it gives when it runs (not an invented answer).
    assert "only your loop: tool_result toolu_t1c0: 'TOKEN=secret'" in desktop[1]
