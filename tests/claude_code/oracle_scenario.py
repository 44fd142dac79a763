"""Scenarios as data: load the corpus, lay a scenario out on disk, run Claude Code on it.

A scenario (one JSON object in ``corpus/*.json``) holds:

- ``id``, ``about`` (one sentence: what it shows), ``covers`` (catalogue rules,
  README/notebook themes);
- ``settings``: ``user``, ``project``, ``local`` (objects, or a string written as
  is, for files that are not JSON) and ``flag`` (passed as ``--settings``);
- ``hooks``: script name -> POSIX sh body, or an object ``{sleep, out, err, exit,
  times}`` (``out`` an object is printed as JSON; ``times`` N: only the first N
  runs answer, later ones exit 0 silently). ``@hook:NAME`` in a settings string
  becomes ``sh <dir>/NAME``; every script first dumps its stdin payload,
  environment, cwd and argv (and at exit its status) under ``$ORACLE_DUMPS``;
- ``prompt``, ``turns`` (the scripted assistant turns: ``text`` and ``tools``,
  a list of ``{name, input}``, with ``fails: true`` on a call whose command exits
  non-zero, so PostToolUseFailure follows it, ``"classifier": "none"`` on a call auto
  mode's check gives no verdict (the mock runs none), ``elicits`` (``{message, schema}``)
  on a call of ``mcp_stub.py``'s ``ask``, which asks the user that; ``pause``: seconds
  the mock holds that turn's answer, so hooks Claude Code does not wait for finish
  first), ``flags`` (extra claude arguments), ``env``, ``trust`` (the folder is
  trusted in ``~/.claude.json``), ``files`` (project files);
- ``exception``: a named reason when ``fire`` cannot be compared on a field
  (see ``oracle_compare.EXCEPTIONS``).

A file may also hold ``families``: a ``template`` and ``cases``; a case's keys
replace the template's, except ``covers``, which adds up.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from hookcourse.session import namespace
from hookcourse.session.real import run_env, write_run_spec
from hookcourse.session.script import Layout, substitute, write_layout

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
DEFAULT_PROMPT = "Run the oracle scenario."
"""The prompt when a scenario gives none (the mock finds the main conversation by it)."""
PROBE = "_probe"
"""The hook the harness adds on PostToolUse and PostToolUseFailure: it shows a tool ran."""

PRELUDE = """#!/bin/sh
__d="${ORACLE_DUMPS:?}"; __id="%(name)s.$(date +%%s%%N).$$"
cat > "$__d/$__id.in"; env > "$__d/$__id.env"; pwd > "$__d/$__id.cwd"
printf '%%s\\n' "$0" "$@" > "$__d/$__id.argv"
trap 'echo $? > "$__d/$__id.end"' EXIT
exec < "$__d/$__id.in"
"""

ORACLE_API_KEY = "sk-ant-oracle-dummy"
"""The dummy key every run gets (the mock takes any); ANTHROPIC_BASE_URL is added inside
the namespace."""


def _merge(template: Mapping[str, Any], case: Mapping[str, Any]) -> dict[str, Any]:
    """A family case: its keys replace the template's, except ``covers``, which adds up."""
    merged = {**copy.deepcopy(dict(template)), **copy.deepcopy(dict(case))}
    merged["covers"] = [*template.get("covers", []), *case.get("covers", [])]
    return merged


