"""Every fixture through the real ./your_program.sh, and the bad-input contract."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.support.paths import ORACLE_PROGRAM
from tests.support.runtimes import node_binary


def test_fixture_prints_expected_bytes(fixture_case: Any, program: Callable[..., Any]) -> None:
    run = program(fixture_case.command, fixture_case.folder / "case.json")
    assert run.returncode == 0, run.stderr.decode("utf-8", "replace")
    assert run.stderr == b""
    assert run.stdout == (fixture_case.folder / "expected.json").read_bytes()


def test_expected_json_is_the_oracles_output(fixture_case: Any, node_oracle: Any) -> None:
    """expected.json is what program.ts prints, so nobody hand-edits it.

    To refresh the extra fixtures after changing a case.json:
    node tests/oracle/regenerate.mjs
    """
    output = node_oracle.programs[fixture_case.folder / "case.json"]
    assert isinstance(output, str), f"the oracle threw: {output}"
    expected = (fixture_case.folder / "expected.json").read_bytes()
    if expected != f"{output}\n".encode() and not node_oracle.is_reference_node:
        pytest.skip(f"expected.json is Node 20's output; this oracle is {node_oracle.runtime}")
    assert expected == f"{output}\n".encode(), "run: node tests/oracle/regenerate.mjs"


@dataclass(frozen=True)
class BadInput:
    """A case file the program must refuse: exit 2, nothing on stdout, one stderr line."""

    name: str
    command: str
    content: bytes | None  # None: the file does not exist
    json_path: str | None  # where the problem is, when it is inside the document
    oracle_throws: bool = True  # whether program.ts itself throws on this input


BAD_INPUTS = [
    BadInput("missing-file", "hook-match", None, None),
    BadInput("invalid-json", "hook-match", b'{"cases": [}', None),
    BadInput("empty-file", "hook-apply", b"", None),
    BadInput("trailing-comma", "hook-apply", b'{"cases": [],}', None),
    BadInput("nan-literal", "hook-match", b'{"cases": [], "exitCases": [{"code": NaN}]}', None),
    # node's readFileSync replaces bad bytes with U+FFFD and carries on; refusing is clearer.
    BadInput(
        "not-utf8",
        "hook-match",
        b'{"cases": [{"matcher": "\xff", "tool": "Bash"}], "exitCases": []}',
        None,
        oracle_throws=False,
    ),
    BadInput("utf8-bom", "hook-match", b'\xef\xbb\xbf{"cases": [], "exitCases": []}', None),
    BadInput("document-null", "hook-match", b"null", None),
    BadInput("document-array", "hook-apply", b"[]", None),
    BadInput("document-number", "hook-stop", b"3", None),
    BadInput("cases-not-a-list", "hook-match", b'{"cases": {"0": {}}, "exitCases": []}', "$.cases"),
    BadInput("cases-a-string", "hook-apply", b'{"cases": "abc"}', "$.cases"),
    BadInput("exit-cases-missing", "hook-match", b'{"cases": []}', "$.exitCases"),
    BadInput("case-null", "hook-match", b'{"cases": [null], "exitCases": []}', "$.cases[0]"),
    BadInput(
        "matcher-number",
        "hook-match",
        b'{"cases": [{"matcher": "Bash", "tool": "Bash"}, {"matcher": 5, "tool": "Bash"}],'
        b' "exitCases": []}',
        "$.cases[1].matcher",
    ),
    BadInput(
        "matcher-null",
        "hook-match",
        b'{"cases": [{"matcher": null, "tool": "Bash"}], "exitCases": []}',
        "$.cases[0].matcher",
    ),
    BadInput(
        "matcher-list",
        "hook-match",
        b'{"cases": [{"matcher": ["Bash"], "tool": "Bash"}], "exitCases": []}',
        "$.cases[0].matcher",
    ),
    BadInput(
        # stderr is optional (stderr ?? ""), but a present non-string one is still trimmed.
        "stderr-array-when-read",
        "hook-match",
        b'{"cases": [], "exitCases": [{"code": 0}, {"code": 2, "stderr": []}]}',
        "$.exitCases[1].stderr",
    ),
    BadInput(
        "stderr-number-when-read",
        "hook-match",
        b'{"cases": [], "exitCases": [{"code": 1, "stderr": 5}]}',
        "$.exitCases[0].stderr",
    ),
    BadInput(
        "stderr-false-code-string",
        "hook-match",
        b'{"cases": [], "exitCases": [{"code": "0", "stderr": false}]}',
        "$.exitCases[0].stderr",
    ),
    BadInput(
        "output-null",
        "hook-apply",
        b'{"cases": [{"output": {}, "input": {}}, {"output": null, "input": {}}]}',
        "$.cases[1].output",
    ),
    BadInput("output-missing", "hook-apply", b'{"cases": [{"input": {}}]}', "$.cases[0].output"),
    BadInput("merge-not-json", "hook-merge", b'{"cases": [', None),
    BadInput("merge-cases-object", "hook-merge", b'{"cases": {}}', "$.cases"),
    BadInput("merge-document-null", "hook-merge", b"null", None),
    BadInput(
        "merge-results-missing",
        "hook-merge",
        b'{"cases": [{"toolInput": {}}]}',
        "$.cases[0].results",
    ),
    BadInput(
        "merge-results-string",
        "hook-merge",
        b'{"cases": [{"toolInput": {}, "results": "[]"}]}',
        "$.cases[0].results",
    ),
    BadInput(
        "merge-tool-input-missing",
        "hook-merge",
        b'{"cases": [{"toolInput": null, "results": []}, {"results": []}]}',
        "$.cases[1].toolInput",
    ),
    BadInput("merge-case-null", "hook-merge", b'{"cases": [null]}', "$.cases[0]"),
    BadInput(
        "merge-result-not-object",
        "hook-merge",
        b'{"cases": [{"toolInput": {}, "results": [{"code": 0}, [0]]}]}',
        "$.cases[0].results[1]",
    ),
    BadInput(
        "merge-result-null",
        "hook-merge",
        b'{"cases": [{"toolInput": {}, "results": [null]}]}',
        "$.cases[0].results[0]",
    ),
    BadInput(
        "merge-stdout-number",
        "hook-merge",
        b'{"cases": [{"toolInput": {}, "results": [{"code": 2, "stdout": 5}]}]}',
        "$.cases[0].results[0].stdout",
    ),
    BadInput(
        "merge-stderr-object",
        "hook-merge",
        b'{"cases": [{"toolInput": {}, "results": [{"code": 0, "stderr": {}}]}]}',
        "$.cases[0].results[0].stderr",
    ),
    BadInput("stop-cases-missing", "hook-stop", b"{}", "$.cases"),
    BadInput("stop-hook-missing", "hook-stop", b'{"cases": [{"cap": 3}]}', "$.cases[0].hook"),
    BadInput("stop-hook-array", "hook-stop", b'{"cases": [{"hook": [{}, {}]}]}', "$.cases[0].hook"),
    BadInput(
        "stop-when-active-missing",
        "hook-stop",
        b'{"cases": [{"hook": {"whenInactive": {"code": 0}}}]}',
        "$.cases[0].hook.whenActive",
    ),
    BadInput(
        "stop-answer-null",
        "hook-stop",
        b'{"cases": [{"hook": {"whenInactive": {"code": 0}, "whenActive": null}}]}',
        "$.cases[0].hook.whenActive",
    ),
    BadInput(
        "stop-answer-string",
        "hook-stop",
        b'{"cases": [{"hook": {"whenInactive": "exit 0", "whenActive": {}}}]}',
        "$.cases[0].hook.whenInactive",
    ),
    BadInput(
        "stop-stderr-number",
        "hook-stop",
        b'{"cases": [{"hook": {"whenInactive": {"code": 2, "stderr": 2}, "whenActive": {}}}]}',
        "$.cases[0].hook.whenInactive.stderr",
    ),
    *[
        BadInput(
            f"stop-cap-{name}",
            "hook-stop",
            b'{"cases": [{"hook": {"whenInactive": {}, "whenActive": {}}, "cap": %s}]}' % cap,
            "$.cases[0].cap",
        )
        for name, cap in [
            ("zero", b"0"),
            ("too-big", b"101"),
            ("fraction", b"2.5"),
            ("string", b'"8"'),
            ("boolean", b"true"),
            ("negative", b"-1"),
            ("list", b"[8]"),
            ("huge", b"1e400"),
        ]
    ],
]


@pytest.fixture
def write_case(tmp_path: Path) -> Callable[[str, bytes | None], Path]:
    def write(name: str, content: bytes | None) -> Path:
        path = tmp_path / f"{name}.json"
        if content is not None:
            path.write_bytes(content)
        return path

    return write


def _assert_refused(run: Any, *mentions: str) -> str:
    """Exit 2, empty stdout, exactly one stderr line that names every mention."""
    assert run.returncode == 2, (run.returncode, run.stdout, run.stderr)
    assert run.stdout == b""
    stderr = run.stderr.decode("utf-8")
    assert "Traceback" not in stderr
    assert stderr.endswith("\n") and stderr.count("\n") == 1, repr(stderr)
    for mention in mentions:
        assert mention in stderr, f"{mention!r} not in {stderr!r}"
    return stderr


@pytest.mark.parametrize("bad", BAD_INPUTS, ids=[b.name for b in BAD_INPUTS])
def test_bad_input_is_one_line_and_exit_2(
    bad: BadInput, write_case: Callable[[str, bytes | None], Path], program: Callable[..., Any]
) -> None:
    path = write_case(bad.name, bad.content)
    mentions = [str(path)] + ([bad.json_path] if bad.json_path else [])
    _assert_refused(program(bad.command, path), *mentions)


@pytest.fixture(scope="module")
def reference_on_bad_inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What program.ts does with each bad input: one node process for all of them."""
    node = node_binary()
    folder = tmp_path_factory.mktemp("bad-inputs")
    programs = []
    for bad in BAD_INPUTS:
        path = folder / f"{bad.name}.json"
        if bad.content is not None:
            path.write_bytes(bad.content)
        programs.append({"command": bad.command, "path": str(path)})
    done = subprocess.run(
        [node, str(ORACLE_PROGRAM), "batch"],
        input=json.dumps({"programs": programs}).encode(),
        capture_output=True,
        timeout=60,
        check=True,
    )
    answers = json.loads(done.stdout)["programs"]
    return {bad.name: answer for bad, answer in zip(BAD_INPUTS, answers, strict=True)}


@pytest.mark.parametrize("bad", BAD_INPUTS, ids=[b.name for b in BAD_INPUTS])
def test_bad_input_is_one_the_reference_cannot_process(
    bad: BadInput, reference_on_bad_inputs: dict[str, Any]
) -> None:
    """The refusals are not stricter than the course: program.ts throws on the same files."""
    answer = reference_on_bad_inputs[bad.name]
    assert isinstance(answer, dict) == bad.oracle_throws, answer


def test_path_with_a_newline_still_gives_one_line(
    tmp_path: Path, program: Callable[..., Any]
) -> None:
    path = tmp_path / "bad\nname.json"
    path.write_bytes(b'{"cases": 1}')
    _assert_refused(program("hook-apply", path), "$.cases")


def test_directory_is_refused(tmp_path: Path, program: Callable[..., Any]) -> None:
    _assert_refused(program("hook-match", tmp_path), str(tmp_path))


@pytest.mark.parametrize(
    "args", [[], ["hook-match"], ["hook-nothing", "case.json"], ["hook-match", "a", "b"]]
)
def test_usage_errors_are_one_line_and_exit_2(args: list[str], program: Callable[..., Any]) -> None:
    _assert_refused(program(*args), "usage")
