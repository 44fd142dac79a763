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
  ``"classifier": "none"``: in auto mode the safety check gives the call no verdict;
  ``elicits`` (``{"message", "schema"}``): the call's MCP server asks the user for
  input while it runs;
  played in order across the prompts (a prompt's loop starts with the next turn);
- ``trust`` (the folder is trusted), ``env`` (extra variables), ``permissionMode``;
- ``expect``: what must hold (``hookcourse.session.expect``);
- ``interactive``: the session runs in Claude Code's interactive interface instead of
  print mode, the user's actions in order (``hookcourse.session.interactive``):
  ``{"prompt": TEXT}``, ``{"answer": "yes" | "no", "feedback": TEXT}`` (the next
  permission dialog), ``{"command": "/compact"}`` (``/clear``, ``/exit``, ``/model
  NAME``, ``/add-dir DIR``), ``{"write": PATH, "text": TEXT}``; the prompts are its
  ``prompt`` actions (no ``prompt`` or ``prompts`` beside it). The folder is trusted and
  the default permission mode set, so dialogs show.

``@project`` and ``@home`` in any string are the scratch project and home folders.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import shlex
import shutil
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hookcourse.engine.api import PERMISSION_MODES
from hookcourse.errors import InputError, json_path, visible
from hookcourse.system.inputs import read_bounded, read_descriptor, special_kind
from hookcourse.system.interrupts import kill_traced

SETTINGS_SCOPES = ("user", "project", "local", "flag")
TOOL_FIELDS = ("name", "input", "result", "id", "classifier", "elicits")
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
    "interactive",
)
HOOK_FIELDS = ("out", "err", "exit", "sleep", "times")
SCRIPT_CAP = 4 * 1024 * 1024
"""A session script is small; anything larger is a mistake, not a session."""
COPY_CAP = 16 * 1024 * 1024
"""The most a ``files`` entry's ``from`` file may hold."""
MAX_DEPTH = 64
"""How deep a script may nest: settings and tool inputs need a handful of levels."""
NAME_BYTES = 255
"""The longest file name Linux file systems take."""
PATH_BYTES = 1024
"""The longest ``files`` key or hook name, well under PATH_MAX with the scratch folder."""
HOOK_SLEEP_S = 600.0
"""A scripted hook's longest ``sleep``: Claude Code's default command-hook timeout."""
MAX_CALLS = 100
"""The most tool calls one scripted turn may make (each fires hooks around it)."""
MAX_PROMPTS = 100
"""The most prompts one script may submit."""
NAME_SHOWN = 60
PATH_SHOWN = 300
"""How much of a long name or path an error line shows."""
_UNSAFE_PREFIX = re.compile(r"[^A-Za-z0-9_.-]+")


@dataclass(frozen=True)
class SessionScript:
    """A loaded, checked session script (``data`` is the JSON object as written)."""

    name: str
    data: Mapping[str, Any]
    base: Path
    """The folder ``files`` entries with ``from`` are read relative to."""

    @property
    def prompts(self) -> list[str]:
        """The user's prompts, in the order they are submitted (an interactive script's
        are its ``prompt`` actions)."""
        actions = self.data.get("interactive")
        if isinstance(actions, list):
            typed = [str(a["prompt"]) for a in actions if isinstance(a, dict) and "prompt" in a]
            return typed or [str(self.data.get("prompt", "go"))]
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
    return InputError(where, problem, fix, [_shown(step) for step in path])


def _shown(step: str | int) -> str | int:
    """A JSON path step short enough for one line (a key can be a megabyte long)."""
    if isinstance(step, str) and len(step) > NAME_SHOWN:
        return step[:NAME_SHOWN] + "…"
    return step


def _check_object(where: str, value: Any, path: list[str | int], fields: Sequence[str]) -> None:
    if not isinstance(value, dict):
        raise _fail(where, path, f"{json_path(path)} is not an object", "write a JSON object")
    for key in value:
        if key not in fields:
            raise _fail(
                where,
                [*path, key],
                f"unknown key {_shown(key)!r}",
                "use one of " + ", ".join(fields)[:200],
            )


