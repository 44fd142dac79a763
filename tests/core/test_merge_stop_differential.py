"""Stages merge-decisions and stop-loop against their JavaScript reference under node.

The corpus (tests/oracle/corpus-merge-stop.json) is pools of exit codes, stdouts and
stderrs; families are every single hook result, every Stop hook answering the same
both times, and seeded random lists. Each case is one JSON text that reaches node
(program.mjs batch, one process for everything), the Python functions and the real
./your_program.sh, so all three read identical input.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from hookcourse.js import json as jsjson
from hookcourse.stages.merge_decisions.reference import merge_arguments, merge_pre_tool_use
from hookcourse.stages.stop_loop.reference import run_stop_loop, stop_arguments
from tests.support.oracle import oracle_batch
from tests.support.paths import ORACLE_DIR as ORACLE
from tests.support.runtimes import node_binary

POOLS = json.loads((ORACLE / "corpus-merge-stop.json").read_text(encoding="utf-8"))
ABSENT = "absent"  # a pool value that stands for a key left out
REPORT_LIMIT = 30


def _with(fields: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in fields.items() if value != ABSENT}


def _result(code: Any, stdout: Any, stderr: Any) -> dict[str, Any]:
    return _with({"code": code, "stdout": stdout, "stderr": stderr})


def _random_result(rng: random.Random) -> dict[str, Any]:
    return _result(*(rng.choice(POOLS[pool]) for pool in ("codes", "stdouts", "stderrs")))


@dataclass(frozen=True)
class Family:
    """Cases of one stage as JSON texts, in the order node answers them."""

    kind: str  # "merges" or "stops"
    name: str
    cases: tuple[str, ...]

    @property
    def id(self) -> str:
        return f"{self.kind}/{self.name}"

    @property
    def command(self) -> str:
        return "hook-merge" if self.kind == "merges" else "hook-stop"


def _family(kind: str, name: str, cases: list[dict[str, Any]]) -> Family:
    texts = dict.fromkeys(json.dumps(case) for case in cases)  # no repeats, order kept
    return Family(kind, name, tuple(texts))


def _corpus() -> list[Family]:
    singles = [
        _result(code, stdout, stderr)
        for code in POOLS["codes"]
        for stdout in POOLS["stdouts"]
        for stderr in POOLS["stderrs"]
    ]
    tool = POOLS["tool_inputs"][0]
    rng = random.Random(POOLS["random"]["seed"])
    most = POOLS["random"]["max_results"]
    random_merges = [
        {
            "toolInput": rng.choice(POOLS["tool_inputs"]),
            "results": [_random_result(rng) for _ in range(rng.randint(0, most))],
        }
        for _ in range(POOLS["random"]["merge_cases"])
    ]
    same_both_times = [
        _with({"hook": {"whenInactive": answer, "whenActive": answer}, "cap": cap})
        for answer in singles
        for cap in (1, ABSENT)
    ]
    random_stops = [
        _with(
            {
                "hook": {"whenInactive": _random_result(rng), "whenActive": _random_result(rng)},
                "cap": rng.choice(POOLS["caps"]),
            }
        )
        for _ in range(POOLS["random"]["stop_cases"])
    ]
    return [
        *_deep_families(POOLS["deep"]),
        _family("merges", "single-result", [{"toolInput": tool, "results": [r]} for r in singles]),
        _family("merges", "random-lists", random_merges),
        _family("stops", "same-answer-both-times", same_both_times),
        _family("stops", "random-hooks", random_stops),
    ]


def _deep_families(depths: dict[str, int]) -> list[Family]:
    """Nesting deeper than Python's recursion limit (JSON.parse has none), written as text:
    the json module itself cannot build or read it."""
    nested = "[" * depths["tool_input"] + "]" * depths["tool_input"]
    padded = '{"decision":"block","reason":"deeply padded","pad":%s}' % (
        "[" * depths["stdout"] + "]" * depths["stdout"]
    )
    result = f'{{"code": 0, "stdout": {json.dumps(padded)}}}'
    merges = [
        f'{{"toolInput": {{"nested": {nested}}}, "results": [{result}]}}',
        f'{{"toolInput": {{}}, "results": [{{"code": 0}}, {result}]}}',
    ]
    stops = [f'{{"hook": {{"whenInactive": {result}, "whenActive": {{"code": 0}}}}}}']
    return [
        Family("merges", "deep-nesting", tuple(merges)),
        Family("stops", "deep-nesting", tuple(stops)),
    ]


CORPUS = _corpus()


@pytest.fixture(scope="module")
def family_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("merge-stop-corpus")
    files = {}
    for family in CORPUS:
        path = folder / f"{family.kind}-{family.name}.json"
        path.write_text('{"cases": [\n' + ",\n".join(family.cases) + "\n]}\n", encoding="utf-8")
        files[family.id] = path
    return files


@pytest.fixture(scope="module")
def node_answers(family_files: dict[str, Path]) -> dict[str, Any]:
    """node's answer for every case, and its program output for every family file."""
    programs = [{"command": f.command, "path": str(family_files[f.id])} for f in CORPUS]
    lists = {
        kind: [c for f in CORPUS if f.kind == kind for c in f.cases] for kind in ("merges", "stops")
    }
    request = "{" + ", ".join(f'"{k}": [' + ",".join(v) + "]" for k, v in lists.items())
    request += f', "programs": {json.dumps(programs)}}}'
    answer = oracle_batch([node_binary()], request)
    split: dict[str, Any] = {}
    offsets = {"merges": 0, "stops": 0}
    for family in CORPUS:
        start = offsets[family.kind]
        offsets[family.kind] += len(family.cases)
        split[family.id] = answer[family.kind][start : offsets[family.kind]]
    for family, output in zip(CORPUS, answer["programs"], strict=True):
        split[f"program {family.id}"] = output
    return split


