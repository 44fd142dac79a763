"""The labs of notebooks 04-07: events, several hooks, the Stop loop and the guard check.

Real hook scripts run as processes through the engine here, as they do in the notebooks.
"""

from __future__ import annotations

import json
import re
import stat
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookcourse import browser
from hookcourse.course.checks import calling
from hookcourse.course.labs import chapter_views
from hookcourse.course.labs import guard as guard_module
from hookcourse.course.labs.events import (
    check_gate,
    decision_gate,
    event_names,
    event_readout,
    exercise_goals,
    gate_answer,
    gate_readout,
    rules_readout,
)
from hookcourse.course.labs.guard import SEED_GUARD, bypass_scoreboard, check_guard, corpus_preview
from hookcourse.course.labs.guard_corpus import (
    ALLOW,
    BEYOND,
    BLOCK,
    CORPUS,
    FAMILY_HINTS,
    load_corpus,
)
from hookcourse.course.labs.guard_runs import try_guard
from hookcourse.course.labs.merge import course_format_readout, merge_readout, to_claude_code
from hookcourse.course.labs.stop_loop import step_real_stop_hook, stop_readout
from hookcourse.engine.catalogue import get_event
from hookcourse.js import json as jsjson
from hookcourse.stages.answers import HookResult
from hookcourse.stages.decide_and_modify.reference import apply_pre_tool_use
from hookcourse.stages.merge_decisions.reference import merge_pre_tool_use
from hookcourse.stages.stop_loop.reference import StopHook, run_stop_loop
from tests.support.paths import ROOT

HOOKS = ROOT / "notebooks" / "hooks"
TEACHER_GUARD = ROOT / "hookcourse" / "solutions" / "force_push_guard.py"
NAIVE = '{"decision": "block", "reason": "Run the tests before stopping."}'

# -- events ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", event_names())
def test_every_event_shows_its_facts_and_example_payload(name: str) -> None:
    readout = event_readout(name)
    rows = dict(readout.rows)
    assert readout.ok and {"fires", "matcher", "exit 2", "stderr on exit 2"} <= rows.keys()
    start = [label for label, _ in readout.rows].index("payload")
    pieces = [value for _, value in readout.rows[start:]]
    assert all(len(piece) <= 70 for piece in pieces)  # wrapped: no row runs off the page
    payload = json.loads("".join(pieces))
    assert payload["hook_event_name"] == name


def test_an_unknown_event_is_one_readable_problem() -> None:
    readout = event_readout("PreToolUsed")
    assert not readout.ok and "is not a hook event" in readout.text()


@pytest.mark.parametrize(
    "goal", [*decision_gate(), *exercise_goals()], ids=lambda goal: goal.goal[:30]
)
def test_the_decision_gate_agrees_with_the_catalogue(goal: object) -> None:
    spec = get_event(goal.event)  # type: ignore[attr-defined]
    assert spec is not None
    assert goal.handler in spec.handler_types and goal.handler in goal.handlers  # type: ignore[attr-defined]
    for other in goal.also_events:  # type: ignore[attr-defined]
        assert get_event(other) is not None
    if goal.matcher is not None:  # type: ignore[attr-defined]
        assert spec.matcher_field is not None, f"{goal.event} has no matcher field"  # type: ignore[attr-defined]
    assert gate_answer(goal.goal) == (goal.event, goal.handler)  # type: ignore[attr-defined]


def test_the_exercise_asks_goals_the_lab_does_not_answer() -> None:
    shown = {goal.goal for goal in decision_gate()}
    asked = {goal.goal for goal in exercise_goals()}
    assert len(asked) == 10 and not shown & asked
    assert all(gate_readout(goal).ok for goal in shown)
    assert not any(gate_readout(goal).ok for goal in asked)


