"""`hookcourse init --lang ts|js|py` writes the course's skeleton, and a TypeScript learner
goes from it to every stage green through `hookcourse test`.

The TypeScript tests install the starter's pinned runner with `npm ci` once, then grade
the starter (every stage fails with "not implemented", reported once per stage), a
finished solution written for these tests (every stage passes, results.json v3), and
that solution with each classic bug (a hint in JavaScript terms for each).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from hookcourse.course.grading.starter import LANGUAGES, starter_files
from hookcourse.stages.registry import STAGES

SOLUTION = Path(__file__).resolve().parent / "solutions" / "ts" / "hooks.ts"


def hookcourse(*arguments: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "hookcourse", *map(str, arguments)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    return done


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_init_writes_every_grader_command_and_never_overwrites(
    language: str, tmp_path: Path
) -> None:
    folder = tmp_path / "hooks"
    made = hookcourse("init", "--lang", language, folder, cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert made.stdout.endswith(
        f"next: cd {folder} && "
        + ("npm install && " if language == "ts" else "")
        + "hookcourse test\n"
    )
    assert set(starter_files(language)) == {
        str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()
    }
    assert os.access(folder / "your_program.sh", os.X_OK)
    program = next(p for p in folder.glob("program.*")).read_text()
    for stage in STAGES:  # the registry's commands, every one
        assert f'"{stage.command}"' in program
    again = hookcourse("init", "--lang", language, folder, cwd=tmp_path)
    assert again.returncode == 1 and again.stdout == ""
    assert "it exists already (hookcourse init never overwrites a file)" in again.stderr


def test_init_refuses_an_unknown_language(tmp_path: Path) -> None:
    refused = hookcourse("init", "--lang", "go", tmp_path / "x", cwd=tmp_path)
    assert refused.returncode == 2 and "invalid choice: 'go'" in refused.stderr
    assert not (tmp_path / "x").exists()


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A TypeScript starter with its pinned runner installed (npm ci, from the lock)."""
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        pytest.skip("node and npm are needed to run the TypeScript starter")
    folder = tmp_path_factory.mktemp("ts") / "hooks"
    assert hookcourse("init", "--lang", "ts", folder, cwd=folder.parent).returncode == 0
    done = subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund", "--prefer-offline"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return folder


def learner(installed: Path, tmp_path: Path, hooks: str | None) -> Path:
    """A copy of the installed starter, with ``hooks`` as its src/hooks.ts when given."""
    folder = tmp_path / "hooks"
    shutil.copytree(installed, folder, symlinks=True, ignore=shutil.ignore_patterns("node_modules"))
    (folder / "node_modules").symlink_to(installed / "node_modules")
    if hooks is not None:
        (folder / "src" / "hooks.ts").write_text(hooks)
    return folder


@pytest.mark.parametrize("stage", [stage.slug for stage in STAGES])
def test_the_starter_fails_every_stage_with_not_implemented_once(
    installed: Path, tmp_path: Path, stage: str
) -> None:
    folder = learner(installed, tmp_path, None)
    graded = hookcourse("test", "--stage", stage, cwd=folder)
    assert graded.returncode == 1
    lines = graded.stdout.splitlines()
    assert len(lines) < 80, graded.stdout
    # Each crash (one a function) reported once, with its count, site and first stderr lines.
    crashes = [line for line in lines if line.startswith("  ✗ ")]
    counts = [int(found[1]) for line in crashes if (found := re.search(r"on (\d+) cases", line))]
    failing = len(crashes) - len(counts) + sum(counts)
    kept = folder / ".hookcourse" / "failed" / stage
    assert failing == len(list(kept.glob("*.expected.json"))) > 0
    assert graded.stdout.count("      its stderr:") == len(crashes)
    assert graded.stdout.count("      it crashed in your code at src/hooks.ts:") == len(crashes)
    assert "Error: not implemented: " in graded.stdout
    hint = 'hint (crash): This stage\'s function still throws "not implemented"'
    assert graded.stdout.count(hint) == len(crashes)
    # Every file the report names exists after the run, and its command runs it again.
    command = next(line.strip()[2:] for line in lines if line.strip().startswith("$ ./"))
    for word in command.split():
        if word.startswith(".hookcourse/"):
            assert (folder / word).is_file()
    again = subprocess.run(
        command, shell=True, cwd=folder, capture_output=True, text=True, timeout=60
    )
    assert again.returncode == 1 and "not implemented" in again.stderr


