"""``hookcourse session SCRIPT...``: run session scripts, print transcripts, judge expectations.

Exit status: 0 when every expectation held (and, with ``--compare``, both engines
gave the same transcript), 1 when one broke or they differ, 2 for a script that
cannot be run or a usage error (one line on stderr: what, where, how to fix).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hookcourse.errors import InputError, visible

if TYPE_CHECKING:
    from .script import SessionScript
    from .transcript import Transcript

HELD, BROKEN, CANNOT_RUN = 0, 1, 2


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``session`` subcommand's options."""
    parser.add_argument("scripts", nargs="+", metavar="SCRIPT", help="session script (JSON)")
    engines = parser.add_mutually_exclusive_group()
    engines.add_argument(
        "--real",
        action="store_true",
        help="run the script through the real Claude Code (loopback-only namespace, "
        "scripted mock model) instead of hookcourse's engine; a script with "
        "interactive runs in its interface, on a pseudo-terminal",
    )
    engines.add_argument(
        "--compare",
        action="store_true",
        help="run both and show them side by side, each difference marked",
    )
    parser.add_argument(
        "--claude", metavar="PATH", help="the claude binary (default: $HOOKCOURSE_CLAUDE)"
    )
    parser.add_argument(
        "--isolation",
        choices=("namespace", "auto", "env"),
        default="namespace",
        help="how --real keeps Claude Code on loopback: a network namespace with nothing "
        "but lo, else refuse (default); auto: the namespace where one can be made, else "
        "env; env: no namespace, only its environment points it at 127.0.0.1",
    )
    parser.add_argument(
        "--engine",
        metavar="PATH",
        help="play the script with your own module (a .py file defining run_hooks and "
        "run_stop_loop, such as my-notebooks/my_hooks.py) instead of hookcourse's engine; "
        "with --compare, show where it differs from the engine",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--format",
        choices=("text", "github"),
        default="text",
        help="github: also GitHub Actions annotations for broken expectations",
    )
    parser.add_argument("--keep", action="store_true", help="keep the scratch folders")
    parser.add_argument(
        "--allow-outside",
        action="store_true",
        help="let Write, Edit and Read run outside the session's folder where Claude Code "
        "would (an allow rule, a hook's allow, bypassPermissions); without it they are refused",
    )


@dataclass
class SessionResult:
    """One script's run: its transcripts, expectation checks and differences."""

    path: str
    script: SessionScript
    transcripts: list[Transcript] = field(default_factory=list)
    found: list[str] = field(default_factory=list)

    @property
    def held(self) -> bool:
        checks = [c for t in self.transcripts for c in t.get("expectations", [])]
        return all(c["held"] for c in checks) and not self.found

    def to_json(self) -> dict[str, Any]:
        return {
            "script": self.path,
            "held": self.held,
            "transcripts": self.transcripts,
            "differences": self.found,
        }


def run_one(
    path: str,
    real: bool,
    compare: bool,
    claude: str | None,
    keep: bool,
    isolation: str = "namespace",
    engine: str | None = None,
    allow_outside: bool = False,
) -> SessionResult:
    """Run one script through the engine(s) asked for; InputError if it cannot run."""
    # Imported here: `hookcourse --help` and the other subcommands stay fast.
    from .expect import judge_all
    from .loop import run_session
    from .script import load
    from .transcript import differences

    script = load(Path(path))
    result = SessionResult(path, script)
    if engine is not None:
        if real:
            fix = "compare your module with the engine (--compare), or run --real alone"
            raise InputError("--engine", "cannot go with --real", fix)
        if script.data.get("interactive") is not None:
            # The learner's loop is print mode's: no dialog would be shown or answered.
            fix = "run the script without --engine, or a print-mode script with it"
            raise InputError(
                "--engine", "your loop plays print mode, not an interactive script", fix
            )
        from .learner import learner_transcripts

        result.transcripts, result.found = learner_transcripts(
            script, Path(path), Path(engine), compare, keep
        )
    elif real or compare:
        from .real import run_real

        if compare:
            result.transcripts.append(run_session(script, keep, allow_outside))
        transcript = run_real(script, claude, keep, isolation)
        # One line on stderr whatever the format: a fallback must never pass unnoticed.
        print(f"hookcourse session: Claude Code ran with {transcript['network']}", file=sys.stderr)
        if script.data.get("interactive") is not None:
            from .real_interactive import untraced_hooks

            unseen = untraced_hooks(script)
            if unseen:
                # Only the script's own hooks dump what they did; these run unseen.
                print(
                    f"hookcourse session: {len(unseen)} hook command(s) not written as "
                    f"@hook:NAME leave no trace in an interactive run: {one_line(unseen[0])}",
                    file=sys.stderr,
                )
        result.transcripts.append(transcript)
    else:
        result.transcripts.append(run_session(script, keep, allow_outside))
    for transcript in result.transcripts:
        transcript["expectations"] = judge_all(script.expectations, transcript)
    if compare and engine is None:
        result.found = differences(result.transcripts[0], result.transcripts[1])
    return result