def test_check_gate_passes_the_gate_and_names_a_wrong_event() -> None:
    answers = {goal.goal: (goal.event, goal.handler) for goal in exercise_goals()}
    assert check_gate(answers.__getitem__).passed

    def too_late(goal: str) -> tuple[str, str]:
        return ("PostToolUse", "command") if "secrets/" in goal else answers[goal]

    report = check_gate(too_late)
    assert not report.passed and "9 of 10" in report.summary()
    # What the message says is true of the learner's choice, and it does not give the answer.
    wrong = next(row for row in report.report().rows if not row.good)
    assert wrong.detail.startswith("PostToolUse does not fit this goal. PostToolUse fires")
    assert "it cannot block" in wrong.detail and "PreToolUse" not in wrong.detail


def test_check_gate_says_what_is_true_of_the_handler_chosen() -> None:
    answers = {goal.goal: (goal.event, goal.handler) for goal in exercise_goals()}
    review = next(goal.goal for goal in exercise_goals() if goal.event == "SubagentStop")
    backup = next(goal.goal for goal in exercise_goals() if goal.event == "PreCompact")
    fetch = next(goal.goal for goal in exercise_goals() if "fetch" in goal.goal)

    def choices(goal: str) -> tuple[str, str]:
        picked = {review: ("SubagentStop", "prompt"), backup: ("PreCompact", "prompt")}
        return picked.get(goal, ("PreToolUse", "command") if goal == fetch else answers[goal])

    rows = {row.label: row for row in check_gate(choices).report().rows}
    assert rows[review].good and "agent hooks are slow" not in rows[review].detail
    assert not rows[backup].good
    assert rows[backup].detail.startswith("PreCompact never runs 'prompt' hooks")
    assert rows[fetch].detail == "command does not fit: a model must judge here"

    def starter(goal: str) -> tuple[str, str]:
        raise NotImplementedError

    assert check_gate(starter).not_yet
    broken = check_gate(lambda goal: {}["x"])
    assert "raised KeyError" in broken.text() and not broken.passed


def test_check_gate_survives_sys_exit_and_an_endless_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    exits = check_gate(lambda goal: sys.exit(3))
    assert "raised SystemExit: 3" in exits.text() and not exits.passed
    monkeypatch.setattr(calling, "LIMIT_S", 0.2)

    def endless(goal: str) -> None:
        while True:
            pass

    hangs = check_gate(endless)
    assert len(hangs.rows) == 1  # it stops at the first goal that hangs
    assert "did not return within 0.2 s. The check stopped that call." in hangs.text()


def test_the_guards_starter_probe_survives_sys_exit() -> None:
    assert guard_module._starter(lambda command: sys.exit(2)) is False
    assert guard_module._starter(starter_guard) is True


def starter_guard(command: str) -> bool:
    raise NotImplementedError


def test_the_rules_lab_shows_where_course_and_claude_code_disagree() -> None:
    assert "they disagree" in rules_readout("Edit, Write", "Write").text()
    assert "agree here" in rules_readout("Edit|Write", "Write").text()


# -- several hooks -----------------------------------------------------------------------------


def test_the_merge_lab_shows_exit_2_beating_a_json_allow() -> None:
    text = merge_readout(
        [("0", '{"decision": "approve"}', ""), ("2", "", "no force-push\n")], '{"command": "x"}'
    ).text()
    assert text.startswith("merged decision: deny")
    assert "hook 2 is the first to give it" in text
    assert "Claude Code  Outcome: blocked." in text


def test_the_merge_lab_reads_its_boxes_as_json() -> None:
    assert not merge_readout([("two", "", "")], "{}").ok
    text = merge_readout([('"2"', "", "x")], "{}").text()
    assert 'exit "2": nothing to merge' in text and "whole number" in text


