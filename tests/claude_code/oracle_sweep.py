"""The version sweep: old Claude Code releases run on the core scenarios, then bisected.

A release is installed from npm into a scratch prefix (``/tmp/cc-X``), run on the
scenarios asked (the core subset, ``versions/core.json``, by default) under the same
network rule as the pinned release (``oracle_scenario.run_claude``: a loopback-only
namespace), its observations stored as ``observations/X.json`` in the record's format,
and the install removed. How each release was run (or why it could not be) goes to
``versions/releases.json``.

Releases differ in how they start: up to some 2.1 release the package is a ``cli.js``
that node runs, later ones a native binary in the platform package
(``@anthropic-ai/claude-code-linux-x64``); old releases lack ``--include-hook-events``
and ``--debug-file``. Each run goes through a small wrapper script that drops the flags
the release does not know (found by reading the release's own files, never by running
it outside the namespace) and starts the right entry point.

Bisection: for each scenario, the releases that stored it are neighbours in npm's
order; where two neighbours differ on a compared field and npm has releases between
them, the release halfway is run on those scenarios, until every change sits between
two consecutive releases.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from oracle_observe import observe
from oracle_record import OBSERVATIONS, UUID, digest, stable
from oracle_scenario import DEFAULT_PROMPT, lay_out, run_claude, scratch

HERE = Path(__file__).resolve().parent
VERSIONS = HERE / "versions"
RELEASES = VERSIONS / "npm-releases.json"
"""Every release npm lists, oldest first (``npm view @anthropic-ai/claude-code versions``)."""
CORE = VERSIONS / "core.json"
RUNS = VERSIONS / "releases.json"
PACKAGE = "@anthropic-ai/claude-code"
PLATFORM = "claude-code-linux-x64"
OPTIONAL_FLAGS = {"--include-hook-events": 0, "--debug-file": 1}
"""Flags of the harness a release may not know, with how many values each takes."""
SKIP_TAGS = ("hidden", "issue.", "seed.", "2.1.332.")
"""``covers`` tags that name a corpus origin or one release, not a behaviour family."""
ALSO = {
    "b-match-comma-spaces": "matcher lists with commas: reported changed in 2.1.191",
    "match-hyphen-exact": "matchers with hyphens: reported changed in 2.1.195",
    "perm-ask-rule-hook-allow": "a hook's allow under an ask rule: reported changed in 2.1.220",
    "several-rewrites-last-wins": "two hooks' updatedInput: a sibling's reported lost once",
    "failure-payload": "PostToolUseFailure, an event newer than 2.0",
    "payload-post-tool-batch": "PostToolBatch, an event newer than 2.0",
    "hidden-cd-subdir": "CwdChanged, an event newer than 2.0",
}
"""Scenarios the core takes beside the greedy cover: changes users reported."""
AVOID = {
    "hidden-stop-missing-script-sh": "a missing Stop script makes 2.0 releases loop on Stop "
    "until the run's timeout (318 model requests in 90 s on 2.0.72)",
}
"""Scenarios the greedy cover leaves out, with why."""
TIMEOUT_S = 40.0
"""A swept run's limit (the pinned record's runs allow 90 s; an old release that loops
costs less this way, and its observation says it timed out)."""


@functools.cache
def all_releases() -> list[str]:
    """npm's releases, oldest first."""
    names: list[str] = json.loads(RELEASES.read_text(encoding="utf-8"))
    return names


@functools.cache
def release_key(version: str) -> tuple[int, ...]:
    """Order of a release in npm's list (unknown ones last)."""
    names = all_releases()
    return (names.index(version),) if version in names else (len(names),)


def pick_core(corpus: Mapping[str, Mapping[str, Any]], size: int) -> list[dict[str, Any]]:
    """A greedy cover of the corpus's behaviour tags: each pick covers the most tags not
    yet covered (ties: fewest turns and flags, no sleeps), up to ``size`` picks."""

    def tags(scenario: Mapping[str, Any]) -> set[str]:
        return {t for t in scenario.get("covers", []) if not t.startswith(SKIP_TAGS)}

    def cost(scenario: Mapping[str, Any]) -> float:
        text = json.dumps(scenario)
        slow = 3 * ('"sleep"' in text) + 3 * ('"pause"' in text)
        return len(scenario.get("turns", [])) + slow + 0.3 * len(scenario.get("flags", []))

    corpus = {sid: s for sid, s in corpus.items() if sid not in AVOID}
    left = set().union(*(tags(s) for s in corpus.values()))
    picked: list[dict[str, Any]] = []
    while left and len(picked) < size:
        best = max(corpus.values(), key=lambda s: (len(tags(s) & left), -cost(s), s["id"]))
        gained = sorted(tags(best) & left)
        if not gained:
            break
        picked.append({"id": best["id"], "covers": gained})
        left -= set(gained)
    taken = {item["id"] for item in picked}
    picked += [{"id": sid, "why": why} for sid, why in ALSO.items() if sid not in taken]
    return picked


def core_ids() -> list[str]:
    """The core subset's scenario ids."""
    return [item["id"] for item in json.loads(CORE.read_text(encoding="utf-8"))["scenarios"]]


