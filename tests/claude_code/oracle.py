"""Command line of the oracle: run scenarios against a Claude Code binary.

    python tests/claude_code/oracle.py list
    python tests/claude_code/oracle.py check [ID ...] [--jobs 2] [--full] [--keep] [--out FILE]
        observed vs predicted; without ids, the whole corpus
    python tests/claude_code/oracle.py check [ID ...] --release X [--corpus FILE]
        [--sample N [--seed S]] [--store] [--jobs 2] [--out FILE]
        install release X from npm, run the scenarios on it and compare each with fire
        answering as X (oracle_live.py; --store: versions/live/X.json); a binary in
        $HOOKCOURSE_CLAUDE of another release is checked so too, as its package.json says
    python tests/claude_code/oracle.py record [ID ...] [--jobs 2] [--from CHECKED.jsonl]
        write observations/<version>.json (what Claude Code did, per scenario, with the
        scenario's fingerprint); with ids, or --from the scenarios of a `check --out`
        file, only those are updated and the rest kept
    python tests/claude_code/oracle.py replay [ID ...] [--jobs 2] [--version X [--write-open]]
        fire against the record of the pinned version, without Claude Code (seconds
        a scenario: the inner loop for engine work); --version X: fire answering as
        release X (fire --claude-version) against the sweep's record of X, and
        --write-open stores its disagreements in versions/open.json (--version all:
        the whole file, regenerated from every swept release's replay)
    python tests/claude_code/oracle.py summary CHECKED.jsonl [--write-open]
        counts, seconds, and each disagreement of a `check --out` file (compared
        again with the current comparison); --write-open
        makes open_disagreements.json the list of scenarios that disagree there
    python tests/claude_code/oracle.py diff [--against VERSION] [--jobs 2]
        re-run the corpus on $HOOKCOURSE_CLAUDE and list what changed against the record
    python tests/claude_code/oracle.py sweep VERSION ... [--ids ID,...] [--jobs 2]
        install each release from npm into /tmp/cc-VERSION, run the core scenarios
        (versions/core.json) in the namespace, store observations/VERSION.json, remove it
    python tests/claude_code/oracle.py bisect [--jobs 2] [--budget SECONDS]
        run the release halfway between stored neighbours that differ (the one that
        settles the most first), until each change sits between two consecutive npm
        releases (or releases that did not run, passed over and said in changes.json)
        or the budget is spent
    python tests/claude_code/oracle.py changelog [--check]
        regenerate hookcourse/data/claude_versions.json, versions/changes.json and the
        generated part of docs/versions.md from the stored records (--check: only say
        whether they are current)
    python tests/claude_code/oracle.py pick-core [--rebuild [--size 50]]
        write versions/core.json: the stored core with the ALSO scenarios it lacks
        (--rebuild: a new greedy cover of the corpus's behaviour tags)

The binary is $HOOKCOURSE_CLAUDE, else the pinned install (scripts/claude-code.sh).
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import oracle_live
from oracle_binary import find_binary, pinned_version
from oracle_compare import compare, disagreements
from oracle_predict import FireServer
from oracle_record import OBSERVATIONS, changes, digest, stable
from oracle_run import check_scenario, observe_scenario, predict_scenario
from oracle_scenario import load_corpus
from oracle_sweep import (
    CORE,
    core_ids,
    gaps,
    generated,
    note_release,
    open_disagreements,
    pick_core,
    replay_releases,
    stored,
    sweep_release,
    unrunnable,
    with_also,
    write_all_open,
    write_open,
)

from hookcourse.engine import versions


def _each(
    ids: list[str], jobs: int, work: Callable[[str, FireServer | None], Any], servers: bool
) -> dict[str, Any]:
    """``work`` for every id, ``jobs`` at a time (each thread with its own fire server)."""
    local = threading.local()
    made: list[FireServer] = []
    lock = threading.Lock()

    def one(sid: str) -> tuple[str, Any]:
        if servers and not hasattr(local, "server"):
            local.server = FireServer()
            with lock:
                made.append(local.server)
        return sid, work(sid, getattr(local, "server", None))

    try:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            return dict(pool.map(one, ids))
    finally:
        for server in made:
            server.close()


def _summary(source: Path, write_open: bool) -> int:
    corpus = load_corpus()
    results = [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines()]
    for result in results:
        # Compared again, so a summary follows the comparison as it is now.
        if "error" not in result and result["id"] in corpus:
            result["comparison"] = compare(
                corpus[result["id"]], result["predicted"], result["observed"]
            )
    counts: dict[str, int] = {}
    seconds = [r["observed"]["seconds"] for r in results if r["observed"].get("seconds")]
    still_open: dict[str, str] = {}
    for result in results:
        verdict = result["comparison"]["verdict"]
        counts[verdict] = counts.get(verdict, 0) + 1
        differ = disagreements(result["comparison"])
        if differ:
            still_open[result["id"]] = "; ".join(
                f"{name}: fire {json.dumps(f['fire'])} / claude {json.dumps(f['claude'])}"
                for name, f in differ.items()
            )
    for sid, text in sorted(still_open.items()):
        print(f"{sid}: {text}")
    mean = sum(seconds) / len(seconds) if seconds else 0.0
    print(
        f"{len(results)} scenarios: {counts}; Claude Code run {mean:.1f} s on average "
        f"(min {min(seconds, default=0):.1f}, max {max(seconds, default=0):.1f})"
    )
    if write_open:
        target = Path(__file__).resolve().parent / "open_disagreements.json"
        target.write_text(
            json.dumps(dict(sorted(still_open.items())), indent=1) + "\n", encoding="utf-8"
        )
    return 0


def _shown(comparison: dict[str, Any]) -> list[str]:
    """Each disagreeing field, both sides, as printed under the scenario's line."""
    return [
        f"  {name}:\n    fire:   {json.dumps(f['fire'])}\n    claude: {json.dumps(f['claude'])}"
        for name, f in disagreements(comparison).items()
    ]