def _check_mapping(where: str, value: Any, path: list[str | int]) -> None:
    """An object whose keys are the user's own names (hooks, files, env)."""
    if not isinstance(value, dict):
        raise _fail(where, path, f"{json_path(path)} is not an object", "write a JSON object")


def _check_type(
    where: str,
    data: Mapping[str, Any],
    path: list[str | int],
    key: str,
    kinds: type | tuple[type, ...],
    fix: str,
) -> None:
    """``data[key]``, when present, is one of ``kinds`` (a JSON true is not a number)."""
    if key not in data:
        return
    value = data[key]
    wrong_bool = isinstance(value, bool) and bool not in (
        kinds if isinstance(kinds, tuple) else (kinds,)
    )
    if not isinstance(value, kinds) or wrong_bool:
        raise _fail(where, [*path, key], f"{key} is {_json_kind(value)}", fix)


def _json_kind(value: Any) -> str:
    for kind, word in (
        (bool, "a boolean"),
        (str, "a string"),
        (dict, "an object"),
        (list, "a list"),
    ):
        if isinstance(value, kind):
            return word
    return "null" if value is None else "a number"


def _number(
    where: str, spec: Mapping[str, Any], path: list[str | int], key: str, high: float, whole: bool
) -> None:
    """``spec[key]``, when present, is a finite number from 0 to ``high`` (whole if ``whole``)."""
    value = spec.get(key)
    if value is None:
        return
    kind = "a whole number" if whole else "a number"
    fix = f"write {kind} from 0 to {high:g}"
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _fail(where, [*path, key], f"{key} is {_json_kind(value)}, not {kind}", fix)
    if not math.isfinite(value) or not 0 <= value <= high or (whole and value != int(value)):
        raise _fail(where, [*path, key], f"{key} is {value!r}, out of range", fix)


def _check_name(where: str, name: str, path: list[str | int], what: str) -> None:
    """A name that becomes a file name (or, with ``/``, a path inside a folder)."""
    if not name:
        raise _fail(where, path, f"{what} is empty", "give it a name")
    if "\0" in name:
        raise _fail(where, path, f"{what} holds a NUL character", "remove it")
    if _lone_surrogate(name):
        raise _fail(where, path, f"{what} holds a lone surrogate", _NO_SURROGATES)
    if len(name.encode("utf-8")) > PATH_BYTES:
        raise _fail(where, path, f"{what} is longer than {PATH_BYTES} bytes", "shorten it")
    for part in name.split("/"):
        if len(part.encode("utf-8")) > NAME_BYTES:
            raise _fail(
                where, path, f"{what} has a part longer than {NAME_BYTES} bytes", "shorten it"
            )


def _check_text(where: str, value: Any, path: list[str | int], what: str) -> None:
    """Text written to a file: a string without lone surrogates (UTF-8 cannot hold half a pair)."""
    if isinstance(value, str) and _lone_surrogate(value):
        raise _fail(where, path, f"{what} holds a lone surrogate", _NO_SURROGATES)


def check(data: Any, where: str) -> None:
    """Raise InputError (what, where, how to fix) for anything the runner cannot use."""
    from .expect import check_expectation

    _check_object(where, data, [], TOP_FIELDS)
    for key in ("prompt", "name", "about"):
        _check_type(where, data, [], key, str, "write a JSON string")
    _check_type(where, data, [], "trust", bool, "write true or false")
    _check_type(where, data, [], "covers", list, "write a list of strings")
    if "name" in data:
        _check_text(where, data["name"], ["name"], "the name")
        if "\0" in data["name"]:
            raise _fail(where, ["name"], "the name holds a NUL character", "remove it")
    mode = data.get("permissionMode")
    if mode is not None and mode not in PERMISSION_MODES:
        raise _fail(
            where,
            ["permissionMode"],
            "not a permission mode",
            "use one of " + ", ".join(PERMISSION_MODES),
        )
    _check_settings(data, where)
    _check_hooks(data, where)
    _check_files(data, where)
    _check_prompts(data, where)
    _check_env(data, where)
    _check_turns(data, where)
    _check_interactive(data, where)
    expectations = data.get("expect", [])
    if not isinstance(expectations, list):
        raise _fail(where, ["expect"], "expect is not a list", "write a list")
    for e, entry in enumerate(expectations):
        check_expectation(entry, where, ["expect", e])


