"""The differential corpus, the JavaScript oracle and the real program, shared by tests/core.

The corpus is tests/oracle/corpus.json: families of cases, each the product of two axes,
and seeded fuzz families of random patterns. Every case is serialised once, as JSON
text, and that same text reaches node, the Python functions (through jsjson.parse) and
./your_program.sh (inside a generated case file), so all three read identical input.
Node runs once per test session, in the oracle's batch mode.
"""

from __future__ import annotations

import importlib.util
import json
import math
import random
import re
import string
import struct
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import regress

from hookcourse.stages.registry import STAGES, exercise_named, stage_of
from tests.support.oracle import oracle_batch
from tests.support.paths import FIXTURES, ORACLE_DIR, PROGRAM
from tests.support.paths import ROOT as REPO
from tests.support.runtimes import bun_binary, node_binary

STAGE_COMMANDS: dict[str, str] = {stage.slug: stage.command for stage in STAGES}
# The course's JavaScript reference runs on Node 20; newer engines accept ES2025 syntax.
REFERENCE_NODE = "node v20."

# The oracle's batch keys (corpus.json's kinds) and the exercise each one answers.
CORPUS_KINDS = {
    "matches": "match_hook",
    "exits": "interpret_exit_code",
    "applies": "apply_pre_tool_use",
}


def _kind(function: str) -> tuple[str, str, tuple[str, str], tuple[str, str]]:
    """(the case file's list key, its stage command, the two axes as (key, plural)), from
    the registry: a corpus family is the product of the case's two fields."""
    exercise = exercise_named(function)
    stage = None if exercise is None else stage_of(exercise)
    assert exercise is not None and stage is not None and len(exercise.fields) == 2, function
    first, second = exercise.fields
    return (exercise.case_key, stage.command, (first, f"{first}s"), (second, f"{second}s"))


KINDS: dict[str, tuple[str, str, tuple[str, str], tuple[str, str]]] = {
    kind: _kind(function) for kind, function in CORPUS_KINDS.items()
}

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def json_text(value: Any) -> str:
    """Compact-ish JSON for ``value``, raw UTF-8 except lone surrogates, which are escaped."""
    text = json.dumps(value, ensure_ascii=False)
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def shown(value: Any) -> str:
    """A value as an ASCII JSON literal, for mismatch reports."""
    return json.dumps(value)


@dataclass(frozen=True)
class Family:
    """One corpus family: its cases as JSON texts, in the order node answers them."""

    kind: str
    name: str
    cases: tuple[str, ...]
    engine_dependent: bool = False
    program_only: bool = False
    documented: tuple[bool, ...] | None = None  # B7 table: the documented test() results

    @property
    def id(self) -> str:
        return f"{self.kind}/{self.name}"

    @property
    def command(self) -> str:
        return KINDS[self.kind][1]

    def case_file_text(self) -> str:
        key, _, _, _ = KINDS[self.kind]
        body = "[\n  " + ",\n  ".join(self.cases) + "\n]" if self.cases else "[]"
        lists = {"cases": "[]", "exitCases": "[]"} if self.kind != "applies" else {"cases": "[]"}
        lists[key] = body
        return "{" + ", ".join(f'"{k}": {v}' for k, v in lists.items()) + "}\n"

    def regex_pairs(self) -> list[tuple[str, str]]:
        """The (pattern, subject) pairs among the cases where both are strings."""
        if self.kind != "matches":
            return []
        pairs = []
        for text in self.cases:
            case = json.loads(text)
            matcher, tool = case.get("matcher"), case.get("tool")
            if isinstance(matcher, str) and isinstance(tool, str):
                pairs.append((matcher, tool))
        return pairs


def _case(fields: list[tuple[str, str | None]]) -> str:
    return "{" + ", ".join(f'"{key}": {text}' for key, text in fields if text is not None) + "}"


def _axis(spec: dict[str, Any], key: str, plural: str) -> list[str | None]:
    texts: list[str | None] = [json_text(value) for value in spec[plural]]
    if key in spec.get("also_omitted", ()):
        texts.append(None)  # the key is left out: undefined in JavaScript
    return texts


def _family(kind: str, spec: dict[str, Any]) -> Family:
    _, _, (key_a, plural_a), (key_b, plural_b) = KINDS[kind]
    if "pairs" in spec:
        cases = tuple(
            _case([(key_a, json_text(a)), (key_b, json_text(b))]) for a, b, _ in spec["pairs"]
        )
        documented = tuple(bool(answer) for _, _, answer in spec["pairs"])
    else:
        cases = tuple(
            _case([(key_a, a), (key_b, b)])
            for a in _axis(spec, key_a, plural_a)
            for b in _axis(spec, key_b, plural_b)
        )
        documented = None
    return Family(
        kind,
        spec["family"],
        cases,
        engine_dependent=spec.get("engine_dependent", False),
        program_only=spec.get("program_only", False),
        documented=documented,
    )


