"""``check_guard``: a learner's force-push guard, run for real against a corpus of commands.

The corpus (``fixtures/force-push-guard/corpus.json``) holds families of Bash
commands that must be blocked, false friends that must be allowed, and forms no
check of the command text can judge. The learner's ``is_force_push(command)`` cell is
written out as a hook script (or a script is given by path), and each command goes to
it as a real PreToolUse payload through the engine's runner, and the engine decides
whether Claude Code would block it, so the check sees what Claude Code would.

In the browser (no processes) a guard given by path runs in the kernel instead, and the
engine reads each run the same way: a Python script inside the kernel
(``kernel_script``), the seed's bash script as the test it performs (``seed_guard``).
"""

from __future__ import annotations

import ast
import inspect
import linecache
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Final

from hookcourse import browser
from hookcourse.course.checks import calling, kernel_hook, learner_module
from hookcourse.course.checks.exercises import record_check
from hookcourse.course.checks.generators import choose_seed
from hookcourse.course.labs.guard_corpus import (
    ALLOW,
    BEYOND,
    BLOCK,
    CORPUS,
    FAMILY_HINTS,
    GUARD_EXERCISE,
    GUARD_TIMEOUT_S,
    graded_families,
    load_corpus,
    one_line,
)
from hookcourse.course.labs.guard_report import FamilyResult, GuardReport, Verdict
from hookcourse.course.labs.guard_runs import (
    guard_command,
    kernel_guard,
    run_verdict,
    run_verdicts,
    verdict_in_kernel,
)
from hookcourse.course.labs.seed_guard import SEED_GUARD

# The learner's cell becomes a hook script: this reads the payload, the cell defines the test.
_SCRIPT_HEAD: Final = "import json\nimport sys\n\n"
_SCRIPT_TAIL: Final = """

command = json.load(sys.stdin).get("tool_input", {{}}).get("command", "")
if isinstance(command, str) and {name}(command):
    print("Blocked: no force-push from Claude", file=sys.stderr)
    sys.exit(2)
"""


def guard_script(fn: Callable[[str], object]) -> str | None:
    """A hook script made of the cell that defines ``fn`` (its imports too); None if unknown."""
    code = getattr(fn, "__code__", None)
    if code is not None:
        linecache.checkcache(code.co_filename)  # a file edited since: read it again
    cell = "".join(linecache.getlines(code.co_filename)) if code is not None else ""
    if not cell:
        try:
            cell = inspect.getsource(fn)
        except (OSError, TypeError):
            return None
    # A function from a module (the teacher's) may bring `from __future__` imports, which
    # Python accepts only at the top of the script.
    lines = _definitions(cell).splitlines(keepends=True)
    future = [line for line in lines if line.startswith("from __future__ import")]
    rest = "".join(line for line in lines if line not in future)
    return "".join(future) + _SCRIPT_HEAD + rest + _SCRIPT_TAIL.format(name=fn.__name__)


def _definitions(cell: str) -> str:
    """The cell without its top-level calls (``check_guard(is_force_push)``, a ``print``, a
    check's result assigned), as ``my_hooks.py`` keeps it: run as the hook, they would
    run the check again inside each hook run, or print into the hook's answer."""
    try:
        tree = ast.parse(cell)
    except SyntaxError:  # a magic, or a half-typed cell: the script's run says what is wrong
        return cell
    dropped: set[int] = set()
    for statement in tree.body:
        if _a_call(statement):
            end = statement.end_lineno or statement.lineno
            dropped.update(range(statement.lineno, end + 1))
    lines = cell.splitlines(keepends=True)
    return "".join(line for number, line in enumerate(lines, 1) if number not in dropped)


def _a_call(statement: ast.stmt) -> bool:
    """A top-level expression that calls something, or an assignment of a check's result."""
    if isinstance(statement, ast.Expr):
        return any(isinstance(node, ast.Call) for node in ast.walk(statement))
    if isinstance(statement, ast.Assign | ast.AnnAssign):
        return any(
            isinstance(node, ast.Call) and ast.unparse(node.func).split(".")[-1].startswith("check")
            for node in ast.walk(statement)
        )
    return False


