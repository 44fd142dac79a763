"""Rules on what a command hook runs: quoting of the path placeholders, variables Claude
Code never sets, and the script file itself (where it is, whether it exists and can run).

File checks read the project (``--project-dir``, default: the settings file's project) and
the plugin (``--plugin-root``, default: the folder holding hooks/hooks.json) through the
place's ``probe``; a path outside both is reported as out of reach, never guessed at.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator
from pathlib import PurePath
from typing import Final

from hookcourse.js.json import quote as quote_text

from ..placeholders import PLACEHOLDERS
from ..settings import CommandHandler
from .facts import load_facts
from .registry import Hit, Scope, Severity, rule
from .shell import (
    SHELLS,
    Base,
    Quoting,
    ScriptCall,
    VariableUse,
    script_call,
    simple_commands,
    variable_uses,
    wrapped_script,
)
from .sites import FileKind, FilePlace, HandlerSite

SKILL_DIR: Final = "CLAUDE_SKILL_DIR"
"""Skills substitute ${CLAUDE_SKILL_DIR} in their text; validate does not call it invented
in a skill's frontmatter (precision first), only elsewhere."""
STOP_LIKE: Final = frozenset({"Stop", "SubagentStop", "TaskCompleted", "TeammateIdle"})
"""2.1.332 §4.2: there, exit 2 from a missing script is downgraded to a non-blocking error."""
_MACHINE_PATH: Final = re.compile(
    r"(?<![\w$.~-])(/Users/[^/\s\"']+|/home/[^/\s\"']+|/Volumes/[^/\s\"']+|/mnt/[a-z]/Users/"
    r"[^/\s\"']+|[A-Za-z]:[\\/]{1,2}Users[\\/]{1,2}[^\\/\s\"']+)",
)


@rule(
    "unquoted-placeholder",
    Severity.WARNING,
    '§7a: in shell form, quote them ("${CLAUDE_PROJECT_DIR}"); §9 issue #5648: an unquoted '
    "path word-splits and fails with exit 127",
    Scope.HANDLER,
    "${CLAUDE_PROJECT_DIR}, $CLAUDE_PROJECT_DIR (or the plugin ones) outside quotes in a "
    "shell command: a path with a space splits",
)
def unquoted_placeholder(site: HandlerSite) -> Iterator[Hit]:
    command = site.shell_command
    if command is None:
        return
    reported: set[str] = set()
    for use, wrapper in _placeholder_uses(command):
        if use.quoting is not Quoting.NONE or use.assigned:
            continue
        written = f"${{{use.name}}}" if use.substituted else f"${use.name}"
        if written in reported or (wrapper and use.substituted and _pasted_in_single(command)):
            continue  # a pasted path re-read by the inner shell is placeholder-in-shell's
        reported.add(written)
        where = f"the {wrapper} -c script" if wrapper else "a shell command"
        splitter = f"the inner {wrapper}" if wrapper else "sh -c"
        yield site.hit(
            "command",
            f"{written} is unquoted in {where}: {splitter} splits the path at spaces, so in "
            f"a folder whose path has a space {_split_effect(site, use.name, wrapper)}",
            f'quote it: "{written}"/...'
            + (
                f" inside the {wrapper} -c script"
                if wrapper
                else f', or exec form: "args": ["${{{use.name}}}/..."]'
            ),
        )


_CD_FAILS: Final = {"sh": 2, "dash": 2, "bash": 1, "zsh": 1, "ksh": 1}
"""What a shell exits with when ``cd`` is handed a split path (POSIX sh: 2, bash: 1)."""


def _split_effect(site: HandlerSite, name: str, wrapper: str | None) -> str:
    """What a split path does: the script it names is not found, or cd fails."""
    call = _call(site)
    base = {"CLAUDE_PROJECT_DIR": Base.PROJECT, "CLAUDE_PLUGIN_ROOT": Base.PLUGIN}.get(name)
    if call is not None and call.base is base and base is not None:
        status = _exit_when_missing(call)
        runner = "sh" if call.program is None else call.program
        return f"{runner} does not find the script and exits {status}: " + effect_of_exit(
            site, status
        )
    inner = wrapped_script(site.shell_command or "") if wrapper else site.shell_command
    words = simple_commands(inner or "", limit=1)
    if words and words[0] and words[0][0].value == "cd":
        status = _CD_FAILS.get(wrapper or "sh", 1)
        return f"cd fails (exit {status}): " + effect_of_exit(site, status, missing=False)
    return "the command is handed two broken words instead of the path and fails"


