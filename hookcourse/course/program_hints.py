"""What ``hookcourse test`` says to a program's author: hints in the stage pages' JavaScript.

The case families are the notebooks' (``course.hints``); the words are not: these
hints name ``??``, ``===``, ``String()``, ``trim()`` and ``try/catch`` around
``new RegExp`` (``data/program_hints.json``), whatever language the program is in.
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

from hookcourse.js.values import js_trim, js_trim_start
from hookcourse.stages.decoding import Decoded

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
    names = _data()["names"]
    return str(names.get(function, function))


def family_hint(function: str, case_family: str) -> str | None:
    """The hint for one family of an exercise, in JavaScript terms (None when there is none)."""
    families = _data()["families"].get(function, {})
    assert isinstance(families, dict)
    found = families.get(case_family)
    return None if found is None else str(found)


_JSON_SPACE: Final = " \t\n\r"  # all JSON.parse skips; trimStart() skips far more
_READS_STDOUT: Final = ("merge_pre_tool_use", "run_stop_loop")


def _parse_refuses_lead(stdout: object) -> bool:
    """A stdout trimStart() turns into JSON that JSON.parse of the raw text refuses
    (a byte-order mark or U+00A0 before the ``{``)."""
    if not isinstance(stdout, str):
        return False
    body = js_trim_start(stdout)
    lead = stdout[: len(stdout) - len(body)]
    return body.startswith("{") and any(char not in _JSON_SPACE for char in lead)


def _stdouts(function: str, case: Decoded) -> list[object]:
    first = case.parsed[0]  # the results, or the Stop hook's two answers
    if function == "merge_pre_tool_use":
        return [getattr(answer, "stdout", None) for answer in first]
    answers = (first.when_inactive, first.when_active)
    return [getattr(answer, "stdout", None) for answer in answers]


def hinted_family(function: str, family: str, case: Decoded, field: str | int | None) -> str:
    """The family whose hint fits a wrong ``field`` of a case's answer. A case's family
    names its first trap; a wrong field that trap cannot explain points at its other one."""
    if function == "interpret_exit_code" and family == "strict-equality" and field == "reason":
        stderr = case.parsed[1]
        text = stderr if isinstance(stderr, str) else ""
        if js_trim(text) and js_trim(text) != text:
            return "js-trim"  # the code decides block or warn; the reason is trim()'s
    reads_stdout = function in _READS_STDOUT and family != "exit-2-beats-json"
    if reads_stdout and any(map(_parse_refuses_lead, _stdouts(function, case))):
        return "stdout-not-json"
    return family


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
