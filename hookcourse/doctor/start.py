"""Will a command hook's process start on this machine? The program its command runs and
the interpreter its script's ``#!`` line names, looked for on the PATH hooks get (not the
user's interactive shell's); the settings' ``env`` values, which Claude Code passes as
written.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from hookcourse.engine.lint.facts import load_facts
from hookcourse.engine.lint.rules_command import misspelling_of
from hookcourse.engine.lint.shell import (
    Base,
    Quoting,
    script_call,
    simple_commands,
    variable_uses,
    wrapped_script,
)
from hookcourse.engine.settings import CommandHandler, Settings, SettingsLayer
from hookcourse.errors import json_path
from hookcourse.shell import Piece, lex
from hookcourse.shell import Word as ShellWord

from .findings import Finding, Reach
from .places import Machine
from .plugins import plugin_root_of

SHELL_WORDS: Final = frozenset(
    {
        "cd", "echo", "printf", "exit", "true", "false", ":", "test", "[", "export", "set",
        "source", ".", "if", "then", "for", "while", "case", "exec", "env", "command",
        "read", "return", "eval", "trap", "unset", "shift", "pushd", "popd", "local", "wait",
    }
)  # fmt: skip
"""Shell builtins and keywords: never looked for on PATH."""
ADDED_BY_SHELL_STARTUP: Final = (
    ".nvm/versions/node/*/bin",
    ".volta/bin",
    ".local/share/fnm/node-versions/*/installation/bin",
    ".fnm/node-versions/*/installation/bin",
    ".asdf/shims",
    ".local/share/mise/shims",
    ".pyenv/shims",
    ".pyenv/versions/*/bin",
    ".bun/bin",
    ".deno/bin",
    ".cargo/bin",
    ".local/bin",
    ".nix-profile/bin",
)
"""Folders (below home) that version managers and installers put on PATH from a shell's
startup files (.bashrc, .zshrc, .profile), which ``sh -c`` does not read."""
SYSTEM_EXTRA: Final = ("/opt/homebrew/bin", "/usr/local/bin", "/snap/bin")
POSIX_ENVIRONMENT: Final = frozenset(
    {"HOME", "PATH", "USER", "LOGNAME", "SHELL", "PWD", "OLDPWD", "TMPDIR", "LANG", "TERM", "IFS"}
)
"""Variables any process here has, whatever the environment doctor itself was given."""
SHEBANG_BYTES: Final = 256
"""How much of a ``#!`` line Linux reads (BINPRM_BUF_SIZE)."""
_ASSIGNMENT: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_VARIABLE_IN_VALUE: Final = re.compile(r"\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|^~(?=/|$)")


def command_handlers(read: list[SettingsLayer]) -> Iterator[tuple[SettingsLayer, CommandHandler]]:
    """Every shell-form or exec-form command handler of the layers read."""
    for layer in read:
        for group in layer.groups:
            for handler in group.handlers:
                if isinstance(handler, CommandHandler) and handler.shell != "powershell":
                    yield layer, handler


def program_of(handler: CommandHandler) -> str | None:
    """The program the command starts by name (looked for on PATH), or None when it starts
    a path, a builtin, or words that cannot be read."""
    if handler.args is not None:
        word = handler.command
    else:
        command = handler.command
        inner = wrapped_script(command)
        while inner is not None:  # sh -c '...': the program is the inner script's
            command, inner = inner, wrapped_script(inner)
        commands = simple_commands(command, limit=3, as_variables=False)
        words = next((c for c in commands if c and c[0].value not in ("cd", "pushd")), None)
        if not words:
            return None
        rest = list(words)
        while rest and (_ASSIGNMENT.match(rest[0].value) or rest[0].value in ("exec", "env")):
            rest = rest[1:]
        if not rest or rest[0].opaque:
            return None
        word = rest[0].value
    if "/" in word or "$" in word or word in SHELL_WORDS or not word:
        return None
    return word


def _eaten_backslashes(handler: CommandHandler) -> tuple[str, str] | None:
    """The first word of a shell-form command with a backslash outside quotes before a
    letter or a dot, and that word as sh reads it; None when there is none."""
    command = handler.command
    if handler.args is not None or "\\" not in command:
        return None
    for token in lex(command).tokens:
        if isinstance(token, ShellWord) and any(_eats(piece) for piece in token.pieces):
            return token.raw, token.value
    return None


