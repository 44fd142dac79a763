"""The teacher's force-push guard: a PreToolUse hook script that reads the command as a shell would.

Run it as a hook (``python force_push_guard.py``, the pending tool call on stdin):
it exits 2 with a reason on stderr when the Bash command would force-push, else 0.

Where seed 002's guard searches the text for ``push --force``, this one reads the
simple commands a shell would run (``simple_commands``, the tokenizer notebook 07 gives
the learner: quotes, ``&&``, ``;``, ``|``, newlines, ``$(...)``, comments), looks through
wrappers (``command``, ``env``, ``sudo``, ``sh -c``, ``eval`` ...) and git's own options
(``-C dir``), and then reads ``git push``'s arguments: ``-f`` alone or in a cluster,
``--force``, ``--force-with-lease``, or a ``+`` refspec.
"""

from __future__ import annotations

import json
import os
import sys

from hookcourse.course.labs.shell_words import simple_commands

SHELLS = {"sh", "bash", "zsh", "dash", "ksh"}
# Wrappers that run the rest of their words as a command, and their options that take a value.
WRAPPERS: dict[str, set[str]] = {
    "command": set(),
    "exec": set(),
    "nohup": set(),
    "time": set(),
    "builtin": set(),
    "sudo": {"-u", "-g", "-h", "-p", "-C", "-U"},
    "env": {"-u", "-C", "-S"},
    "nice": {"-n"},
    "stdbuf": {"-i", "-o", "-e"},
    "xargs": {"-I", "-n", "-P", "-L", "-s", "-d", "-a", "-E"},
    "timeout": {"-s", "-k", "--signal", "--kill-after"},
}
TAKES_A_POSITIONAL = {"timeout"}  # timeout DURATION COMMAND
GIT_OPTIONS_WITH_VALUE = {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path"}
PUSH_OPTIONS_WITH_VALUE = {"-o", "--push-option", "--repo", "--receive-pack", "--exec"}


def _unwrap(words: list[str]) -> list[str]:
    """Drop leading ``NAME=value`` assignments and wrappers such as ``env X=1`` or ``sudo -u x``."""
    while words:
        first = words[0]
        if "=" in first and first.split("=", 1)[0].replace("_", "a").isalnum():
            words = words[1:]
            continue
        name = os.path.basename(first)
        if name not in WRAPPERS:
            return words
        rest = words[1:]
        while rest and (rest[0].startswith("-") or (name == "env" and "=" in rest[0])):
            takes_value = rest[0] in WRAPPERS[name]
            rest = rest[2:] if takes_value else rest[1:]
        words = rest[1:] if name in TAKES_A_POSITIONAL else rest
    return words


def force_reasons(command_line: str) -> list[str]:
    """Why ``command_line`` force-pushes (empty when it does not), one reason per finding."""
    reasons = []
    for words in simple_commands(command_line):
        reasons += _command_reasons(_unwrap(words))
    return reasons


def is_force_push(command: str) -> bool:
    """True when the shell command would force-push (notebook 07's exercise)."""
    return bool(force_reasons(command))


def _command_reasons(words: list[str]) -> list[str]:
    if not words:
        return []
    name = os.path.basename(words[0])
    if name in SHELLS:
        for index, word in enumerate(words[1:], 1):
            if word.startswith("-") and not word.startswith("--") and "c" in word[1:]:
                return force_reasons(words[index + 1]) if index + 1 < len(words) else []
        return []
    if name == "eval":
        return force_reasons(" ".join(words[1:]))
    if name != "git":
        return []
    rest = words[1:]
    while rest and rest[0].startswith("-"):  # git's own options come before the subcommand
        rest = rest[2:] if rest[0] in GIT_OPTIONS_WITH_VALUE else rest[1:]
    if not rest or rest[0] != "push":
        return []
    return _push_reasons(rest[1:])


def _push_reasons(arguments: list[str]) -> list[str]:
    reasons = []
    options_done = False
    skip_next = False
    for argument in arguments:
        if skip_next:
            skip_next = False
        elif options_done or not argument.startswith("-"):
            if argument.startswith("+"):
                reasons.append(f"the refspec {argument} forces the update")
        elif argument == "--":
            options_done = True
        elif argument in ("--force", "--force-with-lease") or argument.startswith(
            "--force-with-lease="
        ):
            reasons.append(f"{argument} forces the push")
        elif argument in PUSH_OPTIONS_WITH_VALUE:
            skip_next = True
        elif not argument.startswith("--") and "f" in argument[1:].split("o", 1)[0]:
            flag = "forces the push" if argument == "-f" else "holds -f, which forces the push"
            reasons.append(f"{argument} {flag}")
    return reasons


def main() -> int:
    """Read the PreToolUse payload on stdin; exit 2 with a reason to block, 0 to allow."""
    try:
        payload = json.load(sys.stdin)
    except ValueError:
        return 0
    tool_input = payload.get("tool_input") if isinstance(payload, dict) else None
    command = tool_input.get("command") if isinstance(tool_input, dict) else None
    if not isinstance(command, str):
        return 0
    reasons = force_reasons(command)
    if reasons:
        print(f"Blocked: no force-push from Claude ({'; '.join(reasons)})", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
