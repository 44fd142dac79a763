"""The version sweep's bisection on made-up records (no binary, no install).

- The release run next is halfway across a span whose neighbours differ; a release that
  did not run is passed over, and a span with no release left to run is not asked for.
- A change whose releases between all did not run carries them with why.
- Two scenarios' changes are one change only when their values changed alike: a
  different tool_result text is bisected on its own scenario.
"""

from __future__ import annotations

from typing import Any

import oracle_sweep
import pytest

FINGERPRINTS = {"a": "fa", "b": "fb"}


def _seen(result: str) -> dict[str, Any]:
    """An observation in recorded form whose one call's tool_result is ``result``."""
    return {
        "hooks": [],
        "probe": [],
        "tools": [{"result": result, "isError": False, "structured": False}],
        "modelTexts": [],
        "notices": [],
        "requests": 2,
        "result": {},
    }


def _records(**by_release: dict[str, str]) -> dict[str, dict[str, Any]]:
    """Records per release, oldest first as ``stored`` gives them (``v2_1_10`` is 2.1.10):
    scenario id to its tool_result."""
    return {
        name[1:].replace("_", "."): {
            sid: {**_seen(text), "scenario": FINGERPRINTS[sid]} for sid, text in seen.items()
        }
        for name, seen in by_release.items()
    }


# npm has 2.1.10, 2.1.11, 2.1.12, 2.1.14 (no 2.1.13), 2.1.15, 2.1.16.
WIDE = _records(v2_1_10={"a": "old"}, v2_1_16={"a": "new"})


def test_the_release_halfway_is_run_next() -> None:
    assert oracle_sweep.gaps(WIDE, {"a": "fa"}) == {"2.1.12": ["a"]}


def test_a_release_that_did_not_run_is_passed_over() -> None:
    assert oracle_sweep.gaps(WIDE, {"a": "fa"}, skip={"2.1.12": "why"}) == {"2.1.14": ["a"]}


def test_a_span_whose_releases_all_failed_is_not_asked_for_and_says_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    failed = {v: f"{v} did not install" for v in ("2.1.11", "2.1.12", "2.1.14", "2.1.15")}
    assert oracle_sweep.gaps(WIDE, {"a": "fa"}, skip=failed) == {}
    monkeypatch.setattr(oracle_sweep, "unrunnable", lambda: failed)
    (change,) = oracle_sweep.measured_changes(WIDE, {"a": "fa"})
    assert (change["previous"], change["since"], change["exact"]) == ("2.1.10", "2.1.16", False)
    assert change["unrunnable"] == failed


def test_a_change_bisected_on_one_scenario_settles_the_same_change_on_another() -> None:
    records = _records(
        v2_1_10={"a": "old", "b": "old"},
        v2_1_12={"a": "new"},
        v2_1_16={"a": "new", "b": "new"},
    )
    assert oracle_sweep.gaps(records, FINGERPRINTS) == {"2.1.11": ["a"]}
    records = _records(
        v2_1_10={"a": "old", "b": "old"},
        v2_1_11={"a": "old"},
        v2_1_12={"a": "new"},
        v2_1_16={"a": "new", "b": "new"},
    )
    assert oracle_sweep.gaps(records, FINGERPRINTS) == {}
    changes = oracle_sweep.measured_changes(records, FINGERPRINTS)
    taken = [c for c in changes if c["scenario"] == "b"]
    assert [(c["since"], c["exact"], c.get("sinceFrom")) for c in taken] == [("2.1.12", True, "a")]


def test_a_different_value_is_bisected_on_its_own_scenario() -> None:
    records = _records(
        v2_1_10={"a": "old", "b": "old"},
        v2_1_12={"a": "old"},
        v2_1_14={"a": "new"},
        v2_1_16={"a": "new", "b": "other"},
    )
    assert oracle_sweep.gaps(records, FINGERPRINTS) == {"2.1.12": ["b"]}
    changes = oracle_sweep.measured_changes(records, FINGERPRINTS)
    (taken,) = [c for c in changes if c["scenario"] == "b"]
    assert (taken["previous"], taken["since"], taken["exact"]) == ("2.1.10", "2.1.16", False)


def test_a_scenario_joins_the_stored_core_without_a_new_cover() -> None:
    """``pick-core`` keeps the stored core in its order and appends ALSO's new scenarios."""
    core = [{"id": "kept-first", "covers": ["x"]}, {"id": next(iter(oracle_sweep.ALSO))}]
    joined = oracle_sweep.with_also(core)
    assert joined[:2] == core
    assert [item["id"] for item in joined[2:]] == list(oracle_sweep.ALSO)[1:]
    # The stored core already holds every ALSO scenario.
    stored = oracle_sweep.core_ids()
    assert [item["id"] for item in oracle_sweep.with_also([{"id": i} for i in stored])] == stored


def test_the_oracle_s_command_line_replays_one_release(capsys: pytest.CaptureFixture[str]) -> None:
    import oracle

    assert oracle.main(["replay", "--version", "2.0.0", "pre-deny-reason"]) == 0
    assert "{'agree': 1}" in capsys.readouterr().err
