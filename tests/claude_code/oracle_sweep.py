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

from generated_files import between_markers, not_current
from oracle_compare import hook_part, looped, unjoined
from oracle_observe import observe
from oracle_record import OBSERVATIONS, UUID, digest, stable
from oracle_scenario import DEFAULT_PROMPT, lay_out, run_claude, scratch

from hookcourse.engine.reading import looks_like_json
from hookcourse.engine.versions import character_names, text_form
from hookcourse.stages.matcher_and_dispatch.reference import RuleSet, exact_names

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
    # Live checks outside the core (versions/live/) found changes in these.
    "match-hyphen-name-part": "a hyphenated MCP server name in a matcher",
    "match-list-spaces": "a matcher list with spaces",
    "several-two-contexts": "two PreToolUse hooks' contexts",
    "b-start-two-contexts": "two SessionStart hooks' contexts",
    "x-cf-instructions": "InstructionsLoaded",
    "tk-create-complete": "the task tools' events",
    "ups-cancel-sibling": "UserPromptSubmit's exit 2 beside a slow sibling",
    "stop-block-no-reason": "a Stop block without a reason",
    "stop-context": "a Stop hook's context",
    "x-subagent-stop-context": "a SubagentStop hook's context",
    "settings-unknown-event": "an unknown event name beside a known one",
    "x-pushd-sub": "CwdChanged beside PreToolUse in one file",
    "hidden-slash-command-expansion": "UserPromptExpansion beside UserPromptSubmit in one file",
    "pre-exit2-json-allow": "exit 2 beside a JSON allow",
    "pre-continue-false-deny": "continue:false beside a deny",
    "mode-plan-edit": "plan mode's refusal",
    "stop-cap-reset-by-tool": "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP",
    "stop-cap-default": "a Stop hook that always blocks, no cap set",
    "hidden-stop-missing-script-sh": "a Stop hook whose script is missing (sh exits 2)",
    "hidden-skill-with-hooks-needs-rule": "a Skill call refused for permission",
    "el-hook-accepts": "an MCP allow rule in --settings, and Elicitation",
    "wt-start-hook-exit2": "--worktree and WorktreeCreate",
    "setup-maintenance": "--maintenance",
    "pd-retry-no-verdict": "--permission-mode auto and PermissionDenied",
    "pd-auto-no-verdict-fetch": "auto mode's refusal of a call that writes nothing",
    "pre-legacy-block-no-reason": "a legacy block without a reason",
    "perm-mode-dont-ask-echo": "--permission-mode dontAsk",
    "wt-enter-tool": "the EnterWorktree tool",
    "pre-exit2-json-deny": "exit 2 beside a JSON deny",
    "perm-user-allow": "an allow rule written as a whole compound command",
    "hidden-env-file": "a Bash command holding a variable: its refusal",
    "perm2-shell-compound": "compound Bash commands' refusals, part by part",
    "x-write-new-rule": "a Write of a new file and the rules files it loads",
    "hidden-readonly-mix": "read-only commands mixed with a parse error",
    "hidden-readonly-mix-2": "read-only commands mixed, a second set",
    "x-rule-once": "a Read loading a rules file (InstructionsLoaded)",
    "x-nested-once": "a Read loading a nested CLAUDE.md (InstructionsLoaded)",
    "x-write-new-claude-md": "a Write of a new CLAUDE.md (InstructionsLoaded)",
    "x-edit-claude-md": "an Edit of a loaded CLAUDE.md (InstructionsLoaded)",
    "perm2-shell-unchecked": "Bash commands the permission step cannot check",
    "b-batch-two-contexts": "two PostToolBatch hooks' contexts",
    "x-pushd-popd": "pushd and popd in one command: its refusal",
    "perm2-shell-two-parts": "a compound with two parts needing approval: its refusal",
    "perm2-shell-two-parts-mixed": "a compound's parts needing approval for other reasons",
    "perm2-shell-two-parts-checks": "a compound's parts beside checks on the whole command",
    "perm2-shell-quoted-variable": "a variable in double quotes in a command reading files",
    "perm2-auto-static-checks": "auto mode beside the checks on what a command holds",
    "perm2-accept-edits-shell": "acceptEdits and the shell commands writing inside the project",
    "hidden-prompt-context": "UserPromptSubmit's plain stdout and JSON context",
    "b-perm-deny-edit-path-on-write": "a deny Edit rule on a Write's path: its wording",
    "perm-project-allow-untrusted": "a project's allow rule in an untrusted folder",
    "x-cd-other-add-dir": "cd into a folder given with --add-dir",
    "x-subagent-stop-block-json": "a SubagentStop block's text for the model",
    "perm2-shell-writes": "Bash commands writing files: each verb's refusal words",
    "x-cd-other-add-dir-trusted": "cd into a trusted project's additionalDirectories",
    "hidden-flag-max-turns": "--max-turns beside a Stop hook that keeps blocking",
    "pd-plan-no-verdict": "plan mode's refusal of a removal outside the project",
    "x-cf-sessionstart": "a SessionStart JSON answer with continue:false",
    "x-cd-parent-allowed-tools": "cd out of the project under a whole-tool allow rule",
    "ups-invalid-json": "UserPromptSubmit stdout that looks like JSON but does not parse",
    "perm2-bash-read-deny-head": "a Read deny rule on Bash reads and an input redirection",
    "perm2-shell-read-only-edges": "printf, quoted variables, assignments, a redirection's part",
    "x-cd-parent-allowed-tools-auto": "cd out of the project, Bash allowed whole, in auto mode",
    "settings-disable-all-flag": "disableAllHooks in --settings",
    "x-cd-local-add-dir": "cd into a folder the local settings add, untrusted",
    "flag-disallowed-legacy-name": "a tool --disallowedTools removes, by its legacy name",
}
"""Scenarios the core takes beside the greedy cover: changes users reported, and what live
checks outside the core found changing."""
AVOID: dict[str, str] = {}
"""Scenarios the greedy cover leaves out, with why (none now: a run that loops until the
time limit, once avoided, is taken, its counts masked by ``facets``)."""
BASELINE = "pre-deny-reason"
"""A core scenario every release measured started (a PreToolUse deny): run when none of a
step's runs started, to tell a release that does not run from runs that stop early."""
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
    return with_also(picked)