def _placeholder_uses(command: str) -> Iterator[tuple[VariableUse, str | None]]:
    """The path placeholders the outer shell reads, then those the script of a
    ``bash -c`` wrapper reads (with the wrapper's name)."""
    for use in variable_uses(command):
        if use.name in PLACEHOLDERS:
            yield use, None
    inner = wrapped_script(command)
    if inner is not None:
        wrapper = simple_commands(command, limit=1)[0]
        name = next(w.value for w in wrapper if w.value.rsplit("/", 1)[-1] in SHELLS)
        for use in variable_uses(inner):
            if use.name in PLACEHOLDERS:
                yield use, name.rsplit("/", 1)[-1]


def _pasted_in_single(command: str) -> bool:
    return any(
        use.name in PLACEHOLDERS and use.substituted and use.quoting is Quoting.SINGLE
        for use in variable_uses(command)
    )


@rule(
    "placeholder-in-shell",
    Severity.WARNING,
    "§7a: placeholders are substituted as text in shell form, before the shell runs",
    Scope.HANDLER,
    "${CLAUDE_PLUGIN_ROOT} and friends inside single quotes, where the pasted path is "
    "re-read (a nested sh -c '...', or a path holding a ')",
)
def placeholder_in_shell(site: HandlerSite) -> Iterator[Hit]:
    command = site.shell_command
    if command is None:
        return
    inner = wrapped_script(command)
    quoted_inside = {
        use.name
        for use in variable_uses(inner or "")
        if use.name in PLACEHOLDERS and use.quoting is not Quoting.NONE
    }
    for use in variable_uses(command):
        if use.name in PLACEHOLDERS and use.substituted and use.quoting is Quoting.SINGLE:
            if inner is not None and use.name in quoted_inside:
                continue  # bash -c '... "${X}" ...': the inner shell reads it quoted
            yield site.hit(
                "command",
                f"${{{use.name}}} is pasted as text inside '...' before the shell runs: a "
                "nested shell (bash -c '...') then reads the path unquoted, and a path "
                "holding ' ends the quoting",
                f'use the variable "${use.name}", which the shell expands, in double quotes',
            )
            return


def _invented(name: str, known_env: set[str]) -> bool:
    facts = load_facts()
    if name in known_env or name in facts.environment:
        return False
    if name in facts.invented_variables:
        return True
    return name.startswith("CLAUDE_") and not name.startswith(facts.environment_prefixes)


def misspelling_of(name: str) -> str | None:
    """The variable Claude Code sets that ``name`` most likely misspells (a typo, or its name
    without the CLAUDE_ prefix), or None."""
    facts = load_facts()
    known = sorted(facts.environment | set(PLACEHOLDERS))
    if name in known:
        return None
    suffixed = [real for real in known if real.endswith("_" + name) and len(name) >= 6]
    if suffixed:
        return suffixed[0]
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.9)
    return close[0] if close else None


_COMMON_FIELDS: Final = frozenset(
    {"session_id", "transcript_path", "cwd", "hook_event_name", "permission_mode"}
)


def _stdin_field(name: str) -> str:
    facts = load_facts()
    if name in facts.stdin_field:
        return facts.stdin_field[name]
    if "FILE_PATH" in name or "INPUT_PATH" in name:
        return "tool_input.file_path"
    return "tool_input"


