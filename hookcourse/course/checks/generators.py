"""Fresh cases for every check: seeded draws around each case family, judged by the reference.

A check grades the rule, not a list of answers: beside the fixture cases it draws
cases no learner has seen, from a seed it prints (``check_matcher(fn, seed=N)``
draws the same ones again). Each exercise of the registry names its generator
(``Exercise.generate``): a function of a ``random.Random`` returning cases as a
case file writes them, which the exercise's decoder reads and its reference answers
(for the guard, commands the teacher's guard judges). ``hookcourse test`` writes the
same draws as case files (``drawn_case_file``).

The draws aim at the traps each notebook teaches: name lists with trailing newlines
and non-ASCII letters, regexes Python reads otherwise, JavaScript ``trim``'s
whitespace (not Python's), ``??`` against falsy values, nested ``updatedInput``,
several hooks in every order, Stop caps, and force-pushes written every way a shell
allows beside commands that only look like one.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, cast

from hookcourse.js.values import JS_WHITESPACE, JSValue
from hookcourse.stages.decoding import CaseError
from hookcourse.stages.registry import Exercise, Stage, as_json, resolve

SEED_ENV: Final = "HOOKCOURSE_SEED"  # fixes the default seed (the tests and nbval set it)
SEED_RANGE: Final = range(1, 100_000)  # short enough to read out and type back
ABSENT: Final = object()  # a key left out of the case

Case = dict[str, JSValue]
Draw = Callable[[random.Random], list[JSValue]]


def choose_seed(seed: int | None = None) -> int:
    """``seed`` itself, else ``$HOOKCOURSE_SEED``, else a fresh one."""
    if seed is not None:
        return seed
    fixed = os.environ.get(SEED_ENV, "").strip()
    if fixed.isdigit():
        return int(fixed)
    return random.SystemRandom().choice(SEED_RANGE)


def _rng(exercise: Exercise, seed: int) -> random.Random:
    # One stream per exercise: the same seed draws unrelated cases for each check.
    return random.Random(f"{exercise.function}:{seed}")


def draw(exercise: Exercise, seed: int) -> list[JSValue]:
    """The exercise's drawn cases for ``seed`` (none when it has no generator)."""
    if exercise.generate is None:
        return []
    generate: Draw = resolve(exercise.generate)
    return generate(_rng(exercise, seed))


@dataclass(frozen=True)
class DrawnCase:
    """One drawn case: as the case file writes it, and the reference's answer."""

    case: JSValue
    expected: JSValue


def drawn_cases(exercise: Exercise, seed: int) -> list[DrawnCase]:
    """The drawn cases the exercise's decoder accepts, each with the reference's answer
    (an exercise without a decoder, the guard, takes each case as its one argument)."""
    found = []
    for case in draw(exercise, seed):
        try:
            if exercise.decode is None:
                expected = as_json(exercise.reference_function()(case))
            else:
                expected = exercise.answer(case)
        except CaseError:  # a draw the JavaScript reference refuses is not a graded case
            continue
        found.append(DrawnCase(case, expected))
    return found


def drawn_case_file(stage: Stage, seed: int) -> tuple[dict[str, JSValue], dict[str, JSValue]]:
    """A case file of fresh cases for a graded stage, and its expected output, for
    ``hookcourse test``: every exercise's draws under its own key."""
    case_file: dict[str, JSValue] = {}
    expected: dict[str, JSValue] = {}
    for exercise in stage.exercises:
        drawn = drawn_cases(exercise, seed)
        case_file[exercise.case_key] = [item.case for item in drawn]
        expected[exercise.output_key] = [item.expected for item in drawn]
    return case_file, expected


def case_with(**fields: object) -> Case:
    """A case of the fields that are not ABSENT."""
    return cast(Case, {key: value for key, value in fields.items() if value is not ABSENT})


# -- building blocks -------------------------------------------------------------------------

ASCII_WORD: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"
# Letters Python's \w and str.isalnum() accept but JavaScript's ASCII \w does not.
UNICODE_LETTERS: Final = "äéßıſµøçÄÉ" + "αβγΩ" + "жЖ" + "\u0663\u00b2"
TOOLS: Final = ("Bash", "Edit", "Write", "Read", "MultiEdit", "NotebookEdit", "WebFetch", "Task")
JS_ONLY_SPACE: Final = "\ufeff"  # trimmed by JavaScript, kept by Python's strip()
PYTHON_ONLY_SPACE: Final = "\x1c\x1d\x1e\x1f\x85"  # stripped by Python, kept by JavaScript
SHARED_SPACE: Final = "".join(sorted(JS_WHITESPACE - set(JS_ONLY_SPACE)))


def some_tool(rng: random.Random) -> str:
    """A tool name: one of Claude Code's, or a fresh ASCII word."""
    if rng.random() < 0.5:
        return rng.choice(TOOLS)
    head = rng.choice(ASCII_WORD[:52])
    return head + "".join(rng.choice(ASCII_WORD) for _ in range(rng.randint(0, 7)))


def foreign_tool(rng: random.Random) -> str:
    """A name with a letter JavaScript's ``\\w`` does not know."""
    name = some_tool(rng)
    at = rng.randint(0, len(name))
    return name[:at] + rng.choice(UNICODE_LETTERS) + name[at:]


def spaces(rng: random.Random, most: int = 3) -> str:
    """Whitespace from JavaScript's trim set, Python's strip set, or both."""
    pool = rng.choice((SHARED_SPACE, JS_ONLY_SPACE, PYTHON_ONLY_SPACE, SHARED_SPACE + "\ufeff"))
    return "".join(rng.choice(pool) for _ in range(rng.randint(1, most)))