def _starter(fn: Callable[[str], object]) -> bool:
    """True when ``fn`` is still the starter: it raises NotImplementedError. Anything else it
    does (a crash, sys.exit, a hang) the script run shows the learner."""
    outcome = calling.call(fn, "git push --force")
    return isinstance(outcome, calling.Raised) and isinstance(outcome.error, NotImplementedError)


def check_guard(
    guard: str | os.PathLike[str] | Callable[[str], object],
    corpus: Path = CORPUS,
    *,
    seed: int | None = None,
) -> GuardReport:
    """Run a guard on every corpus command and on fresh commands drawn with ``seed``, through
    the engine's runner, and report by family.

    ``guard`` is a learner's ``is_force_push(command)`` function (its cell is written out
    as a hook script and run as one) or the path of a guard script. The course's corpus
    comes with drawn commands (a new seed when None, ``$HOOKCOURSE_SEED`` if set, judged
    by the teacher's guard); a corpus of one's own is graded as it is unless a seed is given.
    """
    chosen = choose_seed(seed) if seed is not None or corpus == CORPUS else None
    if callable(guard):
        name = getattr(guard, "__name__", "guard")
        learner_module.keep(GUARD_EXERCISE, guard)  # my_hooks.py: newest version wins
        if _starter(guard):
            report = GuardReport(name, (), not_yet=True, function=True)
        elif browser.IN_BROWSER:  # no processes to run a hook script: ask the function itself
            report = replace(check_guard_in_process(guard, corpus, chosen), function=True)
        else:
            report = _check_function(guard, name, corpus, chosen)
        if report.problem is None:
            record_check(GUARD_EXERCISE, report.report())
        return report
    return replace(_check_script(Path(guard), corpus, chosen), given=os.fspath(guard))


def _check_function(
    fn: Callable[[str], object], name: str, corpus: Path, seed: int | None
) -> GuardReport:
    script = guard_script(fn)
    if script is None:
        problem = "its source is unknown; define it in a notebook cell"
        return GuardReport(name, (), problem, function=True)
    lacks = tuple(kernel_hook.needs(script))  # what a cell that leans on others lacks
    # Each command starts the hook script as a process: say so before the wait, not after.
    kernel_hook.say_in_notebook(f"check_guard: running {name} as a real hook on every command...")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{name}.py"
        path.write_text(script, encoding="utf-8")
        checked = _check_script(path, corpus, seed)
        return replace(checked, guard=name, function=True, lacks=lacks)


def check_guard_in_process(
    fn: Callable[[str], object], corpus: Path = CORPUS, seed: int | None = None
) -> GuardReport:
    """The corpus (and the commands drawn with ``seed``) through ``fn`` called directly, as
    the hook script would call it: a truthy answer is its exit 2 (blocked), a raise is a
    failed hook (Claude Code lets the call run).

    The browser's way (JupyterLite starts no processes); the desktop runs the real script.
    """
    results = tuple(
        FamilyResult(family, tuple(_verdict_in_process(fn, c) for c in family.commands))
        for family in graded_families(corpus, seed)
    )
    return GuardReport(getattr(fn, "__name__", "guard"), results, seed=seed)


def _verdict_in_process(fn: Callable[[str], object], command: str) -> Verdict:
    outcome = calling.call(fn, command)
    if isinstance(outcome, calling.Returned):
        blocked = bool(outcome.value)
        reason = "Blocked: no force-push from Claude\n" if blocked else ""
        return Verdict(command, blocked, 2 if blocked else 0, False, reason)
    if isinstance(outcome, calling.Raised):
        error = outcome.error
        return Verdict(command, False, 1, True, f"{type(error).__name__}: {error}\n")
    return Verdict(command, False, None, True, "", timed_out=True)


def _stops_early(name: str, first: Verdict) -> GuardReport | None:
    """The report when the first command shows the rest need not run, else None."""
    if first.failed and "NotImplementedError" in first.stderr:  # the starter
        return GuardReport(name, (), not_yet=True)
    if first.timed_out:  # one hang per command would take minutes
        problem = (
            f"it did not finish within {GUARD_TIMEOUT_S:g} s on {first.command!r}; "
            "Claude Code would wait for it (600 s by default), then let the call run. "
            "Does it read stdin exactly once and exit?"
        )
        return GuardReport(name, (), problem)
    return None


