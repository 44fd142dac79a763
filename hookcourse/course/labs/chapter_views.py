"""ipywidgets views for the events, several-hooks and Stop-loop labs (wiring only).

Each builder returns a ``Lab`` (``hookcourse.course.labs.widgets``): display it,
or drive it from code with ``lab.set(name=value, ...)``. Everything the labs
compute lives in ``labs/events.py``, ``labs/merge.py`` and ``labs/stop_loop.py``.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from hookcourse.course.labs.events import (
    decision_gate,
    event_names,
    event_readout,
    gate_readout,
    rules_readout,
)
from hookcourse.course.labs.logic import Readout
from hookcourse.course.labs.merge import course_format_readout, merge_readout
from hookcourse.course.labs.stop_loop import stop_readout
from hookcourse.course.labs.widgets import Lab

_STYLE: Any = {"description_width": "9em"}
HOOKS = 3  # the several-hooks lab's hook slots


def _line(description: str, value: str, width: str = "36em") -> Any:
    return widgets.Text(
        value=value, description=description, layout=widgets.Layout(width=width), style=_STYLE
    )


def _box(description: str, value: str) -> Any:
    return widgets.Textarea(
        value=value,
        description=description,
        layout=widgets.Layout(width="36em", height="4.5em"),
        style=_STYLE,
    )


def _choice(description: str, options: list[str], value: str) -> Any:
    return widgets.Dropdown(
        options=options,
        value=value,
        description=description,
        layout=widgets.Layout(width="36em"),
        style=_STYLE,
    )


def event_lab(event: str = "PreToolUse") -> Lab:
    """Pick an event: when it fires, its matcher field, exit 2, which JSON counts, a payload."""
    controls = {"event": _choice("event", event_names(), event)}
    return Lab("event lab", controls, lambda values: event_readout(values["event"]))


def gate_lab() -> Lab:
    """Pick a goal: deterministic or evaluative, then the event and handler that fit, and why."""
    goals = [goal.goal for goal in decision_gate()]
    controls = {"goal": _choice("goal", goals, goals[0])}
    return Lab("decision-gate lab", controls, lambda values: gate_readout(values["goal"]))


def rules_lab(matcher: str = "Edit, Write", value: str = "Write") -> Lab:
    """One matcher under the course's rules and Claude Code's, on the event you pick."""
    controls = {
        "matcher": _line("matcher", matcher),
        "value": _line("compared with", value),
        "event": _choice("event", event_names(), "PreToolUse"),
    }
    return Lab(
        "rules lab",
        controls,
        lambda values: rules_readout(values["matcher"], values["value"], values["event"]),
    )


SEED_HOOKS = (
    (
        "0",
        '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",'
        ' "permissionDecisionReason": "git is fine"}}',
        "",
    ),
    ("2", "", "Blocked: no force-push from Claude\n"),
    ("0", "", ""),
)


def merge_lab(hooks: int = 2) -> Lab:
    """Up to three PreToolUse hooks' answers; see each one read, the merge, and why."""
    controls: dict[str, Any] = {
        "hooks": widgets.Dropdown(
            options=list(range(1, HOOKS + 1)),
            value=hooks,
            description="hooks that ran",
            layout=widgets.Layout(width="16em"),
            style=_STYLE,
        ),
        "tool_input": _line("tool_input", '{"command": "git push --force origin main"}'),
    }
    for number, (code, stdout, stderr) in enumerate(SEED_HOOKS, 1):
        controls[f"code{number}"] = _line(f"hook {number} exit", code, "16em")
        controls[f"stdout{number}"] = _box(f"hook {number} stdout", stdout)
        controls[f"stderr{number}"] = _line(f"hook {number} stderr", stderr)

    def compute(values: dict[str, Any]) -> Readout:
        used = range(1, values["hooks"] + 1)
        boxes = [(values[f"code{n}"], values[f"stdout{n}"], values[f"stderr{n}"]) for n in used]
        return merge_readout(boxes, values["tool_input"])

    return Lab("several-hooks lab", controls, compute)


def format_lab(output: str = '{"decision": "block", "reason": "no force-push"}') -> Lab:
    """A course-format answer: what the course, and Claude Code as written, do with it."""
    controls = {"output": _box("hook stdout", output)}
    return Lab("format lab", controls, lambda values: course_format_readout(values["output"]))


def stop_lab() -> Lab:
    """A Stop hook's two answers and the cap; see every stop attempt until Claude stops."""
    controls = {
        "first_code": _line("first: exit", "2", "16em"),
        "first_stdout": _box("first: stdout", ""),
        "first_stderr": _line("first: stderr", "Run the tests before stopping."),
        "later_code": _line("later: exit", "0", "16em"),
        "later_stdout": _box("later: stdout", ""),
        "later_stderr": _line("later: stderr", ""),
        "cap": _line("cap", "8", "16em"),
    }

    def compute(values: dict[str, Any]) -> Readout:
        first = (values["first_code"], values["first_stdout"], values["first_stderr"])
        later = (values["later_code"], values["later_stdout"], values["later_stderr"])
        return stop_readout(first, later, values["cap"])

    return Lab("Stop-loop lab", controls, compute)
