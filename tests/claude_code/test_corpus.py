"""The corpus as data, checked without Claude Code: well-formed scenarios, every
catalogue rule covered or named unreachable, every tied statement still true to its file."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from oracle_binary import pinned_version
from oracle_compare import EXCEPTIONS, EXTRA_CHECKS
from oracle_record import OBSERVATIONS
from oracle_scenario import load_corpus

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CORPUS = load_corpus()
UNREACHABLE = json.loads((HERE / "unreachable.json").read_text(encoding="utf-8"))
STATEMENTS = json.loads((HERE / "statements.json").read_text(encoding="utf-8"))["statements"]
OPEN = json.loads((HERE / "open_disagreements.json").read_text(encoding="utf-8"))
CATALOGUE = json.loads((REPO / "hookcourse" / "data" / "events.json").read_text(encoding="utf-8"))
HOOK_REF = re.compile(r"@hook:([A-Za-z0-9_.-]+)")
MINIMUM = 250


def test_the_corpus_has_enough_scenarios() -> None:
    assert len(CORPUS) >= MINIMUM


@pytest.mark.parametrize("sid", sorted(CORPUS))
def test_scenario_is_well_formed(sid: str) -> None:
    scenario = CORPUS[sid]
    assert scenario.get("about"), "say in one sentence what the scenario shows"
    assert scenario.get("covers"), "name the rules or themes it covers"
    referenced = set(HOOK_REF.findall(json.dumps(scenario.get("settings", {}))))
    assert referenced <= set(scenario.get("hooks", {})), (
        "a settings file names a hook script the scenario lacks"
    )
    assert scenario.get("exception") in (None, *EXCEPTIONS)
    assert set(scenario.get("checks", [])) <= set(EXTRA_CHECKS)
    for turn in scenario.get("turns", []):
        assert set(turn) <= {"text", "tools", "pause", "error"}
        for call in turn.get("tools", []):
            assert "name" in call and set(call) <= {
                "name",
                "input",
                "id",
                "fails",
                "classifier",
                "elicits",
            }


def _rules() -> dict[str, str]:
    """Every catalogue rule id: the event, each output field, exit 2 where it can block."""
    rules = {}
    for event in CATALOGUE["events"]:
        name = event["name"]
        rules[name] = name
        for field in event.get("fields", []):
            rules[f"{name}.{field['path'].rsplit('.', 1)[-1]}"] = name
        if event.get("can_block"):
            rules[f"{name}.exit2"] = name
    return rules


def test_every_catalogue_rule_is_covered_or_named_unreachable() -> None:
    covered = {item for scenario in CORPUS.values() for item in scenario["covers"]}
    missing = [
        rule
        for rule, event in _rules().items()
        if rule not in covered
        and event not in UNREACHABLE["events"]
        and rule not in UNREACHABLE["rules"]
    ]
    assert not missing, (
        f"cover these in a scenario or say in unreachable.json why print mode cannot: {missing}"
    )


def test_nothing_named_unreachable_is_covered() -> None:
    covered = {item for scenario in CORPUS.values() for item in scenario["covers"]}
    both = sorted((set(UNREACHABLE["events"]) | set(UNREACHABLE["rules"])) & covered)
    assert not both, f"covered by a scenario, so not unreachable: {both}"
    events = {event["name"] for event in CATALOGUE["events"]}
    assert set(UNREACHABLE["events"]) <= events


def _normal(text: str) -> str:
    return " ".join(text.split())


def _file_text(relative: str) -> str:
    path = REPO / relative
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        return "\n".join("".join(cell["source"]) for cell in cells)
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("number", range(len(STATEMENTS)))
def test_tied_statement_is_in_its_file_and_its_scenarios_exist(number: int) -> None:
    statement = STATEMENTS[number]
    assert _normal(statement["quote"]) in _normal(_file_text(statement["file"])), (
        f"{statement['file']} no longer says {statement['quote']!r}: update statements.json"
    )
    assert statement["scenarios"] and set(statement["scenarios"]) <= set(CORPUS)


def test_open_disagreements_name_scenarios() -> None:
    assert set(OPEN) <= set(CORPUS)


def test_every_scenario_has_a_recorded_observation() -> None:
    pinned = OBSERVATIONS / f"{pinned_version()}.json"
    assert pinned.exists(), "record the observations: tests/claude_code/oracle.py record"
    assert set(json.loads(pinned.read_text(encoding="utf-8"))) == set(CORPUS), pinned.name
    # Older releases (oracle.py sweep) hold the scenarios they were run on.
    for path in sorted(OBSERVATIONS.glob("*.json")):
        assert set(json.loads(path.read_text(encoding="utf-8"))) <= set(CORPUS), path.name
