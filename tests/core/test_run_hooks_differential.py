"""Stage run-hooks against its JavaScript reference (hookcourse/stages/run_hooks/reference.mjs).

Families: every case file of the stage, the seeded draws of many seeds, invalid cases
written by hand, and drawn cases broken at random (a result removed, a field of the
wrong type). Each case is one JSON text that reaches node (one process for all of
them), the Python reference and the real ./your_program.sh, so all three read the
same input: the answers must be equal byte for byte, and a case node throws on must
be refused (exit 2, one line on stderr, nothing on stdout).
"""

from __future__ import annotations

import json
import random
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from hookcourse.js import json as jsjson
from hookcourse.stages.decoding import CaseError
from hookcourse.stages.run_hooks.generate import run_cases
from hookcourse.stages.run_hooks.reference import run_arguments, run_hooks
from tests.support.runtimes import node_binary

STAGE = Path(__file__).resolve().parents[2] / "hookcourse" / "stages" / "run_hooks"
REFERENCE = STAGE / "reference.mjs"
SEEDS = range(1, 121)
BROKEN_PER_SEED = 3
REPORT_LIMIT = 20
REMOVE = object()  # a key to drop

# node answers each case alone, as hook-run would print its one run, or what it throws;
# then each whole file, as the program prints it.
NODE_BATCH = """
import { readFileSync } from "node:fs";
import { program as hookRun } from %s;
const answer = (thunk) => {
  try { return thunk(); } catch (e) { return { throws: `${e.name}: ${e.message}` }; }
};
const program = (path) => JSON.stringify(hookRun(JSON.parse(readFileSync(path, "utf8"))));
const request = JSON.parse(readFileSync(0, "utf8"));
console.log(JSON.stringify({
  cases: request.cases.map((x) => answer(() => JSON.stringify(hookRun({ cases: [x] }).runs[0]))),
  files: request.files.map((path) => answer(() => program(path))),
}));
"""

INVALID = (
    "null",
    "[]",
    '{"tool": {"name": "Bash", "input": {}}, "results": {}}',
    '{"hooks": [], "tool": {"name": "Bash", "input": {}}, "results": {}}',
    '{"hooks": {"PreToolUse": {}}, "tool": {"name": "Bash", "input": {}}, "results": {}}',
    '{"hooks": {"PostToolUse": "Bash"}, "tool": {"name": "Bash", "input": {}}, "results": {}}',
    '{"hooks": {"PreToolUse": [null]}, "tool": {"name": "Bash", "input": {}}, "results": {}}',
    '{"hooks": {"PreToolUse": [{"matcher": null, "hooks": []}]}, "tool": {"name": "Bash",'
    ' "input": {}}, "results": {}}',
    '{"hooks": {"PreToolUse": [{"matcher": 1, "hooks": []}]}, "tool": {"name": "Bash",'
    ' "input": {}}, "results": {}}',
    '{"hooks": {"PreToolUse": [{"matcher": "Read"}]}, "tool": {"name": "Bash", "input": {}},'
    ' "results": {}}',
    '{"hooks": {"PreToolUse": [{"matcher": "Read", "hooks": [{"type": "command"}]}]},'
    ' "tool": {"name": "Bash", "input": {}}, "results": {}}',
    '{"hooks": {"PreToolUse": [{"hooks": ["./a.sh"]}]}, "tool": {"name": "Bash", "input": {}},'
    ' "results": {}}',
    '{"hooks": {}, "tool": null, "results": {}}',
    '{"hooks": {}, "tool": {"input": {}}, "results": {}}',
    '{"hooks": {}, "tool": {"name": 5, "input": {}}, "results": {}}',
    '{"hooks": {}, "tool": {"name": "Bash"}, "results": {}}',
    '{"hooks": {}, "tool": {"name": "Bash", "input": {}}}',
    '{"hooks": {}, "tool": {"name": "Bash", "input": {}}, "results": []}',
    '{"hooks": {}, "tool": {"name": "Bash", "input": {}}, "results": {"PreToolUse": []}}',
    '{"hooks": {}, "tool": {"name": "Bash", "input": {}}, "results": {"PostToolUse": {"x": 2}}}',
    '{"hooks": {}, "tool": {"name": "Bash", "input": {}}, "results": {"PreToolUse":'
    ' {"x": {"code": 0, "stdout": 1}}}}',
    '{"hooks": {"PreToolUse": [{"hooks": [{"command": "./a.sh"}]}]}, "tool": {"name": "Bash",'
    ' "input": {}}, "results": {}}',
    '{"hooks": {"PreToolUse": [{"hooks": [{"command": "toString"}]}]}, "tool": {"name": "Bash",'
    ' "input": {}}, "results": {"PreToolUse": {}}}',
    '{"hooks": {"PostToolUse": [{"hooks": [{"command": "./a.sh"}]}]}, "tool": {"name": "Bash",'
    ' "input": {}}, "results": {"PreToolUse": {"./a.sh": {"code": 0}}}}',
)


