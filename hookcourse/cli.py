"""``hookcourse fire`` and ``hookcourse events``: the Claude Code hook engine from a shell.

Exit status of ``fire``: 2 when the outcome stops the action (deny, block, exit 2 on
a blocking event, ``continue: false`` except on PreToolUse, where the tool still runs,
a permission rule or mode that refuses the call, a tool removed by a bare deny rule),
0 when it goes ahead, 1 for bad input or settings (one line on stderr: what, where,
how to fix). Engine modules are imported
inside the subcommands so that ``--help`` stays fast.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from hookcourse.errors import InputError, run_at_edge, visible

if TYPE_CHECKING:
    from hookcourse.engine.api import SettingsSource

BAD_INPUT = 1
USAGE = 2

SOURCES_HELP = "comma-separated subset of user,project,local to read (default: all three)"


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error as one line: exit 2, except for ``fire`` (1),
    whose 2 means 'blocked'."""

    usage_status = USAGE

    def error(self, message: str) -> NoReturn:
        self.exit(self.usage_status, f"{self.prog}: {message}; fix: see `{self.prog} --help`\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="hookcourse",
        description="Fire Claude Code hook events for real, and browse the event catalogue.",
    )
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    fire = commands.add_parser(
        "fire",
        help="run the hooks your settings configure for one event",
        description=(
            "Select the hooks the settings configure for EVENT, run them in parallel on "
            "the payload, and show how Claude Code would read and merge their results. "
            "Exit status: 2 when the action is stopped, 0 when it goes ahead, 1 for bad "
            "input or settings."
        ),
    )
    fire.usage_status = BAD_INPUT
    fire.add_argument("event", metavar="EVENT", help="the hook event, such as PreToolUse")
    fire.add_argument(
        "--payload", required=True, metavar="FILE", help="the event's JSON input; - for stdin"
    )
    fire.add_argument(
        "--settings",
        action="append",
        default=[],
        metavar="FILE_OR_JSON",
        help="an extra settings file or inline JSON, like claude --settings (repeatable)",
    )
    fire.add_argument(
        "--project-dir",
        metavar="DIR",
        help="the project root: .claude/settings.json and settings.local.json are read "
        "from it and it is ${CLAUDE_PROJECT_DIR} (default: $CLAUDE_PROJECT_DIR, else .)",
    )
    fire.add_argument(
        "--managed-settings",
        metavar="FILE",
        help="a managed-settings.json to apply (default: $HOOKCOURSE_MANAGED_SETTINGS; "
        "none when unset)",
    )
    fire.add_argument("--setting-sources", metavar="LIST", help=SOURCES_HELP)
    fire.add_argument(
        "--evaluator",
        metavar="CMD",
        help="shell command that answers prompt and agent hooks: the prompt arrives on "
        'stdin, it prints {"ok": true|false, "reason": "..."} (default: '
        "$HOOKCOURSE_EVALUATOR; with none, such hooks report that no model was asked)",
    )
    fire.add_argument(
        "--stop-blocks",
        type=int,
        default=0,
        metavar="N",
        help="Stop/SubagentStop: consecutive blocks before this one (default 0)",
    )
    fire.add_argument(
        "--stop-block-cap",
        type=int,
        metavar="N",
        help="consecutive Stop blocks allowed before Claude Code overrides them "
        "(default: $CLAUDE_CODE_STOP_HOOK_BLOCK_CAP, else 8; 0 disables the cap)",
    )
    fire.add_argument(
        "--permission-mode",
        metavar="MODE",
        help="default, acceptEdits, plan, auto, dontAsk or bypassPermissions: the session's "
        "mode, sent to hooks as permission_mode and applied by the permission step after "
        "PreToolUse hooks (default: the payload's permission_mode, else "
        "permissions.defaultMode, else default)",
    )
    fire.add_argument(
        "--dangerously-skip-permissions",
        action="store_true",
        help="as claude's flag: the session runs in bypassPermissions mode (over "
        "--permission-mode); hook denies and deny rules still stop calls",
    )
    fire.add_argument(
        "--add-dir",
        "--add-dirs",
        dest="add_dirs",
        action="extend",
        nargs="+",
        default=[],
        metavar="DIR",
        help="as claude's flag: more working directories beside the project (a cd there "
        "is allowed and keeps the shell there)",
    )
    for word, effect in (
        (
            "allowed",
            "allow rules for the session, comma or space separated "
            '("Bash(git *) Edit"); they apply whether or not the folder is trusted',
        ),
        (
            "disallowed",
            "deny rules for the session; a bare tool (Bash) removes it, so no "
            "hook runs and the model is told there is no such tool",
        ),
    ):
        fire.add_argument(
            f"--{word}-tools",
            f"--{word}Tools",
            dest=f"{word}_tools",
            action="extend",
            nargs="+",
            default=[],
            metavar="RULE",
            help=f"as claude's flag: {effect}",
        )
    fire.add_argument(
        "--max-turns",
        type=int,
        metavar="N",
        help="as claude's flag: model responses a prompt may get (0: no limit); with "
        "--turn, a Stop continuation or the response after tool calls (PostToolBatch) "
        "that would exceed it ends the run with max_turns",
    )
    fire.add_argument(
        "--turn",
        type=int,
        default=1,
        metavar="N",
        help="Stop/SubagentStop/PostToolBatch: which model response of the prompt the "
        "event follows, for --max-turns (default 1, the first)",
    )
    trust = fire.add_mutually_exclusive_group()
    trust.add_argument(
        "--trusted",
        dest="trusted",
        action="store_const",
        const=True,
        help="treat the project folder as trusted: its permissions.allow rules apply "
        "(default: ~/.claude.json projects[DIR].hasTrustDialogAccepted)",
    )
    trust.add_argument(
        "--untrusted",
        dest="trusted",
        action="store_const",
        const=False,
        help="treat the project folder as not trusted: its permissions.allow rules do not apply",
    )
    fire.add_argument(
        "--skill",
        action="append",
        default=[],
        metavar="NAME",
        help="a skill the Skill tool launched earlier in the session: the hooks in its "
        "SKILL.md frontmatter run too, as Claude Code registers them (repeatable)",
    )
    fire.add_argument("--plugin-root", metavar="DIR", help="value of ${CLAUDE_PLUGIN_ROOT}")
    fire.add_argument("--plugin-data", metavar="DIR", help="value of ${CLAUDE_PLUGIN_DATA}")
    fire.add_argument(
        "--strict", action="store_true", help="treat settings warnings as errors (exit 1)"
    )
    fire.add_argument(
        "--claude-version",
        metavar="X",
        help="answer as Claude Code release X did, for the changes the version sweep "
        "measured and fire models (default: the newest measured; `hookcourse versions` "
        "lists them)",
    )
    fire.add_argument(
        "--interactive",
        action="store_true",
        help="also say what Claude Code's interactive interface does where print mode "
        "differs: PreToolUse's permission dialog (after the permission step's ask or a "
        "hook's ask), what the user is shown, and what their answer does",
    )
    fire.add_argument(
        "--answer",
        choices=("yes", "no"),
        help="with --interactive: the user's answer to the dialog (yes runs the call, no "
        "refuses it; no without --feedback also ends the turn)",
    )
    fire.add_argument(
        "--feedback",
        metavar="TEXT",
        help="with --answer no: what the user types after Tab, which the model reads",
    )
    fire.add_argument("--json", action="store_true", help="print one JSON object")
    doctor = commands.add_parser(
        "doctor",
        help="why didn't my hook do that? one ranked answer",
        description="Walk the whole path a hook takes in Claude Code 2.1.332 (the files read and "
        "never read, policy, validate's findings, whether each process starts here; with an "
        "event and payload, a real run and how each answer was read; with --debug-log, what a "
        "real session recorded) and rank the causes. Exit status: 1 a finding stops a hook "
        "(or input that cannot be read: one line on stderr), else 0.",
    )
    from hookcourse.doctor.command import add_arguments as add_doctor_arguments

    add_doctor_arguments(doctor)
    record = commands.add_parser(
        "record",
        help="capture the real payloads of your own Claude Code sessions",
        description="start: add a capture hook on every event (or --events) to the settings "
        "file you name, keeping its exact bytes beside it; stop: put those bytes back (refused "
        "when the file changed meanwhile). Payloads land in --out as NNNN-EVENT.json and replay "
        "with `hookcourse fire EVENT --payload FILE`.",
    )
    record.add_argument("action", choices=("start", "stop"))
    record.add_argument("settings", metavar="SETTINGS", help="such as .claude/settings.local.json")
    record.add_argument(
        "--out", metavar="DIR", default="hook-payloads", help="default: hook-payloads"
    )
    record.add_argument("--events", metavar="E1,E2", help="default: every event")
    versions = commands.add_parser(
        "versions",
        help="what changed in hook behaviour, release by release (measured)",
        description="The hook behaviour changes the version sweep measured across Claude "
        "Code releases, per release; with EVENT, those that concern it.",
    )
    versions.add_argument("event", nargs="?", metavar="EVENT", help="such as PreToolUse")
    events = commands.add_parser(
        "events",
        help="print the hook event catalogue",
        description="Without NAME, one row per event; with NAME, everything about that event.",
    )
    events.add_argument("name", nargs="?", metavar="NAME", help="one event, such as Stop")
    validate = commands.add_parser(
        "validate",
        help="lint hook settings without running anything",
        description="Check settings files (and plugin hooks/hooks.json) against the hook "
        "reference and Claude Code 2.1.332 without running anything. Exit status by the "
        "highest severity left after --select/--ignore: 1 when it reaches --fail-on (default: "
        "error), else 0; 2 usage. `hookcourse validate --list-rules` lists the rules.",
    )
    validate.add_argument(
        "files",
        nargs="*",
        metavar="FILE",
        help="settings files to check (default: the project's .claude/settings.json, "
        ".claude/settings.local.json and hooks/hooks.json that exist)",
    )
    validate.add_argument(
        "--project-dir",
        metavar="DIR",
        help="the project the hooks run in, where scripts are looked for (default: the "
        "folder holding each file's .claude/; with no FILE, the files are found here, default .)",
    )
    validate.add_argument(
        "--plugin-root",
        metavar="DIR",
        help="value of ${CLAUDE_PLUGIN_ROOT} (default: for hooks/hooks.json, the folder "
        "holding hooks/; for .claude-plugin/plugin.json, the folder holding that; for a "
        "plugin's skills/*/SKILL.md or agents/*.md, the folder holding skills/ or agents/)",
    )
    validate.add_argument(
        "--managed",
        action="store_true",
        help="the files are managed settings (managed-only keys such as "
        "allowManagedHooksOnly apply)",
    )
    validate.add_argument(
        "--select",
        action="append",
        default=[],
        metavar="RULE",
        help="run only these rules (comma-separated, repeatable; default: all)",
    )
    validate.add_argument(
        "--ignore",
        action="append",
        default=[],
        metavar="RULE",
        help="skip these rules (comma-separated, repeatable)",
    )
    validate.add_argument(
        "--format",
        choices=("text", "github", "json"),
        default=None,
        help="text (default), github (GitHub Actions annotations) or json",
    )
    validate.add_argument(
        "--fail-on",
        choices=("error", "warning"),
        default="error",
        help="the lowest severity that makes the exit status 1 (default: error)",
    )
    validate.add_argument("--json", action="store_true", help="the same as --format json")
    validate.add_argument(
        "--list-rules", action="store_true", help="print every rule: id, severity, reference"
    )
    session = commands.add_parser(
        "session",
        help="run a scripted session through the engine (or the real Claude Code)",
        description="Play a session script (settings, hooks, prompts, the model's turns, "
        "expectations) through hookcourse's engine, or with --real through Claude Code in a "
        "loopback-only namespace, and print what the model is shown at each step. Exit "
        "status: 0 every expectation held, 1 one broke (or --compare found a difference), "
        "2 a script that cannot be run.",
    )
    from hookcourse.session.command import add_arguments as session_arguments

    session_arguments(session)
    # Listed for --help only: main() hands `test` to hookcourse.course.grading.tester, which has its
    # own options and exit statuses (2 for a usage error).
    commands.add_parser("test", help="grade a program (./your_program.sh) on the course's stages")
    init = commands.add_parser(
        "init",
        help="write the stage skeleton in TypeScript, JavaScript or Python",
        description="Write src/hooks.ts (or hooks.mjs, hooks.py) with every graded stage's "
        "function failing with 'not implemented', the program that maps them over a case "
        "file for every grader command, and your_program.sh. Never overwrites a file.",
    )
    init.add_argument("--lang", required=True, choices=("ts", "js", "py"), help="the language")
    init.add_argument("folder", metavar="DIR", help="the folder to write (made if missing)")
    reset = commands.add_parser(
        "reset",
        help="restore notebooks in your working copy from the course (keeps a backup)",
        description="Restore notebooks in my-notebooks/ from the course, outputs cleared; "
        "your version moves to my-notebooks/backups/ first.",
    )
    reset.add_argument("notebooks", nargs="*", metavar="NOTEBOOK", help="e.g. 01 or 01_matcher")
    reset.add_argument("--all", action="store_true", help="every notebook of the course")
    reset.add_argument(
        "--my-hooks",
        action="store_true",
        help="also start my_hooks.py afresh (yours is kept in my-notebooks/backups/)",
    )
    workshop = commands.add_parser(
        "workshop",
        help="teacher and student builds of the course, and a class progress report",
    )
    actions = workshop.add_subparsers(dest="action", required=True, parser_class=_Parser)
    build = actions.add_parser(
        "build",
        help="write the course with solutions (executed) or with starters",
        description="--teacher DIR: exercise cells solved from hookcourse/solutions/ between "
        "# BEGIN SOLUTION / # END SOLUTION, executed, every check green. --student DIR: the "
        "starters, outputs cleared.",
    )
    audience = build.add_mutually_exclusive_group(required=True)
    audience.add_argument("--teacher", metavar="DIR", help="write the teacher build here")
    audience.add_argument("--student", metavar="DIR", help="write the student build here")
    report = actions.add_parser(
        "report",
        help="a class table from learners' progress files",
        description="Read progress.jsonl files (or folders holding them, one a learner; or "
        "a hub's homes, '/home/*/my-notebooks') and write a table of learner by exercise, "
        "stuck learners first, with the most-missed case families and who is stuck where.",
    )
    report.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="progress files, folders, or globs in quotes ('/home/*/my-notebooks')",
    )
    report.add_argument("--html", metavar="FILE", help="write a self-contained HTML page")
    report.add_argument("--csv", metavar="FILE", help="write CSV in nbgrader's grades.csv columns")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (output that cannot be written
    does not change it: ``hookcourse fire ... | head`` still says whether it blocked)."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    return run_at_edge("hookcourse", lambda: _run(arguments), BAD_INPUT)


