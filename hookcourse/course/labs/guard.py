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

import inspect
import json
import linecache
import os
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final

from hookcourse import browser
from hookcourse.browser import require_desktop
from hookcourse.course import calling, learner_module
from hookcourse.course.cases import FIXTURES
from hookcourse.course.check_report import FAILING, NOT_YET, PASSED, CheckReport, Reported, Row
from hookcourse.course.exercises import record_check
from hookcourse.course.generators import choose_seed, drawn_cases
from hookcourse.course.labs.kernel_script import run_in_kernel
from hookcourse.course.labs.real_hooks import fire_commands
from hookcourse.course.labs.seed_guard import SEED_GUARD, same_test_note, seed_guard_run
from hookcourse.engine.api import (
    Classification,
    HookReading,
    HookRun,
    event_spec,
    merge_readings,
    read_hook_result,
)
from hookcourse.js import json as jsjson
from hookcourse.js.values import JSValue

CORPUS: Final = FIXTURES / "force-push-guard" / "corpus.json"
PAYLOAD: Final = FIXTURES / "payloads" / "PreToolUse.json"
GUARD_TIMEOUT_S: Final = 5.0
BLOCK, ALLOW, BEYOND = "block", "allow", "beyond"
GUARD_EXERCISE: Final = "is_force_push"
DRAWN: Final = "drawn"  # the name of the drawn families starts so


# One hint per corpus family, shown under a failing check: the rule that family tests.
FAMILY_HINTS: Final = {
    "-f": "-f may come anywhere among push's arguments, and inside a cluster such as -uf: "
    "look at every argument that starts with a single -.",
    "--force": "read words, not text: simple_commands(command) makes extra spaces and tabs "
    "vanish; then look at every argument of the push, not only the first.",
    "--force-with-lease": "--force-with-lease may carry a value: --force-with-lease=main:3f2a1bc "
    "starts with it.",
    "+refspec": "a refspec that starts with + forces that one update: any argument of push "
    "that is not an option and starts with +.",
    "git options": "git's own options come before push: -C dir and -c key=value take two "
    "words, --git-dir=.git one; and /usr/bin/git is git too (compare the last part of the "
    "path).",
    "wrappers": "command, env (and its NAME=value words), sudo -u user, timeout 60 and nohup "
    "run the words after them: drop the wrapper and its options, then read what is left.",
    "sh -c": "sh -c, bash -c and bash -lc run their next word as a whole command line, and "
    "eval runs its words: pass that text to simple_commands again and check each command.",
    "chains": "every simple command counts, not only the first: loop over all that "
    "simple_commands returns (it already splits at &&, ;, |, newlines, ( ) and $(...)); "
    "xargs runs the words after it, like a wrapper.",
    "quoted text": "a force-push inside quotes is an argument of echo, git commit or grep, not "
    "a command: test the words simple_commands returns, never the raw text.",
    "other git --force": "only git push counts: git fetch --force, git checkout -f and "
    "git clean -f force something else.",
    "ordinary push": "only a short option's letters count (--set-upstream has no -f), -o takes "
    "the next word as its value, and a branch may be called feature-force.",
    f"{DRAWN} force-pushes": "fresh commands that mix the forms above: find which family's "
    "rule the first one shown combines.",
    f"{DRAWN} look-alikes": "fresh commands that mix the false friends above: find which "
    "family's rule the first one shown breaks.",
}


@dataclass(frozen=True)
class Family:
    """Commands that share one trap, and what a guard must do with them."""

    name: str
    expect: str  # BLOCK, ALLOW or BEYOND (shown, not graded)
    commands: tuple[str, ...]


