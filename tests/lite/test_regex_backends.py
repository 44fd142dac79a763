"""The regex corpus through both backends: regress (desktop) and a JavaScript engine's own
RegExp (what the JupyterLite site uses), with identical answers required.

The second backend runs for real: hookcourse under Pyodide from the npm package
`pyodide` (the one scripts/lite.sh vendors), in node, where ``from js import RegExp``
is node's engine. The syntax-profile checks sit in front of both, so the rule sets'
answers must not depend on the backend. tests/lite/test_lite_in_browser.py checks the
same in Chromium, whose engine is newer than Node 20.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from hookcourse.js.regex import engine_dependent

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def pyodide_dir() -> Path:
    """$HOOKCOURSE_PYODIDE, else the npm package scripts/lite.sh installs."""
    found = Path(
        os.environ.get("HOOKCOURSE_PYODIDE")
        or ROOT / ".venv-lite" / "npm" / "node_modules" / "pyodide"
    )
    if not (found / "pyodide.mjs").is_file():
        pytest.skip(f"no Pyodide at {found}; fix: run scripts/lite.sh (it installs it from npm)")
    return found


def test_corpus_answers_are_identical_on_regress_and_on_javascripts_regexp(
    tmp_path: Path, corpus_pairs: list[list[str]], desktop_answers: dict[str, Any]
) -> None:
    pyodide = pyodide_dir()
    pairs, desktop = corpus_pairs, desktop_answers
    pairs_file = tmp_path / "pairs.json"
    pairs_file.write_text(json.dumps(pairs), encoding="utf-8")
    run = subprocess.run(
        ["node", str(HERE / "pyodide_regex.mjs"), str(pyodide), str(ROOT), str(pairs_file)],
        capture_output=True,
        text=True,
        timeout=300,  # a hang guard
    )
    assert run.returncode == 0, run.stderr
    in_pyodide = json.loads(run.stdout)
    assert in_pyodide["backend"] == "browser RegExp"
    differ = [
        (pairs[index // 2], ("node", "bun")[index % 2], mine, theirs)
        for index, (mine, theirs) in enumerate(
            zip(desktop["rows"], in_pyodide["rows"], strict=True)
        )
        if mine != theirs
    ]
    # Node 20's engine has no ES2025 syntax, so under it the Bun profile can only differ
    # where the two profiles disagree on compiling; the course's (Node) profile never.
    # In Chromium, whose engine has it, tests/lite/test_lite_in_browser.py allows none.
    allowed = [d for d in differ if d[1] == "bun" and engine_dependent(d[0][0])]
    assert len(differ) == len(allowed), [d for d in differ if d not in allowed][:10]
