"""The differential suite: every corpus scenario run on the real Claude Code and on ``fire``.

Each scenario runs Claude Code once in a loopback-only network namespace (at most
one per pytest-xdist worker, so two at a time in CI) and ``fire`` on the same
settings; every compared field must agree, or be a named exception. Scenarios
listed in ``open_disagreements.json`` are known to disagree today: they are
expected to fail (strictly: one that starts to agree must be taken off the list).
Without the binary or the namespace these tests skip with the reason, except under
CI=true, where that is a failure.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from oracle_binary import find_binary
from oracle_compare import disagreements
from oracle_predict import FireServer
from oracle_run import check_scenario
from oracle_scenario import NamespaceUnavailable, load_corpus

HERE = Path(__file__).resolve().parent
CORPUS = load_corpus()
OPEN = json.loads((HERE / "open_disagreements.json").read_text(encoding="utf-8"))


def _under_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def _unavailable(reason: str) -> None:
    if _under_ci():
        pytest.fail(f"{reason} (under CI the oracle may not skip; fix: .ci/run installs it)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def binary() -> str:
    try:
        return find_binary()
    except FileNotFoundError as error:
        _unavailable(str(error))
        raise


@pytest.fixture(scope="module")
def fire_server() -> Iterator[FireServer]:
    server = FireServer()
    yield server
    server.close()


def check(sid: str, binary: str, fire_server: FireServer) -> None:
    """Run one scenario on both sides; every field agrees, or the scenario is listed as open."""
    try:
        checked = check_scenario(binary, fire_server, CORPUS[sid])
    except NamespaceUnavailable as error:
        _unavailable(f"no loopback-only network namespace: {error}")
        raise
    differ = disagreements(checked["comparison"])
    lines = [
        f"{name}: fire {json.dumps(f['fire'])} / claude {json.dumps(f['claude'])}"
        for name, f in differ.items()
    ]
    if sid in OPEN:
        if differ:
            pytest.xfail(f"open disagreement ({OPEN[sid]}): " + "; ".join(lines))
        pytest.fail(f"{sid} now agrees: take it off open_disagreements.json")
    assert not differ, "\n".join(lines)


SHARDS = 24
"""The corpus in classes: ``--dist loadscope`` (scripts/test.sh) spreads classes over the
workers, so both workers run scenarios, each one Claude Code at a time."""


def _shard(number: int) -> type:
    ids = sorted(CORPUS)[number::SHARDS]

    class Shard:
        @pytest.mark.parametrize("sid", ids)
        def test_fire_agrees_with_claude_code(
            self, sid: str, binary: str, fire_server: FireServer
        ) -> None:
            check(sid, binary, fire_server)

    Shard.__name__ = Shard.__qualname__ = f"TestShard{number}"
    return Shard


for _number in range(SHARDS):
    globals()[f"TestShard{_number}"] = _shard(_number)