def _eats(piece: Piece) -> bool:
    """An escape outside quotes that drops its backslash before a letter, digit or dot."""
    unquoted = piece.escaped and piece.quoting is Quoting.NONE
    return unquoted and (piece.value.isalnum() or piece.value in (".", "_"))


def where_else(program: str, home: Path) -> Path | None:
    """Where ``program`` is installed outside the hooks' PATH: a version manager's folder
    below home, or a system folder that login shells add."""
    for pattern in ADDED_BY_SHELL_STARTUP:
        for folder in sorted(home.glob(pattern), reverse=True):
            candidate = folder / program
            if candidate.is_file() and candidate.stat().st_mode & 0o111:
                return candidate
    for folder in map(Path, SYSTEM_EXTRA):
        candidate = folder / program
        if candidate.is_file() and candidate.stat().st_mode & 0o111:
            return candidate
    return None


def _missing(program: str, place: str, machine: Machine, how: str) -> Finding:
    elsewhere = where_else(program, machine.home)
    if elsewhere is not None:
        return Finding(
            "interpreter-not-on-hook-path",
            Reach.STOPS_HOOK,
            f"{program} is not on the PATH hooks get",
            place,
            f"{how}, but {program} lives in {elsewhere.parent}, which your shell's startup files "
            "put on PATH; hooks run through sh -c with Claude Code's own PATH and read no "
            f"startup file, so sh answers '{program}: not found' (exit 127), a non-blocking "
            "error: the hook does nothing",
            f"name it by its full path ({elsewhere}) in the command, or start Claude Code "
            "from an environment whose PATH has that folder",
        )
    return Finding(
        "program-missing",
        Reach.STOPS_HOOK,
        f"{program} is not installed where hooks look",
        place,
        f"{how}, but no {program} is on the PATH hooks get or in the usual install folders: sh "
        "exits 127, a non-blocking error, so the hook does nothing",
        f"install {program}, or name it by its full path in the command",
    )


def script_of(layer: SettingsLayer, handler: CommandHandler, machine: Machine) -> Path | None:
    """The script file the command runs, where doctor can place it (a plugin's hooks resolve
    ${CLAUDE_PLUGIN_ROOT} to the plugin's folder)."""
    if handler.args is not None:
        return None
    facts = load_facts()
    call = script_call(handler.command, facts.script_extensions, frozenset(facts.interpreters))
    if call is None or (call.after_cd and call.cd_base is None):
        return None
    roots = {Base.PROJECT: machine.project_dir, Base.HOME: machine.home}
    plugin = plugin_root_of(layer.file)
    if plugin is not None:
        roots[Base.PLUGIN] = plugin
    if call.base is Base.ABSOLUTE:
        return Path(call.rest)
    if call.base is Base.RELATIVE:
        return machine.project_dir / call.rest
    root = roots.get(call.base)
    return None if root is None else root / call.rest


def _shebang_program(script: Path) -> tuple[str, bool] | None:
    """The interpreter a ``#!`` line names, and whether it is looked up on PATH (env)."""
    try:
        with script.open("rb") as file:
            first = file.readline(SHEBANG_BYTES + 1)
    except OSError:
        return None
    if not first.startswith(b"#!") or not first.endswith(b"\n") or b"\0" in first:
        return None  # a #! line longer than the kernel reads: it is not read as one
    words = first[2:].decode("utf-8", "replace").rstrip("\n").split()
    if not words or words[0].endswith("\r"):
        return None  # a CRLF shebang: validate's script-crlf says so
    if words[0].rsplit("/", 1)[-1] == "env":
        named = [w for w in words[1:] if not w.startswith("-")]
        return (named[0].rstrip("\r"), True) if named else None
    return words[0], False


def _is_file(name: str) -> bool:
    try:
        return Path(name).is_file()
    except (OSError, ValueError):  # a name too long for the file system
        return False