def _check_script(guard: Path, corpus: Path, seed: int | None) -> GuardReport:
    families = graded_families(corpus, seed)
    if browser.IN_BROWSER:
        how = kernel_guard(guard)
        if isinstance(how, str):
            return GuardReport(guard.name, (), how)
        in_kernel, note = how
        stop = _stops_early(guard.name, verdict_in_kernel(in_kernel, families[0].commands[0]))
        if stop is not None:
            return stop
        results = tuple(
            FamilyResult(family, tuple(verdict_in_kernel(in_kernel, c) for c in family.commands))
            for family in families
        )
        return GuardReport(guard.name, results, seed=seed, ran_as=note)
    argv = guard_command(guard)
    if isinstance(argv, str):
        return GuardReport(guard.name, (), argv)
    with tempfile.TemporaryDirectory() as cwd, ThreadPoolExecutor(4) as pool:
        stop = _stops_early(guard.name, run_verdict(argv, families[0].commands[0], cwd))
        if stop is not None:
            return stop
        results = tuple(
            FamilyResult(
                family, tuple(pool.map(lambda c: run_verdict(argv, c, cwd), family.commands))
            )
            for family in families
        )
    return GuardReport(guard.name, results, seed=seed)


def _outcome(blocked: bool, reasons: Sequence[str]) -> tuple[str, str]:
    """A command's kind on the scoreboard, and why, from the guard's verdict and the reading."""
    if reasons and not blocked:
        return "bypass", f"let through, but it force-pushes: {'; '.join(reasons)}"
    if blocked and not reasons:
        return "false alarm", "blocked, but the course's reading finds no force-push"
    if blocked:
        return "caught", "blocked, as it should be"
    return "no point", "let through; the course's reading finds no force-push"


def bypass_scoreboard(
    players: Mapping[str, Sequence[str]] | Sequence[str],
    guard: str | os.PathLike[str] = SEED_GUARD,
) -> str:
    """Score each player's commands against ``guard`` (the seed's, by default): a point for
    each force-push it lets through and for each harmless command it blocks.

    ``players`` maps a name to that player's commands, or is one list of your own. Whether
    a command force-pushes is judged by the course's reference reading of its words.
    """
    from hookcourse.solutions.force_push_guard import force_reasons

    board = {"you": list(players)} if isinstance(players, Sequence) else dict(players)
    if isinstance(players, str) or not all(
        isinstance(c, str) for commands in board.values() for c in commands
    ):
        return "bypass_scoreboard: give a list of command strings, or a dict of them by player"
    commands = list(dict.fromkeys(c for cs in board.values() for c in cs))
    ran = run_verdicts(Path(guard), commands)
    if isinstance(ran, str):
        return f"cannot run {Path(guard).name}: {ran}"
    blocked = {v.command: v.blocked for v in ran[0]}
    kinds = {c: _outcome(blocked[c], force_reasons(c)) for c in commands}
    scores = {
        name: sum(kinds[c][0] in ("bypass", "false alarm") for c in dict.fromkeys(cs))
        for name, cs in board.items()
    }
    width = max((len(one_line(c)) for c in commands), default=0)
    lines = [f"the scoreboard against {Path(guard).name}: a point per bypass and false alarm"]
    lines += [f"  {name}: {points} point{'s' * (points != 1)}" for name, points in scores.items()]
    for name, cs in board.items():
        lines.append("your commands:" if name == "you" else f"{name}'s commands:")
        for command in dict.fromkeys(cs):
            kind, why = kinds[command]
            lines.append(f"  {kind:<11}  {one_line(command):<{width}}  {why}")
    return "\n".join(lines)


def corpus_preview(corpus: Path = CORPUS) -> str:
    """Each family of the corpus before the exercise: what the guard must do, how many
    commands, one of them, and the rule it tests."""
    must = {BLOCK: "block", ALLOW: "allow", BEYOND: "shown only"}
    lines = []
    for family in load_corpus(corpus):
        count = f"{must[family.expect]} {len(family.commands)}"
        lines.append(f"{family.name:<21} {count:<12} e.g. {one_line(family.commands[-1])}")
        hint = FAMILY_HINTS.get(family.name)
        lines.append(f"{'':<21} {hint or 'no check of the text alone can judge these'}")
    return "\n".join(lines)
