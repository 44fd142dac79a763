"""Rules on what a hook's script file says: its line endings, its first line, and how it
exits. They read the script through the place's ``probe`` (its first bytes), only where
``rules_command.located_script`` finds it in the project or plugin.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import PurePath
from typing import Final

from ..catalogue import Recipient
from .registry import Hit, Scope, Severity, rule
from .rules_command import effect_of_exit, located_script
from .shell import SHELLS, ScriptCall
from .sites import HandlerSite

_NOT_SHELL_SCRIPTS: Final = (".py", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl", ".php")
"""Scripts sh cannot read as its own: without a shebang, sh runs them as shell commands."""
_TO_A_MODEL: Final = frozenset({Recipient.CLAUDE, Recipient.SUBAGENT})
_EXIT: Final = re.compile(r"(?m)^[^#\n]*\bexit\s+([0-9]+)\b")
_SYS_EXIT: Final = re.compile(r"\b(?:sys\.exit|process\.exit|exit)\(\s*([0-9]+)\s*\)")
_DECIDES: Final = re.compile(r"permissionDecision|\"decision\"|'decision'|\bdecision\b\s*[:=]")
_MEANS_TO_BLOCK: Final = re.compile(
    r"(?i)\b(block(?:ed|ing)?|den(?:y|ied)|not allowed|forbidden|refus(?:e|ed|ing))\b"
)


def _script(site: HandlerSite) -> tuple[ScriptCall, PurePath, str] | None:
    """The handler's script, where it lies, and its text, when validate can read it."""
    found = located_script(site)
    probe = site.place.probe
    if found is None or probe is None:
        return None
    call, path = found
    facts = probe(path)
    if not facts.exists or facts.text is None:
        return None
    return call, path, facts.text


def _exits(text: str) -> set[int]:
    """Every exit status the script's text names (shell ``exit N``, ``sys.exit(N)`` and kin)."""
    return {int(found) for found in (*_EXIT.findall(text), *_SYS_EXIT.findall(text))}


@rule(
    "script-crlf",
    Severity.ERROR,
    "§3a: a hook that can't start is a non-blocking error; a shebang ending in a carriage "
    "return names an interpreter that does not exist (exit 127), and sh reads \\r as part of "
    "each word",
    Scope.HANDLER,
    "a shell script, or a script run directly, with Windows (CRLF) line endings: its shebang "
    "names an interpreter such as bash\\r and every line carries a stray \\r",
)
def script_crlf(site: HandlerSite) -> Iterator[Hit]:
    found = _script(site)
    if found is None:
        return
    call, path, text = found
    if "\r\n" not in text:
        return
    direct = call.program is None
    if not direct and call.program not in SHELLS:
        return  # python3, node and the like read CRLF source as they read LF
    first = text.split("\n", 1)[0]
    if direct and first.startswith("#!") and first.endswith("\r"):
        interpreter = first[2:].strip().split()[-1] if first[2:].strip() else "its interpreter"
        why = (
            f"its first line names the interpreter {interpreter.rstrip()}\\r (with a carriage "
            "return), which does not exist, so sh cannot start it and exits 127: "
            + effect_of_exit(site, 127)
        )
    else:
        runner = "sh" if direct else call.program
        why = (
            f"{runner} reads each \\r as part of the line, so commands fail with "
            "\"$'\\r': command not found\" and words such as exit codes carry a stray \\r"
        )
    yield site.hit(
        "command",
        f"{path.name} has Windows (CRLF) line endings: {why}",
        f"convert it to LF (sed -i 's/\\r$//' {path.name}), and keep it so with a "
        ".gitattributes line such as '*.sh text eol=lf'",
    )


