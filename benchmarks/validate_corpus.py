"""Run `hookcourse validate` over the harvested real-world corpus in one process.

Prints findings per rule, the time for the whole corpus, and SchemaStore's verdicts (valid
test files: errors; hook-related negative tests: caught or not). With --check, exits 1 when
a hand-judged finding (tests/validate_corpus/judged.json) is no longer raised, when a
finding judged wrong is raised, when fewer than 90% of the baseline's errors and warnings
(baseline.json) remain, or a SchemaStore expectation fails.
Needs the corpus: `.venv/bin/python tests/validate_corpus/harvest.py` (from the snapshots
the search tool's fetch brought under /work/.mirror). Usage:
    .venv/bin/python benchmarks/validate_corpus.py [--check] [--findings FILE.jsonl]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from hookcourse.engine.catalogue import load_catalogue  # noqa: E402
from hookcourse.engine.lint import Severity  # noqa: E402
from hookcourse.engine.lint.registry import table  # noqa: E402
from hookcourse.engine.settings import SettingsSource, settings_layer  # noqa: E402
from hookcourse.engine.validate import ValidateOptions, validate_files  # noqa: E402
from hookcourse.errors import InputError  # noqa: E402
from hookcourse.js import json as jsjson  # noqa: E402

CORPUS = REPO / "tests" / "validate_corpus"
HARVEST = CORPUS / ".harvest"
BASELINE = CORPUS / "baseline.json"
"""The errors and warnings raised when the corpus was last judged: (file, rule, path)."""
HOOK_NEGATIVES = (
    "additional-properties-hook.json",
    "invalid-hook-shell.json",
    "invalid-hook-type.json",
    "invalid-timeout-value.json",
    "missing-required-hook-fields.json",
    "wrong-property-types.json",
    "invalid-permission-rule.json",
)
"""SchemaStore's negative tests that are about hooks or the keys fire reads."""


def corpus_files() -> list[tuple[dict[str, str], Path]]:
    manifest = json.loads((CORPUS / "manifest.json").read_text())
    return [
        (entry, HARVEST / "trees" / entry["repo"].replace("/", "+", 1) / entry["path"])
        for entry in manifest
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--findings", metavar="FILE", help="write every finding as JSON lines")
    parser.add_argument(
        "--write-baseline",
        action="store_true",
        help="record today's errors and warnings as the baseline --check holds 90%% of",
    )
    args = parser.parse_args()
    if not (CORPUS / "manifest.json").is_file() or not (HARVEST / "trees").is_dir():
        print("no corpus: run tests/validate_corpus/harvest.py first", file=sys.stderr)
        return 2
    files = corpus_files()
    per_rule: Counter[str] = Counter()
    raised: set[tuple[str, str, str]] = set()
    noted: set[tuple[str, str, str]] = set()
    crashes = 0
    out = open(args.findings, "w") if args.findings else None  # noqa: SIM115
    started = time.perf_counter()
    for entry, path in files:
        try:
            report = validate_files([path])
        except Exception:
            crashes += 1
            print(f"TRACEBACK on {entry['repo']}:{entry['path']}", file=sys.stderr)
            traceback.print_exc()
            continue
        for finding in report.findings:
            per_rule[finding.rule] += 1
            key = f"{entry['repo']}:{entry['path']}"
            found = (key, finding.rule, str(finding.to_json()["path"]))
            raised.add(found)
            if finding.severity is not Severity.INFO:
                noted.add(found)
            if out is not None:
                out.write(json.dumps({**finding.to_json(), "file": key}) + "\n")
    elapsed = time.perf_counter() - started
    if out is not None:
        out.close()
    repos = len({entry["repo"] for entry, _path in files})
    print(f"corpus: {len(files)} files from {repos} repositories, {crashes} tracebacks")
    for rule in table():
        if per_rule[rule.id]:
            print(f"  {per_rule[rule.id]:5d}  {rule.severity:<7}  {rule.id}")
    print(f"  {sum(per_rule.values()):5d}  findings in all")
    baseline = reading_time([path for _entry, path in files])
    print(f"time for the whole corpus in one process: {elapsed:.2f} s")
    print(
        f"baseline in the same run (read, JSON.parse, settings reader only): {baseline:.2f} s; "
        f"validate / baseline: {elapsed / baseline:.1f}x"
    )
    failures = crashes + schemastore()
    if args.write_baseline:
        rows = ",\n".join(json.dumps(list(item)) for item in sorted(noted))
        BASELINE.write_text(f"[\n{rows}\n]\n")
    if args.check:
        failures += check_judged(raised) + check_baseline(noted)
    return 1 if failures and args.check else 0


def reading_time(paths: list[Path]) -> float:
    """Seconds to read and parse every file the way fire does, without a lint rule."""
    events = load_catalogue().keys()
    started = time.perf_counter()
    for path in paths:
        try:
            document = jsjson.parse(path.read_text(encoding="utf-8"))
            settings_layer(document, SettingsSource.FLAG, str(path), events)
        except (OSError, ValueError, InputError, jsjson.JSONSyntaxError):
            continue
    return time.perf_counter() - started


def schemastore() -> int:
    manifest = json.loads((CORPUS / "schemastore.json").read_text())
    failures = 0
    for entry in manifest:
        path = HARVEST / "schemastore" / entry["path"]
        name = path.name
        if entry["kind"] == "valid":
            managed = name == "managed-settings.json"
            report = validate_files([path], ValidateOptions(managed=managed))
            errors = [f for f in report.findings if f.severity is Severity.ERROR]
            if errors:
                failures += 1
                print(f"schemastore valid {name}: {len(errors)} error(s): {errors[0]}")
        elif entry["kind"] == "invalid" and name in HOOK_NEGATIVES:
            report = validate_files([path])
            if not report.findings:
                failures += 1
                print(f"schemastore negative {name}: not caught")
    valid = sum(1 for entry in manifest if entry["kind"] == "valid")
    print(
        f"schemastore: {valid} valid files, {len(HOOK_NEGATIVES)} hook-related negative tests, "
        f"{failures} failure(s)"
    )
    return failures


def check_baseline(noted: set[tuple[str, str, str]]) -> int:
    """At least 90% of the baseline's errors and warnings (less those judged wrong) remain."""
    judged = json.loads((CORPUS / "judged.json").read_text())["findings"]
    wrong = {(i["file"], i["rule"], i["path"]) for i in judged if i["verdict"] == "wrong"}
    baseline = {tuple(item) for item in json.loads(BASELINE.read_text())} - wrong
    kept = len(baseline & noted)
    share = kept / len(baseline) if baseline else 1.0
    print(
        f"baseline: {kept} of {len(baseline)} errors and warnings remain ({100 * share:.1f}%); "
        f"{len(noted - baseline)} new"
    )
    return 0 if share >= 0.9 else 1


def check_judged(raised: set[tuple[str, str, str]]) -> int:
    judged = json.loads((CORPUS / "judged.json").read_text())
    failures = 0
    for item in judged["findings"]:
        key = (item["file"], item["rule"], item["path"])
        present = key in raised
        if item["verdict"] == "right" and not present:
            failures += 1
            print(f"judged right, no longer raised: {key}")
        if item["verdict"] == "wrong" and present:
            failures += 1
            print(f"judged wrong, still raised: {key}")
    right = sum(1 for item in judged["findings"] if item["verdict"] == "right")
    print(
        f"judged sample: {len(judged['findings'])} findings ({right} right), {failures} failure(s)"
    )
    return failures


if __name__ == "__main__":
    sys.exit(main())