def _load_fuzz_tool() -> Any:
    spec = importlib.util.spec_from_file_location("fuzz_regex", ORACLE_DIR / "fuzz_regex.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fuzz_family(spec: dict[str, Any]) -> Family:
    """The spec's seeded random patterns, drawn as tests/oracle/fuzz_regex.py draws them."""
    pairs = _load_fuzz_tool().draw_pairs(spec, spec["seed"], spec["patterns"])
    cases = (_case([("matcher", json_text(p)), ("tool", json_text(s))]) for p, s in pairs)
    return Family("matches", spec["family"], tuple(cases))


def _random_double(rng: random.Random) -> float:
    """Any finite double: half from raw bit patterns, half from decimal scales."""
    while True:
        if rng.random() < 0.5:
            (number,) = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))
        else:
            number = rng.uniform(-1e6, 1e6) * 10.0 ** rng.randint(-30, 30)
        if math.isfinite(number):
            return float(number)


def number_fuzz_family(spec: dict[str, Any]) -> Family:
    """Seeded random doubles echoed through updatedInput, in the shortest form Python prints."""
    rng = random.Random(spec["seed"])
    cases = []
    for _ in range(spec["cases"]):
        numbers = [_random_double(rng) for _ in range(spec["numbers_each"])]
        cases.append(_case([("output", json_text({"updatedInput": numbers}))]))
    return Family("applies", spec["family"], tuple(cases))


def load_corpus() -> list[Family]:
    """Every family of tests/oracle/corpus.json, the fuzz families last."""
    data = json.loads((ORACLE_DIR / "corpus.json").read_text(encoding="utf-8"))
    families = [_family(kind, spec) for kind in KINDS for spec in data[kind]]
    fuzz = [
        number_fuzz_family(spec) if spec.get("kind") == "applies" else fuzz_family(spec)
        for spec in data["fuzz"]
    ]
    return families + fuzz


CORPUS = load_corpus()


@dataclass(frozen=True)
class HarvestedCorpus:
    """tests/oracle/test262_regex.json: test262's flag-less patterns, each with subjects."""

    commit: str
    license: str
    pairs: tuple[tuple[str, str], ...]  # every (pattern, subject), each once
    patterns: frozenset[str]
    parse_negative: frozenset[str]  # patterns from tests whose source must be a SyntaxError

    @classmethod
    def load(cls) -> HarvestedCorpus:
        data = json.loads((ORACLE_DIR / "test262_regex.json").read_text(encoding="utf-8"))
        pairs: dict[tuple[str, str], None] = {}  # ordered set
        for entry in data["files"]:
            subjects = dict.fromkeys([*entry["subjects"], *data["generic_subjects"]])
            pairs.update(dict.fromkeys((p, s) for p in entry["patterns"] for s in subjects))
        negative = (p for e in data["files"] if e.get("negative") for p in e["patterns"])
        return cls(
            data["commit"],
            data["license"],
            tuple(pairs),
            frozenset(p for e in data["files"] for p in e["patterns"]),
            frozenset(negative),
        )


@dataclass(frozen=True)
class FixtureCase:
    """A fixture folder (case.json + expected.json) and the stage command that reads it."""

    folder: Path
    command: str

    @property
    def id(self) -> str:
        return str(self.folder.relative_to(FIXTURES))


def fixture_cases() -> list[FixtureCase]:
    """Each stage's seed folder, then its extra/<name> folders."""
    cases = []
    for stage, command in STAGE_COMMANDS.items():
        cases.append(FixtureCase(FIXTURES / stage, command))
        extra = FIXTURES / stage / "extra"
        if extra.is_dir():
            folders = sorted(path for path in extra.iterdir() if path.is_dir())
            cases.extend(FixtureCase(folder, command) for folder in folders)
    return cases


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    selections = {
        "match_family": [f for f in CORPUS if f.kind == "matches"],
        "exit_family": [f for f in CORPUS if f.kind == "exits" and not f.program_only],
        "apply_family": [f for f in CORPUS if f.kind == "applies" and not f.program_only],
        "any_family": CORPUS,
    }
    for name, families in selections.items():
        if name in metafunc.fixturenames:
            metafunc.parametrize(name, families, ids=[f.id for f in families])
    if "fixture_case" in metafunc.fixturenames:
        cases = fixture_cases()
        metafunc.parametrize("fixture_case", cases, ids=[c.id for c in cases])