def _run(arguments: list[str]) -> int:
    if arguments[:1] == ["test"]:
        # Before the tester's own imports (the script did so before importing this one,
        # hookcourse.entry): a signal while it starts is handled the same way.
        from hookcourse.course.grading.mark import TEST_INTERRUPTS
        from hookcourse.system.interrupts import install_interrupt_handlers

        install_interrupt_handlers(TEST_INTERRUPTS)
        from hookcourse.course.grading.tester import main as test_main

        return test_main(arguments[1:])
    parser = _parser()
    args, unknown = parser.parse_known_args(arguments)
    if unknown:
        status = BAD_INPUT if args.command == "fire" else USAGE
        parser.exit(
            status,
            f"hookcourse: unrecognized arguments: {' '.join(unknown)}; "
            "fix: see `hookcourse --help`\n",
        )
    if args.command in ("fire", "events", "validate", "session", "doctor"):
        from hookcourse.system.interrupts import install_interrupt_handlers

        install_interrupt_handlers()
    try:
        if args.command == "events":
            return _events(args.name)
        if args.command == "versions":
            from hookcourse.engine.api import changelog_lines, event_spec

            event = None if args.event is None else event_spec(args.event).name
            print("\n".join(changelog_lines(event)))
            return 0
        if args.command in ("workshop", "reset"):
            from hookcourse.course.teaching.workshop_command import run_command

            return run_command(args)
        if args.command == "session":
            from hookcourse.session.command import run_command as run_session

            return run_session(args)
        if args.command == "init":
            from hookcourse.course.grading.starter import run_init

            return run_init(args.lang, Path(args.folder))
        if args.command == "validate":
            return _validate(args)
        if args.command == "record":
            return _record(args)
        if args.command == "doctor":
            from hookcourse.doctor.command import run_command as run_doctor

            return run_doctor(args)
        return _fire(args)
    except InputError as error:
        print(f"hookcourse: {error}", file=sys.stderr)
        return BAD_INPUT


