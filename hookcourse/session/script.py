"""Session scripts: the JSON format, checked on load, and laid out in a scratch folder.

A session script is one JSON object (the oracle harness's scenario format, with
``expect`` added):

- ``settings``: ``user``, ``project``, ``local`` (settings objects written to
  ``~/.claude/settings.json``, ``.claude/settings.json``, ``.claude/settings.local.json``)
  and ``flag`` (passed as ``--settings``);
- ``hooks``: a name -> a POSIX sh body, or ``{"out", "err", "exit", "sleep", "times"}``
  (``out`` an object is printed as JSON; ``times`` N: only the first N runs answer);
  ``@hook:NAME`` in a settings string is the command that runs it;
- ``files``: project files, a path -> its text, or ``{"from": PATH}`` (a file beside
  the script, copied with its mode);
- ``prompt``, or ``prompts``: a list of them, submitted one after another in one
  session (each fires UserPromptSubmit and has its own loop up to Stop);
- ``turns``, the scripted model (``hookcourse.session.turns``): each
  ``{"text", "tools": [{"name", "input", "result"}], "if"}``, where a call's
  ``result`` (``{"text", "isError"}``) is given instead of running the tool;
  played in order across the prompts (a prompt's loop starts with the next turn);
- ``trust`` (the folder is trusted), ``env`` (extra variables), ``permissionMode``;
- ``expect``: what must hold (``hookcourse.session.expect``).

``@project`` and ``@home`` in any string are the scratch project and home folders.
"""

from __future__ import annotations

import contextlib
import json
import shlex
import shutil
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hookcourse.errors import InputError, json_path

SETTINGS_SCOPES = ("user", "project", "local", "flag")
TOOL_FIELDS = ("name", "input", "result", "id")
TURN_FIELDS = ("text", "tools", "if")
TOP_FIELDS = (
    "name",
    "about",
    "settings",
    "hooks",
    "files",
    "prompt",
    "prompts",
    "turns",
    "trust",
    "env",
    "permissionMode",
    "expect",
    "covers",
)
SCRIPT_CAP = 4 * 1024 * 1024
"""A session script is small; anything larger is a mistake, not a session."""


@dataclass(frozen=True)
class SessionScript:
    """A loaded, checked session script (``data`` is the JSON object as written)."""

    name: str
    data: Mapping[str, Any]
    base: Path
    """The folder ``files`` entries with ``from`` are read relative to."""

    @property
    def prompts(self) -> list[str]:
        """The user's prompts, in the order they are submitted."""
        if "prompts" in self.data:
            return [str(prompt) for prompt in self.data["prompts"]]
        return [str(self.data.get("prompt", "go"))]

    @property
    def prompt(self) -> str:
        """The first prompt (the mock finds the main conversation by it)."""
        return self.prompts[0]

    @property
    def turns(self) -> list[dict[str, Any]]:
        return list(self.data.get("turns", []))

    @property
    def expectations(self) -> list[dict[str, Any]]:
        return list(self.data.get("expect", []))


def _fail(where: str, path: Sequence[str | int], problem: str, fix: str) -> InputError:
    return InputError(where, problem, fix, list(path))


def _check_object(where: str, value: Any, path: list[str | int], fields: Sequence[str]) -> None:
    if not isinstance(value, dict):
        raise _fail(where, path, f"{json_path(path)} is not an object", "write a JSON object")
    for key in value:
        if key not in fields:
            raise _fail(
                where, [*path, key], f"unknown key {key!r}", "use one of " + ", ".join(fields)
            )


