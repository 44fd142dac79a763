"""One session loop: only ``hookcourse/session/loop.py`` loops over prompts, turns or calls.

``hookcourse session``, a learner's loop and the oracle's predictor all play sessions
through that loop, so the oracle's agreement with Claude Code is the agreement of the
loop users run. A loop elsewhere that fires the events of a turn, or picks the
scripted model's next turn, is a second copy of it: these tests name it.
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
THE_LOOP = "hookcourse/session/loop.py"
SCANNED = ("hookcourse", "tests/claude_code", "benchmarks")
TEMPLATES = "hookcourse/data"
"""Files a learner is handed (templates with placeholders), not the package's code."""
TURN_EVENTS = frozenset({"UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolBatch", "Stop"})
"""The events a session fires once per prompt, call or turn."""
FIRING = frozenset({"fire", "set_off", "FireRequest"})
CHOOSING = "choose"
"""``turns.choose``: the scripted model's next turn."""


def _called(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else None


def _event(call: ast.Call) -> str | None:
    """The event a call names, as its first argument or ``event=``, when written literally."""
    given = [*call.args[:1], *(k.value for k in call.keywords if k.arg == "event")]
    for value in given:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            return value.value
    return None


def turn_loops(source: str, name: str) -> list[str]:
    """Each ``for`` or ``while`` in ``source`` whose body fires a turn's event or picks
    the next scripted turn: ``name:line in function``."""
    found = []

    def visit(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            inside = child.name if isinstance(child, ast.FunctionDef) else function
            if isinstance(child, ast.For | ast.While | ast.AsyncFor) and _drives_turns(child):
                found.append(f"{name}:{child.lineno} in {inside}")
            visit(child, inside)

    visit(ast.parse(source), "<module>")
    return found


def _drives_turns(loop: ast.AST) -> bool:
    for node in ast.walk(loop):
        if not isinstance(node, ast.Call):
            continue
        called = _called(node)
        if called == CHOOSING or (called in FIRING and _event(node) in TURN_EVENTS):
            return True
    return False


def _python_files() -> list[Path]:
    return sorted(
        path
        for top in SCANNED
        for path in (REPO / top).rglob("*.py")
        if not path.relative_to(REPO).as_posix().startswith(TEMPLATES + "/")
    )


def test_only_the_session_loop_loops_over_turns() -> None:
    elsewhere = [
        where
        for path in _python_files()
        if (name := path.relative_to(REPO).as_posix()) != THE_LOOP
        for where in turn_loops(path.read_text(encoding="utf-8"), name)
    ]
    assert not elsewhere, (
        f"a second session loop: {'; '.join(elsewhere)}; play sessions through "
        f"{THE_LOOP} (extend it) instead"
    )


def test_the_session_loop_is_found() -> None:
    """The check sees the real loop, so it would see a copy of it."""
    found = turn_loops((REPO / THE_LOOP).read_text(encoding="utf-8"), THE_LOOP)
    assert any(where.endswith(" in requests") for where in found), found


def test_a_second_loop_is_named() -> None:
    """A predictor of its own, as the oracle once had: its loop over turns is named."""
    second = """
class Prediction:
    def prompt_turn(self, turns):
        step = 0
        while step < 40:
            calls = turns[step].get("tools", [])
            step += 1
            if calls:
                self.fire("PostToolBatch", {})
                continue
            stop = self.fire("Stop", {}, "--stop-blocks", "0")
            if not stop["printMode"]["turnContinues"]:
                return
"""
    assert turn_loops(second, "second.py") == ["second.py:5 in prompt_turn"]


def test_the_predictor_and_the_learners_loop_play_through_it() -> None:
    for user in ("tests/claude_code/oracle_predict.py", "hookcourse/session/learner.py"):
        tree = ast.parse((REPO / user).read_text(encoding="utf-8"))
        imported = {
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and _names_the_loop(node)
            for alias in node.names
        }
        assert "play" in imported, f"{user} does not play sessions through {THE_LOOP}"


def _names_the_loop(node: ast.ImportFrom) -> bool:
    """``from hookcourse.session.loop import ...`` or, inside the package, ``from .loop``."""
    return node.module == "hookcourse.session.loop" or (node.module == "loop" and node.level == 1)