@pytest.mark.parametrize(
    "output",
    [
        {"decision": "block", "reason": "no"},
        {"decision": "block"},
        {"updatedInput": {"command": "ls"}, "additionalContext": "lint passed"},
        {"additionalContext": ""},
        {},
    ],
)
def test_the_course_format_translates_to_the_same_merged_effect(output: dict[str, object]) -> None:
    """Stage decide-and-modify on the course format = stage merge-decisions on Claude Code's."""
    tool_input = {"command": "rm"}
    effect = apply_pre_tool_use(output, tool_input)  # type: ignore[arg-type]
    translated = jsjson.stringify(to_claude_code(output))  # type: ignore[arg-type]
    merged = merge_pre_tool_use([HookResult(0, translated, "")], tool_input)
    assert (merged.decision == "deny") == (not effect.allowed)
    assert merged.input == effect.input
    if effect.allowed:
        context = effect.injected_context
        assert merged.contexts == (() if context is None else (context,))
    else:
        assert merged.reason == effect.reason
    assert "Claude Code's format" in course_format_readout(json.dumps(output)).text()


# -- the Stop loop -----------------------------------------------------------------------------


def test_the_stop_lab_shows_the_naive_hook_reaching_the_cap() -> None:
    readout = stop_readout(("0", NAIVE, ""), ("0", NAIVE, ""), "8")
    assert readout.headline == "the cap ended the turn after 9 attempts"
    assert "▼" in dict(readout.rows)["timeline"]
    once = stop_readout(("2", "", "Run the tests."), ("0", "", ""), "")
    assert once.headline == "Claude stops after 2 attempts"
    bad_cap = stop_readout(("0", "", ""), ("0", "", ""), "0")
    assert not bad_cap.ok and "1 to 100" in bad_cap.text()


@pytest.mark.parametrize(("script", "cap"), [("keep_going_once.py", 8), ("always_block.py", 2)])
def test_a_real_stop_hook_loops_as_the_stage_says(script: str, cap: int, tmp_path: Path) -> None:
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "keep-going").write_text("finish it\n")
    attempts = step_real_stop_hook([sys.executable, str(HOOKS / script)], str(tmp_path), cap)
    block = HookResult(0, NAIVE, "")
    simulated = run_stop_loop(
        StopHook(block, block if script == "always_block.py" else HookResult(0)), cap
    )
    assert len(attempts) == len(simulated)
    assert [a.stop_hook_active for a in attempts] == [t.stop_hook_active for t in simulated]
    assert [a.keeps_going for a in attempts] == [t.continues for t in simulated]
    ends = [a.verdict for a in attempts][-1]
    capped = "Outcome: one block too many: the cap ends the turn."
    assert ends == (capped if simulated[-1].capped else "Outcome: the turn ends.")


# -- the guard ---------------------------------------------------------------------------------


def test_the_corpus_has_every_family_the_issue_names() -> None:
    families = load_corpus()
    graded = [c for f in families if f.expect != BEYOND for c in f.commands]
    assert len(graded) >= 40 and len(set(graded)) == len(graded)
    names = {f.name for f in families if f.expect == BLOCK}
    assert names >= {"-f", "--force", "--force-with-lease", "+refspec", "git options"}
    assert names >= {"wrappers", "sh -c", "chains"}
    assert {f.name for f in families if f.expect == ALLOW} >= {"quoted text", "ordinary push"}
    assert json.loads(CORPUS.read_text())["about"]


def test_the_teachers_guard_holds() -> None:
    report = check_guard(TEACHER_GUARD)
    assert report.passed, report.text()
    assert "0 missed, 0 false alarms, over " in report.summary()
    assert "(56 from the corpus, " in report.summary()
    # The summary's counts are the table's: every command shown is counted once.
    counted = re.search(r"over (\d+) commands.*; (\d+) more shown, not graded\)", report.summary())
    assert counted, report.summary()
    graded, shown = int(counted[1]), int(counted[2])
    rows = [int(line.split(" of ")[1].split()[0].rstrip(":,")) for _, line, _ in report.rows()]
    assert sum(rows) == graded + shown and shown == 4


@pytest.fixture
def small_corpus(tmp_path: Path) -> Path:
    """Two commands of each kind, so a test that runs a guard on all of them stays quick."""
    families = [
        {"family": family.name, "expect": family.expect, "commands": list(family.commands[:2])}
        for family in load_corpus()
        if family.name in ("-f", "+refspec", "quoted text", "beyond a string guard")
    ]
    path = tmp_path / "corpus.json"
    path.write_text(json.dumps({"about": "a sample", "families": families}))
    return path


