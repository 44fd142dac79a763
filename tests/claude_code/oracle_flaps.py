"""Runs of one release again, to measure what flaps between runs of the same release.

    python tests/claude_code/oracle_flaps.py run VERSION ... --ids ID,... [--times 3]
        install each release into /tmp/cc-VERSION, run the scenarios ``--times`` times
        each in the loopback-only namespace (as ``oracle.py sweep`` does), and add what
        each run showed, fact by fact, to versions/flaps.json; the stored observation
        is left as it is; the install is removed
    python tests/claude_code/oracle_flaps.py show
        per release and scenario, the facts whose values differ between its runs

A stored observation is one run. Some facts of an old release differ from one run of it
to the next (its own background subagents finish or not before the run ends). The
comparison (``oracle_compare.compare`` with ``release``) accepts, for a fact seen to
flap on that release, any value seen there: flapping is measured, never assumed (at
least ``MIN_RUNS`` runs, the stored observation counted, with two values or more).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from oracle_compare import FIELDS
from oracle_record import OBSERVATIONS, digest, stable

HERE = Path(__file__).resolve().parent
FLAPS = HERE / "versions" / "flaps.json"
MIN_RUNS = 3
"""Runs a fact must have been seen in (the stored observation counted) to be called
flapping."""
FACTS = ("hooks", "unfinished", "toolRuns", "toolResults", "modelTexts", "notices", "terminal")
FACTS += ("requests",)
"""The compared fields a run's facts are kept for: those whose Claude Code side the
comparison reads from the observation alone."""
NEUTRAL: dict[str, Any] = {
    "hooks": {},
    "unfinished": [],
    "tools": [],
    "modelTexts": [],
    "notices": [],
    "userNotes": [],
    "terminal": None,
    "requests": 0,
    "userMessage": None,
}
"""A prediction that says nothing: only the observed side of each field is read."""


def facts_of(observed: Mapping[str, Any], probe_ran: bool = True) -> dict[str, Any]:
    """The facts one run (an observation or its recorded form) shows, as the comparison
    reads them."""
    recorded = {**stable(observed), "probeRan": probe_ran}
    return {name: FIELDS[name](NEUTRAL, recorded)[1] for name in FACTS}


def load() -> dict[str, Any]:
    """versions/flaps.json: per release and scenario, the facts of each extra run."""
    if not FLAPS.exists():
        return {"releases": {}}
    data: dict[str, Any] = json.loads(FLAPS.read_text(encoding="utf-8"))
    return data


@functools.cache
def stored_runs() -> dict[str, Any]:
    """versions/flaps.json as it was when first read in this process (what a replay
    compares with)."""
    return load()


def seen(
    data: Mapping[str, Any], release: str, sid: str, recorded: Mapping[str, Any]
) -> dict[str, list[Any]]:
    """The facts seen to flap on ``release`` for ``sid``: each with every value seen in
    its runs (the stored observation ``recorded`` is one); none when fewer than
    ``MIN_RUNS`` runs were made or the scenario changed since."""
    entry = data.get("releases", {}).get(release, {}).get(sid)
    if not entry or entry.get("scenario") != recorded.get("scenario"):
        return {}
    from hookcourse.engine.versions import flag_hooks_run

    runs = [facts_of(recorded, flag_hooks_run(release)), *(run["facts"] for run in entry["runs"])]
    if len(runs) < MIN_RUNS:
        return {}
    found: dict[str, list[Any]] = {}
    for name in FACTS:
        values: list[Any] = []
        for run in runs:
            if name in run and run[name] not in values:
                values.append(run[name])
        if len(values) > 1:
            found[name] = values
    return found


def add_runs(release: str, sid: str, scenario: str, runs: Sequence[Mapping[str, Any]]) -> None:
    """Add measured runs of ``sid`` on ``release`` to versions/flaps.json."""
    data = load()
    entry = data["releases"].setdefault(release, {}).setdefault(sid, {"runs": []})
    if entry.get("scenario") != scenario:
        entry["runs"] = []  # runs of an earlier form of the scenario no longer count
    entry["scenario"] = scenario
    entry["runs"].extend(runs)
    data["about"] = (
        "Extra runs of stored releases (oracle_flaps.py run): per release and scenario, "
        "the facts each run showed, as the comparison reads them; the stored observation "
        "is one more run. A fact with two values or more over "
        f"{MIN_RUNS} runs or more flaps there."
    )
    ordered = dict(sorted(data["releases"].items(), key=lambda item: _key(item[0])))
    data["releases"] = {v: dict(sorted(s.items())) for v, s in ordered.items()}
    # Written whole, then moved into place: a replay reading it meanwhile sees one version.
    fresh = FLAPS.with_suffix(".json.new")
    fresh.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(fresh, FLAPS)


def _key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


def run_release(version: str, ids: Sequence[str], times: int) -> None:
    """Install ``version``, run each of ``ids`` ``times`` times, store the facts."""
    from oracle_scenario import load_corpus
    from oracle_sweep import Install, _started, observe_release

    from hookcourse.engine.versions import flag_hooks_run

    corpus = load_corpus()
    install = Install(version)
    try:
        install.install()
        for sid in ids:
            runs = []
            for _ in range(2 * times):
                if len(runs) == times:
                    break
                observation, _said = observe_release(str(install.wrapper), corpus[sid])
                if not _started(observation):
                    # A run that never reached the model (a start cut short) is no run.
                    print(f"  {sid}: did not start; run again", flush=True)
                    continue
                runs.append(
                    {
                        "date": time.strftime("%Y-%m-%d", time.gmtime()),
                        "facts": facts_of(observation, flag_hooks_run(version)),
                    }
                )
            add_runs(version, sid, digest(corpus[sid]), runs)
            print(f"{version} {sid}: {len(runs)} runs stored", flush=True)
    finally:
        install.remove()


def show() -> None:
    data = load()
    for release, scenarios in data["releases"].items():
        recorded = json.loads((OBSERVATIONS / f"{release}.json").read_text(encoding="utf-8"))
        for sid, entry in scenarios.items():
            flapping = seen(data, release, sid, recorded.get(sid, {}))
            runs = len(entry["runs"]) + 1
            said = ", ".join(f"{k}: {len(v)} values" for k, v in flapping.items()) or "steady"
            print(f"{release} {sid} ({runs} runs): {said}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="oracle_flaps", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run")
    run.add_argument("versions", nargs="+")
    run.add_argument("--ids", required=True)
    run.add_argument("--times", type=int, default=3)
    sub.add_parser("show")
    args = parser.parse_args(argv)
    if args.command == "show":
        show()
        return 0
    for version in args.versions:
        run_release(version, [i for i in args.ids.split(",") if i], args.times)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
