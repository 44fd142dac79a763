"""Live checks on another release: chosen scenarios run on Claude Code X, compared with
``fire`` answering as X (``fire --claude-version X``).

    oracle.py check [ID ...] --release X [--corpus FILE] [--sample N [--seed S]]
        [--jobs 2] [--out FILE] [--store]

The release is installed from npm into a scratch prefix and started through the
sweep's wrapper (``oracle_sweep.Install``: flags it lacks dropped), each scenario run
once in the loopback-only namespace as the sweep runs one (``observe_release``, print
mode, its time limit), and the install removed. Each is compared with ``fire``
answering as X the way ``replay --version X`` compares: the scenario with
``claudeVersion``, ``oracle_compare.compare`` told whether X ran ``--settings`` hooks.
``check`` without ``--release`` on a binary that is not the pinned release comes here
too, answering as the release its ``package.json`` names.

``--store`` keeps the records in ``versions/live/X.json`` (the pinned record's format,
with each scenario's fingerprint) with the disagreements found, each to be given its
cause by hand; ``test_live_checks.py`` replays ``fire`` against them.
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from interactive_scenario import is_interactive
from oracle_binary import pinned_version
from oracle_compare import compare, disagreements
from oracle_predict import FireServer
from oracle_record import digest, stable
from oracle_run import _failed_to_start, predict_scenario
from oracle_scenario import NamespaceUnavailable
from oracle_sweep import (
    AVOID,
    SKIP_TAGS,
    VERSIONS,
    Install,
    core_ids,
    observe_release,
    replay_releases,
)

from hookcourse.engine import versions
from hookcourse.errors import InputError

LIVE = VERSIONS / "live"
"""One file per release checked live: its records and the disagreements, with causes."""
RELEASE = re.compile(r"^\d+\.\d+\.\d+$")
PACKAGES = ("@anthropic-ai/claude-code", "@anthropic-ai/claude-code-linux-x64")
"""The package names whose ``package.json`` says a binary's release."""
UNEXPLAINED = {"kind": "", "cause": ""}
"""What a disagreement found by ``--store`` says until someone finds its cause."""
KINDS = {
    "release-change": "the release did otherwise where no core scenario looks, so the sweep "
    "never measured it",
    "modelling-gap": "a change the sweep measured, which fire does not apply to this scenario",
    "flap": "the release does not do the same on every run",
    "unseen": "what the record cannot show on this release",
}
"""The causes a known disagreement is classed under."""


class LiveCheckError(Exception):
    """A live check that cannot go on; ``str()`` is its one line."""


