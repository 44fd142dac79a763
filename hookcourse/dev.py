"""``python -m hookcourse.dev update | check``: the files derived from the stage folders.

A graded stage is its folder (``hookcourse/stages/<stage>/``); what other files say about
every stage is written from those folders here, never by hand:

- the starters' ``src/hooks.*`` (each stage's ``starter/hooks.{ts,mjs,py}`` in course
  order under a header) and their command tables (``program.{ts,mjs,py}``, from the
  registry's commands, case keys, fields and defaults);
- the finished TypeScript solution the tests grade (each stage's ``starter/solved.ts``);
- the JavaScript oracle's command table (``tests/oracle/stages.mjs``: each stage's
  ``reference.mjs`` under its command) and stage list (``tests/oracle/stages.json``);
- ``fixtures/<slug>``, a link to the stage's own ``fixtures/`` (the path the grader's
  examples and ``regenerate.mjs`` use).

The files derived from the records of the real Claude Code are written by their own
generators, which ``update`` and ``check`` run too (``RECORD_GENERATORS``): the
changelog's rules (``hookcourse/data/claude_versions.json``, the change list, the pages'
generated parts) and the events seen per mode (``hookcourse/data/events_observed.json``).

``update`` writes whatever differs; ``check`` writes nothing and fails with one line per
stale file. Both work on a checkout (the folder holding ``hookcourse/`` and ``tests/``).
The templates are ``hookcourse/data/starter_templates/``: ``@STAGES@``, ``@IMPORTS@`` and
``@COMMANDS@`` lines stand for the generated parts.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from hookcourse.js.values import JSValue
from hookcourse.stages.descriptor import Exercise, Stage
from hookcourse.stages.registry import STAGES

ROOT: Final = Path(__file__).resolve().parent.parent
TEMPLATES: Final = Path("hookcourse/data/starter_templates")
STARTERS: Final = Path("hookcourse/data/starters")
USAGE: Final = "usage: python -m hookcourse.dev update | check"
RECORDS: Final = Path("tests/claude_code")
RECORD_GENERATORS: Final = (
    ("oracle.py", ("changelog", "--check"), ("changelog",)),
    ("observed.py", ("check",), ("write",)),
)
"""Each generator of files derived from the records (a script of ``RECORDS``): how it
checks, how it writes. Each prints one line per file, ``<path>: not current|written``."""
GENERATOR_TIMEOUT_S: Final = 600.0
"""Far past the changelog's 3 s: a generator still running then has hung."""


@dataclass(frozen=True)
class Language:
    """How one starter language spells a stage's part of its program."""

    suffix: str  # of src/hooks.* and program.*
    hooks: str  # where hooks.* sits in the starter
    separator: str  # between two stages' stubs
    name: Callable[[Exercise], str]  # a function's name in this language
    command: Callable[[Stage], str]  # one entry of the command table
    imports: Callable[[tuple[Stage, ...]], list[str]]


def _js_argument(exercise: Exercise, field: str) -> str:
    default = exercise.defaults.get(field)
    return f"x.{field}" if default is None else f"x.{field} ?? {json.dumps(default)}"


def _python_literal(value: JSValue) -> str:
    if value is None or isinstance(value, bool):
        return repr(value)
    return json.dumps(value, ensure_ascii=False)


def _python_argument(exercise: Exercise, field: str) -> str:
    read = f'x.get("{field}", MISSING)'
    if field not in exercise.defaults:
        return read
    return f"nullish({read}, {_python_literal(exercise.defaults[field])})"


@dataclass(frozen=True)
class CommandShape:
    """How one language writes a command of its table: its first line, one line per
    exercise (``{key}``, ``{cases}``, ``{call}``) and its last line."""

    head: str
    entry: str
    tail: str
    argument: Callable[[Exercise, str], str]
    name: Callable[[Exercise], str]

    def __call__(self, stage: Stage) -> str:
        lines = [self.head.format(command=stage.command)]
        for exercise in stage.exercises:
            arguments = ", ".join(self.argument(exercise, field) for field in exercise.fields)
            call = f"{self.name(exercise)}({arguments})"
            lines.append(
                self.entry.format(key=exercise.output_key, cases=exercise.case_key, call=call)
            )
        return "\n".join([*lines, self.tail])