@rule(
    "invented-variable",
    Severity.ERROR,
    "§7a: the variables Claude Code sets; §10.14: no $CLAUDE_TOOL_INPUT, input is JSON on stdin",
    Scope.HANDLER,
    "a variable Claude Code never sets ($CLAUDE_TOOL_INPUT, $CLAUDE_FILE_PATHS, "
    "$TOOL_INPUT_PATH): it expands to nothing",
)
def invented_variable(site: HandlerSite) -> Iterator[Hit]:
    command = site.shell_command
    if command is None:
        return
    env = site.document.get("env") if isinstance(site.document, dict) else None
    known = set(env) if isinstance(env, dict) else set()
    reported: set[str] = set()
    for use in variable_uses(command):
        name = use.name
        if name in reported or not _invented(name, known):
            continue
        if name == SKILL_DIR and site.place.kind is FileKind.SKILL:
            continue  # a skill's own placeholder, which the reference does not settle for hooks
        if re.search(rf"(^|[\s;&|(]){name}=|\bread\b[^;&|]*\b{name}\b", command):
            continue  # the command sets it itself
        reported.add(name)
        meant = misspelling_of(name)
        if meant is not None:
            yield site.hit(
                "command",
                f"Claude Code sets no ${name}: it expands to an empty string; it looks like a "
                f"misspelling of ${meant}",
                f"write ${meant}",
            )
            continue
        field = _stdin_field(name)
        top = field.split(".", 1)[0].split(" ", 1)[0]
        fields = (*site.spec.input_fields, *site.spec.optional_input_fields)
        if top not in fields and top not in _COMMON_FIELDS:
            shown = ", ".join(fields[:6]) or "session_id, cwd"
            yield site.hit(
                "command",
                f"Claude Code sets no ${name}: it expands to an empty string, so the hook sees "
                f"nothing there; the hook input arrives as JSON on stdin, and {site.spec.name} "
                f"sends {shown}",
                "read what you need from stdin, such as jq -c . (the whole input)",
            )
            continue
        yield site.hit(
            "command",
            f"Claude Code sets no ${name}: it expands to an empty string, so the hook sees "
            "nothing there; the hook input arrives as JSON on stdin",
            f"read it from stdin, such as jq -r '.{field}'",
        )


@rule(
    "variable-unset-here",
    Severity.ERROR,
    "2.1.332 §9: CLAUDE_ENV_FILE only for SessionStart, Setup, CwdChanged and FileChanged; "
    "CLAUDE_PLUGIN_ROOT, CLAUDE_PLUGIN_DATA and CLAUDE_PLUGIN_OPTION_<KEY> only for plugin hooks",
    Scope.HANDLER,
    "a variable Claude Code sets, but not for this hook: $CLAUDE_ENV_FILE outside the four "
    "events that get it, $CLAUDE_PLUGIN_ROOT outside a plugin: it expands to nothing",
)
def variable_unset_here(site: HandlerSite) -> Iterator[Hit]:
    command = site.shell_command
    if command is None:
        return
    facts = load_facts()
    reported: set[str] = set()
    for use in variable_uses(command):
        name = use.name
        if name in reported or use.defaulted or re.search(rf"(^|[\s;&|(]){name}=", command):
            continue
        events = facts.event_only_variables.get(name)
        if events is not None and site.spec.name not in events:
            reported.add(name)
            yield site.hit(
                "command",
                f"Claude Code sets ${name} only for {', '.join(events)} hooks; on "
                f"{site.spec.name} it is empty, so a redirection to it fails (sh exits 2: "
                + effect_of_exit(site, 2, missing=False)
                + ")",
                f"move this handler to a {events[0]} hook (or {', '.join(events[1:])})",
            )
            continue
        plugin_only = name in facts.plugin_only_variables or name.startswith(
            facts.plugin_only_prefixes
        )
        if plugin_only and _surely_not_plugin(site.place):
            reported.add(name)
            written = f"${{{name}}}" if use.substituted else f"${name}"
            yield site.hit(
                "command",
                f"{written} is set only for a plugin's hooks; in this {site.place.kind} file it "
                "is empty, so the path it starts is wrong and the hook fails",
                'write "$CLAUDE_PROJECT_DIR"/... for the project\'s files, or move the hook '
                "into the plugin's hooks/hooks.json",
            )


_ARGS_VARIABLE: Final = re.compile(
    r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)([^}]*)\}|([A-Za-z_][A-Za-z0-9_]*))"
)