def _validate(args: argparse.Namespace) -> int:
    """``hookcourse validate``: print the report; exit by the highest severity left."""
    from hookcourse.engine.api import (
        Severity,
        ValidateOptions,
        choose_rules,
        default_files,
        lint_rules,
        render_findings,
        validate_files,
    )

    def usage(problem: str, fix: str) -> int:
        print(f"hookcourse validate: {problem}; fix: {fix}", file=sys.stderr)
        return USAGE

    if args.list_rules:
        for entry in lint_rules():
            print(f"{entry.id}\t{entry.severity}\t{entry.summary}\t{entry.reference}")
        return 0
    names = [name.strip() for value in args.select for name in value.split(",") if name.strip()]
    skipped = [name.strip() for value in args.ignore for name in value.split(",") if name.strip()]
    try:
        rules = choose_rules(names, skipped)
    except ValueError as error:
        return usage(
            f"no rule called {visible(str(error))}", "see `hookcourse validate --list-rules`"
        )
    for flag, value in (("--project-dir", args.project_dir), ("--plugin-root", args.plugin_root)):
        if value is not None and not os.path.isdir(value):
            return usage(f"{flag} {visible(value)} is not a directory", f"give {flag} a folder")
    folder = next((name for name in args.files if os.path.isdir(name)), None)
    if folder is not None:
        shown = visible(folder)
        return usage(
            f"{shown} is a directory", f"pass settings files, or use --project-dir {shown}"
        )
    directory = Path(args.project_dir or ".")
    paths = [Path(name) for name in args.files] or default_files(directory)
    if not paths:
        return usage(
            f"no settings file in {visible(str(directory))} (.claude/settings.json, "
            ".claude/settings.local.json or hooks/hooks.json)",
            "name FILE",
        )
    options = ValidateOptions(
        project_dir=Path(args.project_dir) if args.project_dir else None,
        plugin_root=Path(args.plugin_root) if args.plugin_root else None,
        managed=args.managed,
        rules=rules,
    )
    report = validate_files(paths, options)
    for line in render_findings(report, "json" if args.json else args.format or "text"):
        print(line)
    highest = report.highest()
    threshold = Severity.WARNING if args.fail_on == "warning" else Severity.ERROR
    return 1 if highest is not None and highest.rank >= threshold.rank else 0