def load_corpus(path: Path = CORPUS) -> list[Family]:
    """The corpus's families, in file order."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return [Family(f["family"], f["expect"], tuple(f["commands"])) for f in data["families"]]


def drawn_families(seed: int) -> list[Family]:
    """Fresh commands for ``seed``, as two families: those the teacher's guard blocks and
    those it lets through (the ground truth for every drawn command)."""
    from hookcourse.stages.registry import exercise_named

    exercise = exercise_named(GUARD_EXERCISE)
    assert exercise is not None
    drawn = drawn_cases(exercise, seed)
    pushes = tuple(str(d.case) for d in drawn if d.expected is True)
    others = tuple(str(d.case) for d in drawn if d.expected is False)
    return [
        Family(f"{DRAWN} force-pushes", BLOCK, pushes),
        Family(f"{DRAWN} look-alikes", ALLOW, others),
    ]


def _graded_families(corpus: Path, seed: int | None) -> list[Family]:
    """The corpus's families, then the drawn ones (None: no drawing, a corpus of one's own)."""
    families = load_corpus(corpus)
    return families if seed is None else [*families, *drawn_families(seed)]


@dataclass(frozen=True)
class Verdict:
    """What Claude Code did with one command once the guard had run on it."""

    command: str
    blocked: bool
    exit_code: int | None
    failed: bool  # the guard crashed, timed out or could not start: Claude Code lets it pass
    stderr: str
    timed_out: bool = False


@dataclass(frozen=True)
class FamilyResult:
    """One family's verdicts."""

    family: Family
    verdicts: tuple[Verdict, ...]

    @property
    def wrong(self) -> list[Verdict]:
        """Missed force-pushes (a block family) or false alarms (an allow family)."""
        if self.family.expect == BEYOND:
            return []
        return [v for v in self.verdicts if v.blocked != (self.family.expect == BLOCK)]

    def line(self) -> str:
        """``caught 3 of 4, missed 1:`` or ``allowed 6 of 6``; the commands go one per line."""
        blocked = sum(v.blocked for v in self.verdicts)
        total = len(self.verdicts)
        wrong = len(self.wrong)
        if self.family.expect == BLOCK:
            return f"caught {blocked} of {total}" + (f", missed {wrong}:" if wrong else "")
        if self.family.expect == ALLOW:
            allowed = total - blocked
            return f"allowed {allowed} of {total}" + (f", false alarms {wrong}:" if wrong else "")
        return f"blocked {blocked} of {total}: no guard that reads only the command can know"

    def row(self) -> Row:
        """The family as a row of the check report, its wrong commands one per line."""
        return Row(
            self.family.name,
            self.line(),
            not self.wrong,
            tuple(one_line(v.command) for v in self.wrong),
        )