def check(data: Any, where: str) -> None:
    """Raise InputError (what, where, how to fix) for anything the runner cannot use."""
    from .expect import check_expectation

    _check_object(where, data, [], TOP_FIELDS)
    settings = data.get("settings", {})
    _check_object(where, settings, ["settings"], SETTINGS_SCOPES)
    for scope, value in settings.items():
        if not isinstance(value, dict | str):
            raise _fail(where, ["settings", scope], "a settings file is an object", "write {}")
    hooks = data.get("hooks", {})
    _check_object(where, hooks, ["hooks"], list(hooks) if isinstance(hooks, dict) else [])
    for name, body in hooks.items():
        if not name or "/" in name or name.startswith("."):
            raise _fail(where, ["hooks", name], "a hook name is a plain file name", "rename it")
        if isinstance(body, dict):
            _check_object(where, body, ["hooks", name], ("out", "err", "exit", "sleep", "times"))
        elif not isinstance(body, str):
            raise _fail(where, ["hooks", name], "a hook is a sh body or an object", "fix it")
    files = data.get("files", {})
    _check_object(where, files, ["files"], list(files) if isinstance(files, dict) else [])
    for name, body in files.items():
        inside = Path(name)
        if inside.is_absolute() or ".." in inside.parts:
            raise _fail(where, ["files", name], "a file must stay inside the project", "fix it")
        if isinstance(body, dict):
            _check_object(where, body, ["files", name], ("from",))
        elif not isinstance(body, str):
            raise _fail(where, ["files", name], "a file is a text or {from}", "fix it")
    for key in ("prompt", "name", "about", "permissionMode"):
        if key in data and not isinstance(data[key], str):
            raise _fail(where, [key], f"{key} is not a string", "write a JSON string")
    _check_prompts(data, where)
    _check_env(data, where)
    turns = data.get("turns", [])
    if not isinstance(turns, list):
        raise _fail(where, ["turns"], "turns is not a list", "write a list of turns")
    for t, turn in enumerate(turns):
        _check_object(where, turn, ["turns", t], TURN_FIELDS)
        if turn.get("if") not in (None, "error", "ok"):
            raise _fail(where, ["turns", t, "if"], "unknown condition", 'use "error" or "ok"')
        calls = turn.get("tools", [])
        if not isinstance(calls, list):
            raise _fail(where, ["turns", t, "tools"], "tools is not a list", "write a list")
        for c, call in enumerate(calls):
            path: list[str | int] = ["turns", t, "tools", c]
            _check_object(where, call, path, TOOL_FIELDS)
            if not isinstance(call.get("name"), str) or not isinstance(call.get("input", {}), dict):
                raise _fail(where, path, "a tool call needs a name and an input object", "add them")
            result = call.get("result")
            if result is not None:
                _check_object(where, result, [*path, "result"], ("text", "isError"))
    expectations = data.get("expect", [])
    if not isinstance(expectations, list):
        raise _fail(where, ["expect"], "expect is not a list", "write a list")
    for e, entry in enumerate(expectations):
        check_expectation(entry, where, ["expect", e])


_NO_SURROGATES = "write the character whole: nothing can be passed on as UTF-8 with half of one"


def _lone_surrogate(text: str) -> bool:
    return any("\ud800" <= char <= "\udfff" for char in text)


def _check_env(data: Mapping[str, Any], where: str) -> None:
    env = data.get("env", {})
    _check_object(where, env, ["env"], list(env) if isinstance(env, dict) else [])
    for name, value in env.items():
        if not name or "=" in name or "\0" in name or _lone_surrogate(name):
            raise _fail(where, ["env", name], "not a variable name", "rename it")
        if not isinstance(value, str | int | float) or isinstance(value, bool):
            raise _fail(where, ["env", name], "a variable's value is a string", "quote it")
        if "\0" in str(value) or _lone_surrogate(str(value)):
            raise _fail(
                where, ["env", name], "the value holds a NUL or a lone surrogate", _NO_SURROGATES
            )


