"""Notebook 07 with no processes (the browser): the seed's guard as the test it performs,
a Python guard script run inside the kernel, and both read by the engine as on the desktop.

The desktop runs the real scripts (bash, python3) through the engine's runner; the
browser side is simulated by setting hookcourse.browser.IN_BROWSER, and every verdict
must be the desktop's, on the whole corpus and on hostile commands.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hookcourse import browser
from hookcourse.course.labs.guard import SEED_GUARD, check_guard
from hookcourse.course.labs.guard_corpus import CORPUS, load_corpus
from hookcourse.course.labs.guard_runs import try_guard
from hookcourse.course.labs.kernel_script import run_in_kernel
from hookcourse.course.labs.seed_guard import command_text, seed_guard_run, seed_patterns

ROOT = Path(__file__).resolve().parents[2]
PYTHON_GUARD = ROOT / "notebooks" / "hooks" / "no_force_push.py"
TEACHER_GUARD = ROOT / "hookcourse" / "solutions" / "force_push_guard.py"
# Beyond the corpus: where a shell and python3 could differ from a substring test.
HOSTILE = [
    "git push -f\n\n",
    "git push\0 -f",
    "echo push --forceful",
    "git push\n-f",
    "gitpush -fx",
    "\ud800 git push -f",
    "",
    "  ",
    "git push \u00e9 --force",
]
COMMANDS = [c for family in load_corpus() for c in family.commands] + HOSTILE


SEED = 2026  # the drawn commands: the same seed on the desktop and in the browser


@pytest.fixture
def in_browser(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(browser, "IN_BROWSER", True)


def on_the_desktop(guard: Path, corpus: Path = CORPUS) -> list[tuple[str, str, bool]]:
    """The rows check_guard reports for ``guard`` run as a real process, seed SEED."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(browser, "IN_BROWSER", False)
        return check_guard(guard, corpus, seed=SEED).rows()


def test_the_patterns_are_read_from_the_script_itself() -> None:
    assert seed_patterns() == (("push --force", "push -f"), "Blocked: no force-push from Claude")
    assert '*"push --force"* | *"push -f"*)' in SEED_GUARD.read_text(encoding="utf-8")


def test_a_script_without_the_case_arm_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.sh"
    other.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    with pytest.raises(ValueError, match="has no case arm"):
        seed_patterns(other)


def test_what_python3_prints_is_what_the_case_sees() -> None:
    assert command_text(json.dumps({"tool_input": {"command": "a\n\n"}})) == "a"
    assert command_text(json.dumps({"tool_input": {"command": 5}})) == "5"
    assert command_text(json.dumps({"tool_input": {}})) == ""
    for broken in (
        "not json",
        "{}",
        '{"tool_input": []}',
        '{"tool_input": {"command": "\\ud800"}}',
    ):
        assert command_text(broken) is None


def test_in_the_browser_each_command_gets_the_desktops_verdict_from_either_guard(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The seed on every command (real bash); the Python script, which runs as itself
    # in the kernel too, on the hostile ones.
    desktop = {
        SEED_GUARD: try_guard(SEED_GUARD, COMMANDS),
        PYTHON_GUARD: try_guard(PYTHON_GUARD, HOSTILE),
    }
    monkeypatch.setattr(browser, "IN_BROWSER", True)
    for path, expected in desktop.items():
        note, *lines = try_guard(path, COMMANDS if path == SEED_GUARD else HOSTILE).split("\n")
        assert note.startswith("(In the browser: ")
        assert "\n".join(lines) == expected, path.name
    assert "the same test it performs" in try_guard(SEED_GUARD, ["git push"])


def test_in_the_browser_check_guard_of_a_script_reports_as_the_desktop(in_browser: None) -> None:
    # tests/labs checks the same two scripts on the desktop: 07's figures, and a pass.
    seed_port = check_guard(PYTHON_GUARD, seed=SEED)
    teacher = check_guard(TEACHER_GUARD, seed=SEED)
    assert seed_port.rows() == on_the_desktop(PYTHON_GUARD) and not seed_port.passed
    assert teacher.rows() == on_the_desktop(TEACHER_GUARD) and teacher.passed
    for report, path in ((seed_port, PYTHON_GUARD), (teacher, TEACHER_GUARD)):
        assert report.ran_as.startswith(f"(In the browser: {path.name} runs inside this kernel")
        assert report.ran_as in report.text() and "In the browser" in report._repr_html_()


def test_in_the_kernel_a_script_has_its_exit_code_streams_and_crash(tmp_path: Path) -> None:
    script = tmp_path / "guard.py"
    cases = {
        "import sys\nprint('out'); print('err', file=sys.stderr); sys.exit(2)": (
            2,
            "out\n",
            "err\n",
        ),
        "import sys\nsys.exit('bye')": (1, "", "bye\n"),
        "import sys, json\nsys.exit(len(json.load(sys.stdin)['a']))": (3, "", ""),
        "raise ValueError('boom')": (1, "", "ValueError: boom\n"),
        "import sys\nsys.exit(258)": (2, "", ""),
        "pass": (0, "", ""),
    }
    for source, (code, stdout, stderr) in cases.items():
        script.write_text(source, encoding="utf-8")
        run = run_in_kernel(script, '{"a": "abc"}')
        assert (run.exit_code, run.stdout) == (code, stdout), source
        assert run.stderr.endswith(stderr), source
    crash = run_in_kernel(script.with_name("missing.py"), "{}")
    assert crash.start_error is not None and "missing.py" in crash.start_error


def test_in_the_browser_a_guard_that_is_neither_needs_the_desktop(
    in_browser: None, tmp_path: Path
) -> None:
    other = tmp_path / "guard.sh"
    other.write_text("#!/bin/sh\nexit 2\n", encoding="utf-8")
    other.chmod(0o755)
    with pytest.raises(browser.NeedsDesktop, match=r"the guard guard\.sh cannot run"):
        try_guard(other, ["git push -f"])
    assert try_guard(tmp_path / "none.py", ["x"]).startswith("cannot run none.py: no such file")
    assert "no such file" in check_guard(tmp_path / "none.py").summary()


def test_in_the_browser_the_seed_runs_to_the_notebooks_verdicts(in_browser: None) -> None:
    hunt = try_guard(SEED_GUARD, ["git push origin main --force", "git push origin +main"])
    assert hunt.splitlines()[1:] == [
        "let through  'git push origin main --force'",
        "let through  'git push origin +main'",
    ]
    run = seed_guard_run(json.dumps({"tool_input": {"command": "git push -f"}}))
    assert (run.exit_code, run.stderr) == (2, "Blocked: no force-push from Claude\n")
    checked = check_guard(SEED_GUARD, CORPUS, seed=SEED)
    assert checked.rows() == on_the_desktop(SEED_GUARD) and checked.missed > 0
