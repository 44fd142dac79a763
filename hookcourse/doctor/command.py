"""The ``hookcourse doctor`` subcommand: read the arguments, diagnose, print, exit status.

Exit status: 0 nothing found that stops a hook, 1 a finding that does, or input that cannot
be read (then one line on stderr and nothing on stdout), as ``validate``.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

from hookcourse.errors import InputError, visible

if TYPE_CHECKING:  # the parser is built on every hookcourse call: nothing heavy at import
    from .diagnose import Diagnosis, Question
    from .places import Machine

DEBUG_LOG_CAP = 64 * 1_048_576
MANAGED_DIR = "/etc/claude-code"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The doctor's options."""
    parser.add_argument("event", nargs="?", metavar="EVENT", help="the event that misbehaved")
    parser.add_argument("--payload", metavar="FILE", help="the event's payload (- for stdin)")
    parser.add_argument("--tool", metavar="NAME", help="a PreToolUse payload for this tool")
    parser.add_argument("--input", metavar="JSON", help="with --tool: the tool's input object")
    parser.add_argument("--debug-log", metavar="FILE", help="Claude Code's --debug-file output")
    parser.add_argument(
        "--transcript",
        metavar="FILE",
        help="a session's transcript (~/.claude/projects/<folder>/<session>.jsonl)",
    )
    parser.add_argument(
        "--mode",
        choices=("interactive", "print"),
        help="how Claude Code was started: a terminal session, or claude -p",
    )
    parser.add_argument("--project-dir", metavar="DIR", default=".", help="default: .")
    parser.add_argument("--home", metavar="DIR", help="the user's home (default: $HOME)")
    parser.add_argument(
        "--managed-dir", metavar="DIR", default=MANAGED_DIR, help=f"default: {MANAGED_DIR}"
    )
    parser.add_argument(
        "--hook-path",
        metavar="PATH",
        help="the PATH Claude Code's hooks get (default: this shell's PATH)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object")


def run_command(args: argparse.Namespace) -> int:
    """Diagnose and print; the exit status."""
    from .diagnose import diagnose
    from .findings import Reach

    question = _question(args)
    diagnosis = diagnose(question)
    print(_as_json(diagnosis) if args.json else _as_text(diagnosis))
    stops = any(finding.reach >= Reach.STOPS_HOOK for finding in diagnosis.findings)
    return 1 if stops else 0


def _question(args: argparse.Namespace) -> Question:
    from hookcourse.system.inputs import read_bounded, read_stdin

    from .diagnose import Question
    from .places import Machine, hook_path

    home = Path(args.home) if args.home else Path.home()
    project = Path(args.project_dir)
    if not project.is_dir():
        raise InputError(
            "--project-dir", f"{args.project_dir} is not a folder", "name the project's folder"
        )
    machine = Machine(
        project.resolve(),
        home,
        Path(args.managed_dir),
        hook_path(args.hook_path),
        frozenset(os.environ),
    )
    event, payload, name = args.event, None, "the payload"
    if args.tool is not None:
        event = event or "PreToolUse"
        payload, name = _tool_payload(args.tool, args.input, machine), "--tool/--input"
    elif args.payload is not None:
        payload = (
            read_stdin().text
            if args.payload == "-"
            else read_bounded(args.payload, what="the payload").text
        )
        name = args.payload
    elif args.input is not None:
        raise InputError("--input", "--input goes with --tool", "add --tool NAME")
    if payload is not None and event is None:
        raise InputError(
            "EVENT",
            "a payload needs its event",
            "name it, such as: hookcourse doctor PreToolUse --payload p.json",
        )
    if event is not None:
        from hookcourse.engine.catalogue import load_catalogue

        if event not in load_catalogue():
            raise InputError(
                "EVENT", f"{event!r} is not a hook event", "run `hookcourse events` for the list"
            )
    return Question(
        machine,
        event,
        payload,
        name,
        _session_file(args.debug_log, "the debug log"),
        _session_file(args.transcript, "the transcript"),
        args.mode,
    )


def _session_file(name: str | None, what: str) -> str | None:
    """A debug log's or transcript's text; one too large is refused with how to cut it."""
    from hookcourse.system.inputs import read_bounded

    if not name:
        return None
    try:
        return read_bounded(name, DEBUG_LOG_CAP, what=what).text
    except InputError as error:
        if "larger than" not in error.problem:
            raise
        raise InputError(
            error.where,
            error.problem,
            f"pass the part around the failure, such as: tail -c 60M {name} > part.log",
        ) from None


def _tool_payload(tool: str, text: str | None, machine: Machine) -> str:
    from hookcourse.js import json as jsjson

    try:
        tool_input = jsjson.parse(text) if text is not None else {}
    except jsjson.JSONSyntaxError as error:
        raise InputError(
            "--input", f"not valid JSON ({error})", 'pass an object such as \'{"command": "ls"}\''
        ) from None
    if not isinstance(tool_input, dict):
        raise InputError(
            "--input",
            "the tool input is not a JSON object",
            'pass an object such as \'{"command": "ls"}\'',
        )
    payload = {
        "session_id": "doctor",
        "transcript_path": "",
        "cwd": str(machine.project_dir),
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": "toolu_doctor",
    }
    try:
        return jsjson.stringify(payload)
    except RecursionError:  # parse takes deeper nesting than a payload may hold
        raise InputError(
            "--input", "the tool input is nested too deeply", "pass an input nested less deeply"
        ) from None


def _as_text(diagnosis: Diagnosis) -> str:
    from hookcourse.engine.catalogue import checked_against
    from hookcourse.engine.versions import model_of

    lines = [f"checked against Claude Code {model_of(checked_against())}"]
    lines.append(
        "settings read: " + (", ".join(f"{f.path} ({f.scope})" for f in diagnosis.files) or "none")
    )
    lines += [f"ran: {run}" for run in diagnosis.runs]
    if not diagnosis.findings:
        lines.append("no cause found: every file read, every hook's start and answer look right")
    for number, finding in enumerate(diagnosis.findings, start=1):
        lines += [
            f"{number}. [{finding.cause}] {finding.what}",
            f"   where: {finding.where}",
            f"   why: {finding.why}",
            f"   fix: {finding.fix}",
        ]
    # what a file or hook holds is shown escaped: no NUL or terminal escape reaches the screen
    return "\n".join(visible(line) for line in lines)


def _as_json(diagnosis: Diagnosis) -> str:
    document = {
        "checkedAgainst": "2.1.332",
        "files": [{"path": str(f.path), "scope": f.scope} for f in diagnosis.files],
        "runs": list(diagnosis.runs),
        "findings": [
            {
                "cause": f.cause,
                "reach": f.reach.name.lower(),
                "what": f.what,
                "where": f.where,
                "why": f.why,
                "fix": f.fix,
            }
            for f in diagnosis.findings
        ],
    }
    return json.dumps(document, ensure_ascii=True)