@dataclass(frozen=True)
class Family:
    """Cases as JSON texts, in the order node answers them."""

    name: str
    cases: tuple[str, ...]


def _file_family(folder: Path) -> Family:
    cases = jsjson.parse(folder.joinpath("case.json").read_text(encoding="utf-8"))
    assert isinstance(cases, dict) and isinstance(cases["cases"], list)
    return Family(f"file {folder.name}", tuple(jsjson.stringify(c) for c in cases["cases"]))


def _break(rng: random.Random, case: dict[str, Any]) -> dict[str, Any]:
    """The case with one thing removed or retyped; it may stay valid."""
    broken: dict[str, Any] = json.loads(json.dumps(case))
    results, tool = broken["results"], broken["tool"]
    # (a mapping, a key, the value to put there, or REMOVE to drop the key)
    spots: list[tuple[dict[str, Any], str, Any]] = [
        (broken, "results", {}),
        (broken, "results", rng.choice((None, [], "x"))),
        (results, "PreToolUse", REMOVE),
        (results, "PostToolUse", {}),
        (tool, "input", REMOVE),
        (tool, "response", REMOVE),
        (tool, "name", None),
    ]
    for event in ("PreToolUse", "PostToolUse"):
        by_command = results.get(event)
        if isinstance(by_command, dict) and by_command:
            command = rng.choice(sorted(by_command))
            spots += [(by_command, command, REMOVE), (by_command, command, {"stdout": 0})]
        groups = broken["hooks"].get(event)
        if isinstance(groups, list) and groups:
            group = rng.choice(groups)
            spots.append((group, "matcher", rng.choice((None, 3, "("))))
            spots.append((group, "hooks", rng.choice(([{}], "x", [None]))))
    where, key, value = rng.choice(spots)
    if value is REMOVE:
        where.pop(key, None)
    else:
        where[key] = value
    return broken


def _corpus() -> list[Family]:
    folders = [STAGE / "fixtures", *sorted((STAGE / "fixtures" / "extra").iterdir())]
    families = [_file_family(folder) for folder in folders]
    drawn: list[str] = []
    broken: list[str] = []
    for seed in SEEDS:
        rng = random.Random(f"run-hooks differential {seed}")
        cases = run_cases(rng)
        drawn += [jsjson.stringify(case) for case in cases]
        picks = rng.sample(cases, BROKEN_PER_SEED)
        broken += [json.dumps(_break(rng, case)) for case in picks if isinstance(case, dict)]
    families.append(Family(f"drawn with seeds {SEEDS.start}-{SEEDS.stop - 1}", tuple(drawn)))
    families.append(Family("broken at random", tuple(broken)))
    families.append(Family("invalid", INVALID))
    return families


CORPUS = _corpus()


@pytest.fixture(scope="module")
def family_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("run-hooks-corpus")
    files = {}
    for index, family in enumerate(CORPUS):
        path = folder / f"family-{index}.json"
        path.write_text('{"cases": [\n' + ",\n".join(family.cases) + "\n]}\n", encoding="utf-8")
        files[family.name] = path
    return files


