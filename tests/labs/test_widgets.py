"""The labs driven headlessly: set control values as a learner would, read what they display."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from hookcourse.course.labs.journal import Journal
from hookcourse.course.labs.logic import run_pre_tool_use_loop
from hookcourse.course.labs.widgets import Lab, decide_lab, exit_code_lab, matcher_lab


def shown(lab: Lab) -> str:
    """What the learner sees: the readout widget's HTML."""
    value: str = lab.readout.value
    return value


# -- every lab -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("build", "name"),
    [(matcher_lab, "matcher lab"), (exit_code_lab, "exit-code lab"), (decide_lab, "decide lab")],
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
    assert "re.search would say True: JavaScript's RegExp is not re" in text
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
        "import hookcourse.grader, hookcourse.course.exercises, hookcourse.solutions\n"
        "import hookcourse.course.labs, hookcourse.course.labs.logic\n"
        "import hookcourse.course.labs.journal, hookcourse.course.labs.question\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('ipywidgets', 'IPython')))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"