def _check_settings(data: Mapping[str, Any], where: str) -> None:
    settings = data.get("settings", {})
    _check_object(where, settings, ["settings"], SETTINGS_SCOPES)
    for scope, value in settings.items():
        if not isinstance(value, dict | str):
            raise _fail(where, ["settings", scope], "a settings file is an object", "write {}")
        _check_text(where, value, ["settings", scope], "the settings text")


def _check_hooks(data: Mapping[str, Any], where: str) -> None:
    hooks = data.get("hooks", {})
    _check_mapping(where, hooks, ["hooks"])
    for name, body in hooks.items():
        path: list[str | int] = ["hooks", name]
        _check_name(where, name, path, "the hook name")
        if HOOK_NAME.fullmatch(name) is None or name.startswith("."):
            raise _fail(where, path, "a hook name is letters, digits, _ . and -", "rename it")
        if isinstance(body, dict):
            _check_object(where, body, path, HOOK_FIELDS)
            _number(where, body, path, "exit", 255, whole=True)
            _number(where, body, path, "sleep", HOOK_SLEEP_S, whole=False)
            _number(where, body, path, "times", 1_000_000, whole=True)
            _check_type(where, body, path, "err", str, "write a string")
            if "out" in body and not isinstance(body["out"], str | dict | list):
                raise _fail(
                    where, [*path, "out"], "out is not text or JSON", "write a string or an object"
                )
            for key in ("out", "err"):
                if key in body:
                    _check_text(where, json.dumps(body[key], ensure_ascii=False), [*path, key], key)
        elif isinstance(body, str):
            _check_text(where, body, path, "the hook")
            if "\0" in body:
                raise _fail(where, path, "the hook holds a NUL character", "remove it")
        else:
            raise _fail(where, path, "a hook is a sh body or an object", "fix it")


def _check_files(data: Mapping[str, Any], where: str) -> None:
    files = data.get("files", {})
    _check_mapping(where, files, ["files"])
    placed: set[str] = set()
    for name, body in files.items():
        path: list[str | int] = ["files", name]
        _check_name(where, name, path, "the file name")
        parts = [part for part in name.split("/") if part not in ("", ".")]
        if name.startswith("/") or ".." in parts or not parts:
            raise _fail(where, path, "a file must stay inside the project", "give a relative path")
        relative = "/".join(parts)
        folders = {"/".join(parts[:n]) for n in range(1, len(parts))}
        clash = (
            relative in placed
            or folders & placed
            or any(p.startswith(relative + "/") for p in placed)
        )
        if clash:
            raise _fail(
                where, path, "it is the same file as, or a folder of, another files key", "keep one"
            )
        placed.add(relative)
        if isinstance(body, dict):
            _check_object(where, body, path, ("from",))
            source = body.get("from")
            if not isinstance(source, str) or not source:
                raise _fail(
                    where,
                    [*path, "from"],
                    "from is not a file name",
                    "name a file beside the script",
                )
            _check_name(where, source, [*path, "from"], "from")
        elif isinstance(body, str):
            _check_text(where, body, path, "the file's text")
        else:
            raise _fail(where, path, "a file is a text or {from}", "fix it")


