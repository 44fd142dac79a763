"""The committed corpus data: the manifest of harvested configurations (repo, path, commit,
licence, hash), SchemaStore's, and the hand-judged findings. The files themselves come from
snapshots fetched outside the repository (harvest.py); benchmarks/validate_corpus.py --check
runs validate over them and holds every judged finding to its verdict."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hookcourse.engine.lint import RULES

HERE = Path(__file__).resolve().parent
COMMIT = re.compile(r"[0-9a-f]{40}")
SHA256 = re.compile(r"[0-9a-f]{64}")


def _load(name: str) -> object:
    return json.loads((HERE / name).read_text())


def test_the_manifest_names_at_least_200_configurations_with_their_provenance() -> None:
    manifest = _load("manifest.json")
    assert isinstance(manifest, list) and len(manifest) >= 200
    for entry in manifest:
        assert entry["repo"].count("/") == 1 and entry["path"]
        assert COMMIT.fullmatch(entry["commit"]) and SHA256.fullmatch(entry["sha256"])
        assert entry["licence"] and entry["committable"] in ("true", "false")
    assert len({(entry["repo"], entry["path"]) for entry in manifest}) == len(manifest)


def test_schemastore_files_are_listed_with_their_licence() -> None:
    manifest = _load("schemastore.json")
    assert isinstance(manifest, list)
    kinds = {entry["kind"] for entry in manifest}
    assert kinds == {"valid", "invalid", "schema"}
    assert all(entry["licence"] == "Apache-2.0" for entry in manifest)
    assert all(entry["repo"] == "SchemaStore/schemastore" for entry in manifest)


def test_at_least_80_findings_are_judged_and_each_names_a_rule_a_place_and_why() -> None:
    judged = _load("judged.json")
    assert isinstance(judged, dict)
    manifest = {f"{entry['repo']}:{entry['path']}" for entry in _load("manifest.json")}  # type: ignore[attr-defined]
    findings = judged["findings"]
    assert len(findings) >= 80
    for item in findings:
        assert item["file"] in manifest, item
        assert item["rule"] in RULES and item["path"].startswith("$")
        assert item["verdict"] in ("right", "wrong") and len(item["why"]) > 20
    assert all(item["verdict"] == "right" for item in findings)


def test_the_baseline_names_manifest_files_and_registered_rules() -> None:
    """benchmarks/validate_corpus.py --check holds 90% of these (errors and warnings)."""
    manifest = {f"{entry['repo']}:{entry['path']}" for entry in _load("manifest.json")}  # type: ignore[attr-defined]
    baseline = _load("baseline.json")
    assert isinstance(baseline, list) and len(baseline) >= 100
    for file, rule, path in baseline:
        assert file in manifest and rule in RULES and RULES[rule].severity != "info"
        assert path.startswith("$")