@dataclass(frozen=True, repr=False)
class GuardReport(Reported):
    """The whole check: a row per family, crashes, and whether the guard holds."""

    guard: str  # the function's name, or the script's file name
    families: tuple[FamilyResult, ...]
    problem: str | None = None
    not_yet: bool = False  # the guard is still the starter: it raises NotImplementedError
    seed: int | None = None  # the seed of the drawn commands
    function: bool = False  # the learner's exercise function (not a script by path)
    given: str = ""  # the script's path as the learner wrote it, for the replay line
    ran_as: str = ""  # in the browser: how the guard ran in place of a process

    @property
    def graded(self) -> list[FamilyResult]:
        return [r for r in self.families if r.family.expect != BEYOND]

    @property
    def missed(self) -> int:
        return sum(len(r.wrong) for r in self.families if r.family.expect == BLOCK)

    @property
    def false_alarms(self) -> int:
        return sum(len(r.wrong) for r in self.families if r.family.expect == ALLOW)

    @property
    def failures(self) -> list[Verdict]:
        """Graded commands on which the guard itself failed (exit 1, a crash, a timeout)."""
        return [v for r in self.graded for v in r.verdicts if v.failed]

    def rows(self) -> list[tuple[str, str, bool]]:
        """(family, line, good) for every family."""
        return [(r.family.name, r.line(), not r.wrong) for r in self.families]

    def _summary(self, holds: bool) -> str:
        if self.problem is not None:
            return f"check_guard: cannot run {self.guard}: {self.problem}"
        if self.not_yet:
            return (
                f"{self.guard}: not yet. Your function still raises NotImplementedError: "
                "write its body, then run this cell again."
            )
        graded = sum(len(r.verdicts) for r in self.graded)
        drawn = sum(len(r.verdicts) for r in self.graded if r.family.name.startswith(DRAWN))
        shown = sum(len(r.verdicts) for r in self.families) - graded
        verdict = "holds" if holds else "does not hold yet"
        # The counts add up to the family table's: graded, drawn, and shown but not graded.
        parts = []
        if drawn:
            parts.append(f"{graded - drawn} from the corpus, {drawn} drawn with seed {self.seed}")
        if shown:
            parts.append(f"{shown} more shown, not graded")
        where = f" ({'; '.join(parts)})" if parts else ""
        called = self.guard if self.function else jsjson.quote(self.given or self.guard)
        replay = (
            f"; check_guard({called}, seed={self.seed}) draws the same commands again"
            if drawn and not holds
            else ""
        )
        return (
            f"check_guard: {self.guard} {verdict}: {self.missed} missed, "
            f"{self.false_alarms} false alarms, over {graded} commands{where}{replay}"
        )

    def failure_note(self) -> str | None:
        failures = self.failures
        if not failures:
            return None
        first = failures[0]
        said = first.stderr.strip().splitlines()[-1] if first.stderr.strip() else "no stderr"
        graded = sum(len(r.verdicts) for r in self.graded)
        return (
            f"the guard failed on {len(failures)} of the {graded} commands (first: exit "
            f"{first.exit_code}, {said}); Claude Code treats a failing hook as non-blocking, "
            "so those commands run"
        )

    def report(self) -> CheckReport:
        """The result as the one check report's data."""
        holds = (
            self.problem is None and not self.not_yet and not self.missed and not self.false_alarms
        )
        shown = () if self.not_yet or self.problem is not None else self.families
        note = None if self.not_yet else self.failure_note()
        verdicts = [v for r in self.graded for v in r.verdicts]
        hints = tuple(
            (r.family.name, FAMILY_HINTS[r.family.name])
            for r in shown
            if r.wrong and r.family.name in FAMILY_HINTS
        )
        return CheckReport(
            exercise=GUARD_EXERCISE,
            check="check_guard",
            state=PASSED if holds else NOT_YET if self.not_yet else FAILING,
            summary=self._summary(holds),
            rows=tuple(r.row() for r in shown),
            details_title="the rule each failing family tests" if hints else "",
            details=hints,
            notes=tuple(line for line in (self.ran_as, note) if line),
            passed_cases=len(verdicts) - self.missed - self.false_alarms,
            total_cases=len(verdicts),
            failing=tuple(r.family.name for r in self.graded if r.wrong),
            seed=self.seed,
            subject=self.guard,
        )


def one_line(command: str) -> str:
    """A command as a Python string on one line: a newline inside it shows as \\n."""
    return repr(command)


def guard_command(path: Path) -> list[str] | str:
    """The argv that runs the guard at ``path``, or why it cannot run."""
    if not path.exists():
        return "no such file; write the guard first (run the cell that writes it)"
    if path.is_dir():
        return "it is a folder; pass the guard script's file"
    if path.suffix == ".py":
        return [sys.executable, str(path.resolve())]
    if not os.access(path, os.X_OK):
        return f"it is not executable; run chmod +x {path}, or name a Python guard *.py"
    return [str(path.resolve())]


def _payload(command: str) -> dict[str, JSValue]:
    payload: dict[str, JSValue] = json.loads(PAYLOAD.read_text(encoding="utf-8"))
    return {**payload, "tool_name": "Bash", "tool_input": {"command": command}}


def _judged(command: str, run: HookRun, reading: HookReading, blocked: bool) -> Verdict:
    failed = reading.classification is not Classification.SUCCESS and run.exit_code != 2
    return Verdict(command, blocked, run.exit_code, failed, run.stderr, run.timed_out)


def _verdict(argv: Sequence[str], command: str, cwd: str) -> Verdict:
    fired = fire_commands("PreToolUse", [argv], _payload(command), cwd, timeout_s=GUARD_TIMEOUT_S)
    return _judged(command, fired.executions[0].run, fired.readings[0], fired.outcome.blocked)


KernelGuard = Callable[[str], HookRun]  # a payload's JSON -> what a runner would observe


def _verdict_in_kernel(guard: KernelGuard, command: str) -> Verdict:
    """``command`` through a guard run in the kernel, read and merged by the engine."""
    spec = event_spec("PreToolUse")
    payload = {**_payload(command), "hook_event_name": spec.name}
    run = guard(jsjson.stringify(payload))
    reading = read_hook_result(spec, run)
    return _judged(command, run, reading, merge_readings(spec, [reading], payload).blocked)


