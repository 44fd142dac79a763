"""The labs driven headlessly: set control values as a learner would, read what they display."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from hookcourse.course.labs.journal import Journal
from hookcourse.course.labs.logic import run_pre_tool_use_loop
from hookcourse.course.labs.widgets import (
    RESTART_NOTE,
    Lab,
    answer_lab,
    decide_lab,
    exit_code_lab,
    matcher_lab,
)


def shown(lab: Lab) -> str:
    """What the learner sees: the readout widget's HTML."""
    value: str = lab.readout.value
    return value


# -- every lab -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("build", "name"),
    [
        (answer_lab, "answer lab"),
        (matcher_lab, "matcher lab"),
        (exit_code_lab, "exit-code lab"),
        (decide_lab, "decide lab"),
    ],
)
def test_a_lab_not_yet_run_reads_as_its_name_and_readout(
    build: Callable[[], Lab], name: str
) -> None:
    # JupyterLab shows text/plain until the cell runs in the learner's browser.
    lab = build()
    bundle = lab._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    plain = bundle["text/plain"]
    assert plain == f"[the {name}: run this cell to use it]\n{lab.text()}"
    assert "VBox" not in plain


def test_readout_row_labels_never_wrap() -> None:
    # A two-word label ("Python re") wrapped onto two lines in JupyterLab.
    lab = matcher_lab()
    lab.set(matcher="(?i)bash", tool="Bash")
    page = shown(lab)
    assert "Python re</th>" in page
    assert page.count("<th ") == page.count("white-space:nowrap'>") == len(lab.last.rows)


# -- answer lab (notebook 00) -------------------------------------------------------------------


def test_answer_lab_reads_the_three_channels_as_claude_code_does() -> None:
    lab = answer_lab()
    blocked = lab.text()
    assert blocked.splitlines()[0] == "Claude Code: blocked: the tool does not run"
    assert rows(blocked)["reason"] == '"Blocked: no force-push from Claude", shown to Claude'
    warned = rows(lab.set(code="1", stderr="oops"))
    assert "non-blocking error; the action goes ahead" in warned["why"]
    assert warned["user sees"].endswith("Failed with non-blocking status code: oops")
    answered = lab.set(code="0", stdout='{"decision": "block", "reason": "not on main"}')
    assert answered.splitlines()[0] == "Claude Code: blocked: the tool does not run"
    assert rows(answered)["stderr"].startswith("ignored: only exit 2")
    plain = lab.set(stdout="hello", stderr="")
    assert "the usual permission rules" in plain.splitlines()[0]
    assert "debug log only" in rows(plain)["why"]


@pytest.mark.parametrize("typed", ["", "two", "-1", "256", "2.0", "\u0662"])
def test_answer_lab_takes_only_a_real_exit_status(typed: str) -> None:
    text = answer_lab().set(code=typed)
    assert text.splitlines()[0] == "The exit code box cannot be read"
    assert "type a whole number from 0 to 255" in text


# -- matcher lab -------------------------------------------------------------------------------


def test_matcher_lab_shows_branch_result_and_why_as_the_learner_types() -> None:
    lab = matcher_lab()
    lab.controls["tool"].value = "MultiEdit"
    page = shown(lab)
    assert "does not fire" in page
    assert "<code>exact</code>" in page
    assert "list of exact names [&quot;Edit&quot;, &quot;Write&quot;]" in page
    lab.controls["matcher"].value = "Edit.*"
    assert "<code>regex</code>" in shown(lab) and "fires" in shown(lab)


def test_matcher_lab_left_out_disables_the_matcher_box() -> None:
    lab = matcher_lab()
    lab.controls["omitted"].value = True
    assert lab.controls["matcher"].disabled
    assert "an omitted matcher matches everything" in shown(lab)
    lab.controls["omitted"].value = False
    assert not lab.controls["matcher"].disabled


def test_matcher_lab_flags_python_re_and_engine_differences() -> None:
    lab = matcher_lab()
    text = lab.set(matcher="(?i)bash", tool="Bash")
    assert "does not fire" in text
    assert "re.search would say true: JavaScript's RegExp is not re" in text
    text = lab.set(matcher="(?i:bash)")
    assert "Node 20 and Bun disagree" in text and "does not fire" in text
    assert "fires" in lab.set(rules="claude-code").splitlines()[0]
    assert "does not fire" not in lab.text()


def test_matcher_lab_flags_unicode_word_characters() -> None:
    text = matcher_lab().set(matcher="Édit", tool="Édit")
    assert "Python's \\w is Unicode" in text


def test_matcher_lab_narrow_set_under_claude_code() -> None:
    lab = matcher_lab()
    wide = lab.set(rules="claude-code", matcher="code-reviewer", tool="senior-code-reviewer")
    assert "does not fire" in wide
    narrow = lab.set(narrow=True)
    assert "regex" in narrow and "fires" in narrow.splitlines()[0]


