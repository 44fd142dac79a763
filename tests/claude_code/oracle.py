"""Command line of the oracle: run scenarios against a Claude Code binary.

    python tests/claude_code/oracle.py list
    python tests/claude_code/oracle.py check [ID ...] [--jobs 2] [--full] [--keep] [--out FILE]
        observed vs predicted; without ids, the whole corpus
    python tests/claude_code/oracle.py record [--jobs 2] [--from CHECKED.json]
        write observations/<version>.json (what Claude Code did, per scenario)
    python tests/claude_code/oracle.py diff [--against VERSION] [--jobs 2]
        re-run the corpus on $HOOKCOURSE_CLAUDE and list what changed against the record

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

from oracle_binary import find_binary, pinned_version
from oracle_compare import disagreements
from oracle_predict import FireServer
from oracle_record import OBSERVATIONS, changes, stable
from oracle_run import check_scenario, observe_scenario
from oracle_scenario import load_corpus


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
    check.add_argument("--out", help="write every result to this JSON file")
    record = sub.add_parser("record")
    record.add_argument(
        "--from", dest="source", help="take the observations from a `check --out` file"
    )
    diff = sub.add_parser("diff")
    diff.add_argument("--against", help="recorded version (default: the pinned one)")
    for command in (check, record, diff):
        command.add_argument("--jobs", type=int, default=2, help="Claude Code runs at once (2)")
    args = parser.parse_args(argv)
    corpus = load_corpus()
    if args.command == "list":
        for sid, scenario in corpus.items():
            print(f"{sid}\t{scenario.get('about', '')}")
        return 0
    binary = "" if args.command == "record" and args.source else find_binary()
    started = time.monotonic()
    if args.command == "check":
        ids = args.ids or list(corpus)
        results = _each(
            ids,
            args.jobs,
            lambda sid, server: check_scenario(binary, server, corpus[sid], args.keep),
            servers=True,
        )
        counts: dict[str, int] = {}
        for sid in ids:
            checked = results[sid]
            verdict = checked["comparison"]["verdict"]
            counts[verdict] = counts.get(verdict, 0) + 1
            if args.full:
                print(json.dumps(checked, indent=1))
            print(f"{sid}: {verdict} ({checked['observed']['seconds']} s)")
            for name, field in disagreements(checked["comparison"]).items():
                print(
                    f"  {name}:\n    fire:   {json.dumps(field['fire'])}\n"
                    f"    claude: {json.dumps(field['claude'])}"
                )
        if args.out:
            Path(args.out).write_text(json.dumps(results, indent=1), encoding="utf-8")
        total = time.monotonic() - started
        print(f"{len(ids)} scenarios: {counts} in {total:.0f} s", file=sys.stderr)
        return 0 if counts.get("disagree", 0) == 0 else 1
    if args.command == "record" and args.source:
        checked = json.loads(Path(args.source).read_text(encoding="utf-8"))
        observed = {sid: stable(checked[sid]["observed"]) for sid in corpus if sid in checked}
    else:
        observed = _each(
            list(corpus),
            args.jobs,
            lambda sid, _server: stable(observe_scenario(binary, corpus[sid])),
            servers=False,
        )
    if args.command == "record":
        target = OBSERVATIONS / f"{pinned_version()}.json"
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