@rule(
    "variable-in-args",
    Severity.ERROR,
    "2.1.332 §2.2: args (exec form) has its path placeholders substituted element by element, "
    "and no shell is involved",
    Scope.HANDLER,
    'a shell variable in exec form ("args": ["$HOME/x.py"], $CLAUDE_PROJECT_DIR without '
    "braces): no shell expands it, so the program gets the text as written",
)
def variable_in_args(site: HandlerSite) -> Iterator[Hit]:
    found = _args_variable(site)
    if found is None:
        return
    name, written, index, word = found
    fix = (
        f'write "${{{name}}}", the placeholder Claude Code substitutes in args'
        if name in PLACEHOLDERS
        else f'use shell form (no "args"): "command": "... \\"${name}/...\\""'
    )
    call = _call(site)
    effect = ""
    if call is not None and call.path == word.replace(written, "$" + name):
        status = _exit_when_missing(call)
        runner = "it" if call.program is None else call.program
        effect = (
            f"; {runner} does not find that file (exit {status}: "
            + effect_of_exit(site, status)
            + ")"
        )
    path = ("command",) if index == 0 else ("args", index - 1)
    yield Hit(
        (*site.handler.origin.path, *path),
        f"{written} in exec form is passed as written: no shell expands it, so the program "
        f"is handed the literal text {quote_text(word)}{effect}",
        fix,
    )


def _args_variable(site: HandlerSite) -> tuple[str, str, int, str] | None:
    """The first shell variable in an exec form's words: name, as written, word index, word."""
    handler = site.handler
    if not isinstance(handler, CommandHandler) or handler.args is None:
        return None
    words = (handler.command, *handler.args)
    for index, word in enumerate(words):
        if index >= 2 and _is_shell_script(words[0], words[index - 1]):
            return None  # sh -c 'script': that shell expands the script's variables
        for match in _ARGS_VARIABLE.finditer(word):
            name = match.group(1) or match.group(3)
            if match.group(1) and name == "user_config" and match.group(2).startswith("."):
                continue  # ${user_config.KEY}: substituted in exec form (§7a, 2.1.207)
            if not (match.group(1) and not match.group(2) and name in PLACEHOLDERS):
                return name, match.group(0), index, word
    return None


def _is_shell_script(program: str, before: str) -> bool:
    """``before`` is the -c flag of a POSIX shell, so the next word is a shell script."""
    return (
        program.rsplit("/", 1)[-1] in SHELLS and re.fullmatch(r"-[a-z]*c[a-z]*", before) is not None
    )


def _call(site: HandlerSite) -> ScriptCall | None:
    text = site.command_line
    if text is None:
        return None
    facts = load_facts()
    return script_call(text, facts.script_extensions, frozenset(facts.interpreters))


def _in_plugin(place: FilePlace) -> bool:
    """The file is a plugin's: its hooks.json, or a skill or agent inside the plugin."""
    if place.kind.frontmatter:
        return place.plugin_root is not None and place.project_dir is None
    return place.kind is FileKind.PLUGIN


def _surely_not_plugin(place: FilePlace) -> bool:
    """Settings files, and skills or agents known to be a project's, are not a plugin's."""
    if place.kind.frontmatter:
        return place.project_dir is not None and place.plugin_root is None
    return place.kind is not FileKind.PLUGIN


def _placeholder_for(place: FilePlace) -> str:
    return '"${CLAUDE_PLUGIN_ROOT}"' if _in_plugin(place) else '"$CLAUDE_PROJECT_DIR"'


def _shared(place: FilePlace) -> bool:
    """Committed or installed on other machines: project settings, a plugin, and the skills
    and agents of either."""
    if place.kind.frontmatter:
        return place.project_dir is not None or place.plugin_root is not None
    return place.kind in (FileKind.PROJECT, FileKind.PLUGIN)


@rule(
    "relative-script-path",
    Severity.WARNING,
    "§2: cwd follows Claude (after cd it is the new directory); CLAUDE_PROJECT_DIR does not move",
    Scope.HANDLER,
    "a script named by a relative path: hooks run in the session's current directory, so "
    "after Claude runs cd it is not found",
)
def relative_script_path(site: HandlerSite) -> Iterator[Hit]:
    call = _call(site)
    if call is None or call.base is not Base.RELATIVE or call.after_cd:
        return
    if _in_plugin(site.place):
        message = (
            f"{call.path} is relative, and hooks run in the session's current directory (the "
            "user's project, then wherever Claude cds), never the plugin's folder, so it is "
            "not found and the hook does nothing"
        )
    else:
        message = (
            f"{call.path} is relative to the session's current directory, which follows "
            "Claude's cd: after a cd it is not found and the hook does nothing"
        )
    rest = call.path[2:] if call.path.startswith("./") else call.path
    yield site.hit(
        "command",
        message,
        f"write {_placeholder_for(site.place)}/{rest}",
    )


