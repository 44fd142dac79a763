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
  a list of ``{name, input}``), ``flags`` (extra claude arguments), ``env``,
  ``trust`` (the folder is trusted in ``~/.claude.json``), ``files`` (project files);
- ``exception``: a named reason when ``fire`` cannot be compared on a field
  (see ``oracle_compare.EXCEPTIONS``).

A file may also hold ``families``: a ``template`` and ``cases``; a case's keys
replace the template's, except ``covers``, which adds up.
"""

from __future__ import annotations

import copy
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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

CLAUDE_ENV = {
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "DISABLE_AUTOUPDATER": "1",
    "DISABLE_TELEMETRY": "1",
    "DISABLE_ERROR_REPORTING": "1",
    "CLAUDE_CODE_DISABLE_TERMINAL_TITLE": "1",
    "ANTHROPIC_API_KEY": "sk-ant-oracle-dummy",
    "ENABLE_TOOL_SEARCH": "false",
}
"""What every run gets; ANTHROPIC_BASE_URL is added inside the namespace."""


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


@dataclass(frozen=True)
class Layout:
    """Where one run's scratch directories are."""

    root: Path

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def project(self) -> Path:
        return self.root / "project"

    @property
    def hooks(self) -> Path:
        return self.root / "hooks"

    @property
    def dumps(self) -> Path:
        return self.root / "dumps"

    @property
    def tmp(self) -> Path:
        return self.root / "tmp"

    def hook_command(self, name: str) -> str:
        return f"sh {self.hooks / name}"


def _substitute(value: Any, layout: Layout) -> Any:
    """``@hook:NAME`` -> the command running that script; ``@project``/``@home`` -> the paths."""
    if isinstance(value, str):
        text = value
        if "@hook:" in text:
            head, _, name = text.partition("@hook:")
            script, space, rest = name.partition(" ")
            text = head + layout.hook_command(script) + space + rest
        return text.replace("@project", str(layout.project)).replace("@home", str(layout.home))
    if isinstance(value, list):
        return [_substitute(item, layout) for item in value]
    if isinstance(value, dict):
        return {key: _substitute(item, layout) for key, item in value.items()}
    return value


def probe_settings(layout: Layout) -> dict[str, Any]:
    """The harness's own ``--settings``: a silent probe after every tool call."""
    group = [{"hooks": [{"type": "command", "command": layout.hook_command(PROBE)}]}]
    return {"hooks": {"PostToolUse": group, "PostToolUseFailure": group}}


def flag_settings(scenario: Mapping[str, Any], layout: Layout) -> dict[str, Any]:
    """What ``--settings`` carries: the scenario's flag settings with the probe added."""
    own = _substitute(scenario.get("settings", {}).get("flag", {}), layout)
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


def hook_body(spec: Any) -> str:
    """A hook's sh body: given as text, or built from ``{sleep, out, err, exit, times}``."""
    if isinstance(spec, str):
        return spec
    lines = []
    if spec.get("times") is not None:
        lines.append(
            '__c="$(dirname "$0")/.count-$(basename "$0")"; __n=$(cat "$__c" 2>/dev/null || echo 0)'
        )
        lines.append('echo $((__n + 1)) > "$__c"')
        lines.append(f'[ "$__n" -ge {int(spec["times"])} ] && exit 0')
    if spec.get("sleep"):
        lines.append(f"sleep {spec['sleep']}")
    if "out" in spec:
        out = spec["out"] if isinstance(spec["out"], str) else json.dumps(spec["out"])
        lines.append("printf '%s\\n' " + shlex.quote(out))
    if "err" in spec:
        lines.append("printf '%s\\n' " + shlex.quote(spec["err"]) + " >&2")
    lines.append(f"exit {int(spec.get('exit', 0))}")
    return "\n".join(lines) + "\n"