def _check_prompts(data: Mapping[str, Any], where: str) -> None:
    if "prompt" in data and "prompts" in data:
        raise _fail(where, ["prompts"], "both prompt and prompts are given", "keep one")
    prompts = data.get("prompts", [data.get("prompt", "")])
    if not isinstance(prompts, list) or not prompts:
        raise _fail(
            where, ["prompts"], "prompts is not a non-empty list", "write a list of strings"
        )
    for n, prompt in enumerate(prompts):
        path: list[str | int] = ["prompts", n] if "prompts" in data else ["prompt"]
        if not isinstance(prompt, str):
            raise _fail(where, path, "a prompt is not a string", "write a JSON string")
        if "\0" in prompt:
            raise _fail(
                where,
                path,
                "the prompt holds a NUL character",
                "remove it: the prompt is a command-line argument of claude -p",
            )
        if _lone_surrogate(prompt):
            raise _fail(where, path, "the prompt holds a lone surrogate", _NO_SURROGATES)
        if not prompt.strip() and "prompts" in data:
            raise _fail(where, path, "the prompt is empty", "write what the user types")


def load(path: Path) -> SessionScript:
    """Read and check a session script file; InputError names the file and JSON path."""
    where = str(path)
    try:
        with path.open("rb") as handle:
            raw = handle.read(SCRIPT_CAP + 1)
    except OSError as error:
        raise InputError(
            where, f"cannot read it ({error.strerror})", "pass a readable file"
        ) from None
    if len(raw) > SCRIPT_CAP:
        raise InputError(where, "it is larger than 4 MiB", "pass a session script")
    try:
        text = raw.decode("utf-8")
        data = json.loads(text)
    except UnicodeDecodeError:
        raise InputError(where, "it is not UTF-8", "save it as UTF-8") from None
    except ValueError as error:
        raise InputError(where, f"it is not valid JSON ({error})", "fix the JSON syntax") from None
    check(data, where)
    return SessionScript(str(data.get("name") or path.stem), data, path.parent)


def from_data(data: Any, name: str, base: Path) -> SessionScript:
    """A script given as data (a notebook cell, a test)."""
    check(data, name)
    return SessionScript(str(data.get("name") or name), data, base)


@dataclass(frozen=True)
class Layout:
    """One run's scratch folders: home, project, hook scripts, hook dumps, temp."""

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
        """Where the oracle harness's hook scripts leave their traces (made only there)."""
        return self.root / "dumps"

    @property
    def tmp(self) -> Path:
        return self.root / "tmp"

    def hook_command(self, name: str) -> str:
        """The command that runs hook script ``name`` (what ``@hook:NAME`` becomes)."""
        return f"sh {self.hooks / name}"

    def settings_file(self, scope: str) -> Path:
        return {
            "user": self.home / ".claude" / "settings.json",
            "project": self.project / ".claude" / "settings.json",
            "local": self.project / ".claude" / "settings.local.json",
        }[scope]


def scratch(prefix: str) -> Layout:
    """A fresh scratch root; the caller removes it (``shutil.rmtree``)."""
    return Layout(Path(tempfile.mkdtemp(prefix=f"hookcourse-session-{prefix}-")))


@contextlib.contextmanager
def laid_out(script: SessionScript, suffix: str = "", keep: bool = False) -> Iterator[Layout]:
    """A scratch folder with ``script`` laid out in it, removed afterwards unless ``keep``."""
    from hookcourse.engine.interrupts import remove_on_interrupt

    layout = scratch(script.name.replace("/", "_") + suffix)
    # An interrupt exits at once (os._exit); the registry deletes the folder then.
    remove_on_interrupt(str(layout.root), keep=not keep)
    try:
        lay_out(script, layout)
        yield layout
    finally:
        remove_on_interrupt(str(layout.root), keep=False)
        if not keep:
            shutil.rmtree(layout.root, ignore_errors=True)


def script_env(script: SessionScript, layout: Layout) -> dict[str, str]:
    """The script's ``env``, with ``@project`` and ``@home`` filled in."""
    return {
        key: str(value) for key, value in substitute(script.data.get("env", {}), layout).items()
    }


