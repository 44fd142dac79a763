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

from hookcourse.errors import InputError

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
        "scripted mock model) instead of hookcourse's engine",
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
        from .learner import learner_transcripts

        result.transcripts, result.found = learner_transcripts(
            script, Path(path), Path(engine), compare, keep
        )
    elif real or compare:
        from .real import run_real

        if compare:
            result.transcripts.append(run_session(script, keep))
        transcript = run_real(script, claude, keep, isolation)
        # One line on stderr whatever the format: a fallback must never pass unnoticed.
        print(f"hookcourse session: Claude Code ran with {transcript['network']}", file=sys.stderr)
        result.transcripts.append(transcript)
    else:
        result.transcripts.append(run_session(script, keep))
    for transcript in result.transcripts:
        transcript["expectations"] = judge_all(script.expectations, transcript)
    if compare and engine is None:
        result.found = differences(result.transcripts[0], result.transcripts[1])
    return result


def _github(result: SessionResult) -> list[str]:
    """GitHub Actions workflow commands: one ``::error`` per broken expectation or difference."""

    def escape(text: str) -> str:
        return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")

    lines = []
    for transcript in result.transcripts:
        for check in transcript.get("expectations", []):
            if not check["held"]:
                message = escape(f"{transcript['engine']}: {check['says']}: {check['why']}")
                lines.append(f"::error file={result.path},title=hookcourse session::{message}")
    for line in result.found:
        lines.append(
            f"::error file={result.path},title=hookcourse session --compare::{escape(line)}"
        )
    return lines


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
                )
            )
        except InputError as error:
            print(f"hookcourse session: {error}", file=sys.stderr)
            return CANNOT_RUN
    if args.json:
        held = all(r.held for r in results)
        document = {"held": held, "sessions": [r.to_json() for r in results]}
        print(json.dumps(document, ensure_ascii=False, indent=1), file=out)
    else:
        for result in results:
            _print_text(result, args.compare, out)
            if args.format == "github":
                for line in _github(result):
                    print(line, file=out)
    return HELD if all(r.held for r in results) else BROKEN


def _print_text(result: SessionResult, compare: bool, out: Any) -> None:
    from .transcript import render, render_side_by_side

    if compare:
        print(render_side_by_side(result.transcripts[0], result.transcripts[1]), file=out)
        for transcript in result.transcripts:
            for check in transcript.get("expectations", []):
                mark = "✓" if check["held"] else "✗"
                why = "" if check["held"] else f": {check['why']}"
                print(f"{mark} {transcript['engine']}: {check['says']}{why}", file=out)
        return
    for transcript in result.transcripts:
        print(render(transcript), file=out)


def main(argv: Sequence[str]) -> int:
    """For tests: parse ``argv`` as the subcommand's arguments."""
    parser = argparse.ArgumentParser(prog="hookcourse session")
    add_arguments(parser)
    return run_command(parser.parse_args(list(argv)))