@dataclass
class OracleRun:
    """What one runtime answered for the whole corpus, split back per family."""

    runtime: str
    answers: dict[str, list[Any]]  # family id -> one answer per case
    regexes: dict[str, list[dict[str, Any]]]  # family id -> one answer per regex pair
    programs: dict[Path, Any]  # case file -> program output text, or {"throws": ...}

    @property
    def is_reference_node(self) -> bool:
        return self.runtime.startswith(REFERENCE_NODE)


def run_batch(command: list[str], families: list[Family], programs: list[tuple[str, Path]]) -> Any:
    """One oracle process for everything; the request is built as text so cases stay exact."""
    lists: dict[str, list[str]] = {kind: [] for kind in KINDS}
    for family in families:
        lists[family.kind].extend(family.cases)
    regexes = [{"pattern": p, "subject": s} for f in families for p, s in f.regex_pairs()]
    program_list = [{"command": c, "path": str(p)} for c, p in programs]
    parts = [f'"{kind}": [' + ",\n".join(cases) + "]" for kind, cases in lists.items()]
    parts.append(f'"regexes": {json_text(regexes)}')
    parts.append(f'"programs": {json_text(program_list)}')
    return oracle_batch(command, "{" + ",\n".join(parts) + "}")


def split_answers(
    families: list[Family], answer: Any, programs: list[tuple[str, Path]]
) -> OracleRun:
    offsets = dict.fromkeys(KINDS, 0)
    regex_offset = 0
    run = OracleRun(answer["runtime"], {}, {}, {})
    for family in families:
        start = offsets[family.kind]
        offsets[family.kind] += len(family.cases)
        run.answers[family.id] = answer[family.kind][start : offsets[family.kind]]
        count = len(family.regex_pairs())
        run.regexes[family.id] = answer["regexes"][regex_offset : regex_offset + count]
        regex_offset += count
    for (_, path), output in zip(programs, answer["programs"], strict=True):
        run.programs[path] = output
    return run


@pytest.fixture(scope="session")
def corpus() -> list[Family]:
    """Every corpus family, the fuzz families last."""
    return CORPUS


@pytest.fixture(scope="session")
def corpus_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each family written as a case file for ./your_program.sh, keyed by family id."""
    folder = tmp_path_factory.mktemp("corpus")
    files = {}
    for family in CORPUS:
        path = folder / f"{family.kind}-{family.name}.json"
        path.write_text(family.case_file_text(), encoding="utf-8")
        files[family.id] = path
    return files


@pytest.fixture(scope="session")
def node_oracle(corpus_files: dict[str, Path]) -> OracleRun:
    """node's answers for the corpus, the corpus case files and every fixture's case.json."""
    programs = [(f.command, corpus_files[f.id]) for f in CORPUS]
    programs += [(c.command, c.folder / "case.json") for c in fixture_cases()]
    return split_answers(CORPUS, run_batch([node_binary()], CORPUS, programs), programs)


@pytest.fixture(scope="session")
def bun_oracle() -> OracleRun:
    """Bun's answers (Claude Code's engine); skipped when no bun binary is available."""
    families = [f for f in CORPUS if f.kind == "matches"]
    return split_answers(families, run_batch([bun_binary()], families, []), [])


@pytest.fixture(scope="session")
def test262() -> HarvestedCorpus:
    return HarvestedCorpus.load()


def _regex_run(command: list[str], pairs: tuple[tuple[str, str], ...]) -> OracleRun:
    """One oracle process answering ``pairs``; its answers are under regexes["pairs"]."""
    regexes = [{"pattern": p, "subject": s} for p, s in pairs]
    answer = oracle_batch(command, f'{{"regexes": {json_text(regexes)}}}')
    return OracleRun(answer["runtime"], {}, {"pairs": answer["regexes"]}, {})


@pytest.fixture(scope="session")
def test262_node(test262: HarvestedCorpus) -> OracleRun:
    """node's new RegExp(p) validity and .test(s) for every test262 pair."""
    return _regex_run([node_binary()], test262.pairs)


@pytest.fixture(scope="session")
def test262_bun(test262: HarvestedCorpus) -> OracleRun:
    """Bun's (Claude Code's runtime) answers for every test262 pair."""
    return _regex_run([bun_binary()], test262.pairs)


