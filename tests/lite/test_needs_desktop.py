"""Parts that need real processes: they run on the desktop, and in the browser (Pyodide,
``sys.platform == "emscripten"``) say so in one paragraph instead of a traceback; notebook
00's hooks and its shell contrast need none, and give the desktop's answers in the browser.

The browser side is simulated here by setting hookcourse.browser.IN_BROWSER; the real
one is shown in Chromium by tests/lite/test_lite_in_browser.py.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from IPython.core.interactiveshell import InteractiveShell

from hookcourse import browser
from hookcourse.course.checks import kernel_hook
from hookcourse.course.checks.hook_script import run_hook_script, run_in_process
from hookcourse.course.checks.shell import and_goes_on
from hookcourse.engine.runner import run_jobs
from hookcourse.kernel_exceptions import add_handler
from tests.support.paths import ROOT

GUARD = ROOT / "notebooks" / "hooks" / "no_force_push.py"
PAYLOAD = {
    "hook_event_name": "PreToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "git push --force origin main"},
}


def test_on_the_desktop_a_hook_script_runs_as_a_real_process() -> None:
    run = run_hook_script(GUARD, json.dumps(PAYLOAD))
    assert run.returncode == 2
    assert "force" in run.stderr


def test_on_the_desktop_the_shell_itself_says_where_and_goes_on() -> None:
    assert [and_goes_on(code) for code in (0, 1, 2, 255)] == [True, False, False, False]


@pytest.mark.parametrize("code", [-1, 256])
def test_an_exit_code_the_shell_cannot_have_is_refused(code: int) -> None:
    with pytest.raises(ValueError, match=f"an exit code is 0 to 255, not {code}"):
        and_goes_on(code)


@pytest.fixture
def in_browser(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(browser, "IN_BROWSER", True)


HOOKS = sorted((ROOT / "notebooks" / "hooks").glob("*.py"))
COMMANDS = ["npm test", "git push --force origin main", "git push -f", "ls", ""]


@pytest.mark.parametrize("script", HOOKS, ids=lambda path: path.name)
def test_in_the_browser_a_hook_script_answers_as_its_process_does(
    script: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for command in COMMANDS:
        event = json.dumps(dict(PAYLOAD, tool_input={"command": command}))
        desktop = run_hook_script(script, event)
        monkeypatch.setattr(browser, "IN_BROWSER", True)
        assert run_hook_script(script, event) == desktop, command
        monkeypatch.setattr(browser, "IN_BROWSER", False)


@pytest.mark.parametrize(
    ("ending", "status"),
    [
        ("", 0),
        ("sys.exit(2)", 2),
        ("sys.exit(True)", 1),
        ("sys.exit(258)", 2),
        ("sys.exit(-1)", 255),
        ("sys.exit('no')", 1),
        ("raise ValueError('bad')", 1),
    ],
)
def test_in_process_a_script_exits_as_a_python_process_does(
    ending: str, status: int, tmp_path: Path
) -> None:
    stdin = sys.stdin
    script = tmp_path / "hook.py"
    script.write_text(f"import sys\nprint(sys.stdin.read())\n{ending}\n", encoding="utf-8")
    desktop = run_hook_script(script, "{}")
    inside = run_in_process(script, "{}")
    assert (
        (inside.returncode, inside.stdout)
        == (desktop.returncode, desktop.stdout)
        == (
            status,
            "{}\n",
        )
    )
    assert inside.stderr.splitlines()[-1:] == desktop.stderr.splitlines()[-1:]
    assert sys.stdin is stdin  # the kernel's own stream is back


def test_in_the_browser_the_shell_rule_gives_the_shells_own_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    codes = range(256)
    desktop = [and_goes_on(code) for code in codes]
    monkeypatch.setattr(browser, "IN_BROWSER", True)
    assert [and_goes_on(code) for code in codes] == desktop


def test_in_the_browser_running_handlers_says_it_needs_the_desktop(in_browser: None) -> None:
    job: Any = object()  # the guard comes before any job is looked at
    with pytest.raises(browser.NeedsDesktop, match="running hook handlers cannot run"):
        run_jobs([job], "{}", setting=None)  # type: ignore[arg-type]
    assert run_jobs([], "{}", setting=None) == []  # type: ignore[arg-type]


def test_the_kernel_prints_the_paragraph_and_reports_no_error(
    in_browser: None, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # JupyterLite's Run All stops at any error reply; a NeedsDesktop must not give one.
    shell = InteractiveShell.instance()
    errors: list[Any] = []
    monkeypatch.setattr(shell, "_showtraceback", lambda *error: errors.append(error))
    monkeypatch.setattr(shell, "custom_exceptions", ())
    monkeypatch.setattr(shell, "_hookcourse_exception_handlers", {}, raising=False)
    browser.show_needs_desktop_as_a_paragraph(shell)
    # A lab's import then adds kernel_hook's NameError line: IPython has one
    # custom-exception slot, and both handlers must stay in it.
    for added in (None, NameError):
        if added is not None:
            add_handler(shell, added, kernel_hook._on_name_error)
        result = shell.run_cell(
            "from hookcourse.engine.runner import run_jobs\n"
            "run_jobs([object()], '{}', setting=None)"
        )
        assert isinstance(result.error_in_exec, browser.NeedsDesktop)
        assert errors == []
        shown = capsys.readouterr().err
        assert shown.startswith("In the browser, running hook handlers cannot run")
        assert shown.count("\n") == 1
    shell.run_cell('match_hook(None, "Bash")')
    ((_, _, (said,)),) = errors
    assert "match_hook is not defined yet" in said