def _root(site: HandlerSite, call: ScriptCall) -> tuple[PurePath | None, str]:
    """Where the script is looked for, and the path below it ("" root: out of reach)."""
    place = site.place
    if call.base is Base.PROJECT:
        return place.project_dir, call.rest
    if call.base is Base.PLUGIN:
        return place.plugin_root, call.rest
    if call.base is Base.RELATIVE and not call.after_cd and not _in_plugin(place):
        return place.project_dir, call.rest
    if call.base is Base.RELATIVE and call.cd_base is Base.PROJECT:
        return place.project_dir, call.rest.removeprefix("./")
    if call.base is Base.RELATIVE and call.cd_base is Base.PLUGIN:
        return place.plugin_root, call.rest.removeprefix("./")
    if call.base is Base.ABSOLUTE:
        path = PurePath(call.rest)
        for root in (place.project_dir, place.plugin_root):
            if root is not None and path.is_relative_to(root):
                return root, str(path.relative_to(root))
    return None, call.rest


def located_script(site: HandlerSite) -> tuple[ScriptCall, PurePath] | None:
    """The script the handler runs and where it lies, when validate can reach it."""
    call = _call(site)
    if call is None:
        return None
    root, rest = _root(site, call)
    if root is None or not rest:
        return None
    return call, root / rest


def _exit_when_missing(call: ScriptCall) -> int:
    return 127 if call.program is None else load_facts().interpreters.get(call.program, 1)


def effect_of_exit(site: HandlerSite, status: int, missing: bool = True) -> str:
    """What Claude Code does with ``status``; ``missing``: the stderr says a file is missing
    (2.1.332 §4.2 downgrades exit 2 then on Stop-like events and plugin UserPromptSubmit)."""
    spec = site.spec
    downgraded = missing and (
        spec.name in STOP_LIKE or (spec.name == "UserPromptSubmit" and _in_plugin(site.place))
    )
    if status == 2 and spec.can_block and not downgraded:
        matcher = site.group.matcher
        if spec.name == "UserPromptSubmit":
            return "exit 2 blocks, so every prompt is refused with that error"
        calls = f"{matcher} call" if matcher not in (None, "", "*") else "call"
        return f"exit 2 blocks, so on {spec.name} every {calls} is refused with that error"
    return f"exit {status} is a non-blocking error, so the hook does nothing"


@rule(
    "script-missing",
    Severity.ERROR,
    "§3a: a hook that can't start (exit 127 for a missing script) is a non-blocking error; "
    "a mistyped path leaves a policy gate silently disabled",
    Scope.HANDLER,
    "a script that does not exist in the project or plugin (checked with --project-dir and "
    "--plugin-root)",
)
def script_missing(site: HandlerSite) -> Iterator[Hit]:
    probe = site.place.probe
    call = _call(site)
    if call is None or probe is None:
        return
    root, rest = _root(site, call)
    if root is None or not rest:
        return
    if probe(root / rest).exists:
        return
    status = _exit_when_missing(call)
    runner = "sh" if call.program is None else call.program
    yield site.hit(
        "command",
        f"{rest} does not exist in {root}: {runner} exits {status}, and "
        + effect_of_exit(site, status),
        f"create {rest}, or fix the path",
    )


_QUOTED_TILDE: Final = re.compile(r"""(?:^|[\s;&|(=])(["'])~/""")


def _tilde_quote(site: HandlerSite) -> str | None:
    """The quote around a ``~/`` that starts a word of the command (or its bash -c script)."""
    command = site.shell_command
    if command is None:
        return None
    match = _QUOTED_TILDE.search(wrapped_script(command) or command)
    return match.group(1) if match else None


