"""The Stop-loop lab: a Stop hook stepped through Claude's stop attempts.

``stop_readout`` simulates the loop with the graded stage (stop-loop) from the
hook's two answers; ``step_real_stop_hook`` runs a real hook script through the
engine, one process per attempt, with ``stop_hook_active`` and the count of
consecutive blocks that Claude Code would pass it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from hookcourse.course.checks.cases import FIXTURES
from hookcourse.course.labs.logic import BoxError, Readout, read_json_box, unreadable_box
from hookcourse.course.labs.real_hooks import fire_commands
from hookcourse.engine.api import DEFAULT_STOP_BLOCK_CAP
from hookcourse.js import json as jsjson
from hookcourse.js.values import JSValue
from hookcourse.stages.decoding import CaseError
from hookcourse.stages.stop_loop.reference import StopTurn, run_stop_loop, stop_arguments

STOP_PAYLOAD: Final = FIXTURES / "payloads" / "Stop.json"

AnswerBoxes = tuple[str, str, str]
"""One answer as the lab's boxes hold it: exit code (as JSON), stdout, stderr."""


def turn_line(turn: StopTurn) -> str:
    """One attempt in words: what the hook saw and what Claude does next."""
    if turn.capped:
        return "blocked again, but that is one block too many: Claude Code ends the turn"
    if turn.continues:
        return f"blocked: Claude keeps working, told {jsjson.quote(turn.reason or '')}"
    if turn.reason is not None:
        return f"continue: false: Claude stops now ({jsjson.quote(turn.reason)})"
    return "the hook lets Claude stop"


# Symbols every text font draws (the WGL4 set): an emoji font is not needed.
MARKS: Final = (
    ("■", "blocked: Claude works on"),
    ("●", "the hook lets Claude stop"),
    ("▲", "continue: false: Claude stops now"),
    ("▼", "one block too many: the cap ends the turn"),
)


def _mark(turn: StopTurn) -> str:
    if turn.capped:
        return "▼"
    if turn.continues:
        return "■"
    return "▲" if turn.reason is not None else "●"


def timeline(turns: Sequence[StopTurn]) -> str:
    """The loop as one line of symbols (``MARKS`` says what each means)."""
    marks = [_mark(turn) for turn in turns]
    return " → ".join(marks) + f"   ({len(turns)} attempt{'s' if len(turns) != 1 else ''})"


def legend(turns: Sequence[StopTurn]) -> str:
    """What the timeline's symbols mean, those it shows first."""
    shown = {_mark(turn) for turn in turns}
    ordered = sorted(MARKS, key=lambda mark: mark[0] not in shown)
    return " · ".join(f"{symbol} {meaning}" for symbol, meaning in ordered)


def _answer(boxes: AnswerBoxes, name: str) -> dict[str, JSValue]:
    code_text, stdout, stderr = boxes
    code = read_json_box(code_text, f"{name} exit code", "2 or 0")
    return {"code": code, "stdout": stdout, "stderr": stderr}


def stop_readout(inactive: AnswerBoxes, active: AnswerBoxes, cap_text: str = "8") -> Readout:
    """The lab: both answers, a cap, and every attempt until Claude really stops."""
    try:
        hook: dict[str, JSValue] = {
            "whenInactive": _answer(inactive, "first answer"),
            "whenActive": _answer(active, "later answer"),
        }
        cap = read_json_box(cap_text, "cap", "8") if cap_text.strip() else None
        turns = run_stop_loop(*stop_arguments({"hook": hook, "cap": cap}).parsed)
    except BoxError as error:
        return error.readout
    except CaseError as error:
        return unreadable_box("cap", error.problem, error.fix)
    rows = [("timeline", timeline(turns)), ("legend", legend(turns))]
    for number, turn in enumerate(turns, 1):
        flag = "true" if turn.stop_hook_active else "false"
        rows.append((f"attempt {number}", f"stop_hook_active {flag}: {turn_line(turn)}"))
    last = turns[-1]
    attempts = f"{len(turns)} attempt{'s' * (len(turns) != 1)}"
    if last.capped:
        return Readout(f"the cap ended the turn after {attempts}", tuple(rows))
    ending = "halted" if last.reason else "stops"
    return Readout(f"Claude {ending} after {attempts}", tuple(rows))


@dataclass(frozen=True)
class RealAttempt:
    """One stop attempt run for real: the flag sent, the hook's output, Claude Code's outcome."""

    stop_hook_active: bool
    exit_code: int | None
    stdout: str
    stderr: str
    keeps_going: bool
    verdict: str  # the engine's last explanation line

    def text(self) -> str:
        said = [f"stdout {self.stdout.strip()}"] if self.stdout.strip() else []
        said += [f"stderr {self.stderr.strip()}"] if self.stderr.strip() else []
        flag = "true" if self.stop_hook_active else "false"
        printed = ", ".join(said) or "nothing printed"
        return f"stop_hook_active {flag}: exit {self.exit_code}, {printed}\n    {self.verdict}"


def stop_payload(active: bool, cwd: str, payload_file: Path = STOP_PAYLOAD) -> dict[str, JSValue]:
    """The reference's Stop payload with ``stop_hook_active`` and ``cwd`` set."""
    payload: dict[str, JSValue] = json.loads(payload_file.read_text(encoding="utf-8"))
    return {**payload, "stop_hook_active": active, "cwd": cwd}


def step_real_stop_hook(
    argv: Sequence[str], cwd: str, cap: int = DEFAULT_STOP_BLOCK_CAP
) -> list[RealAttempt]:
    """Run the hook ``argv`` once per stop attempt, as Claude Code would, until Claude stops."""
    attempts: list[RealAttempt] = []
    blocks = 0
    while True:
        active = bool(attempts)
        fired = fire_commands(
            "Stop",
            [argv],
            stop_payload(active, cwd),
            cwd,
            consecutive_stop_blocks=blocks,
            stop_block_cap=cap,
        )
        run = fired.executions[0].run
        going = fired.outcome.keeps_going
        verdict = fired.outcome.explanation[-1]
        if not going and 0 < cap <= blocks and fired.hooks[0].reading.decision == "block":
            verdict = "Outcome: one block too many: the cap ends the turn."  # not just "ends"
        attempts.append(RealAttempt(active, run.exit_code, run.stdout, run.stderr, going, verdict))
        if not going:
            return attempts
        blocks += 1