class Install:
    """One release installed into a scratch prefix, with a wrapper that starts it."""

    def __init__(self, version: str, root: Path = Path("/tmp")) -> None:
        self.version = version
        self.prefix = root / f"cc-{version}"
        self.wrapper = self.prefix / "claude-wrapper"
        self.runs_with: dict[str, Any] = {}

    def install(self) -> float:
        """npm install (scripts off, its own cache), then the wrapper; the seconds taken."""
        started = time.monotonic()
        shutil.rmtree(self.prefix, ignore_errors=True)
        self.prefix.mkdir(parents=True)
        subprocess.run(
            [
                "npm",
                "install",
                "--silent",
                "--no-audit",
                "--no-fund",
                "--ignore-scripts",
                "--cache",
                str(self.prefix / "npm-cache"),
                "--prefix",
                str(self.prefix),
                f"{PACKAGE}@{self.version}",
            ],
            check=True,
            capture_output=True,
            timeout=900,
        )
        self._write_wrapper()
        return time.monotonic() - started

    def _entry(self) -> tuple[list[str], Path]:
        """The command that starts the release, and the file whose text says its flags."""
        modules = self.prefix / "node_modules" / "@anthropic-ai"
        for name in ("claude", "bin/claude", "bin/claude.exe"):
            native = modules / PLATFORM / name
            if native.is_file() and native.stat().st_size > 1_000_000:
                native.chmod(0o755)
                self.runs_with["layout"] = f"native binary {PLATFORM}/{name}"
                return [str(native)], native
        cli = modules / "claude-code" / "cli.js"
        if cli.is_file():
            node = shutil.which("node") or "node"
            found = subprocess.run([node, "--version"], capture_output=True, text=True)
            self.runs_with["layout"] = f"cli.js run by node {found.stdout.strip()}"
            return [node, str(cli)], cli
        raise FileNotFoundError(f"{self.prefix}: neither a {PLATFORM} binary nor cli.js")

    def _write_wrapper(self) -> None:
        command, source = self._entry()
        known = _flags_in(source, OPTIONAL_FLAGS)
        dropped = [flag for flag in OPTIONAL_FLAGS if flag not in known]
        self.runs_with["dropped"] = dropped
        cases = "".join(
            f"    {flag}) {'skip=1; ' if OPTIONAL_FLAGS[flag] else ''}continue ;;\n"
            for flag in dropped
        )
        body = (
            "#!/bin/sh\n"
            f"# Claude Code {self.version}: drops the harness flags it does not know.\n"
            "skip=0\n"
            'for arg do\n  shift\n  if [ "$skip" = 1 ]; then skip=0; continue; fi\n'
            f'  case "$arg" in\n{cases}  esac\n  set -- "$@" "$arg"\ndone\n'
            f'exec {" ".join(_quoted(part) for part in command)} "$@"\n'
        )
        self.wrapper.write_text(body, encoding="utf-8")
        self.wrapper.chmod(0o755)

    def remove(self) -> None:
        shutil.rmtree(self.prefix, ignore_errors=True)


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _flags_in(source: Path, flags: Iterable[str]) -> set[str]:
    """Which of ``flags`` the release's own file mentions (read, never run)."""
    data = source.read_bytes()
    return {flag for flag in flags if flag.encode() in data}


def observe_release(binary: str, scenario: Mapping[str, Any]) -> tuple[dict[str, Any], str]:
    """One run of ``scenario`` (in the namespace): the observation and its stderr's end."""
    layout = scratch(scenario["id"] + "-sweep")
    try:
        lay_out(scenario, layout)
        started = time.monotonic()
        status = run_claude(binary, scenario, layout, TIMEOUT_S)
        observation = observe(layout, status, scenario.get("prompt", DEFAULT_PROMPT))
        observation["seconds"] = round(time.monotonic() - started, 2)
        print(f"  {scenario['id']}: {observation['seconds']} s", flush=True)
        stderr = layout.root / "stderr.txt"
        said = stderr.read_text(encoding="utf-8", errors="replace") if stderr.exists() else ""
        return observation, said.strip()[-400:]
    finally:
        shutil.rmtree(layout.root, ignore_errors=True)


def _started(observation: Mapping[str, Any]) -> bool:
    """Whether the run reached the model or printed a result."""
    return bool(observation["requests"]) or observation["result"].get("subtype") is not None


def sweep_release(
    version: str, corpus: Mapping[str, Mapping[str, Any]], ids: Sequence[str], jobs: int
) -> dict[str, Any]:
    """Install, run ``ids``, store what it did, remove the install; the release's entry
    for ``releases.json``."""
    install = Install(version)
    entry: dict[str, Any] = {"version": version}
    try:
        entry["installSeconds"] = round(install.install(), 1)
        entry["runs_with"] = install.runs_with
        started = time.monotonic()
        binary = str(install.wrapper)
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            seen = pool.map(lambda sid: observe_release(binary, corpus[sid]), ids)
            done = dict(zip(ids, seen, strict=True))
        entry["runSeconds"] = round(time.monotonic() - started, 1)
    except (subprocess.SubprocessError, OSError) as error:
        entry["runnable"] = False
        entry["reason"] = f"{type(error).__name__}: {error}"[:400]
        return entry
    finally:
        install.remove()
    started_runs = [sid for sid, (seen, _) in done.items() if _started(seen)]
    if not started_runs:
        entry["runnable"] = False
        entry["reason"] = "no run reached the mock; stderr: " + next(iter(done.values()))[1]
        return entry
    entry["runnable"] = True
    entry["scenarios"] = sorted(done)
    entry["didNotStart"] = sorted(set(done) - set(started_runs))
    entry["timedOut"] = sorted(
        sid for sid, (seen, _) in done.items() if seen["status"].get("timedOut")
    )
    store(version, {sid: stable(done[sid][0], corpus[sid]) for sid in done})
    return entry