def test_the_seeds_guard_misses_what_the_notebook_says(small_corpus: Path) -> None:
    """Notebook 07 checks the Python port of seed 002's bash guard; the two report alike."""
    port = check_guard(HOOKS / "no_force_push.py", seed=None)
    corpus = [r for r in port.families if not r.family.name.startswith("drawn")]
    wrong = {e: sum(len(r.wrong) for r in corpus if r.family.expect == e) for e in (BLOCK, ALLOW)}
    assert not port.passed and (wrong[BLOCK], wrong[ALLOW]) == (11, 5)
    missed = {v.command for r in corpus for v in r.wrong if r.family.expect == BLOCK}
    assert {"git push origin main --force", "git push origin +main"} <= missed
    assert (
        check_guard(SEED_GUARD, small_corpus).rows()
        == check_guard(HOOKS / "no_force_push.py", small_corpus).rows()
    )


def test_a_guard_that_blocks_everything_raises_every_false_alarm(
    tmp_path: Path, small_corpus: Path
) -> None:
    guard = tmp_path / "paranoid.py"
    guard.write_text("import sys\nprint('no', file=sys.stderr)\nsys.exit(2)\n")
    report = check_guard(guard, small_corpus)
    assert (report.missed, report.false_alarms) == (0, 2) and not report.passed
    assert "false alarms 2:\n      'echo" in report.text()  # one command a line, quoted


def test_a_crashing_guard_is_named_as_letting_everything_through(
    tmp_path: Path, small_corpus: Path
) -> None:
    guard = tmp_path / "crash.py"
    guard.write_text("raise SystemExit('boom')\n")
    report = check_guard(guard, small_corpus)
    assert (report.missed, report.false_alarms) == (4, 0)
    assert "non-blocking, so those commands run" in report.text()
    assert "boom" in report.text()


def _cell_function(tmp_path: Path, cell: str, scope: dict[str, object]) -> object:
    """``is_force_push`` as a notebook cell defines it: its source file is the cell."""
    path = tmp_path / "cell.py"
    path.write_text(cell, encoding="utf-8")
    exec(compile(cell, str(path), "exec"), scope)
    return scope["is_force_push"]


def test_a_guard_cell_leaning_on_the_cells_above_leads_with_the_crash(
    tmp_path: Path, small_corpus: Path
) -> None:
    cell = "def is_force_push(command):\n    return forces(push_arguments(command))\n"
    scope: dict[str, object] = {"forces": bool, "push_arguments": str.split}
    report = check_guard(_cell_function(tmp_path, cell, scope), small_corpus)  # type: ignore[arg-type]
    graded = sum(len(r.verdicts) for r in report.graded)
    assert report.summary() == (
        f"check_guard: is_force_push crashed on {graded} of {graded} commands: NameError: "
        "name 'forces' is not defined. The check runs this cell alone as a hook script: "
        "copy forces and push_arguments into it."
    )
    checked = report.report()
    assert checked.details == () and not checked.passed  # no family's rule: they say nothing
    assert all(not row.items for row in checked.rows)  # nor every command it crashed on
    assert "caught 0 of 2, missed 2\n" in report.text()
    assert "non-blocking, so those commands run: 4 missed" in report.text()


def test_a_check_call_left_in_the_guard_cell_is_not_run_by_its_hook_script(
    tmp_path: Path, small_corpus: Path
) -> None:
    cell = (
        "def is_force_push(command):\n    return '--force' in command.split()\n\n"
        "print(is_force_push('git push --force'))\ncheck_guard(\n    is_force_push\n)\n"
        "report = check_guard(is_force_push)\n"
    )
    scope: dict[str, object] = {"check_guard": lambda fn: None}
    fn = _cell_function(tmp_path, cell, scope)
    script = guard_module.guard_script(fn)  # type: ignore[arg-type]
    assert script is not None
    assert "check_guard" not in script and "print(is_force_push" not in script
    report = check_guard(fn, small_corpus)  # type: ignore[arg-type]
    assert report.problem is None and not report.failures, report.text()