def escape_data(text: str) -> str:
    """A workflow command's message: ``%``, CR and LF escaped (GitHub's escapeData)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value: also ``:`` and ``,`` (GitHub's escapeProperty)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _github(result: SessionResult) -> list[str]:
    """GitHub Actions workflow commands: one ``::error`` per broken expectation or difference."""

    def annotation(title: str, message: str) -> str:
        properties = f"file={escape_property(result.path)},title={escape_property(title)}"
        return f"::error {properties}::{escape_data(message)}"

    lines = []
    for transcript in result.transcripts:
        for check in transcript.get("expectations", []):
            if not check["held"]:
                message = f"{transcript['engine']}: {check['says']}: {check['why']}"
                lines.append(annotation("hookcourse session", message))
    for line in result.found:
        lines.append(annotation("hookcourse session --compare", line))
    return lines


ERROR_SHOWN = 500
"""The longest error line printed: a megabyte-long key must not become a megabyte line."""


def one_line(error: object) -> str:
    """``error`` as one printable line of at most ``ERROR_SHOWN`` characters."""
    line = visible(str(error))
    if len(line) > ERROR_SHOWN:
        half = ERROR_SHOWN // 2
        line = f"{line[:half]} … {line[-half:]}"
    return line


def _emit(text: str, out: Any) -> None:
    """Print ``text``; a lone surrogate (a hook may print one) is written as its JSON escape."""
    safe = text.encode("utf-8", "backslashreplace").decode("utf-8")
    print(safe, file=out)


def run_command(args: argparse.Namespace, out: Any = None) -> int:
    """The subcommand: every script in turn, one claude process at a time."""
    out = out or sys.stdout
    results: list[SessionResult] = []
    for path in args.scripts:
        try:
            results.append(
                run_one(
                    path,
                    args.real,
                    args.compare,
                    args.claude,
                    args.keep,
                    args.isolation,
                    getattr(args, "engine", None),
                    getattr(args, "allow_outside", False),
                )
            )
        except InputError as error:
            print(f"hookcourse session: {one_line(error)}", file=sys.stderr)
            return CANNOT_RUN
        except (RecursionError, MemoryError, OSError, UnicodeError) as error:
            # The last guard: what no check foresaw still ends in one line, not a traceback.
            problem = one_line(f"{visible(path)}: cannot run it ({type(error).__name__}: {error})")
            print(f"hookcourse session: {problem}; fix: report it with the script", file=sys.stderr)
            return CANNOT_RUN
    if args.json:
        held = all(r.held for r in results)
        document = {"held": held, "sessions": [r.to_json() for r in results]}
        # ensure_ascii=False keeps text readable; _emit escapes any lone surrogate, so
        # the output is always valid JSON in UTF-8.
        _emit(json.dumps(document, ensure_ascii=False, indent=1, default=str), out)
    else:
        for result in results:
            _print_text(result, args.compare, out)
            if args.format == "github":
                for line in _github(result):
                    _emit(line, out)
    return HELD if all(r.held for r in results) else BROKEN


def _print_text(result: SessionResult, compare: bool, out: Any) -> None:
    from .transcript import render, render_side_by_side

    if compare:
        _emit(render_side_by_side(result.transcripts[0], result.transcripts[1]), out)
        for transcript in result.transcripts:
            for check in transcript.get("expectations", []):
                mark = "✓" if check["held"] else "✗"
                why = "" if check["held"] else f": {check['why']}"
                _emit(f"{mark} {transcript['engine']}: {check['says']}{why}", out)
        return
    for transcript in result.transcripts:
        _emit(render(transcript), out)


def main(argv: Sequence[str]) -> int:
    """For tests: parse ``argv`` as the subcommand's arguments."""
    parser = argparse.ArgumentParser(prog="hookcourse session")
    add_arguments(parser)
    return run_command(parser.parse_args(list(argv)))