def _case_groups() -> tuple[list[list[str]], set[str]]:
    """Groups of BMP characters that some case mapping relates (Python's upper, lower and
    casefold, single characters only, and raw regress's (?i:...) for each of
    hookcourse.js.regex's case exceptions), and the exceptions themselves."""
    from hookcourse.js.regex import _WITH_CASE_EXCEPTIONS

    units = [u for u in range(0x10000) if not 0xD800 <= u <= 0xDFFF]
    parent = {u: u for u in units}

    def root(u: int) -> int:
        while parent[u] != u:
            u = parent[u]
        return u

    def join(a: int, b: int) -> None:
        parent[root(a)] = root(b)

    for u in units:
        for mapped in (chr(u).upper(), chr(u).lower(), chr(u).casefold()):
            if len(mapped) == 1 and ord(mapped) in parent:
                join(u, ord(mapped))
    text = "".join(map(chr, units))
    data = text.encode()  # regress reports UTF-8 byte ranges
    for unit in _WITH_CASE_EXCEPTIONS.case:
        for form in (f"(?i:\\u{unit:04x})", f"(?i:[\\u{unit:04x}])"):
            for match in regress.Regex(form).find_iter(text):
                join(unit, ord(data[match.range()].decode()))
    groups: dict[int, list[str]] = {}
    for u in units:
        groups.setdefault(root(u), []).append(chr(u))
    return [g for g in groups.values() if len(g) > 1], set(map(chr, _WITH_CASE_EXCEPTIONS.case))


# Case-insensitive and \\W forms checked against every character near a case exception.
_FOLD_FORMS = (
    r"(?i:\w)",
    r"(?i:\W)",
    r"(?i:[\w])",
    r"(?i:[\W])",
    r"(?i:[^\w])",
    r"(?i:[^\W])",
    r"(?i:[\W\d])",
    r"(?i:[\W-z])",
    r"(?i:\b)",
    r"\W",
    r"[\W]",
    r"[^\W]",
    r"\xdf",
    r"\337",
    r"(a)\337",
    r"[\337]",
    r"[\xdf]",
    r"(?i:\xdf)",
    r"(?i:[\xc0-\xff])",
    r"(?i:[\u0100-\u0200])",
    r"(?i:[a-z])",
    r"(?i:[^a-z])",
    r"(?i:[\u1f00-\u1fff])",
    r"[\u0000-\uffff]",
    r"[\u00e0-\u2200]",
    r"(?i:[^\u0100-\u0200])",
)


def case_fold_pairs() -> tuple[tuple[str, str], ...]:
    """Every character of a case group against (?i:c), (?i:[c]), (?i:[^c]) and a
    back-reference to c for each c in the group, and _FOLD_FORMS against the characters
    of the groups that hold a case exception, ASCII letters and digits."""
    groups, exceptions = _case_groups()
    pairs: dict[tuple[str, str], None] = {}  # ordered set
    for group in groups:
        for c in group:
            escape = f"\\u{ord(c):04x}"
            for x in group:
                pairs[f"(?i:{escape})", x] = pairs[f"(?i:[{escape}])", x] = None
                pairs[f"(?i:[^{escape}])", x] = pairs[f"({escape})(?i:\\1)", c + x] = None
    near = [c for g in groups if exceptions.intersection(g) for c in g]
    subjects = dict.fromkeys([*near, *string.ascii_letters, *string.digits, "_", " "])
    pairs.update(dict.fromkeys((form, s) for form in _FOLD_FORMS for s in subjects))
    return tuple(pairs)


@pytest.fixture(scope="session")
def case_fold() -> tuple[tuple[str, str], ...]:
    return case_fold_pairs()


@pytest.fixture(scope="session")
def case_fold_node(case_fold: tuple[tuple[str, str], ...]) -> OracleRun:
    return _regex_run([node_binary()], case_fold)


@pytest.fixture(scope="session")
def case_fold_bun(case_fold: tuple[tuple[str, str], ...]) -> OracleRun:
    return _regex_run([bun_binary()], case_fold)


@dataclass(frozen=True)
class ProgramRun:
    returncode: int
    stdout: bytes
    stderr: bytes


def run_program(*args: str | Path) -> ProgramRun:
    """./your_program.sh COMMAND PATH (or any other arguments) as the grader runs it."""
    done = subprocess.run(
        [str(PROGRAM), *map(str, args)],
        capture_output=True,
        timeout=120,
        check=False,
        cwd=REPO,
    )
    return ProgramRun(done.returncode, done.stdout, done.stderr)


@pytest.fixture(scope="session")
def program() -> Callable[..., ProgramRun]:
    """Runs the real ./your_program.sh: ``program("hook-match", path)``."""
    return run_program