@rule(
    "quoted-tilde",
    Severity.ERROR,
    "§7a: shell form runs through sh -c, where ~ is expanded only unquoted at a word's start "
    "(POSIX tilde expansion)",
    Scope.HANDLER,
    'a script path that starts with a quoted ~ ("~/.claude/hooks/x.sh"): sh does not expand '
    "it, so the script is not found",
)
def quoted_tilde(site: HandlerSite) -> Iterator[Hit]:
    call = _call(site)
    quote = _tilde_quote(site)
    if call is None or call.base is not Base.HOME or quote is None:
        return
    status = _exit_when_missing(call)
    runner = "sh" if call.program is None else call.program
    yield site.hit(
        "command",
        f"~ inside {quote}...{quote} is not expanded, so {runner} looks for a folder named ~ "
        f"in the current directory, does not find the script and exits {status}: "
        + effect_of_exit(site, status),
        f'write "$HOME/{call.rest}" (the variable expands inside double quotes)',
    )


@rule(
    "script-not-executable",
    Severity.ERROR,
    "§3a: a hook that can't start is a non-blocking error (2.1.332 §4.2: EACCES, exit 126)",
    Scope.HANDLER,
    "a script run directly (no interpreter in front) without its executable bit: exit 126",
)
def script_not_executable(site: HandlerSite) -> Iterator[Hit]:
    probe = site.place.probe
    call = _call(site)
    if call is None or probe is None or call.program is not None:
        return
    root, rest = _root(site, call)
    if root is None or not rest:
        return
    facts = probe(root / rest)
    if not facts.exists or facts.executable:
        return
    yield site.hit(
        "command",
        f"{rest} is run directly but is not executable: sh exits 126 (Permission denied), a "
        "non-blocking error, so the hook does nothing",
        f"chmod +x {rest} (git add --chmod=+x {rest}), or run it through its interpreter",
    )


@rule(
    "script-outside-reach",
    Severity.INFO,
    "validate reads only --project-dir and --plugin-root",
    Scope.HANDLER,
    "a script validate cannot check because it lies outside --project-dir and --plugin-root "
    "(~, $CLAUDE_PLUGIN_DATA, another absolute path)",
)
def script_outside_reach(site: HandlerSite) -> Iterator[Hit]:
    call = _call(site)
    if call is None or site.place.probe is None or call.base is Base.RELATIVE:
        return
    root, _rest = _root(site, call)
    if root is not None:
        return
    if call.base is Base.HOME and _tilde_quote(site) is not None:
        return  # quoted-tilde says it is never found
    if _args_variable(site) is not None:
        return  # variable-in-args says the path is taken as written
    plugin_base = call.base in (Base.PLUGIN, Base.PLUGIN_DATA)
    if plugin_base and _surely_not_plugin(site.place):
        return  # not a plugin's file: variable-unset-here says the path is empty
    if call.base is Base.PROJECT:
        where = "no project directory is known (pass --project-dir)"
    elif call.base is Base.PLUGIN:
        where = "no plugin root is known (pass --plugin-root)"
    else:
        where = "it lies outside --project-dir and --plugin-root"
    yield site.hit(
        "command",
        f"{call.path} was not checked (exists, executable): {where}",
        "check it on the machine that runs the hook",
    )


def _elsewhere(site: HandlerSite) -> str:
    """What the hook does where the machine's path is not there."""
    call = _call(site)
    if call is None or call.base is not Base.ABSOLUTE or _MACHINE_PATH.search(call.path) is None:
        return "the path is not there, and the hook fails"
    status = _exit_when_missing(call)
    runner = "sh" if call.program is None else call.program
    return f"{runner} does not find the script and exits {status}: " + effect_of_exit(site, status)


@rule(
    "machine-specific-path",
    Severity.WARNING,
    "§6: project settings are committed and plugins installed elsewhere; §7a: use "
    "$CLAUDE_PROJECT_DIR / ${CLAUDE_PLUGIN_ROOT}",
    Scope.HANDLER,
    "an absolute path of one machine (/Users/name, /home/name, /Volumes, C:/Users) in a "
    "shared file: project settings or a plugin's hooks",
)
def machine_specific_path(site: HandlerSite) -> Iterator[Hit]:
    if not _shared(site.place):
        return
    text = site.command_line
    if text is None:
        return
    match = _MACHINE_PATH.search(text)
    if match is None:
        return
    yield site.hit(
        "command",
        f"{match.group(1)} exists on one machine only; this {site.place.kind} file is shared, and "
        f"on every other machine {_elsewhere(site)}",
        f"write {_placeholder_for(site.place)}/... for files of the "
        + ("plugin" if _in_plugin(site.place) else "project")
        + ", or ~/... for the user's own",
    )