@pytest.fixture(scope="module")
def node_answers(family_files: dict[str, Path]) -> dict[str, Any]:
    """node's answer to every case of every family, and to every family's file."""
    texts = [case for family in CORPUS for case in family.cases]
    paths = [str(family_files[family.name]) for family in CORPUS]
    request = '{"cases": [' + ",".join(texts) + '], "files": ' + json.dumps(paths) + "}"
    script = NODE_BATCH % json.dumps(REFERENCE.as_uri())
    done = subprocess.run(
        [node_binary(), "--input-type=module", "-e", script],
        input=request.encode("utf-8"),
        capture_output=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")[-2000:]
    answer = json.loads(done.stdout)
    split: dict[str, Any] = {}
    start = 0
    for family, file_answer in zip(CORPUS, answer["files"], strict=True):
        split[family.name] = answer["cases"][start : start + len(family.cases)]
        split[f"file {family.name}"] = file_answer
        start += len(family.cases)
    return split


def _python(text: str) -> str | None:
    """The Python reference's run as JSON text, or None where it refuses the case."""
    try:
        decoded = run_arguments(jsjson.parse(text))
    except CaseError:
        return None
    return jsjson.stringify(run_hooks(*decoded.parsed).to_json())


@pytest.mark.parametrize("family", CORPUS, ids=[f.name for f in CORPUS])
def test_python_agrees_with_node(family: Family, node_answers: dict[str, Any]) -> None:
    rows = []
    for text, js in zip(family.cases, node_answers[family.name], strict=True):
        got = _python(text)
        if got is None and isinstance(js, str):
            rows.append(f"case {text}: JS {js}, Python refuses it")
        elif got is not None and js != got:
            rows.append(f"case {text}: JS {js}, Python {got}")
    if rows:
        lines = [f"{family.name}: {len(rows)} of {len(family.cases)} disagree with node"]
        pytest.fail("\n".join(lines + [f"  {row}" for row in rows[:REPORT_LIMIT]]), pytrace=False)


@pytest.mark.parametrize("family", CORPUS, ids=[f.name for f in CORPUS])
def test_program_agrees_with_node(
    family: Family,
    node_answers: dict[str, Any],
    family_files: dict[str, Path],
    program: Callable[..., Any],
) -> None:
    """./your_program.sh hook-run prints node's bytes, or refuses what node throws on."""
    js = node_answers[f"file {family.name}"]
    run = program("hook-run", family_files[family.name])
    if isinstance(js, str):
        assert run.returncode == 0, run.stderr.decode("utf-8", "replace")
        assert run.stdout == f"{js}\n".encode()
    else:
        assert (run.returncode, run.stdout) == (2, b""), js
        assert run.stderr.count(b"\n") == 1, run.stderr


def test_corpus_is_not_vacuous(node_answers: dict[str, Any]) -> None:
    """Every decision, a tool that runs and one that does not, feedback, contexts, and
    refusals all occur; the files of the stage are all valid."""
    runs = [
        json.loads(answer)
        for family in CORPUS
        for answer in node_answers[family.name]
        if isinstance(answer, str)
    ]
    assert {run["pre"]["decision"] for run in runs} == {"allow", "ask", "defer", "deny", None}
    assert {run["tool"]["runs"] for run in runs} == {True, False}
    posts = [run["post"] for run in runs if run["post"] is not None]
    assert any(post["feedback"] for post in posts) and any(post["contexts"] for post in posts)
    assert any(len(run["pre"]["ran"]) > 1 for run in runs)
    broken = node_answers["broken at random"]
    refused = sum(not isinstance(answer, str) for answer in broken)
    assert 0 < refused < len(broken)
    assert all(not isinstance(answer, str) for answer in node_answers["invalid"])
    for family in CORPUS:
        if family.name.startswith("file "):
            assert all(isinstance(answer, str) for answer in node_answers[family.name])
