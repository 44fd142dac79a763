"""ipywidgets front ends for the labs; each only wires controls to ``hookcourse.course.labs.logic``.

Each builder returns a ``Lab``: display it in a cell, or drive it from code with
``lab.set(name=value, ...)``, which returns the text the lab now shows; a notebook's
demonstration cell uses ``lab.reset(name=value, ...)``, which first puts back every
control the learner may have changed, so the cell shows what its prose says.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import ipywidgets as widgets

from hookcourse.course.checks import kernel_hook
from hookcourse.course.checks.check_report import FAILING, PALETTE
from hookcourse.course.labs.logic import (
    answer_readout,
    decide_readout,
    exit_code_readout,
    matcher_readout,
)
from hookcourse.stages.matcher_and_dispatch.reference import RuleSet

kernel_hook.install()  # a lab is often a notebook's first import of the course

_WIDE: Any = widgets.Layout(width="36em")
_BOX: Any = widgets.Layout(width="36em", height="7em")
_LABELS: Any = {"description_width": "9em"}

# After a kernel restart (or when a saved notebook is reopened) the widgets' models lose
# their kernel, and ipywidgets marks every view with the jupyter-widgets-disconnected class.
# CSS alone then shows this note and greys the readout, so a lab never silently goes stale.
RESTART_NOTE: str = (
    "<style>.hookcourse-restart{display:none}"
    f".jupyter-widgets-disconnected .hookcourse-restart{{display:block;color:{PALETTE[FAILING]};"
    "font-weight:bold}"
    ".jupyter-widgets-disconnected .hookcourse-live{opacity:0.45}</style>"
    "<div class='hookcourse-restart'>The kernel restarted or stopped, so this no longer "
    "answers: run this cell again.</div>"
)


class Shown(Protocol):
    """Anything a lab shows: HTML for the page, plain text for tests and placeholders."""

    def html(self) -> str: ...

    def text(self) -> str: ...


@dataclass
class Lab:
    """Named controls, an HTML readout, and the plain function that fills it.

    ``intro``, when given, is shown above the controls (a quiz's question).
    """

    name: str
    controls: dict[str, Any]
    compute: Callable[[dict[str, Any]], Shown]
    intro: Shown | None = None
    readout: Any = field(default_factory=widgets.HTML)
    last: Shown = field(init=False)

    def __post_init__(self) -> None:
        self.initial = {name: control.value for name, control in self.controls.items()}
        for control in self.controls.values():
            control.observe(self.refresh, names="value")
        above = [] if self.intro is None else [widgets.HTML(self.intro.html())]
        self.view = widgets.VBox([*above, *self.controls.values(), self.readout])
        self.refresh()

    def refresh(self, _change: object = None) -> None:
        """Recompute from the controls' values and show the result."""
        values = {name: control.value for name, control in self.controls.items()}
        self.last = self.compute(values)
        self.readout.value = f"{RESTART_NOTE}<div class='hookcourse-live'>{self.last.html()}</div>"

    def set(self, **values: object) -> str:
        """Set controls by name, as a learner would by typing; returns what the lab shows."""
        for name, value in values.items():
            self.controls[name].value = value
        return self.text()

    def reset(self, **values: object) -> str:
        """Every control back to how the lab started, then ``values``: what a demonstration
        cell shows, whatever the learner typed into the lab before; returns the text."""
        return self.set(**{**self.initial, **values})

    def text(self) -> str:
        """What the readout shows, as plain text."""
        return self.last.text()

    def placeholder(self) -> str:
        """What a front end that cannot draw the widgets shows instead of them."""
        intro = "" if self.intro is None else f"{self.intro.text()}\n"
        return f"[the {self.name}: run this cell to use it]\n{intro}{self.text()}"

    def _repr_mimebundle_(self, **kwargs: object) -> dict[str, Any]:
        # Displaying the lab displays its widgets. JupyterLab draws the widgets only once
        # the cell has run in this browser; until then (an untrusted notebook, GitHub,
        # nbconvert) it shows text/plain, which would otherwise be a VBox(...) repr.
        bundle: dict[str, Any] = self.view._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = self.placeholder()
        return bundle


def _text(description: str, value: str) -> Any:
    return widgets.Text(value=value, description=description, layout=_WIDE, style=_LABELS)


def _tick(description: str) -> Any:
    # The same label width as the boxes keeps every control's left edge in one column.
    return widgets.Checkbox(value=False, description=description, layout=_WIDE, style=_LABELS)


def _area(description: str, value: str) -> Any:
    return widgets.Textarea(value=value, description=description, layout=_BOX, style=_LABELS)


def answer_lab(
    code: str = "2", stderr: str = "Blocked: no force-push from Claude\n", stdout: str = ""
) -> Lab:
    """Type a hook's exit code, stderr and stdout; see what Claude Code does on PreToolUse."""
    controls = {
        "code": _text("exit code", code),
        "stderr": _area("stderr", stderr),
        "stdout": _area("stdout", stdout),
    }
    return Lab(
        "answer lab",
        controls,
        lambda values: answer_readout(values["code"], values["stderr"], values["stdout"]),
    )


def matcher_lab(matcher: str = "Edit|Write", tool: str = "Write") -> Lab:
    """Type a matcher and a tool name; see the branch taken, the result and why."""
    controls = {
        "matcher": _text("matcher", matcher),
        "omitted": _tick("leave the matcher key out"),
        "tool": _text("tool_name", tool),
        # A Dropdown, not ToggleButtons: ToggleButtons put their label above the buttons,
        # out of the column the other labels share.
        "rules": widgets.Dropdown(
            options=[(rules.value, rules) for rules in RuleSet],
            value=RuleSet.COURSE,
            description="rules",
            layout=widgets.Layout(width="20em"),
            style=_LABELS,
        ),
        "narrow": _tick("the event is FileChanged or StopFailure"),
    }

    def compute(values: dict[str, Any]) -> Shown:
        controls["matcher"].disabled = values["omitted"]
        chosen = None if values["omitted"] else values["matcher"]
        return matcher_readout(chosen, values["tool"], values["rules"], narrow=values["narrow"])

    return Lab("matcher lab", controls, compute)


def exit_code_lab(code: str = "2", stderr: str = "Blocked: no force-push from Claude\n") -> Lab:
    """Type an exit code (as JSON) and stderr; see the verdict and what it means."""
    controls = {"code": _text("exit code", code), "stderr": _area("stderr", stderr)}
    return Lab(
        "exit-code lab",
        controls,
        lambda values: exit_code_readout(values["code"], values["stderr"]),
    )


def decide_lab(
    output: str = '{"updatedInput": {"command": "ls"}}', tool_input: str = '{"command": "rm"}'
) -> Lab:
    """Edit a hook's JSON output and the tool input; see the effect on the pending call."""
    controls = {"output": _area("hook stdout", output), "input": _area("tool_input", tool_input)}
    return Lab(
        "decide lab", controls, lambda values: decide_readout(values["output"], values["input"])
    )
