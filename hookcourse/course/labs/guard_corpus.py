"""The force-push guard's corpus (``fixtures/force-push-guard/corpus.json``): families of Bash
commands that must be blocked, false friends that must be allowed, forms no check of the
command text can judge, and families drawn from a seed; one hint per family.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from hookcourse.course.checks.cases import FIXTURES
from hookcourse.course.checks.generators import drawn_cases

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


def graded_families(corpus: Path, seed: int | None) -> list[Family]:
    """The corpus's families, then the drawn ones (None: no drawing, a corpus of one's own)."""
    families = load_corpus(corpus)
    return families if seed is None else [*families, *drawn_families(seed)]


def one_line(command: str) -> str:
    """A command as a Python string on one line: a newline inside it shows as \\n."""
    return repr(command)