def test_the_starter_says_not_yet_and_bad_paths_say_why(tmp_path: Path, small_corpus: Path) -> None:
    starter = tmp_path / "my_guard.py"
    starter.write_text("raise NotImplementedError('write is_force_push')\n")
    assert "not yet" in check_guard(starter).summary() and not check_guard(starter).passed
    assert "no such file" in check_guard(tmp_path / "nope.py").summary()
    assert "is a folder" in check_guard(tmp_path).summary()
    script = tmp_path / "guard.sh"
    script.write_text("#!/bin/sh\nexit 0\n")
    assert "chmod +x" in check_guard(script).summary()
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    assert check_guard(script, small_corpus).missed == 4
    html = check_guard(starter)._repr_html_()
    assert "not yet" in html


def test_try_guard_names_what_got_through() -> None:
    text = try_guard(SEED_GUARD, ["git push --force", "git push origin +main"])
    assert text.splitlines()[0] == "blocked      'git push --force'"
    assert "let through  'git push origin +main'" in text
    # A command of two lines shows on one, so its second line cannot pass for a command.
    assert try_guard(SEED_GUARD, ["git status\ngit push -f"]).startswith(
        "blocked      'git status\\ngit push -f'\n"
    )


# -- the widgets, driven headlessly ------------------------------------------------------------


def test_every_view_builds_and_follows_its_controls() -> None:
    assert "Stop: can block" in chapter_views.event_lab().set(event="Stop")
    assert chapter_views.gate_lab().text().startswith("PreToolUse + command hook")
    assert "they disagree" in chapter_views.rules_lab().text()
    merge = chapter_views.merge_lab()
    assert merge.text().startswith("merged decision: deny")
    assert merge.set(hooks=1).startswith("merged decision: allow")
    assert "Claude Code's format" in chapter_views.format_lab().text()
    stop = chapter_views.stop_lab()
    assert stop.text().startswith("Claude stops after 2")
    assert stop.set(later_code="2", cap="1").startswith("the cap ended the turn after 2")


def test_a_hanging_guard_is_stopped_after_its_first_command(tmp_path: Path) -> None:
    guard = tmp_path / "hang.py"
    guard.write_text("import time\ntime.sleep(60)\n")
    report = check_guard(guard)
    assert not report.passed and "did not finish within 5 s" in report.summary()


# -- totality: whatever a learner types into a lab comes back as a readout -----------------------

boxes = st.text(max_size=40) | st.sampled_from(
    ["2", '"2"', "2.0", "true", "{}", "[", "null", "1e400"]
)


@settings(max_examples=60, deadline=None)
@given(code=boxes, stdout=st.text(max_size=40) | st.just('{"decision": "block"}'), stderr=st.text())
def test_the_merge_and_stop_labs_never_raise(code: str, stdout: str, stderr: str) -> None:
    assert merge_readout([(code, stdout, stderr)], code).text()
    assert stop_readout((code, stdout, stderr), ("0", stdout, stderr), code).text()
    assert course_format_readout(stdout).text()


def _function_from(tmp_path: Path, source: str) -> object:
    """``is_force_push`` defined in a real file, as a notebook cell defines it."""
    path = tmp_path / "cell.py"
    path.write_text(source)
    namespace: dict[str, object] = {}
    exec(compile(source, str(path), "exec"), namespace)
    return namespace["is_force_push"]


def test_a_learners_function_is_run_as_a_real_hook_script(tmp_path: Path) -> None:
    teacher = _function_from(
        tmp_path,
        "from hookcourse.solutions.force_push_guard import force_reasons\n\n\n"
        "def is_force_push(command):\n    return bool(force_reasons(command))\n",
    )
    report = check_guard(teacher)  # type: ignore[arg-type]
    assert report.passed and report.summary().startswith("check_guard: is_force_push holds")
    naive = _function_from(
        tmp_path, 'def is_force_push(command):\n    return "push --force" in command\n'
    )
    assert not check_guard(naive, CORPUS).passed  # type: ignore[arg-type]


