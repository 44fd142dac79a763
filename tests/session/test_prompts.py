"""Several prompts in one session through the engine: each has its own loop, the turns go
on across them, a blocked one never reaches the model; expectations and differences see
each prompt."""

from __future__ import annotations

import copy
from pathlib import Path

from hookcourse.session.expect import judge_all
from hookcourse.session.loop import run_session
from hookcourse.session.script import load
from hookcourse.session.transcript import differences, render

SCRIPT = Path(__file__).resolve().parents[2] / "fixtures" / "sessions" / "several-prompts.json"


def test_each_prompt_has_its_loop_and_a_blocked_one_is_skipped() -> None:
    transcript = run_session(load(SCRIPT))
    later = transcript["prompts"]
    assert [(p["prompt"], p["round"], p["before"]["reason"]) for p in later] == [
        ("Now deploy it to production.", 4, "completed"),
        ("Add a test for it.", 4, "prompt_blocked"),
    ]
    # The third prompt's loop starts with the next scripted turn, its Stop chain afresh.
    assert [r["turn"] for r in transcript["rounds"]] == [0, 1, 2, 3, 4, 5]
    assert transcript["rounds"][-1]["events"][-1]["stopHookActive"] is False
    shown = transcript["rounds"][4]["shown"]
    assert shown == [
        {
            "kind": "system",
            "text": "UserPromptSubmit hook success: Team rule: keep every change small.",
        }
    ]
    text = render(transcript)
    assert "end of the prompt before: prompt_blocked\n" in text
    assert "the user submits: 'Add a test for it.'\n" in text
    assert text.index("Add a test for it.") < text.index("request 5: the model is shown")


def test_expectations_and_differences_name_the_prompt() -> None:
    transcript = run_session(load(SCRIPT))
    checks = judge_all(
        [{"ends": "completed", "prompt": 4}, {"ends": "completed", "prompt": 2}], transcript
    )
    assert [(c["held"], c["why"]) for c in checks] == [
        (False, "the session has 3 prompt(s)"),
        (False, "it ended prompt_blocked"),
    ]
    other = copy.deepcopy(transcript)
    other["prompts"][1]["round"] = 3
    (line,) = differences(transcript, other)
    assert line.startswith(
        "the later prompts: only hookcourse's engine: prompt 'Add a test for it.' at request 5"
    )