def _events(name: str | None) -> int:
    from hookcourse.engine.api import (
        describe_event,
        describe_events,
        event_spec,
        load_catalogue,
    )

    if name is None:
        print(describe_events(load_catalogue().values()))
    else:
        print(describe_event(event_spec(name)))
    return 0


def _fire(args: argparse.Namespace) -> int:
    from hookcourse.engine.api import (
        DEFAULT_STOP_BLOCK_CAP,
        MANAGED_SETTINGS_ENV,
        CommandEvaluator,
        FireRequest,
        SettingsPlaces,
        fire,
        report_json,
        report_text,
    )
    from hookcourse.js import json as jsjson

    project_dir = Path(args.project_dir or os.environ.get("CLAUDE_PROJECT_DIR") or ".")
    if not project_dir.is_dir():
        raise InputError("--project-dir", f"{project_dir} is not a directory", "pass a directory")
    managed = args.managed_settings or os.environ.get(MANAGED_SETTINGS_ENV) or None
    home = os.environ.get("HOME")
    places = SettingsPlaces(
        project_dir=project_dir,
        home=Path(home) if home else None,
        extra=tuple(args.settings),
        managed=Path(managed) if managed else None,
        sources=_sources(args.setting_sources),
        skills=tuple(args.skill),
    )
    evaluator_command = args.evaluator or os.environ.get("HOOKCOURSE_EVALUATOR")
    cap = args.stop_block_cap
    if cap is None:
        cap = _int_env("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", DEFAULT_STOP_BLOCK_CAP)
    if args.stop_blocks < 0:
        raise InputError("--stop-blocks", "a count cannot be negative", "pass 0 or more")
    if cap < 0:
        where = (
            "--stop-block-cap"
            if args.stop_block_cap is not None
            else "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP"
        )
        raise InputError(where, "the cap cannot be negative", "pass 0 (no cap) or more")
    if args.max_turns is not None and args.max_turns < 0:
        raise InputError("--max-turns", "a count cannot be negative", "pass 0 (no limit) or more")
    if args.turn < 1:
        raise InputError("--turn", "responses are counted from 1", "pass 1 or more")
    # As in Claude Code, --dangerously-skip-permissions wins over --permission-mode.
    mode = "bypassPermissions" if args.dangerously_skip_permissions else args.permission_mode
    request = FireRequest(
        event=args.event,
        payload_text=_read_payload(args.payload),
        payload_name="stdin" if args.payload == "-" else args.payload,
        places=places,
        evaluator=CommandEvaluator(evaluator_command) if evaluator_command else None,
        consecutive_stop_blocks=args.stop_blocks,
        stop_block_cap=cap,
        plugin_root=args.plugin_root,
        plugin_data=args.plugin_data,
        permission_mode=mode,
        trusted=args.trusted,
        allowed_tools=tuple(args.allowed_tools),
        added_dirs=tuple(args.add_dirs),
        disallowed_tools=tuple(args.disallowed_tools),
        max_turns=args.max_turns,
        turn=args.turn,
    )
    from hookcourse.engine.api import (
        answer_dialog,
        answering_as,
        answering_line,
        check_answer,
        interactive_json,
        interactive_lines,
        not_fired_note,
        shows_dialog,
    )

    answer = check_answer(args.answer, args.feedback, args.interactive)
    with answering_as(args.claude_version):
        report = fire(request)
        note = not_fired_note(args.event)
    if note is not None:
        print(f"hookcourse: {note}", file=sys.stderr)
    if args.strict and report.settings.warnings:
        raise report.settings.warnings[0]
    status = report.exit_status
    if args.interactive and answer is not None and shows_dialog(report):
        # The user's answer, not print mode's refusal, decides whether the call goes ahead.
        status = 0 if answer_dialog(report, answer).tool_runs else 2
    if args.json:
        document = report_json(report)
        if args.interactive:
            document["interactive"] = interactive_json(report, answer)
        print(jsjson.stringify(document))
    else:
        for warning in report.warnings:
            print(visible(f"hookcourse: warning: {warning}"), file=sys.stderr)
        if args.claude_version:
            print(answering_line(args.claude_version))
        text = report_text(report)
        if args.interactive:
            # Before the closing exit status line: the interface's part of the answer.
            body, _, last = text.rpartition("\n")
            if not last.startswith("exit status "):
                body = text
            text = "\n".join([body, *interactive_lines(report, answer), f"exit status {status}"])
        print(text)
    return status