def test_the_starter_function_says_not_yet_without_running_anything() -> None:
    def is_force_push(command: str) -> bool:
        raise NotImplementedError("write is_force_push")

    report = check_guard(is_force_push)
    assert report.not_yet and report.summary().startswith(
        "is_force_push: not yet. Your function still raises NotImplementedError"
    )


def test_in_the_browser_the_guard_scripts_run_in_the_kernel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # tests/lite/test_guard_in_browser.py holds the browser's side in full.
    monkeypatch.setattr(browser, "IN_BROWSER", True)
    assert check_guard(TEACHER_GUARD).passed
    assert "blocked      'git push -f'" in try_guard(SEED_GUARD, ["git push -f"])


def test_in_the_browser_a_guard_function_is_checked_by_calling_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """JupyterLite starts no processes, so the learner's function is asked directly: the
    same verdicts as its hook script gives on the desktop."""
    from hookcourse.solutions.force_push_guard import force_reasons

    def is_force_push(command: str) -> bool:
        return bool(force_reasons(command))

    desktop = check_guard(TEACHER_GUARD)  # the same rules, as a real hook script
    monkeypatch.setattr(browser, "IN_BROWSER", True)
    in_browser = check_guard(is_force_push)
    assert in_browser.passed, in_browser.text()
    assert in_browser.rows() == desktop.rows()

    def crashes(command: str) -> bool:
        raise ValueError("boom")

    crashed = check_guard(crashes)
    assert crashed.missed > 0 and crashed.false_alarms == 0
    assert "boom" in crashed.text()


def test_the_teachers_guard_function_holds_as_a_hook_script() -> None:
    """The registry's solution, a module function with `from __future__` at its top, runs
    as the learner's cell would: written out as a hook script."""
    from hookcourse.solutions import is_force_push

    report = check_guard(is_force_push, seed=1)
    assert report.passed, report.text()
    assert report.report().to_json()["subject"] == "is_force_push"


def test_every_failing_family_names_its_rule_and_every_family_has_one() -> None:
    assert {f.name for f in load_corpus() if f.expect != BEYOND} <= FAMILY_HINTS.keys()
    port = check_guard(HOOKS / "no_force_push.py", seed=None).report()
    hinted = dict(port.details)
    assert set(hinted) == set(port.failing)
    assert hinted["+refspec"] == FAMILY_HINTS["+refspec"]
    preview = corpus_preview()
    assert all(FAMILY_HINTS[f.name] in preview for f in load_corpus() if f.expect != BEYOND)


def test_the_scoreboard_scores_bypasses_and_false_alarms_once_each() -> None:
    board = bypass_scoreboard(
        {
            "ada": ["git push origin +main", "git push origin +main", "git push --force"],
            "lin": ['echo "git push -f"', "git status"],
        }
    )
    assert "  ada: 1 point\n  lin: 1 point\n" in board
    assert "bypass       'git push origin +main'" in board
    assert "false alarm  'echo \"git push -f\"'" in board
    assert "caught       'git push --force'" in board
    assert bypass_scoreboard(["git status"]).splitlines()[1] == "  you: 0 points"
    assert bypass_scoreboard("git push -f").startswith("bypass_scoreboard: give a list")  # type: ignore[arg-type]


def test_the_scoreboard_says_what_a_flag_does() -> None:
    from hookcourse.solutions.force_push_guard import force_reasons

    assert force_reasons("git push -f origin main") == ["-f forces the push"]
    assert force_reasons("git push -uf origin main") == ["-uf holds -f, which forces the push"]


def test_a_goal_hint_keeps_the_capitals_of_a_name() -> None:
    from hookcourse.course.labs.events import _can

    assert "PermissionRequest fires: Claude Code is about to show" in _can("PermissionRequest")
    assert "SessionStart fires: a session starts" in _can("SessionStart")
    assert "TaskCreated fires: TaskCreate is creating" in _can("TaskCreated")