def binary_release(binary: str) -> str | None:
    """The release of ``binary`` as the ``package.json`` beside it says (the platform
    package's, or a ``cli.js``'s package; for a sweep wrapper, the install's package);
    None when there is none. The binary is never run to ask."""
    path = Path(binary).resolve()
    beside = [path.parent / "package.json"]
    beside.append(path.parent / "node_modules" / PACKAGES[0] / "package.json")
    for candidate in beside:
        try:
            package = json.loads(candidate.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(package, dict) and package.get("name") in PACKAGES:
            version = package.get("version")
            return version if isinstance(version, str) else None
    return None


def checked_release(version: str) -> str:
    """``version`` if ``fire`` can answer as it; LiveCheckError (one line) otherwise."""
    if not RELEASE.match(version):
        raise LiveCheckError(f"--release {version!r}: not a release number; fix: e.g. 2.1.108")
    if version not in versions.releases_on_npm():
        npm = versions.releases_on_npm()
        raise LiveCheckError(
            f"--release {version}: not a release of {PACKAGES[0]} on npm "
            f"({npm[0]} to {npm[-1]} at the sweep); fix: pick one of npm's releases"
        )
    try:
        return versions.check_release(version)
    except InputError as error:
        raise LiveCheckError(f"--release {version}: {error.problem}; fix: {error.fix}") from None


def _events(scenario: Mapping[str, Any]) -> set[str]:
    """The events the scenario's settings put hooks on."""
    found: set[str] = set()
    for written in scenario.get("settings", {}).values():
        if isinstance(written, str):
            try:
                written = json.loads(written)
            except ValueError:
                continue
        hooks = written.get("hooks") if isinstance(written, dict) else None
        if isinstance(hooks, dict):
            found |= set(hooks)
    return found


def eligible(corpus: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The scenarios a sample draws from: not the core (the sweep measured those), not
    interactive (the sweep runs print mode only), none the sweep avoids."""
    core = set(core_ids())
    return [
        sid
        for sid, scenario in corpus.items()
        if sid not in core and sid not in AVOID and not is_interactive(scenario)
    ]


def strata(corpus: Mapping[str, Mapping[str, Any]], ids: Sequence[str]) -> dict[str, list[str]]:
    """``ids`` by event: a scenario's stratum is the rarest event its settings hook (``-``:
    none), so a scenario with a Stop hook and a PreToolUse hook counts under Stop."""
    often = Counter(event for sid in ids for event in _events(corpus[sid]))
    found: dict[str, list[str]] = {}
    for sid in ids:
        events = sorted(_events(corpus[sid]), key=lambda e: (often[e], e))
        found.setdefault(events[0] if events else "-", []).append(sid)
    return dict(sorted(found.items()))


def _behaviours(scenario: Mapping[str, Any]) -> set[str]:
    """The behaviour tags a scenario covers (not its origin or one release's)."""
    return {tag for tag in scenario.get("covers", []) if not tag.startswith(SKIP_TAGS)}


def sample(corpus: Mapping[str, Mapping[str, Any]], size: int, seed: int) -> list[str]:
    """``size`` eligible scenarios, stratified: every event stratum gets one while there
    are enough, the rest in proportion to the strata's sizes (largest remainders); inside
    a stratum, each pick covers the most behaviour tags (``covers``) not yet picked,
    ties broken by a shuffle seeded with ``seed``."""
    groups = strata(corpus, eligible(corpus))
    size = min(size, sum(map(len, groups.values())))
    ranked = sorted(groups, key=lambda name: (-len(groups[name]), name))
    share = {name: int(name in ranked[:size]) for name in groups}
    left = size - sum(share.values())
    total = sum(len(groups[name]) - share[name] for name in groups) or 1
    wanted = {name: left * (len(groups[name]) - share[name]) / total for name in groups}
    for name in groups:
        share[name] += int(wanted[name])
    by_remainder = sorted(groups, key=lambda n: (-(wanted[n] - int(wanted[n])), n))
    for name in by_remainder[: size - sum(share.values())]:
        share[name] += 1
    picked: list[str] = []
    seen: set[str] = set()
    for name, members in groups.items():
        shuffled = list(members)
        random.Random(f"{seed}:{name}").shuffle(shuffled)
        for _ in range(min(share[name], len(members))):
            # The first of the shuffled order among those that add the most new tags.
            best = max(shuffled, key=lambda sid: len(_behaviours(corpus[sid]) - seen))
            shuffled.remove(best)
            picked.append(best)
            seen |= _behaviours(corpus[best])
    return picked


def chosen(
    corpus: Mapping[str, Mapping[str, Any]],
    ids: Sequence[str],
    corpus_file: str | None,
    size: int | None,
    seed: int,
) -> list[str]:
    """The scenarios asked for: ``ids``, the scenarios of ``corpus_file``, and a sample of
    ``size``, in that order without repeats; LiveCheckError (one line) for a bad one."""
    wanted = list(ids)
    if corpus_file is not None:
        name = Path(corpus_file).name
        if not any(s["_file"] == name for s in corpus.values()):
            raise LiveCheckError(
                f"--corpus {corpus_file}: no such corpus file; fix: one of "
                + ", ".join(sorted({s["_file"] for s in corpus.values()}))
            )
        of_file = [sid for sid in eligible(corpus) if corpus[sid]["_file"] == name]
        if not of_file:
            raise LiveCheckError(
                f"--corpus {corpus_file}: none of its scenarios is outside the core and "
                "in print mode; fix: another file, or ids"
            )
        wanted += of_file
    if size is not None:
        if size < 1:
            raise LiveCheckError(f"--sample {size}: not a positive number; fix: e.g. --sample 50")
        wanted += sample(corpus, size, seed)
    for sid in wanted:
        if sid not in corpus:
            raise LiveCheckError(f"{sid}: no such scenario; fix: oracle.py list")
        if is_interactive(corpus[sid]):
            raise LiveCheckError(
                f"{sid}: interactive; fix: pick print-mode scenarios (another release is "
                "run in print mode only, as the sweep runs it)"
            )
    if not wanted:
        raise LiveCheckError("no scenario chosen; fix: give ids, --corpus FILE or --sample N")
    return list(dict.fromkeys(wanted))


def observe_live(binary: str, scenario: Mapping[str, Any]) -> dict[str, Any]:
    """One sweep run of ``scenario``, once more on a fresh root if it never got going
    (as ``oracle_run.observe_scenario`` retries the pinned release)."""
    observed, _ = observe_release(binary, scenario)
    if _failed_to_start(observed):
        observed, _ = observe_release(binary, scenario)
        observed["retried"] = True
    return observed


def compared(
    release: str, scenario: Mapping[str, Any], predicted: Mapping[str, Any], observed: Any
) -> dict[str, Any]:
    """The comparison ``replay --version`` makes for ``release``."""
    return compare(scenario, predicted, observed, versions.flag_hooks_run(release))


class Wrapped(Install):
    """A binary already on disk, started through the sweep's wrapper (which drops the
    flags the release lacks) from a scratch folder; ``remove`` deletes only that."""

    def __init__(self, version: str, binary: str) -> None:
        super().__init__(version, Path(tempfile.mkdtemp(prefix="oracle-live-")))
        self.binary = Path(binary).resolve()
        self.prefix.mkdir(parents=True)
        self._write_wrapper()

    def _entry(self) -> tuple[list[str], Path]:
        if self.binary.suffix == ".js":
            node = shutil.which("node") or "node"
            self.runs_with["layout"] = f"{self.binary.name} run by node"
            return [node, str(self.binary)], self.binary
        self.runs_with["layout"] = f"binary {self.binary}"
        return [str(self.binary)], self.binary

    def remove(self) -> None:
        shutil.rmtree(self.prefix.parent, ignore_errors=True)


def run_live(
    wrapper: str,
    release: str,
    corpus: Mapping[str, Mapping[str, Any]],
    ids: Sequence[str],
    jobs: int,
    out: Path | None,
) -> dict[str, dict[str, Any]]:
    """Each scenario run on ``wrapper`` and compared with ``fire`` answering as
    ``release``; each printed as it comes (the differing fields under it), written to
    ``out`` as a JSON line; every result by id."""
    from oracle import _each, _shown  # the check command's helpers (oracle imports us late)

    lock = threading.Lock()

    def one(sid: str, server: FireServer | None) -> dict[str, Any]:
        assert server is not None
        scenario = corpus[sid]
        result: dict[str, Any]
        try:
            observed = observe_live(wrapper, scenario)
            predicted = predict_scenario(server, {**scenario, "claudeVersion": release})
            result = {
                "id": sid,
                "release": release,
                "observed": observed,
                "predicted": predicted,
                "comparison": compared(release, scenario, predicted, observed),
            }
        except NamespaceUnavailable:
            raise
        except Exception as error:  # one scenario's harness failure, said on its line
            result = {
                "id": sid,
                "release": release,
                "error": repr(error),
                "comparison": {"verdict": "error", "fields": {}},
                "observed": {"seconds": None},
            }
        with lock:
            verdict = result["comparison"]["verdict"]
            timed_out = result["observed"].get("status", {}).get("timedOut")
            print(
                f"{sid}: {verdict} ({result['observed']['seconds']} s"
                + (", timed out" if timed_out else "")
                + ")"
                + (f" {result['error']}" if "error" in result else ""),
                *_shown(result["comparison"]),
                sep="\n",
                flush=True,
            )
            if out is not None:
                with out.open("a", encoding="utf-8") as sink:
                    sink.write(json.dumps(result) + "\n")
        return result

    found: dict[str, dict[str, Any]] = _each(list(ids), jobs, one, servers=True)
    return found


def store(
    release: str,
    corpus: Mapping[str, Mapping[str, Any]],
    results: Mapping[str, Mapping[str, Any]],
    runs_with: Mapping[str, Any],
) -> Path:
    """Add the results to ``versions/live/<release>.json``: each record (other scenarios
    kept), and the scenarios that disagree now with their fields, a cause given before
    kept while the fields are the same."""
    target = LIVE / f"{release}.json"
    kept: dict[str, Any] = json.loads(target.read_text(encoding="utf-8")) if target.exists() else {}
    records = dict(kept.get("records", {}))
    known = dict(kept.get("disagreements", {}))
    for sid, result in results.items():
        if "error" in result:
            continue
        records[sid] = stable(result["observed"], corpus[sid])
        fields = sorted(disagreements(result["comparison"]))
        before = known.pop(sid, {})
        if fields:
            # A cause found earlier holds while the same fields disagree.
            said = before if before.get("fields") == fields else UNEXPLAINED
            known[sid] = {"fields": fields, "kind": said["kind"], "cause": said["cause"]}
    document = {
        "release": release,
        "measured": datetime.datetime.now(datetime.UTC).date().isoformat(),
        "runs_with": dict(runs_with),
        "records": dict(sorted(records.items())),
        "disagreements": dict(sorted(known.items())),
    }
    LIVE.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return target


def summary_line(release: str, results: Mapping[str, Mapping[str, Any]], seconds: float) -> str:
    """How many scenarios agreed, disagreed (on which fields) and failed."""
    counts = Counter(r["comparison"]["verdict"] for r in results.values())
    fields = Counter(name for r in results.values() for name in disagreements(r["comparison"]))
    said = ", ".join(f"{n} {verdict}" for verdict, n in sorted(counts.items()))
    where = ", ".join(f"{name} {n}" for name, n in fields.most_common())
    return (
        f"{len(results)} scenarios live on Claude Code {release} against fire answering as "
        f"{release}: {said}" + (f" (fields: {where})" if where else "") + f" in {seconds:.0f} s"
    )


def check(args: argparse.Namespace, corpus: Mapping[str, Mapping[str, Any]], binary: str) -> int:
    """``oracle.py check`` on another release: ``--release X`` installs it (``binary``
    unused), else ``binary`` is run answering as the release its package names."""
    started = time.monotonic()
    try:
        if args.release:
            release = checked_release(args.release)
        else:
            named = binary_release(binary)
            if named is None:
                raise LiveCheckError(
                    f"{binary}: no package.json beside it names its release; fix: "
                    "--release X, or point $HOOKCOURSE_CLAUDE at an npm install's binary"
                )
            release = checked_release(named)
        ids = chosen(corpus, args.ids, args.corpus, args.sample, args.seed)
        out = Path(args.out) if args.out else None
        if out is not None:
            try:
                out.write_text("", encoding="utf-8")
            except OSError as error:
                raise LiveCheckError(
                    f"--out {out}: cannot write ({error.strerror}); fix: a writable place"
                ) from None
    except LiveCheckError as error:
        print(f"check: {error}", file=sys.stderr)
        return 2
    if args.release:
        install = Install(release)
    else:
        print(f"{binary} is Claude Code {release} (its package.json): answering as it")
        install = Wrapped(release, binary)
    try:
        if args.release:
            print(f"installing Claude Code {release} into {install.prefix}", flush=True)
            took = install.install()
            print(f"installed in {took:.1f} s ({install.runs_with['layout']})", flush=True)
        results = run_live(str(install.wrapper), release, corpus, ids, args.jobs, out)
    except subprocess.CalledProcessError as error:
        said = (error.stderr or b"").decode("utf-8", "replace").strip().splitlines()
        print(
            f"check: npm could not install Claude Code {release}: "
            f"{said[-1] if said else error}; fix: check npm and the network",
            file=sys.stderr,
        )
        return 1
    except (NamespaceUnavailable, OSError, subprocess.SubprocessError) as error:
        print(
            f"check: Claude Code {release}: {type(error).__name__}: {error}".splitlines()[0],
            file=sys.stderr,
        )
        return 1
    finally:
        install.remove()
    print(summary_line(release, results, time.monotonic() - started))
    if args.store:
        print(f"wrote {store(release, corpus, results, install.runs_with)}")
    return (
        0 if {r["comparison"]["verdict"] for r in results.values()} <= {"agree", "exception"} else 1
    )


def other_release(binary: str) -> bool:
    """Whether ``binary``'s package names a release other than the pinned one (a binary
    without one is taken as the pinned install, as ``check`` always has)."""
    named = binary_release(binary)
    return named is not None and named != pinned_version()


def current_records(document: Mapping[str, Any], corpus: Mapping[str, Any]) -> dict[str, Any]:
    """A stored live check's records taken on each scenario as it is written now."""
    return {
        sid: record
        for sid, record in document["records"].items()
        if sid in corpus and record.get("scenario") == digest(corpus[sid])
    }


def replay_live(
    document: Mapping[str, Any], corpus: Mapping[str, Mapping[str, Any]], jobs: int
) -> dict[str, list[str]]:
    """``fire`` answering as a stored live check's release against its records (no
    binary): the fields that disagree, per scenario, as ``replay --version`` finds them."""
    release = str(document["release"])
    records = current_records(document, corpus)
    asked = {sid: {**corpus[sid], "claudeVersion": release} for sid in records}
    local = threading.local()
    made: list[FireServer] = []
    lock = threading.Lock()

    def predict(sid: str) -> tuple[str, dict[str, Any]]:
        if not hasattr(local, "server"):
            local.server = FireServer()
            with lock:
                made.append(local.server)
        return sid, predict_scenario(local.server, asked[sid])

    try:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            predicted = dict(pool.map(predict, sorted(asked)))
    finally:
        for server in made:
            server.close()
    found = replay_releases(lambda scenario: predicted[scenario["id"]], corpus, {release: records})
    return dict(found[release])


def rewrite_known(document: dict[str, Any], found: Mapping[str, list[str]]) -> dict[str, Any]:
    """The document with its disagreements as ``found``: one that now agrees goes, a cause
    given before stays on a scenario that still disagrees (to be read again where its
    fields changed), and a new one is left to be explained by hand."""
    known = document.get("disagreements", {})
    document["disagreements"] = {
        sid: {
            "fields": sorted(fields),
            "kind": known.get(sid, UNEXPLAINED)["kind"],
            "cause": known.get(sid, UNEXPLAINED)["cause"],
        }
        for sid, fields in sorted(found.items())
    }
    return document


def main(argv: Sequence[str]) -> int:
    """``oracle_live.py replay [--write]``: replay every stored live check; with --write,
    take the disagreements that now agree off its list (and list new ones, unexplained)."""
    parser = argparse.ArgumentParser(prog="oracle_live.py")
    parser.add_argument("command", choices=["replay"])
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--jobs", type=int, default=4)
    args = parser.parse_args(argv)
    from oracle_scenario import load_corpus

    corpus = load_corpus()
    for path in sorted(LIVE.glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        found = replay_live(document, corpus, args.jobs)
        listed = {sid: entry["fields"] for sid, entry in document["disagreements"].items()}
        print(f"{path.stem}: {len(found)} disagree (listed: {len(listed)})")
        for sid in sorted(set(found) | set(listed)):
            if found.get(sid) != listed.get(sid):
                print(f"  {sid}: listed {listed.get(sid)}, found {found.get(sid)}")
        if args.write:
            text = json.dumps(rewrite_known(document, found), indent=1, sort_keys=True)
            path.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
