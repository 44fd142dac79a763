"""Shared by tests/lite: the regex corpus's string pairs and the desktop backend's answers.

regex_answers.py computes the answers on whichever backend hookcourse chose, so the
desktop (regress), Pyodide in node and the browser's kernel all run the same code.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
ORACLE = ROOT / "tests" / "oracle"
REGEX_ANSWERS = HERE / "regex_answers.py"


def load(path: Path) -> ModuleType:
    """A Python file outside the import path, as a module."""
    # A name of its own, registered, so that dataclasses in the file can find their module.
    name = f"_loaded_{path.parent.name}_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def corpus_pairs() -> list[list[str]]:
    """Every (pattern, subject) string pair of the corpus's matcher families and fuzz draws."""
    corpus: dict[str, Any] = json.loads((ORACLE / "corpus.json").read_text(encoding="utf-8"))
    pairs: list[list[str]] = []
    for family in corpus["matches"]:
        if "pairs" in family:
            pairs += [[pattern, subject] for pattern, subject, _ in family["pairs"]]
        else:
            pairs += [[m, t] for m in family["matchers"] for t in family["tools"]]
    fuzz = load(ORACLE / "fuzz_regex.py")
    for spec in fuzz.regex_specs():
        pairs += [list(pair) for pair in fuzz.draw_pairs(spec, spec["seed"], spec["patterns"])]
    strings = [pair for pair in pairs if all(isinstance(text, str) for text in pair)]
    assert len(strings) > 5000  # the whole matcher corpus, fuzz families included
    return strings


@pytest.fixture(scope="session")
def desktop_answers(corpus_pairs: list[list[str]]) -> dict[str, Any]:
    """regex_answers on this Python, whose backend is regress."""
    answers: dict[str, Any] = load(REGEX_ANSWERS).regex_answers(corpus_pairs)
    assert answers["backend"] == "regress"
    return answers


@pytest.fixture(scope="module")
def browser_tools() -> tuple[str, str]:
    """(a Python with Playwright, Chromium), found as tests/ui finds them."""
    ui = load(ROOT / "tests" / "ui" / "conftest.py")
    return ui.playwright_python(), ui.chromium()