@rule(
    "script-no-shebang",
    Severity.ERROR,
    "POSIX sh: a file that exec cannot run is read as a shell script; §3a: a hook that can't "
    "start is a non-blocking error",
    Scope.HANDLER,
    "a Python, JavaScript or other non-shell script run directly without a #! line: sh runs "
    "it as shell commands, which fail",
)
def script_no_shebang(site: HandlerSite) -> Iterator[Hit]:
    found = _script(site)
    if found is None:
        return
    call, path, text = found
    if call.program is not None or not path.name.endswith(_NOT_SHELL_SCRIPTS):
        return
    if text.startswith("#!"):
        return
    yield site.hit(
        "command",
        f"{path.name} is run directly but has no #! line, so sh reads it as shell commands: "
        "its first line fails, and a syntax error exits 2 (dash): " + effect_of_exit(site, 2),
        f"start {path.name} with a line such as #!/usr/bin/env "
        + ("python3" if path.suffix == ".py" else "node")
        + ", or run it through its interpreter in the command",
    )


@rule(
    "guard-exits-1",
    Severity.WARNING,
    "§3a: only exit 2 blocks; any other non-zero exit is a non-blocking error, and the "
    "action goes ahead",
    Scope.HANDLER,
    "a script on an event that can block which says it blocks or denies but exits 1 and "
    "never 2, and prints no JSON decision: the action goes ahead",
)
def guard_exits_1(site: HandlerSite) -> Iterator[Hit]:
    if not site.spec.can_block:
        return
    found = _script(site)
    if found is None:
        return
    _call, path, text = found
    exits = _exits(text)
    if 1 not in exits or 2 in exits or _DECIDES.search(text):
        return
    if _MEANS_TO_BLOCK.search(text) is None:
        return
    yield site.hit(
        "command",
        f"{path.name} means to block (it says so) but exits 1, never 2: on {site.spec.name} "
        "exit 1 is a non-blocking error, so the action goes ahead and its stderr reaches only "
        "the transcript view",
        "exit 2 to block (stderr is then the reason), or print a JSON decision and exit 0",
    )


@rule(
    "exit-2-cannot-block",
    Severity.WARNING,
    "§3a and §4: exit 2 blocks only on the events that can block; elsewhere it does what the "
    "event's row says",
    Scope.HANDLER,
    "a script that exits 2 on an event that cannot block and whose exit 2 reaches no model "
    "(SessionStart, Notification, SessionEnd, ...): nothing is blocked",
)
def exit_2_cannot_block(site: HandlerSite) -> Iterator[Hit]:
    if site.spec.can_block or site.spec.exit2_stderr_to in _TO_A_MODEL:
        return  # PostToolUse's exit 2 is how lint feedback reaches Claude: meant, not a slip
    found = _script(site)
    if found is None or 2 not in _exits(found[2]):
        return
    effect = site.spec.exit2_effect.rstrip(".")
    yield site.hit(
        "command",
        f"{found[1].name} exits 2, but {site.spec.name} cannot be blocked: {effect}",
        f"drop the exit 2 if it means to block; on {site.spec.name} use what the event "
        "reads instead (hookcourse events " + site.spec.name + ")",
    )


_SHELL_READS_STDIN: Final = re.compile(
    r"\$\(\s*cat\s*(?:-|/dev/stdin)?\s*\)|`\s*cat\s*(?:-|/dev/stdin)?\s*`|\$\(\s*<\s*/dev/stdin\s*\)"
)
"""``$(cat)`` and its kin: the whole of stdin, taken once."""
_JQ: Final = re.compile(r"(?:^|[\s;&(`]|\$\()jq\b([^|;&)`\n]*)")
_OPENS: Final = re.compile(r"^\s*(?:if|case|for|while|until|select)\b|\(\)\s*\{|^\s*\{\s*$")
_CLOSES: Final = re.compile(r"^\s*(?:fi|esac|done|\})\b")
_CLOSED_ON_ITS_LINE: Final = re.compile(r"\b(?:fi|esac|done)\b\s*$")
"""``if ...; then ...; fi`` on one line opens nothing."""
_PYTHON_READS_STDIN: Final = re.compile(
    r"\bsys\.stdin\.read(?:lines)?\(|\bjson\.load\(\s*sys\.stdin\s*\)|\bsys\.stdin\.buffer\.read\("
)