def start_problems(
    settings: Settings, read: list[SettingsLayer], machine: Machine
) -> Iterator[Finding]:
    """Every reason a command hook's process would not start here."""
    path = machine.hook_path
    for layer, handler in command_handlers(read):
        place = f"{layer.file}: {json_path(handler.origin.path)}.command"
        eaten = _eaten_backslashes(handler)
        if eaten is not None:
            yield Finding(
                "backslashes-eaten",
                Reach.STOPS_HOOK,
                "sh removes the backslashes of an unquoted Windows path",
                place,
                f"outside quotes a backslash only escapes the next character, so sh reads "
                f"{eaten[0]!r} as {eaten[1]!r}, which names nothing: exit 127, a non-blocking "
                "error, so the hook does nothing",
                "write the path with forward slashes (C:/Users/...), or inside single quotes",
            )
            continue
        program = program_of(handler)
        if program is not None and shutil.which(program, path=path) is None:
            yield _missing(program, place, machine, f"the command runs {program}")
        script = script_of(layer, handler, machine)
        if script is None or not script.is_file():
            continue
        shebang = _shebang_program(script)
        if shebang is None:
            continue
        interpreter, on_path = shebang
        if on_path and shutil.which(interpreter, path=path) is None:
            yield _missing(
                interpreter,
                place,
                machine,
                f"{script.name}'s #! line runs {interpreter} through env",
            )
        elif not on_path and not _is_file(interpreter):
            yield Finding(
                "shebang-interpreter-missing",
                Reach.STOPS_HOOK,
                f"{script.name} names an interpreter this machine does not have",
                place,
                f"its #! line names {interpreter}, which does not exist here, so the kernel cannot "
                "start the script and sh exits 127: the hook does nothing",
                "write #!/usr/bin/env " + interpreter.rsplit("/", 1)[-1] + " so PATH finds it",
            )
    yield from _unexpanded_env(settings, read)
    yield from _unset_variables(settings, read, machine)


def _unset_variables(
    settings: Settings, read: list[SettingsLayer], machine: Machine
) -> Iterator[Finding]:
    """Variables a shell-form command uses that nothing sets for the hook: not the settings'
    env, not Claude Code's environment, not Claude Code itself (validate names the ones it
    never sets under CLAUDE_)."""
    facts = load_facts()
    known = machine.environment | facts.environment | set(dict(settings.env)) | POSIX_ENVIRONMENT
    for layer, handler in command_handlers(read):
        if handler.args is not None:
            continue
        for use in variable_uses(handler.command):
            name = use.name
            if name in known or use.defaulted or use.assigned or name.startswith("CLAUDE_"):
                continue
            if name.startswith(facts.environment_prefixes) or re.search(
                rf"(^|[\s;&|(]){name}=", handler.command
            ):
                continue
            meant = misspelling_of(name)
            in_path = re.search(rf"\${{?{name}}}?/", handler.command) is not None
            yield Finding(
                "unset-variable",
                Reach.STOPS_HOOK if in_path else Reach.CHANGES,
                f"${name} is set nowhere the hook would get it",
                f"{layer.file}: {json_path(handler.origin.path)}.command",
                f"${name} is not in the settings' env, not in Claude Code's environment, and "
                "Claude Code does not set it, so sh expands it to an empty string"
                + ("; the path it starts becomes /..., which does not exist" if in_path else "")
                + (f"; it looks like a misspelling of ${meant}" if meant else ""),
                f"write ${meant}"
                if meant
                else f"set {name} in the settings' env, or write the value out",
            )
            known = known | {name}


def _unexpanded_env(settings: Settings, read: list[SettingsLayer]) -> Iterator[Finding]:
    """Settings ``env`` values holding ``$NAME`` or ``~``: passed as written, never expanded."""
    commands = [
        handler.command + " " + " ".join(handler.args or ())
        for _l, handler in command_handlers(read)
    ]
    for name, value in settings.env:
        match = _VARIABLE_IN_VALUE.search(value)
        if match is None:
            continue
        used = any(re.search(rf"\${{?{re.escape(name)}\b", command) for command in commands)
        layer = next((ly for ly in reversed(read) if dict(ly.env).get(name) == value), None)
        where = f"{layer.file}: $.env.{name}" if layer else f"$.env.{name}"
        yield Finding(
            "settings-env-not-expanded",
            Reach.STOPS_HOOK if used else Reach.CHANGES,
            f"{name} is set to the literal text {value!r}",
            where,
            "Claude Code passes settings env values as written, without a shell, so "
            f"{match.group(0)} is never expanded and {name} holds those characters"
            + (
                f"; a hook command that uses ${name} then names a path that starts with "
                f"{match.group(0)} and does not exist"
                if used
                else ""
            ),
            "write the value out in full, such as an absolute path",
        )