# -- exit-code lab -----------------------------------------------------------------------------


def test_exit_code_lab_reads_the_code_as_json() -> None:
    lab = exit_code_lab()
    assert "verdict: block" in shown(lab)
    text = lab.set(code='"2"')
    assert text.splitlines()[0] == "verdict: warn"
    assert 'code     the string "2"' in text and "=== compares the type too" in text
    assert "verdict: warn" in lab.set(code="true")
    success = lab.set(code="0", stderr="ignored")
    assert '{"block":false,"warn":false,"reason":null}' in success
    assert "not 'allow'" in success


def test_exit_code_lab_trims_like_javascript() -> None:
    text = exit_code_lab().set(code="2", stderr="\ufeff  \n")
    assert '"reason":"hook blocked"' in text


@pytest.mark.parametrize("typed", ["", "   ", "{", "two", "NaN", "2 2"])
def test_exit_code_lab_shows_a_readable_error_never_a_traceback(typed: str) -> None:
    lab = exit_code_lab()
    text = lab.set(code=typed)
    assert text.splitlines()[0] == "The exit code box cannot be read"
    assert "fix      type JSON such as 2" in text
    assert "Traceback" not in shown(lab)


# -- decide lab --------------------------------------------------------------------------------


def test_decide_lab_shows_block_rewrite_and_inject() -> None:
    lab = decide_lab()
    assert "the rewritten input {&quot;command&quot;:&quot;ls&quot;}" in shown(lab)
    blocked = lab.set(output='{"decision": "block", "updatedInput": {"command": "ls"}}')
    assert '"input":{"command":"rm"}' in blocked
    assert 'the model is told "blocked by hook"' in blocked
    assert "color:inherit" in shown(lab)  # a result, even a block, is not an input error
    injected = lab.set(output='{"additionalContext": ""}')
    assert "its original input" in injected and 'the model also sees ""' in injected


def test_decide_lab_left_out_input_is_undefined() -> None:
    text = decide_lab().set(output="{}", input="")
    assert '{"allowed":true,"injectedContext":null,"reason":null}' in text
    assert "runs with its original input undefined" in text


@pytest.mark.parametrize(
    ("output", "tool_input", "box", "problem"),
    [
        ("{decision: 'block'}", "{}", "hook output", "not valid JSON: Expecting property name"),
        ("", "{}", "hook output", "it is empty"),
        ("[1, 2]", "{}", "hook output", "it holds an array; a hook prints a JSON object"),
        ("null", "{}", "hook output", "it holds null"),
        ("{}", "{'a': 1}", "tool input", "not valid JSON"),
    ],
)
def test_decide_lab_invalid_json_is_a_readable_error(
    output: str, tool_input: str, box: str, problem: str
) -> None:
    lab = decide_lab()
    text = lab.set(output=output, input=tool_input)
    assert text.splitlines()[0] == f"The {box} box cannot be read"
    assert problem in text
    assert "color:#b42318" in shown(lab)


# -- the loop and its harmless tool, on a real file ---------------------------------------------