def _jq_reads_stdin(arguments: str) -> bool:
    """Whether a jq call with these words after it reads stdin: no ``<`` or ``<<<`` and no
    file after its filter (a filter and options only)."""
    if "<" in arguments:
        return False
    words = re.findall(r"'[^']*'|\"(?:\\.|[^\"])*\"|\S+", arguments)
    if {"-n", "--null-input"} & set(words):
        return False  # jq -n reads no input
    plain = [w for w in words if not w.startswith("-")]
    return len(plain) <= 1  # the filter alone (or none): the input is stdin


def _stdin_reads(text: str, shell: bool) -> list[int]:
    """The line numbers (1-based) of the reads of the whole of stdin that always run: at the
    top level of a shell script (not in an if, case, loop or function), or anywhere in a
    Python script outside a ``def``."""
    lines: list[int] = []
    depth = 0
    for number, line in enumerate(text.splitlines(), start=1):
        code = line.split("#", 1)[0] if shell else line
        if shell:
            if _CLOSES.search(code):
                depth = max(0, depth - 1)
            if depth == 0:
                reads = len(_SHELL_READS_STDIN.findall(code))
                for found in _JQ.finditer(code):
                    start = found.start()
                    before = code[:start].rstrip()
                    piped = before.endswith("|") or "<<<" in found.group(1)
                    if not piped and _jq_reads_stdin(found.group(1)):
                        reads += 1
                lines.extend([number] * reads)
            if _OPENS.search(code) and not _CLOSED_ON_ITS_LINE.search(code):
                depth += 1
        else:
            if code.lstrip().startswith(("def ", "async def ")):
                depth = len(code) - len(code.lstrip()) + 1
                continue
            indent = len(code) - len(code.lstrip())
            if depth and code.strip() and indent < depth:
                depth = 0
            if not depth and not code.lstrip().startswith("#"):
                lines.extend([number] * len(_PYTHON_READS_STDIN.findall(code)))
    return lines


def _language(call: ScriptCall, path: PurePath, text: str) -> str | None:
    """``sh`` or ``python`` for a script this rule can read, else None."""
    first = text.split("\n", 1)[0] if text.startswith("#!") else ""
    program = call.program or ""
    if program in SHELLS or (
        not program and ("sh" in first.rsplit("/", 1)[-1] or path.suffix == ".sh")
    ):
        return "sh"
    if program.startswith("python") or (
        not program and ("python" in first or path.suffix == ".py")
    ):
        return "python"
    return None


@rule(
    "stdin-read-twice",
    Severity.WARNING,
    "§2: the payload arrives once, on stdin; a second read of stdin finds it already taken",
    Scope.HANDLER,
    "a script that reads the whole of stdin twice on its main path (two jq calls without a "
    "file, $(cat) then jq, json.load(sys.stdin) twice): the second read gets nothing",
)
def stdin_read_twice(site: HandlerSite) -> Iterator[Hit]:
    found = _script(site)
    if found is None:
        return
    call, path, text = found
    language = _language(call, path, text)
    if language is None:
        return
    reads = _stdin_reads(text, shell=language == "sh")
    if len(reads) < 2:
        return
    first, second = reads[0], reads[1]
    where = f"line {first}, then line {second}" if first != second else f"line {first}, twice"
    fix = (
        "read it once into a variable (input=$(cat)) and give each jq its copy (jq -r "
        '".tool_name" <<< "$input")'
        if language == "sh"
        else "read it once (payload = json.load(sys.stdin)) and use that value everywhere"
    )
    yield site.hit(
        "command",
        f"{path.name} reads the whole payload from stdin more than once ({where}): the "
        "first read takes all of it, so the second gets empty input and its fields come out "
        "empty or null",
        fix,
    )
