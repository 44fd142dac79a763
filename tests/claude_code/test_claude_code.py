"""The differential suite: ``fire`` against what the real Claude Code did, every scenario.

Every corpus scenario is checked twice over:

- **against the record**: ``fire`` runs the scenario and is compared with what the pinned
  Claude Code did on it, as recorded in ``observations/<version>.json`` by
  ``oracle.py record`` (the real binary, run on that very scenario: a record older than
  its scenario fails ``test_every_scenario_is_recorded_as_it_is_now``);
- **live**, one scenario in ``LIVE_EVERY`` (spread over the corpus by id, leaving out
  those with a ``"live"`` key) and every one with ``"live": true``: Claude Code runs it
  now in a loopback-only network namespace (at most one per pytest-xdist worker) while
  ``fire`` runs it, and the two are compared (a disagreement is run again once, and
  counts only if it repeats).

Every compared field must agree, or be a named exception. Scenarios listed in
``open_disagreements.json`` are known to disagree today: they are expected to fail
(strictly: one that starts to agree must be taken off the list). Without the binary or
the namespace the live tests skip with the reason, except under CI=true, where that is a
failure. ``oracle.py check`` runs the whole corpus live.
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from oracle_binary import find_binary, pinned_version
from oracle_compare import compare, disagreements
from oracle_predict import FireServer
from oracle_record import OBSERVATIONS, digest
from oracle_run import check_scenario, predict_scenario
from oracle_scenario import NamespaceUnavailable, load_corpus

HERE = Path(__file__).resolve().parent
CORPUS = load_corpus()
OPEN = json.loads((HERE / "open_disagreements.json").read_text(encoding="utf-8"))
RECORD_PATH = OBSERVATIONS / f"{pinned_version()}.json"
RECORD = json.loads(RECORD_PATH.read_text(encoding="utf-8")) if RECORD_PATH.exists() else {}
LIVE_EVERY = 6
"""One scenario in six runs live in every test run (the whole corpus live is about 13
minutes of a 2-core machine; the record makes the rest a fraction of that)."""
SPREAD = [sid for sid in sorted(CORPUS) if "live" not in CORPUS[sid]]
"""The scenarios the one-in-six choice spreads over: those that do not choose for
themselves (``"live": false``, replayed only, keeps a new file's scenarios from moving
the choice, and the CI time, of the rest)."""
LIVE = sorted(
    {sid for number, sid in enumerate(SPREAD) if number % LIVE_EVERY == 0}
    | {sid for sid in CORPUS if CORPUS[sid].get("live") is True}
)
RERECORD = "fix: python tests/claude_code/oracle.py record {sid}"


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
    """Run one scenario on both sides; every field agrees, or the scenario is listed as open.

    A disagreement is run once more before it counts: Claude Code races with itself
    (hooks it does not wait for, a shell reset beside a CwdChanged hook), and a
    loaded CI machine loses such a race now and then. One that agrees the second time
    passes with a warning that names the first run's difference."""
    try:
        comparison = check_scenario(binary, fire_server, CORPUS[sid])["comparison"]
        first = disagreements(comparison)
        if first and sid not in OPEN:
            comparison = check_scenario(binary, fire_server, CORPUS[sid])["comparison"]
            if not disagreements(comparison):
                warnings.warn(f"{sid} disagreed once, then agreed: {sorted(first)}", stacklevel=1)
    except NamespaceUnavailable as error:
        _unavailable(f"no loopback-only network namespace: {error}")
        raise
    _judge(sid, comparison)


def _judge(sid: str, comparison: dict[str, object]) -> None:
    differ = disagreements(comparison)
    lines = [
        f"{name}: fire {json.dumps(f['fire'])} / claude {json.dumps(f['claude'])}"
        for name, f in differ.items()
    ]
    if sid in OPEN:
        if differ:
            pytest.xfail(f"open disagreement ({OPEN[sid]}): " + "; ".join(lines))
        pytest.fail(f"{sid} now agrees: take it off open_disagreements.json")
    assert not differ, "\n".join(lines)


def test_every_scenario_is_recorded_as_it_is_now() -> None:
    assert RECORD, f"no record {RECORD_PATH.name}; fix: python tests/claude_code/oracle.py record"
    stale = sorted(
        sid for sid in CORPUS if RECORD.get(sid, {}).get("scenario") != digest(CORPUS[sid])
    )
    assert not stale, (
        f"{len(stale)} scenarios changed since {RECORD_PATH.name} was recorded, or were never "
        f"recorded: {', '.join(stale[:10])}; " + RERECORD.format(sid=" ".join(stale[:10]))
    )
    assert set(RECORD) <= set(CORPUS), "the record holds scenarios the corpus lost; re-record"


SHARDS = 24
"""The corpus in classes: ``--dist loadscope`` (scripts/test.sh) spreads classes over the
workers, so both workers run scenarios, each one Claude Code at a time."""


def _shard(number: int) -> type:
    recorded = sorted(CORPUS)[number::SHARDS]
    live = LIVE[number::SHARDS]

    class Shard:
        @pytest.mark.parametrize("sid", recorded)
        def test_fire_agrees_with_the_record(self, sid: str, fire_server: FireServer) -> None:
            if RECORD.get(sid, {}).get("scenario") != digest(CORPUS[sid]):
                pytest.fail(f"{sid} is not recorded as it is now; " + RERECORD.format(sid=sid))
            predicted = predict_scenario(fire_server, CORPUS[sid])
            _judge(sid, compare(CORPUS[sid], predicted, RECORD[sid]))

        @pytest.mark.parametrize("sid", live)
        def test_fire_agrees_with_claude_code(
            self, sid: str, binary: str, fire_server: FireServer
        ) -> None:
            check(sid, binary, fire_server)

    Shard.__name__ = Shard.__qualname__ = f"TestShard{number}"
    return Shard


for _number in range(SHARDS):
    globals()[f"TestShard{_number}"] = _shard(_number)
