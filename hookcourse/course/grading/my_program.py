"""The learner's own program from ``my_hooks.py``: ``hookcourse init --lang py`` with the
learner's functions as its ``hooks.py``, ``your_program.sh COMMAND FILE`` over them
(``run_program``), and ``program_tests`` that grades it with ``hookcourse test``.
"""

from __future__ import annotations

import os
import sys
import types
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final, cast

from hookcourse.course.checks import kernel_hook
from hookcourse.course.checks.learner_module import module_path
from hookcourse.errors import InputError

PROGRAM_HOOKS: Final = '''"""The program's hook functions: my_hooks.py, written in the notebooks."""

from hookcourse.js.values import UNDEFINED as MISSING  # the notebooks' undefined

'''


def program_from_module(folder: Path, path: Path | None = None) -> Path | None:
    """Write ``folder/hooks.py`` (of ``hookcourse init --lang py``) from the learner's
    module; the file written, or None when there is no module to take it from."""
    source = path or module_path()
    if source is None or not source.is_file():
        print("no my_hooks.py here yet: run the checks of notebooks 01 to 08 in my-notebooks/")
        return None
    text = source.read_text(encoding="utf-8")
    target = folder / "hooks.py"
    target.write_text(PROGRAM_HOOKS + text.split('"""', 2)[-1].lstrip("\n"), encoding="utf-8")
    (folder / "program.py").write_text(PROGRAM, encoding="utf-8")
    print(f"wrote {target}: the program's functions are now yours ({source.name})")
    return target


def hookcourse_command(*arguments: str, cwd: Path | None = None) -> int:
    """Run ``hookcourse ARGUMENTS`` with this kernel's Python (first on PATH, so a program's
    ``python3`` is it too) and print what it says; its exit status."""
    from hookcourse.browser import require_desktop
    from hookcourse.system.processes import run

    require_desktop(f"hookcourse {' '.join(arguments)}", "the command's output")
    bin_folder = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bin_folder + os.pathsep + os.environ.get("PATH", "")}
    argv = [sys.executable, "-m", "hookcourse", *arguments]
    done = run(argv, env=env, cwd=cwd, timeout_s=300)
    said = (done.stdout + done.stderr).decode("utf-8", "replace").rstrip()
    print(said)
    return -1 if done.exit_code is None else done.exit_code


PROGRAM: Final = '''"""./your_program.sh COMMAND FILE over hooks.py (my_hooks.py).

The course reads and checks each case as the notebooks' checks do; every answer
printed is one of your functions'.
"""

import sys

import hooks
from hookcourse.course.grading.my_program import run_program

sys.exit(run_program(hooks, sys.argv[1:]))
'''


def run_program(module: types.ModuleType, argv: Sequence[str]) -> int:
    """``your_program.sh COMMAND FILE`` over the learner's functions in ``module``: each
    case read as the check reads it (invalid input: one line, exit 2), answered by the
    learner's function, printed as ``JSON.stringify`` would."""
    from hookcourse.grader import EXIT_BAD_INPUT, USAGE, read_fixture
    from hookcourse.js import json as jsjson
    from hookcourse.stages.decoding import CaseError, describe_value, member
    from hookcourse.stages.registry import stage_for_command

    stage = stage_for_command(argv[0]) if len(argv) == 2 else None
    if stage is None:
        print(f"your_program.sh: {USAGE}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        fixture = read_fixture(argv[1])
        document: dict[str, object] = {}
        for exercise in stage.exercises:
            key = exercise.case_key
            cases = member(fixture, key) if isinstance(fixture, dict) else None
            if not isinstance(cases, list):
                raise InputError(
                    argv[1],
                    f"{key} must be a list, got {describe_value(cases)}",
                    f'write {{"{key}": [...]}}',
                    [key],
                )
            fn = getattr(module, exercise.function, None)
            if not callable(fn):
                notebook = exercise.notebook
                raise InputError(
                    "hooks.py",
                    f"has no {exercise.function}",
                    f"run notebook {notebook}'s check of it (it keeps it in my_hooks.py), then "
                    "program_tests again",
                )
            answers = []
            for index, case in enumerate(cases):
                try:
                    given = exercise.read(case).given
                except CaseError as error:
                    raise InputError(
                        argv[1], error.problem, error.fix, [key, index, *error.steps]
                    ) from None
                answers.append(_as_json(fn(*given)))
            document[exercise.output_key] = answers
    except InputError as error:
        print(f"your_program.sh {stage.command}: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(jsjson.stringify(cast(Any, document)))
    return 0


def _as_json(value: object) -> object:
    from hookcourse.js import json as jsjson

    # As the checks read a return value: JSON.stringify's view, undefined members gone.
    to_json = getattr(value, "to_json", None)
    plain = to_json() if callable(to_json) else value
    plain = dict(plain) if isinstance(plain, Mapping) else plain
    return jsjson.parse(jsjson.stringify(cast(Any, plain)))


def program_tests(folder: str = "my-program") -> int | None:
    """``hookcourse init --lang py FOLDER`` (once), its ``hooks.py`` from ``my_hooks.py``,
    then ``hookcourse test`` in it, each printing what it says; the test's exit status, or
    None outside a working copy (the course's own folder is never written). In the browser
    it says what to run on the desktop: the test starts the program once per case file."""
    from hookcourse.browser import require_desktop

    require_desktop(
        "hookcourse test",
        "every stage's cases run on the program made of your my_hooks.py: download "
        "my_hooks.py (right-click it in the file browser, Download), put it in my-notebooks/ "
        "there and run this cell; the checks in these notebooks already graded each function",
    )
    path = module_path()
    if path is None:
        print("not in a working copy: run this in my-notebooks/, where your my_hooks.py is")
        return None
    target = path.parent / folder
    if not target.exists():
        hookcourse_command("init", "--lang", "py", str(target))
    if program_from_module(target, path) is None:
        return None
    # The test starts the program once per case file: say so before the wait, not after.
    kernel_hook.say_in_notebook("hookcourse test: running every stage's cases on your program...")
    return hookcourse_command("test", cwd=target)
