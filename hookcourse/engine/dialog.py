"""The permission dialog of Claude Code's interactive interface, and the user's answer.

Print mode has nobody to ask: where the permission step would ask, the call is refused
(PermissionRequest hooks may answer first), and a PreToolUse hook's ``ask`` refuses it
with the hook's reason. The interactive interface asks instead (2.1.332, observed in a
pseudo-terminal): the dialog shows for both; after a hook's ``ask`` PermissionRequest
fires too, and the dialog names the hook and its reason and offers only Yes and No.
The user's answer decides the call: yes runs it; no refuses it, and the model reads
the rejection, with what the user typed after Tab when they gave feedback; no without
feedback (Escape) also interrupts the turn, so the model is not asked again.
"""

from __future__ import annotations

from dataclasses import dataclass

from hookcourse.errors import InputError
from hookcourse.js.values import JSValue

from .catalogue import model_text
from .report import FireReport

ANSWERS = ("yes", "no")
"""What the user may pick in the dialog."""
QUESTION = "Do you want to proceed?"


@dataclass(frozen=True)
class UserAnswer:
    """The user's answer to one dialog: ``yes`` or ``no``, and the feedback typed after Tab."""

    answer: str
    feedback: str = ""


@dataclass(frozen=True)
class Answered:
    """What the dialog and its answer do: the user's screen, the call, the turn."""

    answer: UserAnswer
    shown: tuple[str, ...]
    """The dialog's lines the user reads (its header, the hook's reason, the options)."""
    tool_runs: bool
    tool_result: str | None
    """What the model reads when the call does not run."""
    interrupted: bool
    """The turn ends here (no without feedback): the model is not asked again."""


def hook_asked(report: FireReport) -> bool:
    """PreToolUse: a hook answered ``ask`` and nothing stopped the call."""
    step = report.permission
    return (
        report.event == "PreToolUse"
        and report.outcome.decision == "ask"
        and not report.outcome.blocked
        and (step is None or not step.stops)
    )


def shows_dialog(report: FireReport) -> bool:
    """PreToolUse: whether the interactive interface asks the user about the call."""
    mode = report.print_mode
    return mode is not None and (mode.permission_request or hook_asked(report))


def dialog_lines(report: FireReport) -> tuple[str, ...]:
    """The dialog as the user reads it: after a hook's ``ask``, the hook and its reason
    (the settings it comes from follows, in brackets) and Yes / No; else the question
    (its other yes answers, such as always allowing a folder, are not modelled)."""
    if not hook_asked(report):
        return (QUESTION,)
    subject = report.matcher_subject
    name = f"{report.event}:{subject}" if isinstance(subject, str) else report.event
    reason = report.outcome.reason
    head = f"Hook {name} requires confirmation for this command"
    said = (f"{head}:", reason) if reason else (f"{head}.",)
    return (*said, QUESTION, "1. Yes", "2. No")


def answer_dialog(report: FireReport, answer: UserAnswer) -> Answered:
    """The dialog ``report`` (a PreToolUse report) shows, answered ``answer``."""
    shown = dialog_lines(report)
    if answer.answer == "yes":
        return Answered(answer, shown, True, None, False)
    if not answer.feedback:
        return Answered(answer, shown, False, model_text("tool_use_rejected"), True)
    rejected = model_text("tool_use_rejected_with_feedback", feedback=answer.feedback)
    return Answered(answer, shown, False, rejected, False)


def interactive_json(report: FireReport, answer: UserAnswer | None) -> dict[str, JSValue]:
    """``fire --interactive --json``: the dialog, and what the answer does when given."""
    shows = shows_dialog(report)
    document: dict[str, JSValue] = {
        "dialog": shows,
        "permissionRequestFires": shows,
        "shown": list(dialog_lines(report)) if shows else [],
        "answer": None,
    }
    if shows and answer is not None:
        answered = answer_dialog(report, answer)
        document.update(
            answer={"answer": answer.answer, "feedback": answer.feedback},
            toolRuns=answered.tool_runs,
            toolResult=answered.tool_result,
            turnEnds=answered.interrupted,
        )
    return document


def interactive_lines(report: FireReport, answer: UserAnswer | None) -> list[str]:
    """``fire --interactive``: what the interactive interface does where print mode differs."""
    lines = ["in the interactive interface:"]
    if report.event != "PreToolUse":
        return [*lines, "  as in print mode (fire models the interface's permission dialog only)"]
    if not shows_dialog(report):
        return [*lines, "  no permission dialog: the call goes as in print mode"]
    why = "a hook answered ask" if hook_asked(report) else "the permission step asks"
    lines.append(
        f"  a permission dialog shows ({why}); PermissionRequest fires first and its hooks "
        "may answer it"
    )
    lines.append("  the user is shown:")
    lines.extend(f"    {line}" for line in dialog_lines(report))
    if answer is None:
        lines.append(
            "  the user's answer decides (--answer yes|no, --feedback TEXT): yes runs the "
            "call; no refuses it, and without feedback ends the turn"
        )
        return lines
    answered = answer_dialog(report, answer)
    typed = f", then types: {answer.feedback}" if answer.feedback else ""
    lines.append(f"  the user answers {answer.answer}{typed}")
    lines.append(f"  the tool {'runs' if answered.tool_runs else 'does not run'}")
    if answered.tool_result is not None:
        body = answered.tool_result.replace("\n", "\n" + " " * 4)
        lines.append(f"  the model gets the tool_result (is_error): {body}")
    if not answered.tool_runs:
        ends = "the turn ends: the model is not asked again"
        lines.append(
            f"  {ends}" if answered.interrupted else "  the turn goes on: the model reads it"
        )
    return lines


def check_answer(answer: str | None, feedback: str | None, interactive: bool) -> UserAnswer | None:
    """``--answer`` and ``--feedback`` as a UserAnswer; InputError for a combination that
    says nothing (an answer outside the interactive interface, feedback with yes)."""
    if answer is None:
        if feedback is not None:
            raise InputError("--feedback", "feedback goes with a no", "add --answer no")
        return None
    if not interactive:
        raise InputError("--answer", "only the interactive interface asks", "add --interactive")
    if answer not in ANSWERS:
        raise InputError("--answer", f"{answer!r} is not an answer", "pass yes or no")
    if feedback is not None and answer != "no":
        raise InputError("--feedback", "feedback goes with a no", "pass --answer no")
    if feedback is not None and ("\n" in feedback or "\r" in feedback):
        raise InputError(
            "--feedback", "the feedback is one line in the dialog", "remove line breaks"
        )
    return UserAnswer(answer, feedback or "")