def _python(kind: str, text: str) -> str:
    case = jsjson.parse(text)
    if kind == "merges":
        return jsjson.stringify(merge_pre_tool_use(*merge_arguments(case).parsed).to_json())
    turns = run_stop_loop(*stop_arguments(case).parsed)
    return jsjson.stringify([turn.to_json() for turn in turns])


def _fail_on(title: str, rows: list[str], total: int) -> None:
    if rows:
        lines = [f"{title}: {len(rows)} of {total} disagree with the JavaScript reference"]
        lines += [f"  {row}" for row in rows[:REPORT_LIMIT]]
        pytest.fail("\n".join(lines), pytrace=False)


@pytest.mark.parametrize("family", CORPUS, ids=[f.id for f in CORPUS])
def test_python_agrees_with_node(family: Family, node_answers: dict[str, Any]) -> None:
    rows = []
    for text, js in zip(family.cases, node_answers[family.id], strict=True):
        assert isinstance(js, str), f"the oracle threw on a corpus case {text}: {js}"
        got = _python(family.kind, text)
        if got != js:
            rows.append(f"case {text}: JS {js}, Python {got}")
    _fail_on(f"{family.kind} on {family.id}", rows, len(family.cases))


@pytest.mark.parametrize("family", CORPUS, ids=[f.id for f in CORPUS])
def test_program_agrees_with_node(
    family: Family,
    node_answers: dict[str, Any],
    family_files: dict[str, Path],
    program: Callable[..., Any],
) -> None:
    js = node_answers[f"program {family.id}"]
    assert isinstance(js, str), f"the oracle threw: {js}"
    run = program(family.command, family_files[family.id])
    assert run.returncode == 0, run.stderr.decode("utf-8", "replace")
    assert run.stdout == f"{js}\n".encode()


def test_corpus_reaches_every_outcome() -> None:
    """The corpus is not vacuous: every decision, halts, blocks, and the cap all occur."""
    decisions, kinds = set(), set()
    for family in CORPUS:
        for text in family.cases:
            answer = jsjson.parse(_python(family.kind, text))
            assert isinstance(answer, dict | list)
            if isinstance(answer, dict):
                decisions.add(answer["decision"])
            else:
                last = answer[-1]
                kinds.add("capped" if last["capped"] else "halt" if last["reason"] else "stop")
                kinds.update("block" for turn in answer if turn["continues"])
    assert decisions == {"allow", "ask", "defer", "deny", None}
    assert kinds == {"capped", "halt", "stop", "block"}