def test_a_finished_typescript_solution_passes_every_stage(
    installed: Path, tmp_path: Path, results_v3_problems: Callable[[object], list[str]]
) -> None:
    folder = learner(installed, tmp_path, SOLUTION.read_text())
    (folder / ".hookcourse" / "failed" / "stale").mkdir(parents=True)  # the last run's
    results = tmp_path / "results.json"
    graded = hookcourse("test", "--json", results, cwd=folder)
    assert graded.returncode == 0, graded.stdout
    assert graded.stdout.endswith(f"{len(STAGES)}/{len(STAGES)} stages passed\n")
    assert not (folder / ".hookcourse" / "failed").exists()  # cleaned, nothing failed
    document = json.loads(results.read_text())
    assert results_v3_problems(document) == []
    assert {test["task_id"] for test in document["tests"]} == set(range(1, len(STAGES) + 1))


BUGS = {
    "a regex for Edit|Write": (
        '  if (/^[\\w|]+$/.test(matcher)) return matcher.split("|").includes(toolName);\n',
        "",
        "matcher-and-dispatch",
        "hint (matchHook, name-list): A matcher that passes /^[\\w|]+$/ is a list of whole names",
    ),
    "|| for ??": (
        "out.additionalContext ?? null",
        "out.additionalContext || null",
        "decide-and-modify",
        "hint (applyPreToolUse, nullish-not-falsy): ?? replaces only null and undefined; ||",
    ),
    "== for ===": (
        "if (code === 2) return { block: true",
        "if (code == 2) return { block: true",
        "matcher-and-dispatch",
        "hint (interpretExitCode, strict-equality): code === 0 and code === 2 compare the type",
    ),
    "no try/catch around new RegExp": (
        "  try {\n    return new RegExp(matcher).test(toolName);\n"
        "  } catch {\n    return false;\n  }",
        "  return new RegExp(matcher).test(toolName);",
        "matcher-and-dispatch",
        'hint (crash): Compiling a matcher as a regex threw: an invalid pattern such as "(" must '
        "give false, never a crash. Wrap it, try {",
    ),
    "a trim of only spaces": (
        'reason: stderr.trim() || "hook blocked"',
        'reason: stderr.replace(/^ +| +$/g, "") || "hook blocked"',
        "matcher-and-dispatch",
        "hint (interpretExitCode, js-trim): stderr.trim() removes every JavaScript whitespace "
        "and line terminator",
    ),
}


@pytest.mark.parametrize("bug", list(BUGS))
def test_each_classic_bug_gets_a_hint_in_javascript_terms(
    installed: Path, tmp_path: Path, bug: str
) -> None:
    right, wrong, stage, hint = BUGS[bug]
    solution = SOLUTION.read_text()
    assert right in solution
    folder = learner(installed, tmp_path, solution.replace(right, wrong))
    graded = hookcourse("test", "--stage", stage, cwd=folder)
    assert graded.returncode == 1
    assert hint in graded.stdout, graded.stdout
    if "try/catch" in bug:  # every invalid pattern crashes the same line: one report
        assert graded.stdout.count("it crashed in your code at src/hooks.ts:") == 1
    for python in ("is_nullish(", "js_trim(", "strict_equals_number(", "regex_test(", "`or`"):
        assert python not in graded.stdout  # the notebooks' spelling stays in the notebooks


def test_init_names_the_folder_as_it_can_be_typed_back(tmp_path: Path) -> None:
    done = hookcourse("init", "--lang", "py", "my hooks", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith("next: cd 'my hooks' && hookcourse test\n"), done.stdout
