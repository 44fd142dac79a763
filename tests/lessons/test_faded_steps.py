"""Every faded step of notebooks 01-03 fails on the trap it teaches: filled in with the
Python habit its notebook warns against, its own calls show a wrong line; filled in
rightly, all are right; with a blank left, none counts."""

from __future__ import annotations

import ast
import json
import linecache
from pathlib import Path
from typing import Any

import pytest

from hookcourse.course.checks.tryout import Tryout

ROOT = Path(__file__).resolve().parents[2]
# Per notebook: the faded function, what its blanks need, and each trap's fill-in.
FADED: dict[str, tuple[str, list[str], dict[str, list[str]]]] = {
    "01_matcher": (
        "regex_branch",
        ["js_to_string(tool_name)", "RegexEngine.NODE"],
        {
            "Python's str() for String()": ["str(tool_name)", "RegexEngine.NODE"],
            "Bun's RegExp for Node's": ["js_to_string(tool_name)", "RegexEngine.BUN"],
        },
    ),
    "02_exit_codes": (
        "block_or_not",
        ["strict_equals_number(code, 2)", 'js_trim(stderr) or "hook blocked"'],
        {
            "strip() for trim()": [
                "strict_equals_number(code, 2)",
                'stderr.strip() or "hook blocked"',
            ],
            "?? for ||": [
                "strict_equals_number(code, 2)",
                '"hook blocked" if is_nullish(js_trim(stderr)) else js_trim(stderr)',
            ],
            "no fallback": ["strict_equals_number(code, 2)", "js_trim(stderr)"],
        },
    ),
    "03_decide_modify_inject": (
        "block_reason",
        ['"blocked by hook" if is_nullish(given) else given'],
        {
            "or for ??": ['given or "blocked by hook"'],
            "is None for ??": ['"blocked by hook" if given is None else given'],
        },
    ),
}
SETUP = """
from hookcourse.js.regex import RegexEngine, regex_test
from hookcourse.js.values import UNDEFINED, is_nullish, js_to_string, js_trim, strict_equals_number
"""


def faded_cells(stem: str, name: str) -> tuple[str, str]:
    cells = json.loads((ROOT / "notebooks" / f"{stem}.ipynb").read_text(encoding="utf-8"))["cells"]
    code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    (function,) = [text for text in code if f"def {name}(" in text and "# fill in" in text]
    (tried,) = [text for text in code if "try_calls(" in text and f"    {name}," in text]
    return function, tried


def filled(function: str, answers: list[str]) -> str:
    """The function with its ``...`` blanks replaced by ``answers``, in order."""
    parts = function.split("...")
    assert len(parts) == len(answers) + 1, "one answer per blank"
    return "".join(part + answer for part, answer in zip(parts, [*answers, ""], strict=True))


def run(function: str, tried: str) -> Tryout:
    namespace: dict[str, Any] = {}
    exec(SETUP, namespace)
    # As IPython does for a cell, so the function's source can be read back.
    cell = f"<cell {abs(hash(function))}>"
    linecache.cache[cell] = (len(function), None, function.splitlines(True), cell)
    exec(compile(function, cell, "exec"), namespace)
    tree = ast.parse(tried)
    *body, last = tree.body
    exec(compile(ast.Module(body=body, type_ignores=[]), "<try>", "exec"), namespace)
    assert isinstance(last, ast.Expr)
    result = eval(compile(ast.Expression(last.value), "<try>", "eval"), namespace)
    assert isinstance(result, Tryout)
    return result


@pytest.mark.parametrize("stem", sorted(FADED))
def test_the_faded_step_passes_only_when_filled_in_rightly(stem: str) -> None:
    name, right, _ = FADED[stem]
    function, tried = faded_cells(stem, name)
    untouched = run(function, tried)
    assert untouched.right == 0 and untouched.blanks == len(right)
    assert "blank" in untouched.text().splitlines()[0]
    done = run(filled(function, right), tried)
    assert done.right == len(done.rows) and done.blanks == 0, done.text()


@pytest.mark.parametrize(
    ("stem", "trap"), [(stem, trap) for stem, (_, _, traps) in FADED.items() for trap in traps]
)
def test_the_faded_step_fails_on_the_trap_it_teaches(stem: str, trap: str) -> None:
    name, _, traps = FADED[stem]
    function, tried = faded_cells(stem, name)
    result = run(filled(function, traps[trap]), tried)
    assert result.right < len(result.rows), f"{stem}: {trap} passes every call"
    assert "fix what the ✗ lines show" in result.text().splitlines()[0]
