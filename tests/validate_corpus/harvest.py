"""Harvest the real-world hook configurations of the validate corpus (reproducible).

The configurations come from public repositories that the search tool's ``fetch`` copied
under /work/.mirror/<owner>+<name>/repo (git directories, no work tree). This script reads
each snapshot's newest commit, keeps every JSON file that holds hook settings (a settings
file with a ``hooks`` object, or a plugin ``hooks/hooks.json``), and writes them under
tests/validate_corpus/.harvest/ (git-ignored: fetched content stays out of commits) with
manifest.json beside this script: repo, path, commit, licence (SPDX guess from the
repository's licence file), sha256. Run: ``.venv/bin/python tests/validate_corpus/harvest.py``.
With ``--check``, it only re-extracts the files the manifest names and verifies their hashes.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
MIRRORS = Path("/work/.mirror")
HARVEST = HERE / ".harvest"
MANIFEST = HERE / "manifest.json"
PER_REPO = 20
"""At most this many files from one repository, so no template collection dominates."""
EVENTS = json.loads((HERE.parents[1] / "hookcourse" / "data" / "events.json").read_text())
CONFIG_NAME = re.compile(r"(^|/)(hooks/hooks\.json|\.claude/settings(\.local)?\.json|[^/]*\.json)$")
LICENCES = (
    ("MIT", re.compile(r"\bMIT License\b|Permission is hereby granted, free of charge", re.I)),
    ("Apache-2.0", re.compile(r"Apache License,?\s+Version 2\.0", re.I)),
    ("BSD-3-Clause", re.compile(r"Neither the name of", re.I)),
    ("BSD-2-Clause", re.compile(r"Redistributions in binary form", re.I)),
    ("ISC", re.compile(r"\bISC License\b", re.I)),
    ("Unlicense", re.compile(r"This is free and unencumbered software", re.I)),
    ("MPL-2.0", re.compile(r"Mozilla Public License", re.I)),
    ("GPL-3.0", re.compile(r"GNU GENERAL PUBLIC LICENSE\s+Version 3", re.I)),
    ("AGPL-3.0", re.compile(r"GNU AFFERO GENERAL PUBLIC LICENSE", re.I)),
)
PERMISSIVE = frozenset({"MIT", "Apache-2.0", "BSD-3-Clause", "BSD-2-Clause", "ISC", "Unlicense"})


def _git(repo: Path, *args: str) -> bytes:
    return subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, timeout=60
    ).stdout


def _event_names() -> set[str]:
    events = EVENTS["events"] if isinstance(EVENTS, dict) and "events" in EVENTS else EVENTS
    if isinstance(events, dict):
        return set(events)
    return {event["name"] for event in events}


def _licence(repo: Path, names: list[str]) -> str:
    for name in names:
        if re.fullmatch(r"(LICEN[CS]E|COPYING)(\.(md|txt))?", name, re.I):
            text = _git(repo, "show", f"HEAD:{name}").decode("utf-8", "replace")
            return next((spdx for spdx, pattern in LICENCES if pattern.search(text)), "other")
    return "none"


def _is_hook_config(data: bytes, events: set[str]) -> bool:
    try:
        document = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return False
    if not isinstance(document, dict):
        return False
    hooks = document.get("hooks")
    keys = set(hooks) if isinstance(hooks, dict) else set(document)
    return bool(keys & events)


def harvest() -> list[dict[str, str]]:
    events = _event_names()
    entries: list[dict[str, str]] = []
    for mirror in sorted(MIRRORS.glob("*+*/repo")):
        repo_name = mirror.parent.name.replace("+", "/", 1)
        if repo_name == "SchemaStore/schemastore":
            continue  # its test files are the schemastore fixtures, harvested separately
        commit = _git(mirror, "rev-parse", "HEAD").decode().strip()
        names = _git(mirror, "ls-tree", "-r", "--name-only", "HEAD").decode().splitlines()
        top = [name for name in names if "/" not in name]
        licence = _licence(mirror, top)
        kept = 0
        for name in names:
            if kept >= PER_REPO or not CONFIG_NAME.search(name) or "node_modules/" in name:
                continue
            named = name.endswith(("hooks.json", "settings.json", "settings.local.json"))
            if not named and "hook" not in name.lower():
                continue
            data = _git(mirror, "show", f"{commit}:{name}")
            if len(data) > 512_000 or not _is_hook_config(data, events):
                continue
            target = HARVEST / "configs" / mirror.parent.name / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            entries.append(
                {
                    "repo": repo_name,
                    "path": name,
                    "commit": commit,
                    "licence": licence,
                    "committable": str(licence in PERMISSIVE).lower(),
                    "sha256": hashlib.sha256(data).hexdigest(),
                    "file": str(target.relative_to(HERE)),
                }
            )
            kept += 1
    return entries


SCHEMASTORE = "SchemaStore/schemastore"
SCHEMASTORE_MANIFEST = HERE / "schemastore.json"
SCHEMASTORE_FOLDERS = (
    ("valid", "src/test/claude-code-settings/"),
    ("invalid", "src/negative_test/claude-code-settings/"),
    ("schema", "src/schemas/json/claude-code-settings.json"),
)


def harvest_schemastore() -> list[dict[str, str]]:
    """SchemaStore's claude-code-settings schema and its valid and negative test files."""
    mirror = MIRRORS / SCHEMASTORE.replace("/", "+", 1) / "repo"
    commit = _git(mirror, "rev-parse", "HEAD").decode().strip()
    names = _git(mirror, "ls-tree", "-r", "--name-only", "HEAD").decode().splitlines()
    entries: list[dict[str, str]] = []
    for kind, prefix in SCHEMASTORE_FOLDERS:
        for name in (n for n in names if n.startswith(prefix) and n.endswith(".json")):
            data = _git(mirror, "show", f"{commit}:{name}")
            target = HARVEST / "schemastore" / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            entries.append(
                {
                    "repo": SCHEMASTORE,
                    "path": name,
                    "commit": commit,
                    "licence": "Apache-2.0",
                    "kind": kind,
                    "sha256": hashlib.sha256(data).hexdigest(),
                    "file": str(target.relative_to(HERE)),
                }
            )
    notice = _git(mirror, "show", f"{commit}:LICENSE")
    (HARVEST / "schemastore" / "LICENSE").write_bytes(notice)
    return entries