def with_also(core: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """``core`` with the ``ALSO`` scenarios it lacks appended, in ``ALSO``'s order."""
    taken = {item["id"] for item in core}
    kept = [dict(item) for item in core]
    return kept + [{"id": sid, "why": why} for sid, why in ALSO.items() if sid not in taken]


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
    if not started_runs and BASELINE not in done:
        # Every run asked may stop before the model on a release that runs (a flag it
        # does not know, a WorktreeCreate hook's exit 2): one run that starts on every
        # release measured says whether the release itself runs.
        try:
            baseline = Install(version)
            baseline.install()
            try:
                seen, said = observe_release(str(baseline.wrapper), corpus[BASELINE])
            finally:
                baseline.remove()
        except (subprocess.SubprocessError, OSError) as error:
            seen, said = {"requests": 0, "result": {}}, f"{type(error).__name__}: {error}"
        if _started(seen):
            done[BASELINE] = (seen, said)
            started_runs = [BASELINE]
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
    if entry.get("runnable"):
        merged.pop("reason", None)  # a release that ran is no longer "not runnable"
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
    # A run the time limit stopped mid-loop: how often it went round is the limit's, so
    # counts read as "loop" and texts and exits as the distinct ones seen.
    loop = looped(observation)
    found: dict[str, Any] = {"requests": "loop" if loop else observation.get("requests")}
    for key, value in sorted((observation.get("result") or {}).items()):
        found[f"result.{key}"] = value
    for i, tool in enumerate(observation.get("tools") or []):
        for key in ("result", "isError", "structured"):
            found[f"tool[{i}].{key}"] = tool.get(key)
    found["probe"] = json.dumps(observation.get("probe"), sort_keys=True)
    # Sorted: texts of hooks that ran in parallel come in the order they finished, which
    # differs from run to run (the comparison sorts them too).
    # Each text without what the release appended after the hook's part (its skills,
    # agent types, tokens left: oracle_compare.hook_part), which is no hook behaviour.
    texts = observation.get("modelTexts")
    parts = unjoined(hook_part(str(t)) for t in texts) if isinstance(texts, list) else texts
    if loop and isinstance(parts, list):
        parts = list(set(parts))
    found["modelTexts"] = json.dumps(sorted(parts) if isinstance(parts, list) else parts)
    notices = observation.get("notices")
    if loop and isinstance(notices, list):
        notices = sorted({json.dumps(n, sort_keys=True) for n in notices})
    found["notices"] = json.dumps(notices)
    runs: dict[str, list[Mapping[str, Any]]] = {}
    for run in observation.get("hooks") or []:
        runs.setdefault(f"hook[{run['event']}/{run['hook']}]", []).append(run)
    for where, group in runs.items():
        exits = sorted(str(run["exit"]) for run in group)
        if loop:
            exits = sorted(set(exits) - {"None"})
        found[f"{where}.runs"] = "loop" if loop else len(group)
        found[f"{where}.exit"] = json.dumps(exits)
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
            # Only the same change (another scenario's different tool_result or model text
            # says nothing of this one's), as bisection itself groups them.
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


def reason_arrival(records: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """When the result line first carried ``terminal_reason``: the first stored release
    where a core scenario's result line has one, if the oldest showed none."""
    return _first_showing(
        records,
        lambda o: o["result"].get("terminal_reason") is not None,
        kind="reason-arrives",
        says="the result line carries `terminal_reason` (no core scenario's had one "
        "before; a run's end reason cannot be read before it)",
        facet="result.terminal_reason",
    )


def _first_showing(
    records: Mapping[str, Mapping[str, Any]],
    shows: Callable[[Mapping[str, Any]], bool],
    **rule: str,
) -> list[dict[str, Any]]:
    """A rule (``kind``, ``says``, ``facet``) arriving at the first stored release where a
    core scenario's observation ``shows`` it, if the oldest showed it nowhere; the
    release before is the newest stored one that ran any of those scenarios."""
    ordered = list(records)
    core = set(core_ids())

    def showing(version: str) -> set[str]:
        return {sid for sid, o in records[version].items() if sid in core and shows(o)}

    first = next((version for version in ordered if showing(version)), None)
    if first is None or first == ordered[0]:
        return []
    previous = _last_before(records, first, showing(first))
    return [
        {
            **rule,
            "events": [],
            "since": first,
            "previous": previous,
            "exact": release_key(first)[0] - release_key(previous)[0] == 1,
            "before": None,
            "after": "shown",
            "scenarios": sorted(showing(first)),
        }
    ]


ENV_FACET = re.compile(r"^hook\[\*\]\.env\.")
"""The facets of a variable hooks get in their environment: each change of one is an
``env-var`` rule (``fire --claude-version`` exports the variable only where the last
change before the release says it arrived)."""


PAYLOAD_FACET = re.compile(r"^hook\[\*\]\.payload\.")


def _presence_kind(rule: Mapping[str, Any]) -> str:
    """``env-var`` for a change of a hook variable, ``payload-key`` for a payload key that
    came or went (both modelled per name), ``measured`` otherwise."""
    if ENV_FACET.match(rule["facet"]):
        return "env-var"
    presence = rule["before"] is None or rule["after"] is None
    if PAYLOAD_FACET.match(rule["facet"]) and presence:
        return "payload-key"
    return str(rule["kind"])


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


NARROW_EXACT = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_|")
"""The characters exact names held in the first releases (FileChanged's still)."""


def exact_chars_arrivals(
    changes: Sequence[Mapping[str, Any]], corpus: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """The releases from which exact names could hold more characters: per core matcher
    scenario whose matcher is exact names now but holds characters beyond the first
    releases' set (letters, digits, ``_``, ``|``), the first release from which its hooks
    ran as they do now (before, the matcher was a regular expression); each release
    gets the characters no earlier release explains."""
    found: dict[str, list[Mapping[str, Any]]] = {}
    for change in changes:
        scenario = corpus.get(change["scenario"], {})
        matcher = _matcher_of(scenario)
        if (
            matcher is None
            or not any(tag.startswith("matcher") for tag in scenario.get("covers", []))
            or exact_names(matcher, RuleSet.CLAUDE_CODE) is None
            or set(matcher) <= NARROW_EXACT
            or not HOOK_RUNS.match(change["facet"])
        ):
            continue
        found.setdefault(change["scenario"], []).append(change)
    explained: set[str] = set()
    rules: list[dict[str, Any]] = []
    # The last change of each scenario's hook runs is the one that made them as now.
    lasts = sorted(
        (max(seen, key=lambda c: release_key(c["since"])) for seen in found.values()),
        key=lambda c: release_key(c["since"]),
    )
    for last in lasts:
        matcher = str(_matcher_of(corpus[last["scenario"]]))
        chars = "".join(sorted(set(matcher) - NARROW_EXACT - explained))
        tool = corpus[last["scenario"]].get("turns", [{}])[0].get("tools", [{}])[0].get("name")
        fired = f"fired on {tool}" if last["before"] else f"did not fire on {tool}"
        same = next((r for r in rules if r["since"] == last["since"]), None)
        if same is not None:
            same["after"] = "".join(sorted(set(same["after"]) | set(chars)))
            same["scenarios"] = sorted({*same["scenarios"], last["scenario"]})
        elif chars:
            rules.append(
                {
                    "kind": "matcher-exact-chars",
                    "says": "",
                    "events": sorted({str(_event_of(pattern(last["facet"])))}),
                    "since": last["since"],
                    "previous": last["previous"],
                    "exact": last["exact"],
                    "facet": "matcher",
                    "before": None,
                    "after": chars,
                    "scenarios": [last["scenario"]],
                    "example": f"`{matcher}` {fired}",
                }
            )
        explained |= set(chars)
    for rule in rules:
        names = character_names(rule["after"])
        rule["says"] = (
            f"exact names in a matcher can hold {names} (before, a matcher with them was a "
            f"regular expression, tested unanchored: {rule.pop('example')})"
        )
    return rules


MATCHER = re.compile(r'"matcher": "((?:[^"\\]|\\.)*)"')
"""A matcher written in a scenario's JSON text."""


def _matcher_of(scenario: Mapping[str, Any]) -> str | None:
    """The first matcher a scenario's settings write."""
    found = re.search(r'"matcher": ("(?:[^"\\]|\\.)*")', json.dumps(scenario))
    return None if found is None else str(json.loads(found.group(1)))


def text_forms(
    records: Mapping[str, Mapping[str, Any]],
    said: Iterable[tuple[str, str]] = (),
    sids: Iterable[str] | None = None,
) -> list[dict[str, Any]]:
    """When each form of an event's hook text came to the model or left it: for each core
    scenario and each two neighbouring stored releases where the event's hooks ran as
    often on both sides, a form shown on one side only is a change of the release (a
    text that went because the hooks stopped running is the hooks' change, not the
    text's). Changes of one form and direction whose spans overlap are one change, at
    the narrowest span. Forms in ``said`` are left out (another rule says them)."""

    def forms(observation: Mapping[str, Any]) -> set[tuple[str, str]]:
        # A hook's stdout that only looks like JSON is another rule's (json-like-arrives).
        texts = [str(text) for text in observation.get("modelTexts") or []]
        found = (text_form(text) for text in texts if not looks_like_json(text.partition(": ")[2]))
        return {form for form in found if form is not None}

    def runs(observation: Mapping[str, Any], event: str) -> int:
        return sum(1 for run in observation.get("hooks") or [] if run["event"] == event)

    spans_of: dict[tuple[str, str, bool], list[tuple[str, str, str]]] = {}
    for sid in core_ids() if sids is None else sids:
        having = [v for v in records if sid in records[v]]
        for low, high in itertools.pairwise(having):
            before, after = records[low][sid], records[high][sid]
            for form in forms(before) ^ forms(after):
                count = runs(before, form[0])
                if count and count == runs(after, form[0]):
                    spans_of.setdefault((*form, form in forms(after)), []).append((low, high, sid))
    found = []
    for (event, form, shown), spans in spans_of.items():
        if (event, form) in set(said):
            continue  # a modelled rule of its own says it
        merged: list[list[Any]] = []
        for low, high, sid in sorted(spans, key=lambda span: release_key(span[1])):
            last = merged[-1] if merged else None
            if last is not None and release_key(low) < release_key(last[1]):
                # Overlapping: one change, in the span both show it.
                last[0] = max(last[0], low, key=release_key)
                last[1] = min(last[1], high, key=release_key)
                last[2].add(sid)
            else:
                merged.append([low, high, {sid}])
        for low, high, sids in merged:
            state = "shown to the model" if shown else "no longer shown to the model"
            found.append(
                {
                    "kind": "text-form",
                    "says": f"{event} hooks' `{form}` texts are {state}",
                    "events": [event],
                    "since": high,
                    "previous": low,
                    "exact": release_key(high)[0] - release_key(low)[0] == 1,
                    "facet": f"modelTexts[{event}/{form}]",
                    "before": None if shown else "shown",
                    "after": "shown" if shown else None,
                    "scenarios": sorted(sids),
                }
            )
    return found


CONTEXT_TEXT = re.compile(r"^(\w+)(?::\S*)? hook additional context: (.*)$", re.S)
"""A hook's additionalContext as the model is shown it: the event and the text."""


def context_join_arrivals(records: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """When an event's hooks' additionalContexts came to the model as one text joined with
    newlines instead of one text each: for each core scenario, the neighbouring stored
    releases where two or more texts of the event became one holding them all."""

    def contexts(observation: Mapping[str, Any]) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for text in observation.get("modelTexts") or []:
            match = CONTEXT_TEXT.match(hook_part(str(text)))
            if match is not None:
                found.setdefault(match.group(1), []).append(match.group(2))
        return found

    first: dict[str, tuple[str, str, set[str]]] = {}
    for sid in core_ids():
        having = [v for v in records if sid in records[v]]
        for low, high in itertools.pairwise(having):
            before, after = contexts(records[low][sid]), contexts(records[high][sid])
            for event, texts in before.items():
                joined = after.get(event, [])
                if (
                    len(texts) > 1
                    and len(joined) == 1
                    and sorted(joined[0].split("\n")) == sorted("\n".join(texts).split("\n"))
                ):
                    seen = first.get(event)
                    if seen is None or release_key(high) < release_key(seen[1]):
                        first[event] = (low, high, {sid})
                    elif seen[1] == high:
                        seen[2].add(sid)
    return [
        {
            "kind": "contexts-joined",
            "says": f"several {event} hooks' additionalContexts reach the model as one text, "
            "joined with newlines (before, one text each)",
            "events": [event],
            "since": high,
            "previous": low,
            "exact": all_releases().index(high) - all_releases().index(low) == 1,
            "facet": f"modelTexts[{event}/joined]",
            "before": "one each",
            "after": "joined",
            "scenarios": sorted(sids),
        }
        for event, (low, high, sids) in sorted(first.items())
    ]


def exit2_cancel_arrivals(
    changes: Sequence[Mapping[str, Any]], corpus: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """When a hook's exit 2 came to cancel its siblings still running: per core scenario
    covering an event's exit 2, the first release where one of its hooks that ran to an
    exit was left unfinished (its exit None) by the same run."""
    first: dict[str, dict[str, Any]] = {}
    for change in changes:
        scenario = corpus.get(change["scenario"], {})
        if not any(tag.endswith(".exit2") for tag in scenario.get("covers", [])):
            continue
        if not change["facet"].endswith(".exit") or change["after"] != '["None"]':
            continue
        if change["before"] in (None, '["None"]'):
            continue
        event = str(_event_of(change["facet"]))
        seen = first.get(event)
        if seen is None or release_key(change["since"]) < release_key(seen["since"]):
            first[event] = dict(change)
    return [
        _event_arrival(
            "exit2-cancels",
            change,
            f"a {event} hook's exit 2 cancels its sibling hooks still running (before, they "
            "ran to their end)",
            f"hook[{event}/*].exit",
            ("run to their end", "cancelled"),
        )
        for event, change in sorted(first.items())
    ]


def _event_arrival(
    kind: str, change: Mapping[str, Any], says: str, facet: str, states: tuple[str, str]
) -> dict[str, Any]:
    """The rule of one event's arrival of ``kind``, at the release ``change`` found it."""
    event = facet.split("[", 1)[1].split("/", 1)[0]
    return {
        "kind": kind,
        "says": says,
        "events": [event],
        "since": change["since"],
        "previous": change["previous"],
        "exact": change["exact"],
        "facet": facet,
        "before": states[0],
        "after": states[1],
        "scenarios": [change["scenario"]],
    }


def stop_context_arrivals(
    changes: Sequence[Mapping[str, Any]], corpus: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """When a Stop or SubagentStop hook's additionalContext came to keep the turn going:
    per core scenario covering ``<event>.additionalContext``, the first release whose
    model texts held the event's context (before, the turn ended and no model read it)."""
    first: dict[str, Mapping[str, Any]] = {}
    for change in changes:
        covers = corpus.get(change["scenario"], {}).get("covers", [])
        for event in ("Stop", "SubagentStop"):
            said = f"{event} hook additional context: "
            if (
                f"{event}.additionalContext" in covers
                and change["facet"] == "modelTexts"
                and said not in str(change["before"])
                and said in str(change["after"])
            ):
                seen = first.get(event)
                if seen is None or release_key(change["since"]) < release_key(seen["since"]):
                    first[event] = change
    return [
        _event_arrival(
            "stop-context-continues",
            change,
            f"a {event} hook's additionalContext keeps the turn going, the model reading it "
            "(before, the turn ended and no model read it)",
            f"modelTexts[{event}/additional context]",
            ("ends", "continues"),
        )
        for event, change in sorted(first.items())
    ]


SAYS = re.compile(r"^[A-Za-z]+(?::\S*)? says: ")
"""A hook's systemMessage as print mode shows it to the user."""


def notice_arrival(records: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """When print mode first showed the user a hook's ``systemMessage`` (``<hook> says:
    ...``): the first stored release where a core scenario's notices hold one, if the
    oldest showed none."""
    return _first_showing(
        records,
        lambda o: any(SAYS.match(str(notice)) for notice in o.get("notices") or []),
        kind="notice-arrives",
        says="print mode shows the user a hook's `systemMessage` (`<hook> says: ...`)",
        facet="notices",
    )


DECISION = re.compile(r'"permissionDecision": "(\w+)"')


def decision_arrivals(
    records: Mapping[str, Mapping[str, Any]], corpus: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """When a PreToolUse hook's ``permissionDecision`` came to decide a call in print mode
    as it does in the newest release: per core scenario whose hook answers one decision
    (and, apart, one whose hook allows under an ``ask`` rule), the calls the newest
    release did not run are read on every stored release (ran, and the tool_result); the
    first release from which they stay as the newest has them is where the decision
    arrived, if on some release before it such a call ran. Scenarios of one decision
    whose spans overlap give the span both show."""
    from oracle_compare import tools_ran

    ordered = list(records)
    newest = ordered[-1]
    spans_of: dict[tuple[str, str], list[tuple[str, str, str]]] = {}
    went_on: set[tuple[str, str]] = set()
    for sid in core_ids():
        text = json.dumps(corpus.get(sid, {}))
        decisions = set(DECISION.findall(text))
        hooks = (corpus.get(sid, {}).get("hooks") or {}).values()
        if any(isinstance(hook, dict) and hook.get("exit") == 2 for hook in hooks):
            # An exit 2 refuses the call whatever the JSON beside it says (exit2-over-json).
            continue
        if "output.hookEventName" in corpus.get(sid, {}).get("covers", []):
            # A JSON answer whose hookSpecificOutput names another event.
            kind, decision = "mismatch-keeps-decision", "block"
        elif len(decisions) == 1:
            decision = decisions.pop()
            kind = "ask-rule-over-allow" if '"ask": [' in text else "decision-arrives"
            if kind == "ask-rule-over-allow" and decision != "allow":
                continue
        else:
            continue
        if sid not in records[newest]:
            continue

        def calls(observation: Mapping[str, Any], which: list[int]) -> list[Any]:
            ran = tools_ran(observation)
            tools = observation["tools"]
            return [(ran[i], tools[i].get("result")) if i < len(tools) else None for i in which]

        last = records[newest][sid]
        refused = [i for i, ran in enumerate(tools_ran(last)) if not ran]
        having = [v for v in ordered if sid in records[v]]
        now = calls(last, refused)
        since = next(
            (
                v
                for i, v in enumerate(having)
                if all(calls(records[w][sid], refused) == now for w in having[i:])
            ),
            None,
        )
        if not refused or since is None or since == having[0]:
            continue
        previous = having[having.index(since) - 1]
        spans_of.setdefault((kind, decision), []).append((previous, since, sid))
        if any(ran for v in having for ran, _ in filter(None, calls(records[v][sid], refused))):
            went_on.add((kind, decision))
    found = []
    for (kind, decision), spans in spans_of.items():
        if (kind, decision) not in went_on:
            continue  # always decided (only its wording changed: other rules say that)
        low = max((span[0] for span in spans), key=release_key)
        high = min((span[1] for span in spans), key=release_key)
        if release_key(high) <= release_key(low):
            high = max((span[1] for span in spans), key=release_key)
        says = {
            "decision-arrives": f'a PreToolUse hook\'s `"{decision}"` decides the call in '
            "print mode (before, the call went on as if the hook had not answered)",
            "ask-rule-over-allow": "an `ask` rule still stops a call a PreToolUse hook "
            "allowed, in print mode (before, the hook's allow lifted it)",
            "mismatch-keeps-decision": "a top-level `decision` still decides beside a "
            "`hookSpecificOutput` naming another event (before, the whole answer was "
            "ignored and the call went on)",
        }[kind]
        found.append(
            {
                "kind": kind,
                "says": says,
                "events": ["PreToolUse"],
                "since": high,
                "previous": low,
                "exact": release_key(high)[0] - release_key(low)[0] == 1,
                "facet": "tool[*].result",
                "before": None,
                "after": decision,
                "scenarios": sorted(span[2] for span in spans),
            }
        )
    return found


DECIDING_FIELDS = frozenset(
    {
        "additionalContext",
        "permissionDecision",
        "permissionDecisionReason",
        "decision",
        "reason",
        "updatedInput",
    }
)
"""Output fields whose releases other kinds of rule say (text forms, decisions)."""


def field_arrivals(
    records: Mapping[str, Mapping[str, Any]], corpus: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """When an event's output field came to be heeded: per core scenario whose ``covers``
    name an output field of an event (``SessionStart.initialUserMessage``; not the
    deciding fields, which other rules say), the first stored release from which the
    hooks it ran, counted per event, stay as on the newest release, if they differed on
    every release before."""
    from collections import Counter

    from hookcourse.engine.catalogue import get_event

    def counts(observation: Mapping[str, Any]) -> Counter[str]:
        return Counter(str(run["event"]) for run in observation.get("hooks") or [])

    found = []
    for sid in core_ids():
        for tag in corpus.get(sid, {}).get("covers", []):
            event, _, field = tag.partition(".")
            spec = get_event(event)
            names = {item.name for item in spec.output_fields} if spec else set()
            if field in DECIDING_FIELDS or field not in names:
                continue
            having = [v for v in records if sid in records[v]]
            now = counts(records[having[-1]][sid])
            since = next(
                (
                    v
                    for i, v in enumerate(having)
                    if all(counts(records[w][sid]) == now for w in having[i:])
                ),
                None,
            )
            if since is None or since == having[0]:
                continue
            before = having[: having.index(since)]
            if any(counts(records[v][sid]) == now for v in before):
                continue  # not one arrival: it came and went (another change says why)
            previous = before[-1]
            found.append(
                {
                    "kind": "field-arrives",
                    "says": f"{event} hooks' `{field}` is heeded (before, it was ignored)",
                    "events": [event],
                    "since": since,
                    "previous": previous,
                    "exact": release_key(since)[0] - release_key(previous)[0] == 1,
                    "facet": f"output[{event}].{field}",
                    "before": None,
                    "after": field,
                    "scenarios": [sid],
                }
            )
    return found


def prompt_message_arrivals(
    records: Mapping[str, Mapping[str, Any]], corpus: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """When the user was first told why a hook blocked the prompt: per core scenario whose
    prompt the newest release blocks (no request) with a message on the result line, the
    first stored release from which that message stays, if an earlier release blocked
    it with an empty one. The events are the scenario's (its ``covers``)."""
    ordered = list(records)
    newest = ordered[-1]
    found = []
    for sid in core_ids():
        last = records[newest].get(sid)
        if last is None or last["requests"] != 0 or not last["result"].get("result"):
            continue
        having = [v for v in ordered if sid in records[v]]
        said = last["result"]["result"]
        since = next(
            (
                v
                for i, v in enumerate(having)
                if all(records[w][sid]["result"].get("result") == said for w in having[i:])
            ),
            None,
        )
        before = having[: having.index(since)] if since else []
        silent = [
            v
            for v in before
            if records[v][sid]["requests"] == 0 and records[v][sid]["result"].get("result") == ""
        ]
        if not silent:
            continue
        events = sorted(_events_of(corpus.get(sid, {})))
        found.append(
            {
                "kind": "prompt-message-arrives",
                "says": f"a prompt a {' or '.join(events)} hook blocked is explained to the "
                "user on the result line (before, the line's text was empty)",
                "events": events,
                "since": since,
                "previous": before[-1],
                "exact": release_key(str(since))[0] - release_key(before[-1])[0] == 1,
                "facet": "result.result",
                "before": "",
                "after": "shown",
                "scenarios": [sid],
            }
        )
    return found


NO_SUCH_TOOL = re.compile(r"No such tool available: (\w+)</tool_use_error>$")
"""A call's tool_result when the release has no tool of that name."""


def _first_away(
    changes: Sequence[Mapping[str, Any]], refusal: re.Pattern[str]
) -> dict[str, tuple[Mapping[str, Any], re.Match[str], list[str]]]:
    """Per tool (``refusal``'s first group), the earliest change of a call's tool_result
    away from ``refusal``, what it matched, and the scenarios showing it at that release."""
    found: dict[str, tuple[Mapping[str, Any], re.Match[str], list[str]]] = {}
    for change in sorted(changes, key=lambda c: release_key(c["since"])):
        before = refusal.search(str(change["before"]))
        if not (TOOL_WHERE.search(change["facet"]) and change["facet"].endswith(".result")):
            continue
        if before is None or refusal.search(str(change["after"])):
            continue
        first, _, scenarios = found.setdefault(before.group(1), (change, before, []))
        if change["since"] == first["since"] and change["scenario"] not in scenarios:
            scenarios.append(change["scenario"])
    return found


def tool_arrivals(changes: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """When a tool the scripted model calls first existed: per tool, the earliest change of
    a call's tool_result away from "No such tool available: <tool>" (the text refused
    calls got before it, with the tool's name as ``{tool}``)."""
    return [
        {
            "kind": "tool-arrives",
            "says": f"the {tool} tool exists (before, a call to it was refused: no such tool)",
            "events": ["PreToolUse"],
            "since": change["since"],
            "previous": change["previous"],
            "exact": change["exact"],
            "facet": "tool[*].result",
            "before": str(change["before"]).replace(tool, "{tool}"),
            "after": tool,
            "scenarios": scenarios,
        }
        for tool, (change, _, scenarios) in _first_away(changes, NO_SUCH_TOOL).items()
    ]


INPUT_MISSING = re.compile(
    r"InputValidationError: (\w+) failed due to the following issue:\n"
    r"The required parameter `(\w+)` is missing"
)
"""A call refused by the tool's own input check for a parameter it required then."""


def input_field_arrivals(changes: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """When a tool stopped requiring a parameter the scripted calls lack (Skill's
    ``command``, before it took ``skill``): per tool, the earliest change of a call's
    tool_result away from that input check's refusal (with the tool as ``{tool}``)."""
    return [
        {
            "kind": "input-field-arrives",
            "says": f"the {tool} tool no longer requires `{matched.group(2)}` (before, a call "
            "without it was refused by the tool's input check)",
            "events": ["PreToolUse"],
            "since": change["since"],
            "previous": change["previous"],
            "exact": change["exact"],
            "facet": f"tool[{tool}].input.{matched.group(2)}",
            "before": str(change["before"]).replace(f" {tool} failed", " {tool} failed"),
            "after": tool,
            "scenarios": scenarios,
        }
        for tool, (change, matched, scenarios) in _first_away(changes, INPUT_MISSING).items()
    ]


HOOK_RUNS = re.compile(r"^hook\[[^\]]+\]\.runs$")
"""An event's (or one hook's) number of runs."""


BLOCKING = re.compile(r"^PreToolUse:\S+ hook blocking error from command: ")
"""The model text a PreToolUse deny is also shown as, in the releases that showed one."""


def deny_blocking_texts(changes: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """When a PreToolUse JSON deny was also shown to the model as a blocking error (beside
    the refused call's tool_result): the ``modelTexts`` changes of ``DENY_SCENARIO`` that
    add such a text start it, one that takes it away again ends it (``until``)."""

    def shows(texts: Any) -> bool:
        listed = json.loads(texts) if isinstance(texts, str) else texts or []
        return any(BLOCKING.match(str(text)) for text in listed)

    found: list[dict[str, Any]] = []
    for change in changes:
        if change["scenario"] != DENY_SCENARIO or change["facet"] != "modelTexts":
            continue
        if shows(change["after"]) and not shows(change["before"]):
            found.append(
                {
                    "kind": "deny-blocking-text",
                    "says": "a PreToolUse JSON deny is also shown to the model as "
                    '`{hook} hook blocking error from command: "{command}": {reason}`',
                    "events": ["PreToolUse"],
                    "since": change["since"],
                    "previous": change["previous"],
                    "exact": change["exact"],
                    "facet": "modelTexts",
                    "before": None,
                    "after": "shown",
                    "scenarios": [DENY_SCENARIO],
                }
            )
        elif shows(change["before"]) and not shows(change["after"]) and found:
            found[-1]["until"] = change["since"]
    return found


def ledger(
    records: Mapping[str, Mapping[str, Any]],
    corpus: Mapping[str, Mapping[str, Any]],
    runs: Mapping[str, Mapping[str, Any]],
    pinned: str,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The package's rules file and the full change list, from the stored records."""
    from rules_behaviours import behaviour_rules

    # The core scenarios: the others were run on the pinned release alone (and a few on
    # the first release swept, before the core was cut down).
    from rules_subagents import subagent_rules

    digests = {sid: digest(corpus[sid]) for sid in core_ids()}
    changes = measured_changes(records, digests)
    arrived = [
        *flag_hooks_arrival(records),
        *reason_arrival(records),
        *arrivals(records, changes),
    ]
    denials = [
        *deny_texts(changes),
        *deny_blocking_texts(changes),
        *exact_chars_arrivals(changes, corpus),
        *tool_arrivals(changes),
        *input_field_arrivals(changes),
        *decision_arrivals(records, corpus),
        *notice_arrival(records),
        *field_arrivals(records, corpus),
        *prompt_message_arrivals(records, corpus),
        *context_join_arrivals(records),
        *exit2_cancel_arrivals(changes, corpus),
        *stop_context_arrivals(changes, corpus),
        *subagent_rules(records, corpus),
        *behaviour_rules(records, corpus),
    ]
    # The deny shown as a blocking error is its own rule: the text form leaves it out.
    blocking = {
        (event, "blocking error from command")
        for rule in denials
        if rule["kind"] == "deny-blocking-text"
        for event in rule["events"]
    }
    denials += text_forms(records, blocking)
    # A modelled rule says its change once: the measured change it was read from goes.
    modelled = {
        (rule["facet"], rule["since"], scenario)
        for rule in denials
        if rule["kind"] in ("matcher-exact-chars", "tool-arrives")
        for scenario in rule["scenarios"]
    }
    # A scenario's first run of an event's hooks is that event's arrival: said once. The
    # result line's terminal_reason arrives once, whatever release a scenario's span
    # was put at.
    said = {(rule["facet"], rule["since"]) for rule in arrived}
    said |= {
        (rule["facet"], change["since"])
        for rule in arrived
        if rule["kind"] == "reason-arrives"
        for change in changes
        if change["facet"] == rule["facet"]
    }
    rules = sorted(
        [
            *arrived,
            *(
                {**rule, "kind": _presence_kind(rule)}
                for rule in rules_of(changes, corpus)
                if (rule["before"] is not None or (rule["facet"], rule["since"]) not in said)
                # The deny texts are said once, as the modelled rules.
                and not (
                    rule["scenarios"] == [DENY_SCENARIO]
                    and rule["facet"] in ("tool[*].result", "modelTexts")
                )
                and not {(rule["facet"], rule["since"], sid) for sid in rule["scenarios"]}
                <= modelled
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
README = HERE.parents[1] / "README.md"
HEADLINES_BEGIN = "<!-- the changes hook authors most need: generated by oracle.py changelog -->"
HEADLINES_END = "<!-- end of the generated changes -->"
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
    """Store one release's open disagreements (the others' kept)."""
    write_all_open({**open_disagreements(), version: differ})


def write_all_open(found: Mapping[str, Mapping[str, list[str]]]) -> None:
    """``versions/open.json`` as ``found`` says, releases in npm's order; a release with
    nothing open is left out."""
    ordered = {
        version: dict(sorted(differ.items()))
        for version, differ in sorted(found.items(), key=lambda item: release_key(item[0]))
        if differ
    }
    OPEN.write_text(json.dumps(ordered, indent=1) + "\n", encoding="utf-8")


HEADLINES = (
    ("flag-hooks-arrive", None, None, "Hooks written in `--settings` (a file or inline JSON) run"),
    ("event-arrives", "PostToolUseFailure", None, "PostToolUseFailure hooks run"),
    ("event-arrives", "SubagentStart", None, "SubagentStart hooks run"),
    ("event-arrives", "PermissionRequest", None, "PermissionRequest hooks run in print mode"),
    (
        "env-var",
        "start-env",
        "hook[*].env.CLAUDE_ENV_FILE",
        "SessionStart hooks get `$CLAUDE_ENV_FILE`",
    ),
    ("deny-text", None, None, "A PreToolUse JSON deny's reason reaches the model worded as"),
    (
        "deny-blocking-text",
        None,
        None,
        "A PreToolUse JSON deny is also shown to the model as a hook blocking error",
    ),
    (
        "matcher-exact-chars",
        None,
        None,
        "Exact names in a matcher hold spaces, commas and hyphens (`Edit, Bash`, `note-store`),"
        " no longer read as regular expressions",
    ),
    (
        "ask-rule-over-allow",
        None,
        None,
        "A hook's `allow` no longer lifts an `ask` rule in print mode (the call is refused)",
    ),
    (
        "measured",
        "several-rewrites-last-wins",
        "tool[*].result",
        "Two hooks' `updatedInput`: the call runs rewritten (before, as the model wrote it)",
    ),
    (
        "stop-cap-arrives",
        None,
        None,
        "A Stop hook that always blocks is capped (`CLAUDE_CODE_STOP_HOOK_BLOCK_CAP`); "
        "before, the turn never ended",
    ),
    (
        "unknown-name-dropped",
        None,
        None,
        "A settings file naming an event the release does not know loses only that event's "
        "hooks (before, none of the file's hooks ran)",
    ),
)
"""The twelve changes hook authors most need to know: (rule kind, event or scenario, facet,
what to say); the releases come from the measured rules."""


NUMBERS = {8: "eight", 9: "nine", 10: "ten", 11: "eleven", 12: "twelve"}


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
            + (f" ({character_names(r['after'])})" if kind == "matcher-exact-chars" else "")
            + (f", until {r['until']}" if r.get("until") else "")
            for r in found
        ]
        releases = "; ".join(dict.fromkeys(said))
        modelled = "" if kind == "measured" else " Modelled by `--claude-version`."
        lines.append(f"- {says}: {releases}.{modelled}")
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
        f"## The {NUMBERS[len(HEADLINES)]} changes hook authors most need to know",
        "",
        "Each with the first release that showed it, or the two stored releases it lies "
        "between where bisection has not reached it yet, and the release that undid it "
        "(until).",
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
        README: between_markers(
            README.read_text(encoding="utf-8"), HEADLINES_BEGIN, HEADLINES_END, headlines(package)
        ),
    }
    return not_current(wanted, write)


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
            # A release before --settings hooks ran has no probe: its record cannot show
            # which calls without a structured result ran (stated in docs/versions.md).
            probe_ran = versions.flag_hooks_run(version)
            differ = disagreements(
                compare(corpus[sid], predicted[sid, signature], observed, probe_ran, version)
            )
            if differ:
                found[version][sid] = sorted(differ)
    return found


def _concerns(rule: Any, scenario_text: str) -> bool:
    """Whether a modelled rule can change the prediction of a scenario (its JSON text): an
    event's arrival if the scenario names the event, ``--settings`` hooks if it has flag
    settings, the deny wording if a hook answers deny or block."""
    if rule.kind in ("event-arrives", "text-form"):
        return f'"{rule.events[0]}"' in scenario_text
    if rule.kind == "flag-hooks-arrive":
        return '"flag"' in scenario_text
    if rule.kind in ("deny-text", "deny-blocking-text"):
        return '"deny"' in scenario_text or '"block"' in scenario_text
    if rule.kind == "notice-arrives":
        return '"systemMessage"' in scenario_text
    if rule.kind in ("decision-arrives", "ask-rule-over-allow"):
        return f'"permissionDecision": "{rule.after}"' in scenario_text
    if rule.kind == "prompt-message-arrives":
        return any(f'"{event}"' in scenario_text for event in rule.events)
    if rule.kind == "field-arrives":
        return f'"{rule.after}"' in scenario_text
    if rule.kind == "mismatch-keeps-decision":
        return '"hookEventName"' in scenario_text
    if rule.kind == "tool-arrives":
        return f'"name": "{rule.after}"' in scenario_text
    if rule.kind == "matcher-exact-chars":
        return any(
            c in matcher for matcher in MATCHER.findall(scenario_text) for c in str(rule.after)
        )
    if rule.kind == "env-var":
        # Only a scenario that checks the hooks' variables (``checks``: env) sees them.
        return '"env"' in scenario_text
    if rule.kind == "payload-key":
        return '"payload"' in scenario_text
    return True