_JS_COMMAND: Final = CommandShape(
    '  "{command}": (c) => ({{',
    '    {key}: list(c, "{cases}").map((x) => {call}),',
    "  }),",
    _js_argument,
    lambda e: e.js_name,
)
_PYTHON_COMMAND: Final = CommandShape(
    '    "{command}": lambda c: {{',
    '        "{key}": [{call} for x in cases(c, "{cases}")],',
    "    },",
    _python_argument,
    lambda e: e.function,
)


def _names(stages: tuple[Stage, ...], name: Callable[[Exercise], str]) -> list[str]:
    return sorted(name(exercise) for stage in stages for exercise in stage.exercises)


LANGUAGES: Final = {
    "ts": Language(
        "ts",
        "src/hooks.ts",
        "\n",
        lambda e: e.js_name,
        _JS_COMMAND,
        lambda stages: [f"  {name}," for name in _names(stages, lambda e: e.js_name)],
    ),
    "js": Language(
        "mjs",
        "src/hooks.mjs",
        "\n",
        lambda e: e.js_name,
        _JS_COMMAND,
        lambda stages: [f"  {name}," for name in _names(stages, lambda e: e.js_name)],
    ),
    "py": Language(
        "py",
        "hooks.py",
        "\n\n",
        lambda e: e.function,
        _PYTHON_COMMAND,
        lambda stages: [
            f"    {name}," for name in ["MISSING", *_names(stages, lambda e: e.function)]
        ],
    ),
}


def _fill(template: str, **parts: str) -> str:
    """``template`` with each line ``@NAME@`` replaced by ``parts[name]``."""
    for name, text in parts.items():
        template = template.replace(f"@{name.upper()}@\n", text.rstrip("\n") + "\n")
    return template


def stage_folder(root: Path, stage: Stage) -> Path:
    """The stage's folder inside the checkout ``root``."""
    return root.joinpath(*stage.package.split("."))


def _stubs(root: Path, stages: tuple[Stage, ...], file: str, separator: str) -> str:
    parts = [(stage_folder(root, stage) / "starter" / file).read_text("utf-8") for stage in stages]
    return separator.join(part.rstrip("\n") + "\n" for part in parts)


def derived_texts(root: Path, stages: tuple[Stage, ...] = STAGES) -> dict[Path, str]:
    """Every derived text file, by its path inside ``root``, as the stage folders say."""
    texts: dict[Path, str] = {}
    for key, language in LANGUAGES.items():
        hooks = Path(key) / language.hooks
        stubs = _stubs(root, stages, Path(language.hooks).name, language.separator)
        texts[STARTERS / hooks] = _fill((root / TEMPLATES / hooks).read_text("utf-8"), stages=stubs)
        program = Path(key) / f"program.{language.suffix}"
        texts[STARTERS / program] = _fill(
            (root / TEMPLATES / program).read_text("utf-8"),
            imports="\n".join(language.imports(stages)),
            commands="\n".join(language.command(stage) for stage in stages),
        )
    solved = _stubs(root, stages, "solved.ts", "\n")
    texts[Path("tests/tester/solutions/ts/hooks.ts")] = _fill(
        (root / TEMPLATES / "ts" / "solved.ts").read_text("utf-8"), stages=solved
    )
    texts[Path("tests/oracle/stages.mjs")] = oracle_commands(stages)
    texts[Path("tests/oracle/stages.json")] = stage_list(stages)
    return texts


def oracle_commands(stages: tuple[Stage, ...] = STAGES) -> str:
    """tests/oracle/stages.mjs: each stage's JavaScript ``program`` under its command."""
    lines = [
        "// The graded stages' commands, in course order, for program.mjs: each stage folder's",
        "// reference.mjs under its command. Written by `python -m hookcourse.dev update`.",
    ]
    for index, stage in enumerate(stages):
        path = "/".join(["..", "..", *stage.package.split("."), "reference.mjs"])
        lines.append(f'import {{ program as stage{index} }} from "{path}";')
    lines += ["", "export const programs = {"]
    lines += [f'  "{stage.command}": stage{index},' for index, stage in enumerate(stages)]
    return "\n".join([*lines, "};", ""])


