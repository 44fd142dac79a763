"""What ``hookcourse test`` says to a program's author: hints in the stage pages' JavaScript.

The case families are the notebooks' (``course.hints``); the words are not: these
hints name ``??``, ``===``, ``String()``, ``trim()`` and ``try/catch`` around
``new RegExp`` (the ``program`` texts of each stage folder's ``hints.json``), whatever
language the program is in.
A crash is read from its stderr: the first line of the author's own source it
passed through (node, TypeScript through a source-mapped runner, Python), and a hint
for the crashes the stages provoke.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Final

from hookcourse.course.checks.hints import stage_hints
from hookcourse.js.values import js_trim_start
from hookcourse.stages import descriptor
from hookcourse.stages.decoding import Decoded
from hookcourse.stages.registry import STAGES, exercise_named, resolve

_NODE_FRAME: Final = re.compile(r"^\s*at (?:.*? \()?(?P<path>[^\s()][^()]*?):(?P<line>\d+):\d+\)?$")
_NODE_HEADER: Final = re.compile(r"^(?P<path>(?:file://)?/[^:]+):(?P<line>\d+)$")
_PYTHON_FRAME: Final = re.compile(r'^\s*File "(?P<path>[^"]+)", line (?P<line>\d+)')
SOURCE_WIDTH: Final = 100


@functools.cache
def _data() -> dict[str, dict[str, object]]:
    text = resources.files("hookcourse").joinpath("data/program_hints.json").read_text("utf-8")
    loaded: dict[str, dict[str, object]] = json.loads(text)
    return loaded


def js_name(function: str) -> str:
    """The exercise's name in the stage pages' TypeScript (``matchHook`` for ``match_hook``)."""
    return descriptor.js_name(function)


@functools.cache
def _family_hints() -> dict[str, dict[str, str]]:
    texts: dict[str, dict[str, str]] = {}
    for stage in STAGES:
        texts.update(stage_hints(stage).get("program", {}))
    return texts


def family_hint(function: str, case_family: str) -> str | None:
    """The hint for one family of an exercise, in JavaScript terms (None when there is none)."""
    return _family_hints().get(function, {}).get(case_family)


_JSON_SPACE: Final = " \t\n\r"  # all JSON.parse skips; trimStart() skips far more


def parse_refuses_lead(stdout: object) -> bool:
    """A stdout trimStart() turns into JSON that JSON.parse of the raw text refuses
    (a byte-order mark or U+00A0 before the ``{``)."""
    if not isinstance(stdout, str):
        return False
    body = js_trim_start(stdout)
    lead = stdout[: len(stdout) - len(body)]
    return body.startswith("{") and any(char not in _JSON_SPACE for char in lead)


def hinted_family(function: str, family: str, case: Decoded, field: str | int | None) -> str:
    """The family whose hint fits a wrong ``field`` of a case's answer. A case's family
    names its first trap; a wrong field that trap cannot explain points at its other one
    (the exercise's ``hinted``, when it has one)."""
    exercise = exercise_named(function)
    if exercise is None or exercise.hinted is None:
        return family
    hinted: str = resolve(exercise.hinted)(family, case, field)
    return hinted


def crash_hint(stderr: str) -> str | None:
    """The hint for a crash whose stderr matches one the stages provoke, or None."""
    crashes = _data()["crashes"]
    assert isinstance(crashes, list)
    for crash in crashes:
        if re.search(crash["pattern"], stderr):
            return str(crash["hint"])
    return None


@dataclass(frozen=True)
class CrashSite:
    """The author's own source line a crash went through."""

    path: str  # as shown: relative to the program's folder when inside it
    line: int
    text: str  # the source line, stripped and cut; "" when the file cannot be read

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}"
        return f"{where}: {self.text}" if self.text else where


def crash_site(stderr: str, folder: Path) -> CrashSite | None:
    """The innermost frame of the author's own code in a node or Python stack trace.

    Own: a file inside ``folder`` (the program's), outside ``node_modules``. Node
    lists the innermost frame first, Python last.
    """
    node: list[tuple[str, int]] = []
    python: list[tuple[str, int]] = []
    for line in stderr.splitlines():
        for pattern, frames in ((_NODE_HEADER, node), (_NODE_FRAME, node), (_PYTHON_FRAME, python)):
            found = pattern.match(line)
            if found:
                frames.append((found["path"], int(found["line"])))
                break
    for path, number in [*node, *reversed(python)]:
        site = _own(path, number, folder)
        if site is not None:
            return site
    return None


def _own(path: str, number: int, folder: Path) -> CrashSite | None:
    file = Path(path.removeprefix("file://"))
    if "node_modules" in file.parts or not file.is_absolute():
        return None
    try:
        shown = file.resolve().relative_to(folder.resolve())
    except (ValueError, OSError):
        return None
    try:
        lines = file.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        lines = []
    text = lines[number - 1].strip() if 0 < number <= len(lines) else ""
    if len(text) > SOURCE_WIDTH:
        text = text[: SOURCE_WIDTH - 1] + "…"
    return CrashSite(str(shown), number, text)