def extract_trees(entries: list[dict[str, str]]) -> None:
    """Each corpus repository's tree at its commit (files with their modes; a blob the
    snapshot lacks, or over 1 MB, is written empty), so the rules that read the files a hook
    calls see what the repository holds."""
    for repo in sorted({entry["repo"] for entry in entries}):
        folder = repo.replace("/", "+", 1)
        target = HARVEST / "trees" / folder
        if not target.is_dir():
            commit = next(entry["commit"] for entry in entries if entry["repo"] == repo)
            _write_tree(MIRRORS / folder / "repo", commit, target)


def _write_tree(mirror: Path, commit: str, target: Path) -> None:
    listing = _git(mirror, "ls-tree", "-r", "-l", "-z", commit).decode("utf-8", "replace")
    blobs: list[tuple[str, str, str]] = []
    for line in filter(None, listing.split("\0")):
        meta, name = line.split("\t", 1)
        mode, kind, sha, size = meta.split()
        if kind == "blob" and "node_modules/" not in name:
            blobs.append((mode, sha if size.isdigit() and int(size) <= 1_000_000 else "", name))
    with subprocess.Popen(
        ["git", "-C", str(mirror), "cat-file", "--batch"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    ) as batch:
        assert batch.stdin is not None and batch.stdout is not None
        for mode, sha, name in blobs:
            data = b""
            if sha:
                batch.stdin.write(sha.encode() + b"\n")
                batch.stdin.flush()
                header = batch.stdout.readline().split()
                if len(header) == 3:
                    data = batch.stdout.read(int(header[2]))
                    batch.stdout.read(1)
            path = target / name
            if not path.resolve().is_relative_to(target.resolve()):
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            if mode == "120000":
                if not path.is_symlink():
                    path.symlink_to(data.decode("utf-8", "replace"))
                continue
            path.write_bytes(data)
            path.chmod(0o755 if mode == "100755" else 0o644)
        batch.stdin.close()
    target.mkdir(parents=True, exist_ok=True)


def check() -> int:
    """Re-extract exactly what the manifests name (at their commits) and verify the hashes."""
    entries = json.loads(MANIFEST.read_text())
    schemastore = json.loads(SCHEMASTORE_MANIFEST.read_text())
    wrong = 0
    for entry in [*entries, *schemastore]:
        mirror = MIRRORS / entry["repo"].replace("/", "+", 1) / "repo"
        data = _git(mirror, "show", f"{entry['commit']}:{entry['path']}")
        if hashlib.sha256(data).hexdigest() != entry["sha256"]:
            wrong += 1
            print(f"hash differs: {entry['repo']}:{entry['path']}", file=sys.stderr)
        target = HERE / entry["file"]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    extract_trees(entries)
    commit = schemastore[0]["commit"]
    mirror = MIRRORS / SCHEMASTORE.replace("/", "+", 1) / "repo"
    (HARVEST / "schemastore" / "LICENSE").write_bytes(_git(mirror, "show", f"{commit}:LICENSE"))
    print(
        f"{len(entries)} configurations and {len(schemastore)} SchemaStore files, "
        f"{wrong} hash(es) differ"
    )
    return 1 if wrong else 0


def main() -> int:
    if sys.argv[1:] == ["--check"]:
        return check()
    entries = harvest()
    extract_trees(entries)
    MANIFEST.write_text(json.dumps(entries, indent=1) + "\n")
    schemastore = harvest_schemastore()
    SCHEMASTORE_MANIFEST.write_text(json.dumps(schemastore, indent=1) + "\n")
    print(f"{len(schemastore)} SchemaStore claude-code-settings files (schema, valid, negative)")
    repos = len({entry["repo"] for entry in entries})
    print(f"{len(entries)} hook configurations from {repos} repositories -> {HARVEST}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