def stage_list(stages: tuple[Stage, ...] = STAGES) -> str:
    """tests/oracle/stages.json: slug -> command, in course order (regenerate.mjs reads it)."""
    return json.dumps({stage.slug: stage.command for stage in stages}) + "\n"


def derived_links(root: Path, stages: tuple[Stage, ...] = STAGES) -> dict[Path, str]:
    """``fixtures/<slug>`` -> the stage folder's ``fixtures``, as a relative link target."""
    return {
        Path("fixtures") / stage.slug: os.path.relpath(
            stage_folder(root, stage) / "fixtures", root / "fixtures"
        )
        for stage in stages
    }


def stale(root: Path = ROOT, stages: tuple[Stage, ...] = STAGES) -> list[str]:
    """One line per derived file that differs from what the stage folders say."""
    found = []
    for path, text in derived_texts(root, stages).items():
        target = root / path
        if not target.is_file():
            found.append(f"{path}: missing")
        elif target.read_text("utf-8") != text:
            found.append(f"{path}: stale")
    for path, target_text in derived_links(root, stages).items():
        link = root / path
        if not link.is_symlink() or os.readlink(link) != target_text:
            found.append(f"{path}: not a link to {target_text}")
    return found


def update(root: Path = ROOT, stages: tuple[Stage, ...] = STAGES) -> list[Path]:
    """Write every derived file that differs; the paths written."""
    written = []
    for path, text in derived_texts(root, stages).items():
        target = root / path
        if not target.is_file() or target.read_text("utf-8") != text:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            written.append(path)
    for path, target_text in derived_links(root, stages).items():
        link = root / path
        if link.is_symlink() and os.readlink(link) == target_text:
            continue
        if link.is_symlink() or link.is_file():
            link.unlink()
        elif link.exists():
            raise FileExistsError(f"{path} is a folder; move it into the stage folder's fixtures/")
        link.symlink_to(target_text, target_is_directory=True)
        written.append(path)
    return written


def _from_records(root: Path, write: bool) -> list[str]:
    """Run every record generator (writing when ``write``); the lines they print of the
    files not current or written (one of a generator that fails otherwise)."""
    from hookcourse.system.processes import CannotStart, run  # only a checkout's tool needs it

    lines = []
    for script, checking, writing in RECORD_GENERATORS:
        if not (root / RECORDS / script).is_file():
            continue  # a checkout without the records (a copy of the stages' parts)
        try:
            done = run(
                [sys.executable, script, *(writing if write else checking)],
                cwd=root / RECORDS,
                env={**os.environ, "PYTHONPATH": str(root)},  # this checkout's package
                timeout_s=GENERATOR_TIMEOUT_S,
            )
        except CannotStart as error:
            lines.append(f"{RECORDS / script}: {error}")
            continue
        said = [line for line in done.stdout.decode(errors="replace").splitlines() if line.strip()]
        if done.timed_out:
            said = [f"{RECORDS / script}: still running after {GENERATOR_TIMEOUT_S:.0f} s"]
        elif done.exit_code and not said:
            last = (done.stderr.decode(errors="replace").strip().splitlines() or ["no output"])[-1]
            said = [f"{RECORDS / script}: exit {done.exit_code}: {last}"]
        lines += [
            str(Path(line).relative_to(root)) if line.startswith(str(root)) else line
            for line in said
        ]
    return lines


def main(arguments: list[str]) -> int:
    """The command: ``update`` or ``check``; 0 when everything derived is current."""
    if arguments not in (["update"], ["check"]):
        print(USAGE, file=sys.stderr)
        return 2
    if not (ROOT / "tests" / "oracle").is_dir():
        print(f"hookcourse.dev: {ROOT} is not a checkout (no tests/oracle)", file=sys.stderr)
        return 2
    try:
        if arguments == ["update"]:
            for path in update():
                print(f"wrote {path}")
            for line in _from_records(ROOT, write=True):
                print(f"wrote {line.removesuffix(': written')}")
            return 0
        lines = stale() + _from_records(ROOT, write=False)
    except (OSError, KeyError, ValueError) as error:
        print(f"hookcourse.dev {arguments[0]}: {error}", file=sys.stderr)
        return 1
    for line in lines:
        print(f"{line} (fix: python -m hookcourse.dev update)", file=sys.stderr)
    return 1 if lines else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