def _record(args: argparse.Namespace) -> int:
    """``hookcourse record start|stop``."""
    from hookcourse.doctor import record

    settings = Path(args.settings)
    if args.action == "start":
        events = tuple(filter(None, (e.strip() for e in (args.events or "").split(","))))
        chosen = record.start(settings, Path(args.out), events)
        print(
            f"hookcourse record: capturing {len(chosen)} events into {args.out}; run Claude Code "
            f"as usual, then: hookcourse record stop {settings}"
        )
        return 0
    recording = record.stop(settings)
    saved = sorted(Path(recording.out).glob("*.json")) if Path(recording.out).is_dir() else []
    how = (
        "removed (it did not exist before)"
        if recording.original is None
        else "restored byte for byte"
    )
    print(f"hookcourse record: {settings} {how}; {len(saved)} payloads in {recording.out}")
    return 0


def _read_payload(name: str) -> str:
    from hookcourse.system.inputs import read_bounded, read_stdin

    if name == "-":
        return read_stdin().text
    return read_bounded(name, what="the payload").text


def _sources(text: str | None) -> frozenset[SettingsSource]:
    from hookcourse.engine.api import STANDARD_SOURCES, SettingsSource

    if text is None:
        return STANDARD_SOURCES
    chosen = set()
    for word in filter(None, (part.strip() for part in text.split(","))):
        if word not in STANDARD_SOURCES:
            raise InputError(
                "--setting-sources", f"{word!r} is not a settings source", "use user,project,local"
            )
        chosen.add(SettingsSource(word))
    return frozenset(chosen)


def _int_env(name: str, default: int) -> int:
    text = os.environ.get(name)
    if text is None or text == "":
        return default
    try:
        return int(text)
    except ValueError:
        raise InputError(
            name, f"{text!r} is not a whole number", f"unset {name} or fix it"
        ) from None


if __name__ == "__main__":
    sys.exit(main())