def _is_seed_guard(path: Path) -> bool:
    try:
        return path.is_file() and path.read_bytes() == SEED_GUARD.read_bytes()
    except OSError:
        return False


def kernel_guard(path: Path) -> tuple[KernelGuard, str] | str:
    """How the kernel runs the guard at ``path`` with no processes, and a line saying so;
    or why it cannot. Only a guard that is neither Python nor the seed's script needs the
    desktop."""
    if _is_seed_guard(path):
        return (lambda payload: seed_guard_run(payload, path)), same_test_note(path)
    argv = guard_command(path)
    if isinstance(argv, str):
        return argv
    if path.suffix != ".py":
        require_desktop(f"the guard {path.name}", "which commands it blocks and lets through")
    note = (
        f"(In the browser: {path.name} runs inside this kernel, not as a process of its "
        "own: the same payload on its stdin, read for its exit code and stderr.)"
    )
    return (lambda payload: run_in_kernel(path, payload)), note


def _verdicts(path: Path, commands: Sequence[str]) -> tuple[list[Verdict], str] | str:
    """Every command through the guard at ``path``, on the desktop or in the browser."""
    if browser.IN_BROWSER:
        how = kernel_guard(path)
        if isinstance(how, str):
            return how
        guard, note = how
        return [_verdict_in_kernel(guard, command) for command in commands], note
    argv = guard_command(path)
    if isinstance(argv, str):
        return argv
    with tempfile.TemporaryDirectory() as cwd, ThreadPoolExecutor(4) as pool:
        return list(pool.map(lambda c: _verdict(argv, c, cwd), commands)), ""


def try_guard(path: str | os.PathLike[str], commands: Sequence[str]) -> str:
    """Each command through the guard and the engine: blocked or let through, and why."""
    ran = _verdicts(Path(path), commands)
    if isinstance(ran, str):
        return f"cannot run {Path(path).name}: {ran}"
    verdicts, note = ran
    lines = [note] if note else []
    for verdict in verdicts:
        if verdict.blocked:
            lines.append(
                f"blocked      {one_line(verdict.command)}\n    reason: {verdict.stderr.strip()}"
            )
        else:
            failed = f" (the guard failed: exit {verdict.exit_code})" if verdict.failed else ""
            lines.append(f"let through  {one_line(verdict.command)}{failed}")
    return "\n".join(lines)


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
    lines = cell.splitlines(keepends=True)
    future = [line for line in lines if line.startswith("from __future__ import")]
    rest = "".join(line for line in lines if line not in future)
    return "".join(future) + _SCRIPT_HEAD + rest + _SCRIPT_TAIL.format(name=fn.__name__)


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
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"{name}.py"
        path.write_text(script, encoding="utf-8")
        return replace(_check_script(path, corpus, seed), guard=name, function=True)


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
        for family in _graded_families(corpus, seed)
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
    families = _graded_families(corpus, seed)
    if browser.IN_BROWSER:
        how = kernel_guard(guard)
        if isinstance(how, str):
            return GuardReport(guard.name, (), how)
        in_kernel, note = how
        stop = _stops_early(guard.name, _verdict_in_kernel(in_kernel, families[0].commands[0]))
        if stop is not None:
            return stop
        results = tuple(
            FamilyResult(family, tuple(_verdict_in_kernel(in_kernel, c) for c in family.commands))
            for family in families
        )
        return GuardReport(guard.name, results, seed=seed, ran_as=note)
    argv = guard_command(guard)
    if isinstance(argv, str):
        return GuardReport(guard.name, (), argv)
    with tempfile.TemporaryDirectory() as cwd, ThreadPoolExecutor(4) as pool:
        stop = _stops_early(guard.name, _verdict(argv, families[0].commands[0], cwd))
        if stop is not None:
            return stop
        results = tuple(
            FamilyResult(family, tuple(pool.map(lambda c: _verdict(argv, c, cwd), family.commands)))
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
    ran = _verdicts(Path(guard), commands)
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