def some_text(rng: random.Random) -> str:
    words = ("no force-push", "tests failed", "blocked by policy", "déjà vu", "日本語", "ok")
    return rng.choice(words) + ("" if rng.random() < 0.7 else f" #{rng.randint(1, 99)}")


def padded(rng: random.Random) -> str:
    """A reason with whitespace around it, of a kind one of trim/strip keeps."""
    kind = rng.random()
    if kind < 0.2:
        return ""
    if kind < 0.35:
        return spaces(rng)  # whitespace only: a blank reason to one of them
    return spaces(rng) * rng.randint(0, 1) + some_text(rng) + spaces(rng) * rng.randint(0, 1)


def json_value(rng: random.Random, depth: int = 0) -> JSValue:
    """Any JSON value, nested a few levels, strings non-ASCII at times."""
    roll = rng.random()
    if depth < 3 and roll < 0.3:
        return {
            rng.choice(("command", "file_path", "ünï", "2", "a b", "")): json_value(rng, depth + 1)
            for _ in range(rng.randint(0, 3))
        }
    if depth < 3 and roll < 0.45:
        return [json_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return rng.choice(
        (
            None,
            True,
            False,
            0.0,
            float(rng.randint(-5, 5)),
            rng.choice((0.1, 1e21, -1e-7, 2.5)),
            "",
            some_text(rng),
            foreign_tool(rng),
        )
    )


def json_object(rng: random.Random) -> dict[str, JSValue]:
    value = json_value(rng)
    return value if isinstance(value, dict) else {"command": value}


# -- matcher-and-dispatch: match_hook -------------------------------------------------------


# -- matcher-and-dispatch: interpret_exit_code ----------------------------------------------


# -- decide-and-modify: apply_pre_tool_use --------------------------------------------------


def maybe(rng: random.Random, *values: object) -> object:
    return rng.choice((ABSENT, *values))


# -- merge-decisions and stop-loop: hook results --------------------------------------------


# -- the guard: is_force_push -----------------------------------------------------------------

_BRANCHES: Final = ("main", "feature", "release/1.2", "fix-f", "dev")
_FORCES: Final = ("-f", "--force", "--force-with-lease", "--force-with-lease=main", "-uf", "-fu")
_HARMLESS: Final = (
    "-u",
    "--tags",
    "--dry-run",
    "-v",
    "--follow-tags",
    "--set-upstream",
    "-o ci.skip",
)


def _quote(rng: random.Random, word: str) -> str:
    """A word as a shell reads it back: bare, double- or single-quoted, or half quoted."""
    return rng.choice((word, word, f'"{word}"', f"'{word}'", f"{word[:1]}'{word[1:]}'"))


def _push(rng: random.Random, force: bool) -> str:
    remote, branch = rng.choice(("origin", "upstream", "fork")), rng.choice(_BRANCHES)
    parts = [remote, branch]
    if force:
        kind = rng.random()
        if kind < 0.25:  # a + refspec forces that one update
            parts[1] = "+" + rng.choice((branch, f"HEAD:{branch}", f"{branch}:{branch}"))
        else:
            parts.insert(rng.randint(0, 2), _quote(rng, rng.choice(_FORCES)))
    if rng.random() < 0.5:
        parts.insert(rng.randint(0, len(parts)), rng.choice(_HARMLESS))
    head = rng.choice(
        (
            "git push",
            "git push",
            f"git -c push.default=current {_quote(rng, 'push')}",
            "git -C repo push",
            "git --git-dir=.git push",
            "GIT_TRACE=1 git push",
            "env GIT_SSH_COMMAND=ssh git push",
            "sudo -u ci git push",
            "command git push",
            "'git' push",
        )
    )
    return f"{head} {' '.join(parts)}"


def _chain(rng: random.Random, command: str) -> str:
    before = rng.choice(("git fetch", "cd shop", "make test", "true", "echo go"))
    form = rng.choice(
        ("{c}", "{c}", "{b} && {c}", "{b}; {c}", "{b} || {c}", 'bash -c "{c}"', "{c} # done")
    )
    return form.format(b=before, c=command.replace('"', "'") if "bash -c" in form else command)


def _look_alike(rng: random.Random) -> str:
    """A command that mentions a force-push without running one."""
    force = rng.choice(("git push -f", "git push --force", "push --force-with-lease"))
    return rng.choice(
        (
            f'echo "{force}"',
            f"echo '{force}' >> notes.txt",
            f'git commit -m "never {force}"',
            f'git log --grep "{force}"',
            f'grep -rn "{force}" docs/',
            f"git config alias.fp '{force.removeprefix('git ')}'",
            f"alias gpf='{force}'",
            f"git {rng.choice(('pull', 'fetch', 'checkout', 'branch -D', 'clean'))} --force",
            f"git push origin {rng.choice(('fix-f', 'feature+main', 'wip--force'))}",
            f"git stash push -m {rng.choice(('-f', 'force'))}",
        )
    )


def force_push_draws(rng: random.Random) -> list[tuple[str, bool]]:
    """Drawn commands and whether each was built as a force-push (the generator's intent;
    the check's ground truth is the teacher's guard, and a test holds the two equal)."""
    draws: list[tuple[str, bool]] = []
    for _ in range(10):
        draws.append((_chain(rng, _push(rng, force=True)), True))
        draws.append((_chain(rng, _push(rng, force=False)), False))
        draws.append((_look_alike(rng), False))
    return list(dict(draws).items())


def guard_commands(rng: random.Random) -> list[JSValue]:
    """Bash commands: force-pushes in every shell form, ordinary pushes, and look-alikes."""
    return [command for command, _ in force_push_draws(rng)]