def _check_turns(data: Mapping[str, Any], where: str) -> None:
    turns = data.get("turns", [])
    if not isinstance(turns, list):
        raise _fail(where, ["turns"], "turns is not a list", "write a list of turns")
    for t, turn in enumerate(turns):
        _check_object(where, turn, ["turns", t], TURN_FIELDS)
        if turn.get("if") not in (None, "error", "ok"):
            raise _fail(where, ["turns", t, "if"], "unknown condition", 'use "error" or "ok"')
        if turn.get("text") is not None:
            _check_type(where, turn, ["turns", t], "text", str, "write a string")
        calls = turn.get("tools", [])
        if not isinstance(calls, list):
            raise _fail(where, ["turns", t, "tools"], "tools is not a list", "write a list")
        if len(calls) > MAX_CALLS:
            raise _fail(
                where,
                ["turns", t, "tools"],
                f"more than {MAX_CALLS} tool calls in one turn",
                "spread them over several turns",
            )
        for c, call in enumerate(calls):
            path: list[str | int] = ["turns", t, "tools", c]
            _check_object(where, call, path, TOOL_FIELDS)
            if not isinstance(call.get("name"), str) or not isinstance(call.get("input", {}), dict):
                raise _fail(where, path, "a tool call needs a name and an input object", "add them")
            _check_type(where, call, path, "id", str, "write a string")
            if call.get("classifier", "none") != "none":
                raise _fail(
                    where, [*path, "classifier"], 'classifier is not "none"', 'write "none"'
                )
            elicits = call.get("elicits")
            if elicits is not None:
                _check_object(where, elicits, [*path, "elicits"], ("message", "schema"))
                _check_type(where, elicits, [*path, "elicits"], "message", str, "write a string")
                _check_type(where, elicits, [*path, "elicits"], "schema", dict, "write an object")
            result = call.get("result")
            if result is not None:
                _check_object(where, result, [*path, "result"], ("text", "isError"))
                _check_type(where, result, [*path, "result"], "text", str, "write a string")
                _check_type(
                    where, result, [*path, "result"], "isError", bool, "write true or false"
                )


_NO_SURROGATES = "write the character whole: nothing can be passed on as UTF-8 with half of one"


def _lone_surrogate(text: str) -> bool:
    return any("\ud800" <= char <= "\udfff" for char in text)