def substitute(value: Any, layout: Layout) -> Any:
    """``@hook:NAME`` -> ``sh <hooks>/NAME``; ``@project`` and ``@home`` -> the folders."""
    if isinstance(value, str):
        text = value
        while "@hook:" in text:
            head, _, name = text.partition("@hook:")
            script, space, rest = name.partition(" ")
            text = head + layout.hook_command(script) + space + rest
        return text.replace("@project", str(layout.project)).replace("@home", str(layout.home))
    if isinstance(value, list):
        return [substitute(item, layout) for item in value]
    if isinstance(value, dict):
        return {key: substitute(item, layout) for key, item in value.items()}
    return value


def hook_body(spec: str | Mapping[str, Any]) -> str:
    """A hook's sh body, as written or built from ``{out, err, exit, sleep, times}``."""
    if isinstance(spec, str):
        return spec
    lines = []
    if spec.get("times") is not None:
        # The count lives beside the script, so each run of a session starts afresh.
        lines.append('c="$0.count"; n=$(cat "$c" 2>/dev/null || echo 0); echo $((n + 1)) > "$c"')
        lines.append(f'[ "$n" -ge {int(spec["times"])} ] && exit 0')
    lines.append("cat > /dev/null")
    if spec.get("sleep"):
        lines.append(f"sleep {float(spec['sleep']):g}")
    if "out" in spec:
        out = spec["out"] if isinstance(spec["out"], str) else json.dumps(spec["out"])
        lines.append("printf '%s\\n' " + shlex.quote(out))
    if "err" in spec:
        lines.append("printf '%s\\n' " + shlex.quote(str(spec["err"])) + " >&2")
    lines.append(f"exit {int(spec.get('exit', 0))}")
    return "\n".join(lines) + "\n"


def flag_settings(script: SessionScript, layout: Layout) -> str | None:
    """The ``--settings`` JSON text, or None when the script has none."""
    flag = script.data.get("settings", {}).get("flag")
    if flag is None:
        return None
    value = substitute(flag, layout)
    return value if isinstance(value, str) else json.dumps(value)


def lay_out(script: SessionScript, layout: Layout) -> None:
    """Write the script's home, project, settings files, hook scripts and trust entry."""
    write_layout(script.data, layout, script.base, script.name)


def write_layout(
    data: Mapping[str, Any], layout: Layout, base: Path, where: str, prelude: str = ""
) -> None:
    """Write ``data``'s folders, hook scripts, settings files, project files and trust entry.

    ``prelude`` (a ``%``-template given ``name``) heads every hook script: the oracle
    harness's dump of what the hook was given. ``from`` files are read relative to
    ``base``; ``where`` names the script in an error.
    """
    for folder in (layout.home / ".claude", layout.project / ".claude", layout.hooks, layout.tmp):
        folder.mkdir(parents=True, exist_ok=True)
    for name, body in data.get("hooks", {}).items():
        text = prelude % {"name": name} + substitute(hook_body(body), layout)
        (layout.hooks / name).write_text(text, encoding="utf-8")
    settings = data.get("settings", {})
    for scope in SETTINGS_SCOPES:
        if scope == "flag" or scope not in settings:
            continue
        value = substitute(settings[scope], layout)
        text = value if isinstance(value, str) else json.dumps(value, indent=1)
        layout.settings_file(scope).write_text(text, encoding="utf-8")
    for relative, body in data.get("files", {}).items():
        target = layout.project / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(body, dict):
            source = base / str(body["from"])
            try:
                shutil.copy(source, target)
            except OSError as error:
                raise InputError(
                    where,
                    f"cannot copy {source} ({error.strerror})",
                    "give a file beside the script",
                    ["files", relative, "from"],
                ) from None
        else:
            target.write_text(substitute(body, layout), encoding="utf-8")
    state: dict[str, Any] = {"hasCompletedOnboarding": True, "projects": {}}
    if data.get("trust"):
        state["projects"][str(layout.project)] = {"hasTrustDialogAccepted": True}
    (layout.home / ".claude.json").write_text(json.dumps(state), encoding="utf-8")