def _replay(
    corpus: dict[str, Any], ids: list[str], jobs: int, version: str | None = None
) -> tuple[dict[str, int], dict[str, list[str]]]:
    """``fire`` on each scenario against the record of the pinned version (no Claude Code);
    with ``version``, ``fire`` answering as that release against its sweep record. The
    verdict counts, and the disagreeing fields per scenario."""
    started = time.monotonic()
    release = version or pinned_version()
    recorded = json.loads((OBSERVATIONS / f"{release}.json").read_text(encoding="utf-8"))
    counts: dict[str, int] = {}
    differ: dict[str, list[str]] = {}
    lock = threading.Lock()

    def one(sid: str, server: FireServer | None) -> None:
        assert server is not None
        if recorded.get(sid, {}).get("scenario") != digest(corpus[sid]):
            verdict, lines = "stale", [f"  not recorded as it is now: oracle.py record {sid}"]
        else:
            asked = {**corpus[sid], "claudeVersion": version} if version else corpus[sid]
            # A release before --settings hooks ran has no probe (as replay --version all).
            probe_ran = versions.flag_hooks_run(version) if version else True
            compared = compare(
                corpus[sid], predict_scenario(server, asked), recorded[sid], probe_ran, version
            )
            verdict = compared["verdict"]
            lines = _shown(compared)
            if verdict == "disagree":
                differ[sid] = sorted(disagreements(compared))
        with lock:
            counts[verdict] = counts.get(verdict, 0) + 1
            if verdict not in ("agree", "exception"):
                print(f"{sid}: {verdict}", *lines, sep="\n", flush=True)

    _each(ids, jobs, one, servers=True)
    total = time.monotonic() - started
    print(
        f"{len(ids)} scenarios against the record of {release}: {counts} in {total:.0f} s",
        file=sys.stderr,
    )
    return counts, dict(sorted(differ.items()))


def _sweep_one(version: str, corpus: dict[str, Any], ids: list[str], jobs: int) -> bool:
    """One release swept, and a line saying how it went; whether it ran."""
    entry = sweep_release(version, corpus, ids, jobs)
    note_release(entry)
    if entry.get("runnable"):
        print(
            f"{version}: {len(entry['scenarios'])} scenarios in {entry['runSeconds']} s "
            f"(install {entry['installSeconds']} s; {entry['runs_with']}; "
            f"{len(entry['didNotStart'])} did not start)",
            flush=True,
        )
    else:
        print(f"{version}: not runnable: {entry['reason']}", flush=True)
    return bool(entry.get("runnable"))