def _check_env(data: Mapping[str, Any], where: str) -> None:
    env = data.get("env", {})
    _check_mapping(where, env, ["env"])
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
    if len(prompts) > MAX_PROMPTS:
        raise _fail(
            where, ["prompts"], f"more than {MAX_PROMPTS} prompts", "split it into several scripts"
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


ACTION_FIELDS = {
    "prompt": ("prompt",),
    "answer": ("answer", "feedback", "notified"),
    "command": ("command", "worktree"),
    "write": ("write", "text"),
}


def _check_interactive(data: Mapping[str, Any], where: str) -> None:
    """``interactive``: a list of the user's actions, each one kind with its own keys."""
    from .interactive import ANSWERS, COMMANDS, WORKTREE_ANSWERS

    if "interactive" not in data:
        return
    for key in ("prompt", "prompts"):
        if key in data:
            raise _fail(
                where, [key], f"{key} is given beside interactive", "type it as a prompt action"
            )
    actions = data["interactive"]
    if not isinstance(actions, list) or not actions:
        raise _fail(where, ["interactive"], "interactive is not a non-empty list", "list actions")
    if len(actions) > MAX_PROMPTS:
        raise _fail(where, ["interactive"], f"more than {MAX_PROMPTS} actions", "split it")
    for n, action in enumerate(actions):
        path: list[str | int] = ["interactive", n]
        kinds = [kind for kind in ACTION_FIELDS if isinstance(action, dict) and kind in action]
        if len(kinds) != 1:
            raise _fail(
                where, path, "an action is one of prompt, answer, command, write", "give one"
            )
        _check_object(where, action, path, ACTION_FIELDS[kinds[0]])
        for key in ("prompt", "feedback", "command", "write", "text"):
            _check_type(where, action, path, key, str, "write a JSON string")
            if isinstance(action.get(key), str) and (
                "\0" in action[key] or _lone_surrogate(action[key])
            ):
                raise _fail(
                    where, [*path, key], f"{key} holds a NUL or a lone surrogate", "remove it"
                )
        _check_type(where, action, path, "notified", bool, "write true or false")
        if "answer" in action and action["answer"] not in ANSWERS:
            raise _fail(where, [*path, "answer"], "not an answer", 'use "yes" or "no"')
        command = str(action.get("command", ""))
        if "command" in action and command.split(" ", 1)[0] not in COMMANDS:
            raise _fail(where, [*path, "command"], "not a command", "use " + ", ".join(COMMANDS))
        if "worktree" in action and (
            command != "/exit" or action["worktree"] not in WORKTREE_ANSWERS
        ):
            raise _fail(
                where,
                [*path, "worktree"],
                "worktree answers /exit's question in a --worktree session",
                'give "keep" or "remove" with "/exit"',
            )
        typed = action.get("prompt", action.get("feedback", command))
        if "\n" in str(typed) or "\r" in str(typed):
            raise _fail(where, path, "a typed line holds a line break", "type one line")


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse(text: str, where: str) -> Any:
    """The script's JSON, at most ``MAX_DEPTH`` levels deep; InputError for anything else."""
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        data = None
        deep = True
    except ValueError as error:
        raise InputError(
            where, f"it is not valid JSON ({error})"[:300], "fix the JSON syntax"
        ) from None
    else:
        deep = _deeper_than(data, MAX_DEPTH)
    if deep:
        raise InputError(
            where,
            f"it is nested more than {MAX_DEPTH} levels deep",
            "a session script needs far fewer: flatten it",
        )
    return data


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether ``value`` nests more than ``limit`` levels (counted without recursion)."""
    pending: list[tuple[Any, int]] = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict | list):
            if depth >= limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            pending.extend((child, depth + 1) for child in children)
    return False


def load(path: Path) -> SessionScript:
    """Read and check a session script file; InputError names the file and JSON path.

    Read as ``fire`` reads a payload: only a regular file, at most ``SCRIPT_CAP`` bytes
    (a FIFO or ``/dev/zero`` is refused before it is opened).
    """
    where = visible(str(path))[:PATH_SHOWN]
    try:
        text = read_bounded(str(path), SCRIPT_CAP, what="the session script").text
    except InputError as error:
        raise InputError(where, error.problem, error.fix) from None
    data = parse(text, where)
    check(data, where)
    return SessionScript(str(data.get("name") or path.stem), data, path.parent)


def from_data(data: Any, name: str, base: Path) -> SessionScript:
    """A script given as data (a notebook cell, a test)."""
    if _deeper_than(data, MAX_DEPTH):
        raise InputError(name, f"it is nested more than {MAX_DEPTH} levels deep", "flatten it")
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
        return f"sh {shlex.quote(str(self.hooks / name))}"

    def settings_file(self, scope: str) -> Path:
        return {
            "user": self.home / ".claude" / "settings.json",
            "project": self.project / ".claude" / "settings.json",
            "local": self.project / ".claude" / "settings.local.json",
        }[scope]


def scratch(prefix: str) -> Layout:
    """A fresh scratch root; the caller removes it (``shutil.rmtree``)."""
    # The name is the user's: only a short, plain slug of it goes into the folder's name.
    slug = _UNSAFE_PREFIX.sub("_", prefix)[:40]
    return Layout(Path(tempfile.mkdtemp(prefix=f"hookcourse-session-{slug}-")))


@contextlib.contextmanager
def laid_out(
    script: SessionScript, suffix: str = "", keep: bool = False, prelude: str = ""
) -> Iterator[Layout]:
    """A scratch folder with ``script`` laid out in it, removed afterwards unless ``keep``;
    ``prelude`` (a template given the layout) heads every hook script."""
    from hookcourse.system.interrupts import remove_on_interrupt

    layout = scratch(script.name + suffix)
    # An interrupt exits at once (os._exit); the registry deletes the folder then.
    remove_on_interrupt(str(layout.root), keep=not keep)
    try:
        lay_out(script, layout, prelude)
        yield layout
    finally:
        # Whatever a hook or a tool started and left running (setsid included) ends here,
        # before its folder goes.
        kill_traced()
        remove_on_interrupt(str(layout.root), keep=False)
        if not keep:
            shutil.rmtree(layout.root, ignore_errors=True)


def script_env(script: SessionScript, layout: Layout) -> dict[str, str]:
    """The script's ``env``, with ``@project`` and ``@home`` filled in."""
    return {
        key: str(value) for key, value in substitute(script.data.get("env", {}), layout).items()
    }


HOOK_REFERENCE = re.compile(r"@hook:([A-Za-z0-9_.-]+)")
"""``@hook:NAME``: the name runs to the first character a hook name cannot hold (a quote
or a newline in a file's text, a space before arguments)."""
HOOK_NAME = re.compile(r"[A-Za-z0-9_.-]+")
"""What a hook name may hold: what ``@hook:NAME`` can name inside any text."""


def substitute(value: Any, layout: Layout) -> Any:
    """``@hook:NAME`` -> ``sh <hooks>/NAME``; ``@project`` and ``@home`` -> the folders."""
    if isinstance(value, str):
        text = HOOK_REFERENCE.sub(lambda m: layout.hook_command(m.group(1)), value)
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
    if script.data.get("interactive") is not None and not isinstance(flag, str):
        # Interactive sessions start in auto mode; the default mode shows the dialogs.
        from .interactive import with_default_mode

        return json.dumps(with_default_mode(substitute(flag or {}, layout)))
    if flag is None:
        return None
    value = substitute(flag, layout)
    return value if isinstance(value, str) else json.dumps(value)


def claude_flags(script: SessionScript, layout: Layout) -> list[str]:
    """claude's ``--settings`` and ``--permission-mode`` for the script, if it sets them."""
    flags = []
    flag = flag_settings(script, layout)
    if flag is not None:
        flags += ["--settings", flag]
    mode = script.data.get("permissionMode")
    if mode:
        flags += ["--permission-mode", str(mode)]
    return flags


def lay_out(script: SessionScript, layout: Layout, prelude: str = "") -> None:
    """Write the script's home, project, settings files, hook scripts and trust entry;
    ``prelude``: ``@dumps`` in it is the layout's dump folder, made."""
    if prelude:
        layout.dumps.mkdir(parents=True, exist_ok=True)
        # The folder goes into a %-template: its own % doubled.
        folder = shlex.quote(str(layout.dumps)).replace("%", "%%")
        prelude = prelude.replace("@dumps", folder)
    write_layout(script.data, layout, script.base, script.name, prelude)


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
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise InputError(
                where,
                f"cannot make its folder ({error.strerror})",
                "rename it",
                ["files", _shown(relative)],
            ) from None
        if isinstance(body, dict):
            _copy(base, str(body["from"]), target, where, relative)
        else:
            target.write_text(substitute(body, layout), encoding="utf-8")
    state: dict[str, Any] = {"hasCompletedOnboarding": True, "projects": {}}
    if data.get("trust") or data.get("interactive") is not None:
        from .interactive import TRUSTED_PROJECT

        state["projects"][str(layout.project)] = dict(TRUSTED_PROJECT)
    (layout.home / ".claude.json").write_text(json.dumps(state), encoding="utf-8")


def _copy(base: Path, name: str, target: Path, where: str, relative: str) -> None:
    """Copy the regular file ``name`` (relative to the script's folder) to ``target``.

    Bounded as a script is read: a FIFO, a device or a file over ``COPY_CAP`` is refused
    before a byte is copied.
    """
    path: list[str | int] = ["files", _shown(relative), "from"]
    shown = visible(name)[:PATH_SHOWN]
    source = base / name
    try:
        real = os.path.realpath(source)
        status = os.stat(real)
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or "not a file name"
        raise InputError(
            where,
            f"cannot copy {shown} ({reason})",
            "give a file beside the script",
            path,
        ) from None
    kind = "a directory" if os.path.isdir(real) else special_kind(status.st_mode)
    if kind is not None:
        raise InputError(
            where,
            f"{shown} is {kind}, not a regular file",
            "give a regular file",
            path,
        )
    if status.st_size > COPY_CAP:
        raise InputError(
            where,
            f"{shown} is larger than {COPY_CAP // 1_048_576} MiB",
            "give a smaller file",
            path,
        )
    try:
        descriptor = os.open(real, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        try:
            # Checked again once open, in case the name was swapped for a FIFO meanwhile.
            if special_kind(os.fstat(descriptor).st_mode) is not None:
                raise InputError(where, f"{shown} is not a regular file", "give one", path)
            data = read_descriptor(descriptor, COPY_CAP, where, "the file", regular=True)
        finally:
            os.close(descriptor)
    except OSError as error:
        raise InputError(
            where, f"cannot copy {shown} ({error.strerror})", "give a readable file", path
        ) from None
    try:
        target.write_bytes(data)
        os.chmod(target, status.st_mode & 0o777)
    except OSError as error:
        raise InputError(where, f"cannot write it ({error.strerror})", "rename it", path) from None
