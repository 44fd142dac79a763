"""Parts that need real processes: they run on the desktop, and in the browser (Pyodide,
``sys.platform == "emscripten"``) say so in one paragraph instead of a traceback.

The browser side is simulated here by setting hookcourse.browser.IN_BROWSER; the real
one is shown in Chromium by tests/lite/test_lite_in_browser.py.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from IPython.core.interactiveshell import InteractiveShell

from hookcourse import browser
from hookcourse.course import kernel_hook
from hookcourse.course.hook_script import run_hook_script
from hookcourse.course.shell import and_goes_on
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


def test_in_the_browser_a_hook_script_says_it_needs_the_desktop(in_browser: None) -> None:
    with pytest.raises(browser.NeedsDesktop) as raised:
        run_hook_script(GUARD, json.dumps(PAYLOAD))
    (shown,) = raised.value._render_traceback_()  # what IPython prints: one paragraph
    assert shown.startswith("In the browser, the hook script no_force_push.py cannot run")
    assert "scripts/lab.sh" in shown
    assert "exit code, stderr and stdout" in shown


def test_in_the_browser_running_handlers_says_it_needs_the_desktop(in_browser: None) -> None:
    job: Any = object()  # the guard comes before any job is looked at
    with pytest.raises(browser.NeedsDesktop, match="running hook handlers cannot run"):
        run_jobs([job], "{}", setting=None)  # type: ignore[arg-type]
    assert run_jobs([], "{}", setting=None) == []  # type: ignore[arg-type]


def test_in_the_browser_the_shell_says_it_needs_the_desktop(in_browser: None) -> None:
    with pytest.raises(browser.NeedsDesktop) as raised:
        and_goes_on(1)
    (shown,) = raised.value._render_traceback_()
    assert shown.startswith("In the browser, the shell sh cannot run")
    assert "whether its && goes on after a command that exits 1" in shown


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
        result = shell.run_cell("from hookcourse.course.shell import and_goes_on\nand_goes_on(2)")
        assert isinstance(result.error_in_exec, browser.NeedsDesktop)
        assert errors == []
        shown = capsys.readouterr().err
        assert shown.startswith("In the browser, the shell sh cannot run")
        assert shown.count("\n") == 1
    shell.run_cell('match_hook(None, "Bash")')
    ((_, _, (said,)),) = errors
    assert "match_hook is not defined yet" in said