def store(version: str, fresh: Mapping[str, Any]) -> None:
    """Add ``fresh`` to ``observations/<version>.json`` (other scenarios kept)."""
    target = OBSERVATIONS / f"{version}.json"
    kept = json.loads(target.read_text(encoding="utf-8")) if target.exists() else {}
    kept.update(fresh)
    target.write_text(json.dumps(kept, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def note_release(entry: Mapping[str, Any]) -> None:
    """Merge a release's entry into ``releases.json`` (scenario lists add up)."""
    known = json.loads(RUNS.read_text(encoding="utf-8")) if RUNS.exists() else {}
    old = known.get(entry["version"], {})
    merged = {**old, **entry}
    if "scenarios" in entry:
        merged["scenarios"] = sorted(set(old.get("scenarios", [])) | set(entry["scenarios"]))
        # A scenario run again counts as it did this time.
        failed = set(old.get("didNotStart", [])) - set(entry["scenarios"])
        merged["didNotStart"] = sorted(failed | set(entry.get("didNotStart", [])))
    known[entry["version"]] = merged
    ordered = dict(sorted(known.items(), key=lambda item: release_key(item[0])))
    RUNS.write_text(json.dumps(ordered, indent=1) + "\n", encoding="utf-8")


def stored() -> dict[str, dict[str, Any]]:
    """Every stored release's observations (the pinned one included), by version."""
    found = {}
    for path in OBSERVATIONS.glob("*.json"):
        found[path.stem] = json.loads(path.read_text(encoding="utf-8"))
    return dict(sorted(found.items(), key=lambda item: release_key(item[0])))


AGENT_ID = re.compile(r"\ba[0-9a-f]{16}\b")
"""A subagent's id (random per run; session ids are ``oracle_record.UUID``)."""
SCRATCH = re.compile(r"-tmp-oracle-[^/\"]*?-project")
"""A scratch project's folder as Claude Code names its transcripts (random per run)."""
DURATION = re.compile(r"duration_ms: \d+")
"""A subagent's run time in its call's tool_result (``<usage>...duration_ms: 107</usage>``)."""


def _masked(value: Any) -> Any:
    """``value`` without what differs on every run (subagent ids, scratch folder names,
    a subagent's duration)."""
    if not isinstance(value, str):
        return value
    value = DURATION.sub("duration_ms: <ms>", value)
    return UUID.sub("<uuid>", SCRATCH.sub("-<scratch>-project", AGENT_ID.sub("<agent>", value)))


def facets(observation: Mapping[str, Any]) -> dict[str, Any]:
    """The flat facts of an observation, what differs on every run masked."""
    return {path: _masked(value) for path, value in _facets(observation).items()}


def _facets(observation: Mapping[str, Any]) -> dict[str, Any]:
    """An observation as flat facts, each named by where it is: ``result.terminal_reason``,
    ``tool[0].result``, ``hook[PreToolUse/h].env.CLAUDE_EFFORT``, ``hook[...].payload.cwd``
    (``toolsOffered`` left out: it is the tool list, not hooks)."""
    found: dict[str, Any] = {"requests": observation.get("requests")}
    for key, value in sorted((observation.get("result") or {}).items()):
        found[f"result.{key}"] = value
    for i, tool in enumerate(observation.get("tools") or []):
        for key in ("result", "isError", "structured"):
            found[f"tool[{i}].{key}"] = tool.get(key)
    found["probe"] = json.dumps(observation.get("probe"), sort_keys=True)
    found["modelTexts"] = json.dumps(observation.get("modelTexts"))
    found["notices"] = json.dumps(observation.get("notices"))
    runs: dict[str, list[Mapping[str, Any]]] = {}
    for run in observation.get("hooks") or []:
        runs.setdefault(f"hook[{run['event']}/{run['hook']}]", []).append(run)
    for where, group in runs.items():
        found[f"{where}.runs"] = len(group)
        found[f"{where}.exit"] = json.dumps(sorted(str(run["exit"]) for run in group))
        found[f"{where}.cwd"] = group[0]["cwd"]
        for name in group[0]["env"]:
            found[f"{where}.env.{name}"] = True
        payload = group[0]["payload"] if isinstance(group[0]["payload"], dict) else {}
        for key, value in payload.items():
            found[f"{where}.payload.{key}"] = json.dumps(value, sort_keys=True)
    return found


HOOK_WHERE = re.compile(r"^hook\[([^/\]]+)/[^\]]+\]")
TOOL_WHERE = re.compile(r"^tool\[\d+\]")


def pattern(path: str) -> str:
    """A facet's name without what only one scenario has (its hook's name, the call's
    place): changes of one pattern seen in several scenarios are one change."""
    if re.search(r"\]\.(env|payload)\.", path):
        # An environment variable or payload key comes to every event's hooks at once.
        return HOOK_WHERE.sub("hook[*]", path)
    return TOOL_WHERE.sub("tool[*]", HOOK_WHERE.sub(r"hook[\1]", path))


SHARED = re.compile(
    r"\.(env\.[A-Z_]+|payload\.[a-z_]+)$|^result\.(stop_reason|terminal_reason|num_turns)$"
)
"""Facets every scenario shows alike (an environment name, a payload key's presence, the
result line's reasons): bisected on one scenario, the others take its release."""


def differences(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[tuple[str, Any, Any]]:
    """The facets whose value differs, as ``(facet, before, after)`` (None: absent)."""
    old, new = facets(before), facets(after)
    found = []
    for path in sorted(set(old) | set(new)):
        if old.get(path) == new.get(path):
            continue
        hook = HOOK_WHERE.match(path)
        group = hook.group(0) + ".runs" if hook else ""
        if hook and path != group and (group not in old or group not in new):
            continue  # hooks that ran on one side only: their runs say it
        found.append((path, old.get(path), new.get(path)))
    return found


def group_key(path: str, before: Any, after: Any) -> tuple[str, str]:
    """What makes two scenarios' changes one change: the facet's pattern and, for a
    value every scenario shows alike, the values too (else the values are the
    scenario's own, and the key is the pattern with the scenario's id added later)."""
    if SHARED.search(pattern(path)):
        shown = (
            ("present" if before is not None else "absent")
            + ">"
            + ("present" if after is not None else "absent")
            if (".payload." in path or ".env." in path) and (before is None or after is None)
            else json.dumps([before, after])
        )
        return pattern(path), shown
    return pattern(path), ""


def spans(
    records: Mapping[str, Mapping[str, Any]], digests: Mapping[str, str]
) -> list[dict[str, Any]]:
    """Every change between neighbouring stored releases of a scenario: its scenario,
    facet, values, and the two releases around it (``low`` did not have it, ``high`` did)."""
    names = all_releases()
    found = []
    for sid, fingerprint in digests.items():
        having = [
            v
            for v in records
            if sid in records[v] and records[v][sid].get("scenario") == fingerprint
        ]
        for low, high in itertools.pairwise(having):
            for path, before, after in differences(records[low][sid], records[high][sid]):
                found.append(
                    {
                        "scenario": sid,
                        "facet": path,
                        "before": before,
                        "after": after,
                        "low": low,
                        "high": high,
                        "width": names.index(high) - names.index(low),
                        "key": group_key(path, before, after),
                        "pattern": pattern(path),
                    }
                )
    return found


def _inside(inner: Mapping[str, Any], outer: Mapping[str, Any]) -> bool:
    """Whether ``inner``'s span lies within ``outer``'s and is narrower."""
    return (
        inner["width"] < outer["width"]
        and release_key(outer["low"]) <= release_key(inner["low"])
        and release_key(inner["high"]) <= release_key(outer["high"])
    )


def same_change(change: Mapping[str, Any]) -> tuple[str, str]:
    """What makes changes of several scenarios one change for bisection: the facet's
    pattern and its values (``group_key``'s for a fact every scenario shows alike, else
    the values themselves: a tool_result text that changed from A to B in two scenarios
    changed once, a different text may have changed in another release)."""
    shown = change["key"][1] or json.dumps([change["before"], change["after"]])
    return change["pattern"], shown


def covered(change: Mapping[str, Any], others: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the same change (``same_change``: another scenario's, or another hook's) is
    bisected more narrowly inside this one's span: this one is then taken to come from
    the same release (said as ``sinceFrom`` in the changelog)."""
    mine = same_change(change)
    return any(same_change(other) == mine and _inside(other, change) for other in others)


def unrunnable() -> dict[str, str]:
    """The releases the sweep tried and could not run, with why (``releases.json``)."""
    known = json.loads(RUNS.read_text(encoding="utf-8")) if RUNS.exists() else {}
    return {v: str(e.get("reason", "")) for v, e in known.items() if e.get("runnable") is False}


def gaps(
    records: Mapping[str, Mapping[str, Any]],
    digests: Mapping[str, str],
    skip: Collection[str] = (),
) -> dict[str, list[str]]:
    """Per release to run next (halfway across a span, ``skip`` left out), the scenarios to
    run there. Each span's open changes are bisected as ``same_change`` groups them: the
    fewest scenarios that show every change open there. A span whose releases between
    are all in ``skip`` is not run again."""
    names = all_releases()
    found = spans(records, digests)
    open_by_span: dict[tuple[str, str], dict[str, set[tuple[str, str]]]] = {}
    for change in found:
        if change["width"] <= 1 or covered(change, found):
            continue
        by_scenario = open_by_span.setdefault((change["low"], change["high"]), {})
        by_scenario.setdefault(change["scenario"], set()).add(same_change(change))
    wanted: dict[str, set[str]] = {}
    weight: dict[str, int] = {}
    for (low, high), by_scenario in open_by_span.items():
        left: set[tuple[str, str]] = set().union(*by_scenario.values())
        between = [v for v in names[names.index(low) + 1 : names.index(high)] if v not in skip]
        if not between:
            continue  # none of them runs: the changes say so (``unrunnable``)
        middle = between[(len(between) - 1) // 2]
        weight[middle] = weight.get(middle, 0) + sum(_weight(p) for p, _ in left)
        while left:
            sid = max(sorted(by_scenario), key=lambda s: len(by_scenario[s] & left))
            left -= by_scenario[sid]
            wanted.setdefault(middle, set()).add(sid)
    # The release that settles the most hook behaviour first (a time-boxed bisection
    # stops after any of them).
    ordered = sorted(wanted, key=lambda version: (-weight[version], release_key(version)))
    return {version: sorted(wanted[version]) for version in ordered}


def _weight(facet_pattern: str) -> int:
    """How much a change of this pattern says about hooks: an environment variable or a
    payload key counts 1, what a hook did or what its answer changed counts 3."""
    return 1 if re.search(r"\.(env|payload)\.", facet_pattern) else 3


def environment_note() -> str:
    """The node and npm the sweep ran with."""
    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    npm = subprocess.run(["npm", "--version"], capture_output=True, text=True).stdout.strip()
    return f"node {node}, npm {npm}, {os.cpu_count()} cores"


# -- the measured changelog ----------------------------------------------------------------------

LEDGER = HERE.parents[1] / "hookcourse" / "data" / "claude_versions.json"
"""The rules as the package reads them (``hookcourse versions``, ``--claude-version``)."""
CHANGES = VERSIONS / "changes.json"
"""Every measured change, per scenario and facet."""


def measured_changes(
    records: Mapping[str, Mapping[str, Any]], digests: Mapping[str, str]
) -> list[dict[str, Any]]:
    """Each change with the release that first showed it (``since``), the stored release
    before (``previous``), whether the two are consecutive on npm (``exact``), and, for a
    change whose release was found on another scenario's same change (``same_change``),
    that scenario (``sinceFrom``); a change whose releases between did not run,
    each with why (``unrunnable``)."""
    names, failed = all_releases(), unrunnable()
    found = spans(records, digests)
    alike: dict[tuple[str, str], list[Mapping[str, Any]]] = {}
    for change in found:
        alike.setdefault(same_change(change), []).append(change)
    changes = []
    for change in sorted(found, key=lambda c: (release_key(c["high"]), c["scenario"], c["facet"])):
        entry = {
            "scenario": change["scenario"],
            "facet": change["facet"],
            "before": change["before"],
            "after": change["after"],
            "since": change["high"],
            "previous": change["low"],
            "exact": change["width"] == 1,
        }
        if change["width"] > 1:
            narrow = sorted(
                (other for other in alike[same_change(change)] if _inside(other, change)),
                key=lambda other: (other["width"], other["scenario"]),
            )
            if narrow:
                # Not bisected on this scenario: the same change's narrowest span inside
                # its span says the release.
                entry.update(since=narrow[0]["high"], previous=narrow[0]["low"])
                entry["exact"] = narrow[0]["width"] == 1
                entry["sinceFrom"] = narrow[0]["scenario"]
        between = names[names.index(str(entry["previous"])) + 1 : names.index(str(entry["since"]))]
        if between and all(v in failed for v in between):
            # Bisection cannot narrow it: every release between did not run.
            entry["unrunnable"] = {v: failed[v] for v in between}
        changes.append(entry)
    return changes


def _events_of(scenario: Mapping[str, Any]) -> set[str]:
    """The hook events a scenario is about (its ``covers`` tags that name one)."""
    return {tag.split(".")[0] for tag in scenario.get("covers", []) if tag[:1].isupper()}


def rules_of(
    changes: Sequence[Mapping[str, Any]], corpus: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Changes grouped: a shared change (same facet pattern and values) at one release is
    one rule, whatever scenarios showed it; any other change is a rule of its scenario. A
    later change that puts a value back ends the earlier one's rule (``until``)."""
    grouped: dict[tuple[str, str, str, str], dict[str, Any]] = {}
    for change in changes:
        key = group_key(change["facet"], change["before"], change["after"])
        own = "" if key[1] else change["scenario"]
        rule = grouped.setdefault(
            (key[0], key[1], own, change["since"]),
            {
                "kind": "measured",
                "says": describe(key[0], change["before"], change["after"]),
                "events": set(),
                "since": change["since"],
                "previous": change["previous"],
                "exact": change["exact"],
                "facet": key[0],
                "before": change["before"],
                "after": change["after"],
                "scenarios": [],
            },
        )
        hook = re.match(r"^hook\[([^/\]]+)", change["facet"])
        rule["events"] |= (
            {hook.group(1)} if hook else _events_of(corpus.get(change["scenario"], {}))
        )
        if change["scenario"] not in rule["scenarios"]:
            rule["scenarios"].append(change["scenario"])
    found = sorted(grouped.values(), key=lambda r: (release_key(r["since"]), r["facet"], r["says"]))
    for i, rule in enumerate(found):
        for later in found[i + 1 :]:
            if (
                later["facet"] == rule["facet"]
                and later["before"] == rule["after"]
                and later["after"] == rule["before"]
                and set(later["scenarios"]) & set(rule["scenarios"])
            ):
                rule["until"] = later["since"]
                break
        rule["events"] = sorted(rule["events"])
    return found


def arrivals(
    records: Mapping[str, Mapping[str, Any]], changes: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Per event whose hooks the oldest stored release ran in no core scenario (the other
    scenarios of the pinned record were not run on old releases): the first
    stored release where some scenario ran them (its bisected change when there is one)."""
    ordered = list(records)
    core = set(core_ids())
    seen_at: dict[str, str] = {}
    for version in ordered:
        for sid, observation in records[version].items():
            for run in observation.get("hooks") or [] if sid in core else []:
                seen_at.setdefault(str(run["event"]), version)
    found = []
    for event, since in sorted(seen_at.items(), key=lambda item: release_key(item[1])):
        if since == ordered[0]:
            continue
        bisected = [
            c
            for c in changes
            if c["facet"].startswith(f"hook[{event}/")
            and c["facet"].endswith("].runs")
            and c["before"] is None
            and c["since"] == since
        ]
        showing = {
            sid
            for sid, o in records[since].items()
            if sid in core and any(run["event"] == event for run in o.get("hooks") or [])
        }
        previous = _last_before(records, since, showing)
        found.append(
            {
                "kind": "event-arrives",
                "says": f"{event} hooks run (no core scenario ran one before)",
                "events": [event],
                "since": since,
                "previous": previous,
                "exact": release_key(since)[0] - release_key(previous)[0] == 1,
                "facet": f"hook[{event}].runs",
                "before": None,
                "after": "runs",
                "scenarios": sorted({c["scenario"] for c in bisected}),
            }
        )
    return found


def _last_before(records: Mapping[str, Mapping[str, Any]], version: str, sids: set[str]) -> str:
    """The newest stored release before ``version`` that ran any of ``sids`` (a release
    bisection ran on other scenarios says nothing about these)."""
    earlier = [v for v in records if release_key(v) < release_key(version)]
    return next(v for v in reversed(earlier) if sids & set(records[v]))


def flag_hooks_arrival(records: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """When hooks written in ``--settings`` first ran: the harness's probe lives there
    (a PostToolUse hook on every call), so the first stored release where a core
    scenario's probe ran, if the oldest showed none."""
    ordered = list(records)
    core = set(core_ids())

    def probed(version: str) -> bool:
        return any(o.get("probe") for sid, o in records[version].items() if sid in core)

    first = next((version for version in ordered if probed(version)), None)
    if first is None or first == ordered[0]:
        return []
    showing = {sid for sid, o in records[first].items() if sid in core and o.get("probe")}
    previous = _last_before(records, first, showing)
    return [
        {
            "kind": "flag-hooks-arrive",
            "says": "hooks written in --settings run (the harness's PostToolUse probe there "
            "ran in no core scenario before; calls that ran cannot be read before it)",
            "events": [],
            "since": first,
            "previous": previous,
            "exact": release_key(first)[0] - release_key(previous)[0] == 1,
            "facet": "probe",
            "before": None,
            "after": "runs",
            "scenarios": [],
        }
    ]


DENY_SCENARIO = "pre-deny-reason"
"""The scenario whose refused call shows the tool_result text of a PreToolUse JSON deny:
hook ``PreToolUse:Bash``, tool ``Bash``, reason ``no way``."""


def deny_texts(changes: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The tool_result text of a call a PreToolUse hook denied with JSON, per release that
    changed it: the measured texts of ``DENY_SCENARIO`` with the hook, tool and reason
    written as ``{hook}``, ``{tool}``, ``{error}``."""

    def template(text: Any) -> Any:
        if not isinstance(text, str):
            return text
        return (
            text.replace("PreToolUse:Bash", "{hook}")
            .replace("Bash", "{tool}")
            .replace("no way", "{error}")
        )

    return [
        {
            "kind": "deny-text",
            "says": f"a PreToolUse JSON deny reaches the model as {_short(template(c['after']))} "
            f"(was {_short(template(c['before']))})",
            "events": ["PreToolUse"],
            "since": c["since"],
            "previous": c["previous"],
            "exact": c["exact"],
            "facet": "tool[*].result",
            "before": template(c["before"]),
            "after": template(c["after"]),
            "scenarios": [DENY_SCENARIO],
        }
        for c in changes
        if c["scenario"] == DENY_SCENARIO and c["facet"] == "tool[0].result"
    ]


def ledger(
    records: Mapping[str, Mapping[str, Any]],
    corpus: Mapping[str, Mapping[str, Any]],
    runs: Mapping[str, Mapping[str, Any]],
    pinned: str,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The package's rules file and the full change list, from the stored records."""
    # The core scenarios: the others were run on the pinned release alone (and a few on
    # the first release swept, before the core was cut down).
    digests = {sid: digest(corpus[sid]) for sid in core_ids()}
    changes = measured_changes(records, digests)
    arrived = [*flag_hooks_arrival(records), *arrivals(records, changes)]
    denials = deny_texts(changes)
    # A scenario's first run of an event's hooks is that event's arrival: said once.
    said = {(rule["facet"], rule["since"]) for rule in arrived}
    rules = sorted(
        [
            *arrived,
            *(
                rule
                for rule in rules_of(changes, corpus)
                if (rule["before"] is not None or (rule["facet"], rule["since"]) not in said)
                # The deny texts are said once, as the modelled rule.
                and not (DENY_SCENARIO in rule["scenarios"] and rule["facet"] == "tool[*].result")
            ),
            *denials,
        ],
        key=lambda r: (release_key(r["since"]), r["kind"] == "measured", r["facet"]),
    )
    measured = [
        {"version": version, **{k: v for k, v in entry.items() if k != "version"}}
        for version, entry in runs.items()
    ]
    measured.append(
        {"version": pinned, "runnable": True, "runs_with": "the pinned record (oracle.py record)"}
    )
    measured.sort(key=lambda entry: release_key(entry["version"]))
    for entry in measured:
        entry["stored"] = len(records.get(entry["version"], {}))
        entry.pop("scenarios", None)
    package = {
        "about": "Claude Code releases measured by the version sweep; generated by "
        "tests/claude_code/oracle.py changelog from tests/claude_code/observations, do not edit",
        "npm": all_releases(),
        "releases": measured,
        "rules": rules,
    }
    return package, {"about": package["about"], "changes": changes}


def describe(facet: str, before: Any, after: Any) -> str:
    """One sentence for a change of ``facet``."""
    event = _event_of(facet)
    tail = facet.split("].", 1)[1] if "]." in facet else facet
    if tail.startswith("env."):
        state = "get" if after else "no longer get"
        return f"hooks {state} ${tail[4:]} in their environment"
    if tail.startswith("payload."):
        key = tail[8:]
        if before is None:
            return f"payloads carry `{key}`"
        if after is None:
            return f"payloads no longer carry `{key}`"
        return f"payloads' `{key}` is {_short(after)} (was {_short(before)})"
    if tail == "runs":
        if not before:
            return f"{event} hooks run ({after} run{'s' if after != 1 else ''}; none before)"
        if not after:
            return f"{event} hooks do not run (ran {before} before)"
        return f"{event} hooks run {after} times (was {before})"
    if tail in ("exit", "cwd"):
        return f"{event} hooks' {tail} is {_short(after)} (was {_short(before)})"
    if facet.startswith("tool[*]."):
        what = {"result": "text", "isError": "is_error", "structured": "structured form"}
        name = what.get(tail, tail)
        return f"a tool_result's {name} is {_short(after)} (was {_short(before)})"
    if facet.startswith("result."):
        return f"the result line's {facet[7:]} is {_short(after)} (was {_short(before)})"
    names = {
        "requests": "model requests",
        "probe": "the calls that ran",
        "modelTexts": "the hook texts the model is shown",
        "notices": "the user's notices",
    }
    return f"{names.get(facet, facet)}: {_short(after)} (was {_short(before)})"


def _event_of(facet: str) -> str | None:
    found = re.match(r"^hook\[([^/\]]+)", facet)
    return found.group(1) if found and found.group(1) != "*" else None


def _short(value: Any, width: int = 100) -> str:
    """A value as shown in a sentence: JSON, cut at ``width`` (facets that hold JSON text
    are shown as that JSON)."""
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            value = json.loads(value)
    text = json.dumps(value, ensure_ascii=False)
    return "`" + (text if len(text) <= width else text[: width - 1] + "…") + "`"


# -- generated files -----------------------------------------------------------------------------

DOCS = HERE.parents[1] / "docs" / "versions.md"
BEGIN = "<!-- generated by tests/claude_code/oracle.py changelog: do not edit below -->"
OPEN = VERSIONS / "open.json"
"""Per swept release, the scenarios where ``fire --claude-version`` does not agree with its
record yet, and on which fields: the changes not modelled."""


def open_disagreements() -> dict[str, dict[str, list[str]]]:
    """``versions/open.json`` (empty when absent)."""
    if not OPEN.exists():
        return {}
    found: dict[str, dict[str, list[str]]] = json.loads(OPEN.read_text(encoding="utf-8"))
    return found


def write_open(version: str, differ: Mapping[str, list[str]]) -> None:
    """Store one release's open disagreements."""
    known = open_disagreements()
    known[version] = dict(sorted(differ.items()))
    ordered = dict(sorted(known.items(), key=lambda item: release_key(item[0])))
    OPEN.write_text(json.dumps(ordered, indent=1) + "\n", encoding="utf-8")


HEADLINES = (
    ("flag-hooks-arrive", None, None, "Hooks written in `--settings` (a file or inline JSON) run"),
    ("event-arrives", "PostToolUseFailure", None, "PostToolUseFailure hooks run"),
    ("event-arrives", "SubagentStart", None, "SubagentStart hooks run"),
    ("event-arrives", "CwdChanged", None, "CwdChanged hooks run after a `cd`"),
    ("event-arrives", "PostToolBatch", None, "PostToolBatch hooks run after a turn's calls"),
    ("event-arrives", "PermissionRequest", None, "PermissionRequest hooks run in print mode"),
    ("deny-text", None, None, "A PreToolUse JSON deny's reason reaches the model worded as"),
    (
        "measured",
        "perm-ask-rule-hook-allow",
        "tool[*].result",
        "A hook's `allow` no longer lifts an `ask` rule in print mode (the call is refused)",
    ),
    (
        "measured",
        "b-match-comma-spaces",
        "hook[PreToolUse].runs",
        "A matcher list with commas and spaces (`Edit, Bash`) matches the names in it",
    ),
    (
        "measured",
        "several-rewrites-last-wins",
        "tool[*].result",
        "Two hooks' `updatedInput`: the call runs rewritten (before, as the model wrote it)",
    ),
    (
        "measured",
        "start-env",
        "hook[*].env.CLAUDE_ENV_FILE",
        "SessionStart hooks get `$CLAUDE_ENV_FILE`",
    ),
    ("measured", None, "hook[*].payload.tool_use_id", "Tool events' payloads carry `tool_use_id`"),
    (
        "measured",
        "b-match-comma-spaces",
        "result.terminal_reason",
        "The result line carries `terminal_reason`",
    ),
)
"""The changes hook authors most need to know: (rule kind, event or scenario, facet
pattern, what to say); the releases come from the measured rules."""


def headlines(package: Mapping[str, Any]) -> list[str]:
    """One line per headline: what changed, and the measured release(s)."""
    lines = []
    for kind, subject, facet, says in HEADLINES:
        found = [
            rule
            for rule in package["rules"]
            if rule["kind"] == kind
            and (facet is None or rule["facet"] == facet)
            and (subject is None or subject in rule["events"] or subject in rule["scenarios"])
        ]
        if not found:
            lines.append(f"- {says}: no change measured across the releases swept.")
            continue
        said = [
            (f"since {r['since']}" if r["exact"] else f"between {r['previous']} and {r['since']}")
            + (f" {_short(r['after'], 60)}" if kind == "deny-text" else "")
            for r in found
        ]
        releases = "; ".join(dict.fromkeys(said))
        lines.append(f"- {says}: {releases}.")
    return lines


def page(package: Mapping[str, Any]) -> str:
    """The generated part of docs/versions.md: the releases measured, then per release
    what changed."""
    lines = [
        BEGIN,
        "",
        "## Releases measured",
        "",
        "| Release | Runs with | Scenarios stored | Install (s) | Runs (s) |",
        "|---|---|---|---|---|",
    ]
    for entry in package["releases"]:
        runs_with = entry.get("runs_with", "")
        if isinstance(runs_with, dict):
            dropped = ", ".join(f"`{flag}`" for flag in runs_with.get("dropped", []))
            runs_with = runs_with.get("layout", "") + (f"; without {dropped}" if dropped else "")
        if not entry.get("runnable"):
            runs_with = f"not runnable: {entry.get('reason', '')}"
        lines.append(
            f"| {entry['version']} | {runs_with} | {entry.get('stored', 0)} "
            f"| {entry.get('installSeconds', '')} | {entry.get('runSeconds', '')} |"
        )
    lines += [
        "",
        "## The changes hook authors most need to know",
        "",
        "Each with the first release that showed it, or the two stored releases it lies "
        "between where bisection has not reached it yet.",
        "",
        *headlines(package),
        "",
        "## What changed, release by release",
        "",
    ]
    shown = ""
    for rule in package["rules"]:
        if rule["since"] != shown:
            shown = rule["since"]
            where = (
                f"first seen in {rule['since']} (the release before: {rule['previous']})"
                if rule["exact"]
                else f"between {rule['previous']} and {rule['since']} (not bisected yet)"
            )
            lines += ["", f"### {rule['since']}", "", where, ""]
        events = ", ".join(rule["events"]) or "any event"
        until = f" Until {rule['until']}." if rule.get("until") else ""
        modelled = " Modelled by `fire --claude-version`." if rule["kind"] != "measured" else ""
        scenarios = ", ".join(f"`{sid}`" for sid in rule["scenarios"][:4])
        more = f" and {len(rule['scenarios']) - 4} more" if len(rule["scenarios"]) > 4 else ""
        shown_in = f" Seen in {scenarios}{more}." if scenarios else ""
        lines.append(f"- {rule['says']} ({events}).{until}{modelled}{shown_in}")
    return "\n".join(lines) + "\n"


def generated(corpus: Mapping[str, Mapping[str, Any]], write: bool) -> list[Path]:
    """Regenerate the package's rules, the change list and the page's generated part from
    the stored records; the files that were not current (written when ``write``)."""
    from oracle_binary import pinned_version

    runs = json.loads(RUNS.read_text(encoding="utf-8")) if RUNS.exists() else {}
    package, changes = ledger(stored(), corpus, runs, pinned_version())
    head = DOCS.read_text(encoding="utf-8").split(BEGIN)[0] if DOCS.exists() else ""
    wanted = {
        LEDGER: json.dumps(package, indent=1) + "\n",
        CHANGES: json.dumps(changes, indent=1) + "\n",
        DOCS: head + page(package),
    }
    stale = []
    for path, text in wanted.items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(path)
            if write:
                path.write_text(text, encoding="utf-8")
    return stale


def replay_releases(
    predict: Callable[[Mapping[str, Any]], Mapping[str, Any]],
    corpus: Mapping[str, Mapping[str, Any]],
    records: Mapping[str, Mapping[str, Any]],
) -> dict[str, dict[str, list[str]]]:
    """``fire --claude-version X`` against the stored observations of each release X in
    ``records``: per release, each scenario's disagreeing fields. ``predict`` answers a
    scenario carrying ``claudeVersion``; a prediction depends on the release only through
    the modelled rules that hold there and concern the scenario, so each distinct answer
    is predicted once."""
    from oracle_compare import compare, disagreements

    from hookcourse.engine import versions

    modelled = [rule for rule in versions.rules() if rule.kind in versions.MODELLED]
    predicted: dict[tuple[str, tuple[bool, ...]], Mapping[str, Any]] = {}
    found: dict[str, dict[str, list[str]]] = {}
    for version, record in records.items():
        found[version] = {}
        for sid, observed in record.items():
            if sid not in corpus or observed.get("scenario") != digest(corpus[sid]):
                continue
            text = json.dumps(corpus[sid])
            signature = tuple(
                versions.holds(rule, version) for rule in modelled if _concerns(rule, text)
            )
            if (sid, signature) not in predicted:
                predicted[sid, signature] = predict({**corpus[sid], "claudeVersion": version})
            differ = disagreements(compare(corpus[sid], predicted[sid, signature], observed))
            if differ:
                found[version][sid] = sorted(differ)
    return found


def _concerns(rule: Any, scenario_text: str) -> bool:
    """Whether a modelled rule can change the prediction of a scenario (its JSON text): an
    event's arrival if the scenario names the event, ``--settings`` hooks if it has flag
    settings, the deny wording if a hook answers deny or block."""
    if rule.kind == "event-arrives":
        return f'"{rule.events[0]}"' in scenario_text
    if rule.kind == "flag-hooks-arrive":
        return '"flag"' in scenario_text
    if rule.kind == "deny-text":
        return '"deny"' in scenario_text or '"block"' in scenario_text
    return True
