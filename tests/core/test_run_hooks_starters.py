"""`hookcourse test --stage run-hooks` with the JavaScript and Python starters: the stub
fails with "not implemented", and the starter filled with a solution passes every case
(the TypeScript starter is graded in tests/tester/test_starters.py). About 8 s a
language: each runs the real grader end to end, twice."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

STAGES = Path(__file__).resolve().parents[2] / "hookcourse" / "stages"
REPO = STAGES.parents[1]

# A solution for each language, its earlier stages taken from the course's references.
SOLVED = {
    "js": (
        "src/hooks.mjs",
        "\n".join(
            [
                f'export {{ matchHook, interpretExitCode }} from "{STAGES}/matcher_and_dispatch/'
                'reference.mjs";',
                f'export {{ mergePreToolUse }} from "{STAGES}/merge_decisions/reference.mjs";',
                f'export {{ runHooks }} from "{STAGES}/run_hooks/reference.mjs";',
                'export function applyPreToolUse() { throw new Error("not this stage"); }',
                'export function runStopLoop() { throw new Error("not this stage"); }',
            ]
        ),
    ),
    "py": (
        "hooks.py",
        "\n".join(
            [
                "import sys",
                f"sys.path.insert(0, {str(REPO)!r})",
                "MISSING = object()",
                "from hookcourse.stages.run_hooks.solution import run_hooks",
                "def match_hook(*arguments):",
                '    raise NotImplementedError("not this stage")',
                "interpret_exit_code = apply_pre_tool_use = match_hook",
                "merge_pre_tool_use = run_stop_loop = match_hook",
            ]
        ),
    ),
}
STUB = {"js": "not implemented: runHooks", "py": "not implemented: run_hooks"}


def hookcourse(*arguments: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    # The Python starter runs `python3`: this environment's, which has the course.
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    return subprocess.run(
        [sys.executable, "-m", "hookcourse", *map(str, arguments)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "NO_COLOR": "1", "PATH": path},
    )


@pytest.mark.parametrize("language", list(SOLVED))
def test_the_stub_fails_and_a_solution_passes(language: str, tmp_path: Path) -> None:
    if shutil.which("node") is None:
        pytest.skip("node is needed to run the JavaScript starter")
    folder = tmp_path / language
    assert hookcourse("init", "--lang", language, folder, cwd=tmp_path).returncode == 0
    stub = hookcourse("test", "--stage", "run-hooks", cwd=folder)
    assert stub.returncode == 1 and STUB[language] in stub.stdout, stub.stdout
    name, text = SOLVED[language]
    (folder / name).write_text(text + "\n", encoding="utf-8")
    graded = hookcourse("test", "--stage", "run-hooks", cwd=folder)
    assert graded.returncode == 0, graded.stdout + graded.stderr
    assert graded.stdout.endswith("1/1 stages passed\n")
    assert "generated/seed-" in graded.stdout  # drawn cases too, not only the case files