def _expand(document: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    yield from document.get("scenarios", [])
    for family in document.get("families", []):
        for case in family["cases"]:
            yield _merge(family["template"], case)


def load_corpus(corpus: Path = CORPUS) -> dict[str, dict[str, Any]]:
    """Every scenario by id; a duplicate id is an error."""
    found: dict[str, dict[str, Any]] = {}
    for path in sorted(corpus.glob("*.json")):
        for scenario in _expand(json.loads(path.read_text(encoding="utf-8"))):
            sid = scenario["id"]
            if sid in found:
                raise ValueError(f"{path.name}: scenario id {sid!r} is used twice")
            scenario["_file"] = path.name
            found[sid] = scenario
    return found


def probe_settings(layout: Layout) -> dict[str, Any]:
    """The harness's own ``--settings``: a silent probe after every tool call."""
    group = [{"hooks": [{"type": "command", "command": layout.hook_command(PROBE)}]}]
    return {"hooks": {"PostToolUse": group, "PostToolUseFailure": group}}


def flag_settings(scenario: Mapping[str, Any], layout: Layout) -> dict[str, Any]:
    """What ``--settings`` carries: the scenario's flag settings with the probe added."""
    own = substitute(scenario.get("settings", {}).get("flag", {}), layout)
    probe = probe_settings(layout)
    merged = dict(own)
    hooks = dict(merged.get("hooks", {})) if isinstance(merged.get("hooks"), dict) else {}
    for event, groups in probe["hooks"].items():
        hooks[event] = (
            [*hooks.get(event, []), *groups] if isinstance(hooks.get(event), list) else groups
        )
    if not isinstance(merged.get("hooks", {}), dict):
        return merged
    merged["hooks"] = hooks
    return merged


def lay_out(scenario: Mapping[str, Any], layout: Layout) -> None:
    """Write the scenario's files: HOME, project, settings, hook scripts (each dumping
    what it was given), trust."""
    layout.dumps.mkdir(parents=True, exist_ok=True)
    hooks = {PROBE: "exit 0\n", **scenario.get("hooks", {})}
    write_layout({**scenario, "hooks": hooks}, layout, CORPUS, str(scenario.get("id")), PRELUDE)


def claude_argv(binary: str, scenario: Mapping[str, Any], layout: Layout) -> list[str]:
    """The command line of one run."""
    return [
        binary,
        "-p",
        scenario.get("prompt", DEFAULT_PROMPT),
        "--output-format",
        "stream-json",
        "--verbose",
        "--include-hook-events",
        "--debug-file",
        str(layout.root / "debug.log"),
        "--settings",
        json.dumps(flag_settings(scenario, layout)),
        *substitute(scenario.get("flags", []), layout),
    ]


def claude_env(scenario: Mapping[str, Any], layout: Layout) -> dict[str, str]:
    """The binary's environment: nothing of the caller's but PATH and the locale."""
    env = {key: str(value) for key, value in substitute(scenario.get("env", {}), layout).items()}
    return run_env(layout, {"ORACLE_DUMPS": str(layout.dumps), **env}, ORACLE_API_KEY)


class NamespaceUnavailable(RuntimeError):
    """``unshare -n`` cannot be used here (not root, no unshare, or refused)."""


def run_claude(
    binary: str, scenario: Mapping[str, Any], layout: Layout, timeout: float = 90.0
) -> dict[str, Any]:
    """Run the scenario once in a loopback-only namespace; the inside script's status."""
    if shutil.which("unshare") is None:
        raise NamespaceUnavailable("unshare is not on PATH (util-linux)")
    spec_path = write_spec(scenario, layout, claude_argv(binary, scenario, layout), timeout)
    return run_spec(spec_path, layout, timeout)


def write_spec(
    scenario: Mapping[str, Any], layout: Layout, argv: list[str], timeout: float, **more: Any
) -> Path:
    """The run spec of one scenario (``more``: the runner's further keys); its path."""
    return write_run_spec(
        layout,
        argv,
        claude_env(scenario, layout),
        substitute(scenario.get("turns", []), layout),
        scenario.get("prompt", DEFAULT_PROMPT),
        timeout,
        **more,
    )


def run_spec(spec_path: Path, layout: Layout, timeout: float) -> dict[str, Any]:
    """Run a written run spec with the namespace runner; the status it leaves."""
    done = subprocess.run(
        namespace.command(spec_path),
        cwd=namespace.PACKAGE_PARENT,
        capture_output=True,
        text=True,
        timeout=timeout + 30,
    )
    status_path = layout.root / "status.json"
    if not status_path.exists():
        raise NamespaceUnavailable(
            f"unshare -n failed (exit {done.returncode}):\n{done.stderr.strip()}"
        )
    status: dict[str, Any] = json.loads(status_path.read_text(encoding="utf-8"))
    if "refused" in status:
        raise NamespaceUnavailable(status["refused"])
    return status


def scratch(prefix: str) -> Layout:
    """A fresh scratch root (the caller removes it)."""
    return Layout(Path(tempfile.mkdtemp(prefix=f"oracle-{prefix}-")))