def test_a_block_gates_the_tool_and_a_rewrite_lands(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.txt")
    calls = [
        ({"decision": "block", "reason": "no secrets"}, {"text": "password=hunter2"}),
        ({"updatedInput": {"text": "password=[redacted]"}}, {"text": "password=hunter2"}),
        ({"additionalContext": "noted"}, {"text": "hello"}),
    ]
    steps = run_pre_tool_use_loop(calls, journal)
    assert [step.tool_result is None for step in steps] == [True, False, False]
    assert (tmp_path / "journal.txt").read_text() == "password=[redacted]\nhello\n"
    assert "tool did not run" in steps[0].text()


def test_the_journal_refuses_malformed_input_without_writing(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.txt")
    assert journal({"text": "two\nlines"}).startswith("error: expected")
    assert journal(["text"]).startswith("error: expected")
    assert journal.lines() == []
    assert not (tmp_path / "journal.txt").exists()


# -- ipywidgets stays out of the core ----------------------------------------------------------


def test_core_grader_exercises_and_lab_logic_never_import_ipywidgets() -> None:
    code = (
        "import sys\n"
        "import hookcourse.grader, hookcourse.course.checks.exercises, hookcourse.solutions\n"
        "import hookcourse.course.labs, hookcourse.course.labs.logic\n"
        "import hookcourse.course.labs.journal, hookcourse.course.labs.question\n"
        "import hookcourse.course.checks.tryout\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('ipywidgets', 'IPython')))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"


# -- the "why" rows and the traps each lab names ------------------------------------------------


def rows(text: str) -> dict[str, str]:
    """A readout's rows by label (the text form: two spaces, label, padding, value)."""
    found = {}
    for line in text.splitlines()[1:]:
        label, _, value = line.strip().partition("  ")
        found[label] = value.strip()
    return found


def test_matcher_lab_flags_spaces_in_a_name_list_under_course_rules_only() -> None:
    lab = matcher_lab()
    course = rows(lab.set(matcher="Edit | Write", tool="Write"))
    assert course["branch"] == "regex" and course["result"].startswith("false")
    assert "the spaces make this a regex" in course["spaces"]
    assert "write Edit|Write" in course["spaces"]
    claude_code = rows(lab.set(rules="claude-code"))
    assert claude_code["branch"] == "exact" and "spaces" not in claude_code


def test_matcher_lab_flags_an_unanchored_regex_matching_part_of_a_name() -> None:
    lab = matcher_lab()
    loose = rows(lab.set(matcher="Edit.*", tool="NotebookEdit"))
    assert 'matched only part of "NotebookEdit"' in loose["unanchored"]
    assert "write ^Edit.*$" in loose["unanchored"]
    assert "unanchored" not in rows(lab.set(tool="EditFile"))
    either = rows(lab.set(matcher="Edit|Write$", tool="NotebookEdit"))
    assert "write ^(?:Edit|Write$)$" in either["unanchored"]


def test_matcher_lab_says_when_python_re_agrees_and_when_it_does_not() -> None:
    lab = matcher_lab()
    agree = rows(lab.set(matcher="mcp__.*", tool="mcp__github__create"))
    assert agree["Python re"] == "re.search agrees here (true); on other input it may not"
    names = rows(lab.set(matcher="Edit|Write", tool="MultiEdit"))
    assert names["Python re"] == "re.search would say true: it reads a regex, not a name list"
    assert "Python re" not in rows(lab.set(matcher="*", tool="Bash"))


def test_matcher_lab_says_the_narrow_tick_box_is_for_claude_code_rules() -> None:
    lab = matcher_lab()
    ticked = rows(lab.set(narrow=True))
    assert "only changes the claude-code rules" in ticked["tick box"]
    assert "tick box" not in rows(lab.set(rules="claude-code"))


@pytest.mark.parametrize(
    ("code", "stderr", "why"),
    [
        ("0", "ignored", "code === 0, so success; stderr is not read"),
        ("2", "  no  ", "code === 2, so block; the reason is stderr.trim()"),
        ("2", " \n", 'stderr is blank after trim(), so the reason is the default "hook blocked"'),
        ("1", "", "code is neither 0 nor 2, so warn; stderr is blank after trim(), so the reason "),
        ("true", "", "the boolean true is not a number, so code === 0 and code === 2 are false"),
    ],
)
def test_exit_code_lab_says_why(code: str, stderr: str, why: str) -> None:
    assert why in rows(exit_code_lab().set(code=code, stderr=stderr))["why"]


DENY = (
    '{"hookSpecificOutput": {"hookEventName": "PreToolUse", '
    '"permissionDecision": "deny", "permissionDecisionReason": "no rm"}}'
)


def test_decide_lab_shows_what_claude_codes_own_format_means() -> None:
    shown_rows = rows(decide_lab().set(output=DENY, input='{"command": "rm"}'))
    assert shown_rows["effect"].startswith('{"allowed":true')
    assert shown_rows["Claude Code"] == 'denies the call, telling Claude "no rm"'
    assert "the stage does not read hookSpecificOutput, so allowed" in shown_rows["why"]
    assert "nests them in hookSpecificOutput" in shown_rows["format"]


@pytest.mark.parametrize(
    ("output", "why", "claude_code"),
    [
        ('{"decision": "Block"}', 'decision is "Block", not "block": === is exact', "JSON valid"),
        (
            '{"updatedInput": {}}',
            "updatedInput {} is not null or undefined, so ?? keeps it (Python's `or` would drop",
            "updatedInput means nothing on PreToolUse",
        ),
        ('{"additionalContext": ""}', 'additionalContext "" is not null or undefined', ""),
        ('{"updatedInput": null}', "updatedInput is null, so ?? falls back to the original", ""),
        ('{"decision": "block"}', 'reason is null or left out, so ?? gives "blocked by hook"', ""),
        ('{"decision": "allow"}', 'decision is "allow", not "block", so the call is allowed', ""),
    ],
)
def test_decide_lab_says_why(output: str, why: str, claude_code: str) -> None:
    shown_rows = rows(decide_lab().set(output=output))
    assert why in shown_rows["why"]
    assert claude_code.replace("JSON valid", "JSON validation failed") in shown_rows["Claude Code"]


# -- a kernel restart ----------------------------------------------------------------------------


@pytest.mark.parametrize("build", [answer_lab, matcher_lab, exit_code_lab, decide_lab])
def test_every_readout_carries_the_restart_note_hidden_until_disconnected(
    build: Callable[[], Lab],
) -> None:
    page = shown(build())
    assert page.startswith(RESTART_NOTE)
    # Shown only under ipywidgets' class for a view whose kernel connection is gone.
    assert ".hookcourse-restart{display:none}" in page
    assert ".jupyter-widgets-disconnected .hookcourse-restart{display:block" in page
    assert "run this cell again" in page