def lay_out(scenario: Mapping[str, Any], layout: Layout) -> None:
    """Write the scenario's files: HOME, project, settings, hook scripts, trust."""
    for directory in (
        layout.home / ".claude",
        layout.project / ".claude",
        layout.hooks,
        layout.dumps,
        layout.tmp,
    ):
        directory.mkdir(parents=True, exist_ok=True)
    hooks = {PROBE: "exit 0\n", **scenario.get("hooks", {})}
    for name, body in hooks.items():
        script = PRELUDE % {"name": name} + _substitute(hook_body(body), layout)
        (layout.hooks / name).write_text(script, encoding="utf-8")
    places = {
        "user": layout.home / ".claude" / "settings.json",
        "project": layout.project / ".claude" / "settings.json",
        "local": layout.project / ".claude" / "settings.local.json",
    }
    settings = scenario.get("settings", {})
    for scope, path in places.items():
        if scope in settings:
            value = _substitute(settings[scope], layout)
            path.write_text(
                value if isinstance(value, str) else json.dumps(value, indent=1), encoding="utf-8"
            )
    for relative, text in scenario.get("files", {}).items():
        target = layout.project / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_substitute(text, layout), encoding="utf-8")
    state: dict[str, Any] = {"hasCompletedOnboarding": True, "projects": {}}
    if scenario.get("trust"):
        state["projects"][str(layout.project)] = {"hasTrustDialogAccepted": True}
    (layout.home / ".claude.json").write_text(json.dumps(state), encoding="utf-8")


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
        *_substitute(scenario.get("flags", []), layout),
    ]


def claude_env(scenario: Mapping[str, Any], layout: Layout) -> dict[str, str]:
    """The binary's environment: nothing of the caller's but PATH and the locale."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        "HOME": str(layout.home),
        "TMPDIR": str(layout.tmp),
        "USER": os.environ.get("USER", "root"),
        "SHELL": "/bin/sh",
        "ORACLE_DUMPS": str(layout.dumps),
        **CLAUDE_ENV,
    }
    env.update(_substitute(scenario.get("env", {}), layout))
    return env


class NamespaceUnavailable(RuntimeError):
    """``unshare -n`` cannot be used here (not root, no unshare, or refused)."""


def run_claude(
    binary: str, scenario: Mapping[str, Any], layout: Layout, timeout: float = 90.0
) -> dict[str, Any]:
    """Run the scenario once in a loopback-only namespace; the inside script's status."""
    if shutil.which("unshare") is None:
        raise NamespaceUnavailable("unshare is not on PATH (util-linux)")
    spec = {
        "argv": claude_argv(binary, scenario, layout),
        "env": claude_env(scenario, layout),
        "cwd": str(layout.project),
        "turns": _substitute(scenario.get("turns", []), layout),
        "prompt": scenario.get("prompt", DEFAULT_PROMPT),
        "log": str(layout.root / "requests.jsonl"),
        "stdout": str(layout.root / "stream.jsonl"),
        "stderr": str(layout.root / "stderr.txt"),
        "timeout": timeout,
        "result": str(layout.root / "status.json"),
    }
    spec_path = layout.root / "run.json"
    spec_path.write_text(json.dumps(spec), encoding="utf-8")
    python = sys.executable
    done = subprocess.run(
        ["unshare", "-n", python, "-I", str(HERE / "inside.py"), str(spec_path)],
        capture_output=True,
        text=True,
        timeout=timeout + 30,
    )
    status_path = layout.root / "status.json"
    if not status_path.exists():
        raise NamespaceUnavailable(
            f"unshare -n failed (exit {done.returncode}): {done.stderr.strip()[:300]}"
        )
    status: dict[str, Any] = json.loads(status_path.read_text(encoding="utf-8"))
    if "refused" in status:
        raise NamespaceUnavailable(status["refused"])
    return status


def scratch(prefix: str) -> Layout:
    """A fresh scratch root (the caller removes it)."""
    return Layout(Path(tempfile.mkdtemp(prefix=f"oracle-{prefix}-")))
