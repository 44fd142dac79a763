"""The learner's module ``my_hooks.py``: kept by the checks, newest version winning, never the
course's code, importable after a restart; ``hookcourse reset`` leaves it alone."""

from __future__ import annotations

import os
import textwrap
import types
from pathlib import Path

import nbclient
import nbformat
import pytest

from hookcourse.course.checks import learner_module
from hookcourse.course.teaching import notebook_files, progress, working_copy
from hookcourse.stages.matcher_and_dispatch.reference import match_hook as course_match_hook
from hookcourse.stages.matcher_and_dispatch.solution import match_hook as teacher_match_hook

MATCH_HOOK = '''
from hookcourse.js.regex import RegexEngine, regex_test

def match_hook(matcher, tool_name):
    """Does the group's matcher select this tool?"""
    if matcher is None or matcher in ("", "*"):
        return True
    text = tidy(matcher)
    if all(c.isalnum() or c in "_|" for c in text):
        return tool_name in text.split("|")
    return regex_test(text, tool_name, RegexEngine.NODE)
'''


def cell_function(source: str, name: str, filename: str, namespace: dict[str, object]) -> object:
    """``name`` as a notebook cell defines it: its source in linecache, as IPython keeps it."""
    import linecache

    text = textwrap.dedent(source)
    linecache.cache[filename] = (len(text), None, text.splitlines(keepends=True), filename)
    exec(compile(text, filename, "exec"), namespace)
    return namespace[name]


def test_a_cell_is_kept_with_what_it_reads_from_the_notebook(tmp_path: Path) -> None:
    namespace: dict[str, object] = {"__name__": "__main__", "check_matcher": lambda fn: None}
    cell_function(
        "import re\nLIMIT = 3\ndef tidy(text):\n    return text.strip()\n",
        "tidy",
        "/tmp/ipykernel_1/1.py",
        namespace,
    )
    fn = cell_function(
        MATCH_HOOK + "\nprint('defined')\nresult = check_matcher(match_hook)\n",
        "match_hook",
        "/tmp/ipykernel_1/2.py",
        namespace,
    )
    target = tmp_path / "my_hooks.py"
    assert learner_module.keep("match_hook", fn, target) == target
    kept = target.read_text(encoding="utf-8")
    assert "def tidy(text):" in kept  # a helper of an earlier cell comes along
    assert "print(" not in kept and "check_matcher" not in kept  # calls stay in the notebook
    module = types.ModuleType("my_hooks")
    exec(compile(kept, str(target), "exec"), module.__dict__)
    assert module.match_hook(" Edit|Write ", "Write") is True
    assert module.match_hook("^Bash$", "Bash") is True


def test_the_newest_definition_wins_and_sections_stay_in_course_order(tmp_path: Path) -> None:
    target = tmp_path / "my_hooks.py"
    space: dict[str, object] = {"__name__": "__main__"}
    stop = cell_function(
        "def run_stop_loop(hook, cap):\n    return 1\n",
        "run_stop_loop",
        "/tmp/ipykernel_1/3.py",
        space,
    )
    first = cell_function(
        "def match_hook(matcher, tool_name):\n    return 1\n",
        "match_hook",
        "/tmp/ipykernel_1/4.py",
        space,
    )
    second = cell_function(
        "def match_hook(matcher, tool_name):\n    return 2\n",
        "match_hook",
        "/tmp/ipykernel_1/5.py",
        space,
    )
    for name, fn in [("run_stop_loop", stop), ("match_hook", first), ("match_hook", second)]:
        learner_module.keep(name, fn, target)
    kept = target.read_text(encoding="utf-8")
    assert "return 1\n" in kept and "return 2\n" in kept and kept.count("def match_hook") == 1
    assert kept.index("def match_hook") < kept.index("def run_stop_loop")


def test_the_courses_code_and_a_starter_are_never_kept(tmp_path: Path) -> None:
    target = tmp_path / "my_hooks.py"
    space: dict[str, object] = {"__name__": "__main__"}
    starter = cell_function(
        'def match_hook(matcher, tool_name):\n    """Doc."""\n    raise NotImplementedError\n',
        "match_hook",
        "/tmp/ipykernel_1/6.py",
        space,
    )
    wrapper = cell_function(
        "from hookcourse.stages.matcher_and_dispatch.reference import match_hook as m\n"
        "def match_hook(matcher, tool_name):\n    return m(matcher, tool_name)\n",
        "match_hook",
        "/tmp/ipykernel_1/7.py",
        space,
    )
    for fn in (starter, wrapper, course_match_hook, teacher_match_hook, print):
        assert learner_module.keep("match_hook", fn, target) is None
    assert not target.exists()


def test_nothing_is_written_outside_a_working_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(progress.WORK_ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(progress, "CHECKOUT_WORK", tmp_path / "none")
    assert learner_module.module_path() is None
    (tmp_path / progress.MARKER).write_text("", encoding="utf-8")
    assert learner_module.module_path() == tmp_path / "my_hooks.py"


def test_reset_leaves_the_module_alone_unless_asked(tmp_path: Path) -> None:
    course, work = notebook_files.COURSE, tmp_path / "work"
    working_copy.prepare_work(course, work)
    kept = work / learner_module.FILE_NAME
    kept.write_text("def match_hook(matcher, tool_name):\n    return True\n", encoding="utf-8")
    working_copy.reset(["01"], course, work)
    assert kept.exists()
    done = working_copy.reset_module(work)
    assert not kept.exists() and done is not None and done.exists()
    assert "return True" in done.read_text(encoding="utf-8")


def notebook(*cells: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])


def run(book: nbformat.NotebookNode, folder: Path) -> nbformat.NotebookNode:
    env = {**os.environ, progress.SWITCH_ENV: "on", progress.WORK_ENV: str(folder)}
    client = nbclient.NotebookClient(
        book, timeout=60, kernel_name="python3", resources={"metadata": {"path": str(folder)}}
    )
    client.km = client.create_kernel_manager()
    client.start_new_kernel(env=env)
    client.start_new_kernel_client()
    try:
        for index, cell in enumerate(book.cells):
            client.execute_cell(cell, index)
    finally:
        client._cleanup_kernel()
    return book


def text_of(cell: nbformat.NotebookNode) -> str:
    return "".join(
        o.get("text", "") + o.get("data", {}).get("text/plain", "") for o in cell.outputs
    )


def test_a_real_kernel_keeps_the_checked_function_and_a_restart_imports_it(
    tmp_path: Path,
) -> None:
    (tmp_path / progress.MARKER).write_text("", encoding="utf-8")
    run(
        notebook(
            "def tidy(text):\n    return text.strip()",
            MATCH_HOOK,
            "from hookcourse.course.checks.exercises import check_matcher\n"
            "print(check_matcher(match_hook, seed=1).all_pass)",
        ),
        tmp_path,
    )
    assert "def match_hook" in (tmp_path / "my_hooks.py").read_text(encoding="utf-8")
    after = run(
        notebook("from my_hooks import match_hook\nprint(match_hook('Edit|Write', 'Edit'))"),
        tmp_path,
    )
    assert text_of(after.cells[0]).strip() == "True"