def _bisect(corpus: dict[str, Any], jobs: int, budget: float) -> int:
    """Run the halfway release that settles the most, again and again, until no stored
    neighbours differ across a gap or ``budget`` seconds have gone."""
    digests = {sid: digest(corpus[sid]) for sid in core_ids()}
    started = time.monotonic()
    steps = 0
    while time.monotonic() - started < budget:
        # A release that did not run (now or in an earlier bisection) is passed over: its
        # span's other releases are tried, and a span with none left says why.
        failed = unrunnable()
        wanted = gaps(stored(), digests, skip=failed)
        if not wanted:
            print(
                f"after {steps} steps, every change sits between two consecutive releases"
                + (f" or releases that did not run ({', '.join(failed)})" if failed else ""),
                flush=True,
            )
            return 0
        version, ids = next(iter(wanted.items()))
        print(f"open: {len(wanted)} halfway releases; next {version} ({len(ids)})", flush=True)
        step = time.monotonic()
        _sweep_one(version, corpus, ids, jobs)
        steps += 1
        print(f"  step {steps}: {time.monotonic() - step:.1f} s", flush=True)
    print(f"stopped after {budget:.0f} s ({steps} steps) with changes still open", flush=True)
    return 1


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="oracle", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list")
    check = sub.add_parser("check")
    check.add_argument("ids", nargs="*")
    check.add_argument("--keep", action="store_true", help="keep the scratch directories")
    check.add_argument("--full", action="store_true", help="print observation and prediction")
    check.add_argument(
        "--out", help="write every result to this file, one JSON line each, as they come"
    )
    check.add_argument("--release", help="install this release from npm and answer as it")
    check.add_argument("--corpus", help="the scenarios of this corpus file (e.g. hidden.json)")
    check.add_argument("--sample", type=int, help="N scenarios beyond the core, by event")
    check.add_argument("--seed", type=int, default=0, help="the sample's seed (0)")
    check.add_argument("--store", action="store_true", help="keep them in versions/live/")
    record = sub.add_parser("record")
    record.add_argument("ids", nargs="*", help="only these scenarios (the rest stay as recorded)")
    record.add_argument(
        "--from", dest="source", help="take the observations from a `check --out` file (JSON lines)"
    )
    replay = sub.add_parser("replay")
    replay.add_argument("ids", nargs="*")
    replay.add_argument("--jobs", type=int, default=2, help="fire predictions at once (2)")
    replay.add_argument(
        "--version", help="a swept release, or all: fire answers as it did (no binary)"
    )
    replay.add_argument(
        "--write-open", action="store_true", help="store the disagreements in versions/open.json"
    )
    changelog = sub.add_parser("changelog")
    changelog.add_argument("--check", action="store_true")
    summary = sub.add_parser("summary")
    summary.add_argument("source")
    summary.add_argument("--write-open", action="store_true")
    diff = sub.add_parser("diff")
    diff.add_argument("--against", help="recorded version (default: the pinned one)")
    for command in (check, record, diff):
        command.add_argument("--jobs", type=int, default=2, help="Claude Code runs at once (2)")
    sweep = sub.add_parser("sweep")
    sweep.add_argument("versions", nargs="+")
    sweep.add_argument("--ids", help="comma-separated scenario ids (default: versions/core.json)")
    bisect = sub.add_parser("bisect")
    bisect.add_argument(
        "--budget", type=float, default=3600, help="start no release after this many seconds"
    )
    for command in (sweep, bisect):
        command.add_argument("--jobs", type=int, default=2, help="Claude Code runs at once (2)")
    pick = sub.add_parser("pick-core")
    pick.add_argument("--size", type=int, default=50)
    pick.add_argument(
        "--rebuild",
        action="store_true",
        help="a new greedy cover (without it: the stored core, with the ALSO scenarios it lacks)",
    )
    args = parser.parse_args(argv)
    corpus = load_corpus()
    unknown = [sid for sid in getattr(args, "ids", None) or [] if sid not in corpus]
    if unknown and isinstance(args.ids, list):
        print(f"{args.command}: no scenario {unknown[0]}; fix: oracle.py list", file=sys.stderr)
        return 2
    if args.command == "pick-core":
        # A new cover would leave out scenarios whose records the changelog reads: only
        # on request.
        core = json.loads(CORE.read_text(encoding="utf-8"))["scenarios"]
        picked = pick_core(corpus, args.size) if args.rebuild else with_also(core)
        CORE.write_text(json.dumps({"scenarios": picked}, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {CORE} ({len(picked)} scenarios)")
        return 0
    if args.command == "sweep":
        ids = args.ids.split(",") if args.ids else core_ids()
        if pinned_version() in args.versions:
            print(f"sweep: {pinned_version()} is the pinned record; fix: oracle.py record")
            return 2
        for version in args.versions:
            _sweep_one(version, corpus, ids, args.jobs)
        return 0
    if args.command == "bisect":
        return _bisect(corpus, args.jobs, args.budget)
    if args.command == "list":
        for sid, scenario in corpus.items():
            print(f"{sid}\t{scenario.get('about', '')}")
        return 0
    if args.command == "summary":
        return _summary(Path(args.source), args.write_open)
    if args.command == "replay" and args.version == "all":
        # Every swept release at once, each distinct answer predicted once.
        server = FireServer()
        try:
            swept = {v: r for v, r in stored().items() if v != pinned_version()}
            found = replay_releases(lambda asked: predict_scenario(server, asked), corpus, swept)
        finally:
            server.close()
        for version, differ in found.items():
            print(f"{version}: {len(differ)} of {len(swept[version])} scenarios disagree")
        if args.write_open:
            # Derived whole from the replay: nothing kept from the file before.
            write_all_open(found)
        return 0
    if args.command == "replay" and args.version:
        if args.version not in stored():
            print(
                f"replay: no stored record of Claude Code {args.version}; fix: a release "
                "tests/claude_code/observations holds, or oracle.py sweep it first",
                file=sys.stderr,
            )
            return 2
        recorded = stored().get(args.version, {})
        ids = args.ids or [sid for sid in recorded if sid in corpus]
        counts, differ = _replay(corpus, ids, args.jobs, args.version)
        listed = open_disagreements().get(args.version, {})
        if args.write_open:
            write_open(args.version, differ)
        elif differ != {sid: listed[sid] for sid in differ if sid in listed} or set(differ) != {
            sid for sid in listed if sid in ids
        }:
            print(f"{args.version}: the disagreements differ from versions/open.json")
            return 1
        return 0
    if args.command == "replay":
        counts, _ = _replay(corpus, args.ids or list(corpus), args.jobs)
        return 0 if set(counts) <= {"agree", "exception"} else 1
    if args.command == "changelog":
        stale = generated(corpus, write=not args.check)
        for path in stale:
            print(f"{path}: {'not current' if args.check else 'written'}")
        return 1 if args.check and stale else 0
    if args.command == "check" and (args.release or args.sample or args.corpus or args.store):
        return oracle_live.check(args, corpus, "" if args.release else find_binary())
    binary = "" if args.command == "record" and args.source else find_binary()
    started = time.monotonic()
    if args.command == "check" and oracle_live.other_release(binary):
        return oracle_live.check(args, corpus, binary)
    if args.command == "check":
        ids = args.ids or list(corpus)
        out = Path(args.out) if args.out else None
        if out is not None:
            out.write_text("", encoding="utf-8")
        counts: dict[str, int] = {}
        lock = threading.Lock()

        def one(sid: str, server: FireServer | None) -> None:
            assert server is not None
            try:
                checked = check_scenario(binary, server, corpus[sid], args.keep)
            except Exception as error:
                checked = {
                    "id": sid,
                    "error": repr(error),
                    "comparison": {"verdict": "error", "fields": {}},
                    "observed": {"seconds": None},
                }
            verdict = checked["comparison"]["verdict"]
            with lock:
                counts[verdict] = counts.get(verdict, 0) + 1
                if args.full:
                    print(json.dumps(checked, indent=1))
                print(
                    f"{sid}: {verdict} ({checked['observed']['seconds']} s)"
                    + (f" {checked['error']}" if "error" in checked else "")
                )
                for line in _shown(checked["comparison"]):
                    print(line)
                sys.stdout.flush()
                if out is not None:
                    with out.open("a", encoding="utf-8") as sink:
                        sink.write(json.dumps(checked) + "\n")

        _each(ids, args.jobs, one, servers=True)
        total = time.monotonic() - started
        print(f"{len(ids)} scenarios: {counts} in {total:.0f} s", file=sys.stderr)
        return 0 if set(counts) <= {"agree", "exception"} else 1
    target = OBSERVATIONS / f"{pinned_version()}.json"
    kept = json.loads(target.read_text(encoding="utf-8")) if target.exists() else {}
    if args.command == "record" and args.source:
        lines = Path(args.source).read_text(encoding="utf-8").splitlines()
        checked = {item["id"]: item for item in map(json.loads, lines) if "error" not in item}
        fresh = {sid: stable(checked[sid]["observed"], corpus[sid]) for sid in checked}
    else:
        ids = getattr(args, "ids", None) or list(corpus)
        fresh = _each(
            ids,
            args.jobs,
            lambda sid, _server: stable(observe_scenario(binary, corpus[sid]), corpus[sid]),
            servers=False,
        )
    # A partial record updates its scenarios; the others stay as recorded.
    observed = {sid: kept[sid] for sid in corpus if sid in kept}
    observed.update({sid: fresh[sid] for sid in corpus if sid in fresh})
    if args.command == "record":
        target.write_text(json.dumps(observed, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {target} ({len(observed)} scenarios, {time.monotonic() - started:.0f} s)")
        return 0
    version = args.against or pinned_version()
    recorded = json.loads((OBSERVATIONS / f"{version}.json").read_text(encoding="utf-8"))
    changed = changes(recorded, observed)
    for sid, fields in changed.items():
        print(f"{sid}:")
        for name, (before, after) in fields.items():
            print(
                f"  {name}:\n    {version}: {json.dumps(before)}\n    now:     {json.dumps(after)}"
            )
    print(f"{len(changed)} of {len(observed)} scenarios changed against {version}", file=sys.stderr)
    return 0 if not changed else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
