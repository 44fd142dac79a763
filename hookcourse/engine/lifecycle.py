"""Events Claude Code 2.1.332 fires on its own as a print-mode session goes, beside the
tool calls, prompts and stops a driver fires itself:

- ``claude -p --init`` (or ``--init-only``, ``--maintenance``) fires Setup first;
- ``--worktree NAME`` fires WorktreeCreate first, and the session runs in the folder
  its hook answers;
- a prompt ``/name args`` naming a custom command or skill fires UserPromptExpansion
  (matcher: the command's name) before UserPromptSubmit;
- a call, as it runs, sets off more: a Bash ``cd`` or ``pushd`` that moves the shell
  fires CwdChanged, and every later hook runs in the new folder (``CLAUDE_PROJECT_DIR``
  stays), unless it is outside the working directories: then the shell is reset to the
  project; a Read (a Write or Edit as well) loads the CLAUDE.md files of the folders
  below the project on the way to the file (``nested_traversal``) and the rules files
  whose frontmatter ``paths`` match it (``path_glob_match``), each firing
  InstructionsLoaded; the Skill tool fires PreSkillShellCommand for each
  `` !`command` `` of the skill's body and registers its frontmatter hooks for the
  rest of the session; the Agent tool starts a subagent (SubagentStart, its own model
  request, SubagentStop).

What the driver keeps between events (the shell's folder, the skills launched) is the
session's; the files already loaded are read from the transcript (``loaded_before``).
This module says what one step sets off. It reads the
project's files (the edge); the rest is pure.
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final

from hookcourse.js import json as jsjson
from hookcourse.js.values import JSValue

from .frontmatter import split_frontmatter
from .permission_rule import CallPlace, command_words, glob_regex, has_pipe, simple_commands
from .skill_files import find_skill, read_markdown
from .transcript_reads import DoneCall
from .versions import agent_in_background, loads_instructions, unknown_command

STARTUP_FLAGS: Final = {"--init": "init", "--init-only": "init", "--maintenance": "maintenance"}
"""Command-line flags that fire Setup, with its ``trigger``."""
WORKTREE_FLAGS: Final = ("--worktree", "-w")
"""The flag that starts the session in a new worktree (its name follows)."""
MEMORY_FILES: Final = (("CLAUDE.md", "Project"), ("CLAUDE.local.md", "Local"))
"""A folder's instruction files and their ``memory_type``."""
RULES_FOLDER: Final = (".claude", "rules")
FILE_TOOLS: Final = ("Read", "Write", "Edit")
"""Tools whose file loads the instruction files on its way (a Write of a new file too)."""
_COMMAND: Final = re.compile(r"/([A-Za-z0-9_.:-]+)(?:[ \t]+(.*))?", re.DOTALL)


@dataclass(frozen=True)
class SetOff:
    """One event a step sets off: its name and the payload fields beyond the common ones."""

    event: str
    fields: Mapping[str, JSValue]

    def to_json(self) -> dict[str, JSValue]:
        return {"event": self.event, "fields": dict(self.fields)}


@dataclass(frozen=True)
class CallEffects:
    """What a tool call sets off while it runs (nothing for a call that does not run)."""

    events: tuple[SetOff, ...] = ()
    """In the order they fire. InstructionsLoaded is set off for every file the call
    loads; a file is loaded once a session, so the driver drops those it already loaded."""
    cwd: str | None = None
    """The shell's folder afterwards, when the call moved it: later hooks run there."""
    skill: str | None = None
    """A launched skill whose frontmatter hooks are registered from now on."""
    subagent: str | None = None
    """The agent type of the subagent the call starts (SubagentStart, its request,
    SubagentStop)."""

    def without_loaded(self, loaded: Collection[str]) -> CallEffects:
        """The effects less the InstructionsLoaded of files the session loaded before."""
        kept = tuple(
            step
            for step in self.events
            if step.event != "InstructionsLoaded" or step.fields.get("file_path") not in loaded
        )
        return replace(self, events=kept)

    def describe(self) -> list[str]:
        """One line per thing the call sets off, for ``fire``'s text report."""
        lines = [f"{step.event} fires ({_fields_text(step)})" for step in self.events]
        if self.cwd is not None:
            lines.append(f"later hooks run in {self.cwd} (their cwd and payload cwd)")
        if self.skill is not None:
            lines.append(
                f"the skill {self.skill}'s frontmatter hooks are registered for the rest of "
                f"the session (fire --skill {self.skill})"
            )
        if self.subagent is not None:
            ends = (
                "print mode runs it in the background, and its completion notification "
                "starts one more main turn"
                if agent_in_background()
                else "the call waits for it and answers with its reply (no further main turn)"
            )
            lines.append(
                f"a {self.subagent} subagent starts: SubagentStart, its own model request, "
                f"SubagentStop; {ends}"
            )
        return lines

    def to_json(self) -> dict[str, JSValue]:
        return {
            "events": [event.to_json() for event in self.events],
            "cwd": self.cwd,
            "skill": self.skill,
            "subagent": self.subagent,
        }


def _fields_text(step: SetOff) -> str:
    shown = ("new_cwd", "load_reason", "file_path", "tool_input", "command_name")
    return ", ".join(
        f"{key} {jsjson.stringify(step.fields[key])}" for key in shown if key in step.fields
    )


SETTINGS_SOURCES: Final = (
    ("user_settings", (".claude", "settings.json"), "home"),
    ("project_settings", (".claude", "settings.json"), "project"),
    ("local_settings", (".claude", "settings.local.json"), "project"),
)
"""ConfigChange's ``source`` for each settings file, and where the file lies."""
_LITERAL_NAME: Final = re.compile(r"[A-Za-z0-9_.-]+")


def watched_names(matchers: Iterable[str | None]) -> frozenset[str]:
    """The file names FileChanged's matchers watch: each ``|``-separated literal name."""
    names: set[str] = set()
    for matcher in matchers:
        parts = (matcher or "").split("|")
        if parts and all(_LITERAL_NAME.fullmatch(part) for part in parts):
            names.update(parts)
    return frozenset(names)


def file_written(path: str, place: CallPlace, watched: Collection[str]) -> tuple[SetOff, ...]:
    """A file changed on disk outside Claude Code (an editor) during an interactive
    session: a settings file fires ConfigChange (``source`` by the file), a watched one
    (its name among ``watched``, from ``watched_names``) FileChanged (``event`` change).
    Seen in 2.1.332 for a local settings file and a file a FileChanged matcher names."""
    target = os.path.normpath(path)
    for source, parts, root in SETTINGS_SOURCES:
        folder = place.home if root == "home" else place.project_dir
        if folder and target == os.path.normpath(os.path.join(folder, *parts)):
            return (SetOff("ConfigChange", {"source": source, "file_path": target}),)
    if os.path.basename(target) in watched:
        return (SetOff("FileChanged", {"file_path": target, "event": "change"}),)
    return ()


def startup_events(flags: Sequence[str]) -> tuple[SetOff, ...]:
    """Setup when the command line asks for it (before SessionStart)."""
    return tuple(
        SetOff("Setup", {"trigger": STARTUP_FLAGS[flag]}) for flag in flags if flag in STARTUP_FLAGS
    )[:1]


def worktree_at_start(flags: Sequence[str]) -> SetOff | None:
    """WorktreeCreate for ``--worktree NAME`` (``-w NAME``, ``--worktree=NAME``): 2.1.332
    fires it before SessionStart, in print mode and in the interface, and the session
    then runs in the folder the hook answers (its hooks' cwd, the shell's folder)."""
    for index, flag in enumerate(flags):
        name, equals, inline = flag.partition("=")
        if name not in WORKTREE_FLAGS:
            continue
        given = inline if equals else (flags[index + 1] if index + 1 < len(flags) else "")
        if given and not given.startswith("-"):
            return SetOff("WorktreeCreate", {"name": given})
    return None


@dataclass(frozen=True)
class Task:
    """A task of the session's task list: what its TaskCreated and TaskCompleted carry."""

    task_id: str
    subject: str
    description: str
    completed: bool = False

    def fields(self) -> dict[str, JSValue]:
        return {
            "task_id": self.task_id,
            "task_subject": self.subject,
            "task_description": self.description,
        }


def task_event(
    tool: str, tool_input: JSValue, tasks: Mapping[str, Task]
) -> tuple[SetOff, Task] | None:
    """What a task-list call sets off as it runs (2.1.332): TaskCreate fires TaskCreated for
    the task it makes (ids count up from 1); TaskUpdate to ``status: completed`` fires
    TaskCompleted for a task on the list not completed yet (an unknown id: "Task not
    found", nothing fires). The event and the task as it would then stand."""
    given = tool_input if isinstance(tool_input, dict) else {}
    if tool == "TaskCreate":
        subject, description = given.get("subject"), given.get("description")
        task = Task(
            str(len(tasks) + 1),
            subject if isinstance(subject, str) else "",
            description if isinstance(description, str) else "",
        )
        return SetOff("TaskCreated", task.fields()), task
    if tool == "TaskUpdate" and given.get("status") == "completed":
        found = tasks.get(str(given.get("taskId")))
        if found is not None and not found.completed:
            return SetOff("TaskCompleted", found.fields()), replace(found, completed=True)
    return None


def prompt_expansion(prompt: str, place: CallPlace) -> SetOff | None:
    """UserPromptExpansion for a prompt ``/name args`` naming a custom command
    (``.claude/commands/<name>.md``, ``a:b`` in ``a/b.md``) or a skill; None otherwise."""
    match = _COMMAND.fullmatch(prompt.strip())
    if match is None:
        return None
    name = match.group(1)
    source = _command_source(name, place)
    if source is None:
        return None
    return SetOff(
        "UserPromptExpansion",
        {
            "expansion_type": "slash_command",
            "command_name": name,
            "command_args": (match.group(2) or "").strip(),
            "command_source": source,
            "prompt": prompt,
        },
    )


def refused_command(prompt: str, place: CallPlace) -> tuple[str, str] | None:
    """For a prompt ``/name args`` naming a custom command (``.claude/commands/<name>.md``,
    the project's or the user's) that the release answered as refused as unknown: what the
    user is shown, and why; None otherwise (a skill's name too)."""
    match = _COMMAND.fullmatch(prompt.strip())
    if match is None or _command_file(match.group(1), place) is None:
        return None
    return unknown_command(match.group(1))


def _command_source(name: str, place: CallPlace) -> str | None:
    source = _command_file(name, place)
    if source is not None:
        return source
    skill = find_skill(place, name)
    return skill.source if skill is not None else None


def _command_file(name: str, place: CallPlace) -> str | None:
    """Where the custom command ``name`` is defined (``a:b`` is ``a/b.md``): its source."""
    if any(part in ("", ".", "..") for part in name.split(":")):
        return None
    relative = Path(*name.split(":"))
    for base, source in ((place.project_dir, "projectSettings"), (place.home, "userSettings")):
        if _is_file(Path(base, ".claude", "commands", relative.with_suffix(".md"))):
            return source
    return None


def call_effects(
    tool_name: str,
    tool_input: JSValue,
    tool_use_id: str,
    place: CallPlace,
    skill_shell: bool = True,
) -> CallEffects:
    """What the call sets off if it runs, in ``place`` (its cwd is the shell's folder);
    ``skill_shell`` False: a skill's `` !`command` `` lines are not run (the setting
    ``disableSkillShellExecution``), so PreSkillShellCommand does not fire."""
    given = tool_input if isinstance(tool_input, dict) else {}
    if tool_name == "Bash" and isinstance(command := given.get("command"), str):
        moved = shell_folder_after(command, place)
        if moved is None:
            return CallEffects()
        # A folder outside the working directories is left at once: the shell is reset
        # to the project, where CwdChanged's hooks then run, and no CwdChanged fires for
        # the way back (2.1.332).
        after = moved if _within(moved, place.working_dirs) else place.project_dir
        changed = SetOff("CwdChanged", {"cwd": after, "old_cwd": place.cwd, "new_cwd": moved})
        return CallEffects(events=(changed,), cwd=after)
    if tool_name in FILE_TOOLS and isinstance(path := given.get("file_path"), str):
        return CallEffects(events=_file_loads(tool_name, path, place))
    if tool_name == "Skill" and isinstance(name := given.get("skill"), str):
        return _skill_effects(name.removeprefix("/"), tool_use_id, place, skill_shell)
    if tool_name == "Agent":
        kind = given.get("subagent_type")
        return CallEffects(subagent=kind if isinstance(kind, str) and kind else "general-purpose")
    return CallEffects()


def _within(folder: str, roots: Sequence[str]) -> bool:
    for root in map(os.path.normpath, roots):
        if folder == root or folder.startswith(root.rstrip(os.sep) + os.sep):
            return True
    return False


def shell_folder_after(command: str, place: CallPlace) -> str | None:
    """Where a Bash command's ``cd``, ``pushd`` and ``popd`` leave the shell, when they
    move it (None: it stays where it was).

    Read from the command line (the course does not trace the shell): the top-level
    folder changes of a command list without pipes, each to a folder that exists.
    """
    parts = None if has_pipe(command) else simple_commands(command)
    folder = place.cwd
    stack: list[str] = []
    for part in parts or ():
        words = command_words(part)
        if words is None:
            return None
        if not words or words[0] not in ("cd", "pushd", "popd"):
            continue
        if words[0] == "popd":
            if len(words) > 1 or not stack:
                break
            folder = stack.pop()
            continue
        target = words[1] if len(words) > 1 else place.home
        if words[0] == "pushd" and len(words) == 1:
            break  # swaps the top two folders of the stack: not followed
        if target == "-" or "$" in target or len(words) > 2:
            return None
        moved = os.path.normpath(os.path.join(folder, os.path.expanduser(target)))
        if not os.path.isdir(moved):
            break
        if words[0] == "pushd":
            stack.append(folder)
        folder = moved
    return folder if folder != place.cwd else None


def loaded_before(calls: Iterable[DoneCall], place: CallPlace) -> frozenset[str]:
    """The instruction files a session has loaded once ``calls`` ran: the project's
    CLAUDE.md at start, then those each file call that ran loaded on its way."""
    loaded = {str(step.fields.get("file_path")) for step in instructions_at_start(place)}
    for call in calls:
        path = call.tool_input.get("file_path")
        if call.ran and call.name in FILE_TOOLS and isinstance(path, str):
            loaded.update(
                str(s.fields.get("file_path")) for s in _file_loads(call.name, path, place)
            )
    return frozenset(loaded)


def _file_loads(tool_name: str, path: str, place: CallPlace) -> tuple[SetOff, ...]:
    """What a file tool's call on ``path`` loads on its way (``instructions_loaded``): none
    where the release answered as did not load them for this tool yet."""
    return instructions_loaded(path, place) if loads_instructions(tool_name) else ()


def instructions_at_start(place: CallPlace) -> tuple[SetOff, ...]:
    """InstructionsLoaded at session start: the project's CLAUDE.md (``session_start``)."""
    memory = Path(place.project_dir, "CLAUDE.md")
    if not _is_file(memory):
        return ()
    fields: dict[str, JSValue] = {
        "file_path": str(memory),
        "memory_type": "Project",
        "load_reason": "session_start",
    }
    return (SetOff("InstructionsLoaded", fields),)


def instructions_loaded(path: str, place: CallPlace) -> tuple[SetOff, ...]:
    """InstructionsLoaded for each instruction file a Read of ``path`` loads: the memory
    files of the folders from below the project down to the file's, then the rules files
    whose ``paths`` globs match the file (project, then user rules)."""
    project = Path(place.project_dir)
    target = Path(os.path.normpath(os.path.join(place.cwd, path)))
    try:
        relative = target.relative_to(project)
    except ValueError:
        return ()
    loaded: list[SetOff] = []
    folder = project
    for part in relative.parts[:-1]:
        folder = folder / part
        for file_name, memory_type in MEMORY_FILES:
            memory = folder / file_name
            if _is_file(memory):
                loaded.append(_loaded(memory, memory_type, "nested_traversal", target))
    for base, memory_type in ((project, "Project"), (Path(place.home), "User")):
        loaded.extend(_rules_matching(base.joinpath(*RULES_FOLDER), memory_type, relative, target))
    return tuple(loaded)


def _loaded(
    file: Path, memory_type: str, reason: str, target: Path, globs: Sequence[str] | None = None
) -> SetOff:
    fields: dict[str, JSValue] = {
        "file_path": str(file),
        "memory_type": memory_type,
        "load_reason": reason,
    }
    if globs is not None:
        fields["globs"] = list(globs)
    fields["trigger_file_path"] = str(target)
    return SetOff("InstructionsLoaded", fields)


def _rules_matching(folder: Path, memory_type: str, relative: Path, target: Path) -> list[SetOff]:
    try:
        files = sorted(folder.rglob("*.md"))
    except OSError:
        return []
    found = []
    for file in files:
        text = read_markdown(file)
        if text is None:
            continue
        frontmatter, _ = split_frontmatter(text)
        globs = _globs(frontmatter.get("paths"))
        if globs and any(_glob_matches(glob, relative.as_posix()) for glob in globs):
            # 2.1.332 reports a "dir/**" glob as "dir".
            shown = [glob.removesuffix("/**") for glob in globs]
            found.append(_loaded(file, memory_type, "path_glob_match", target, shown))
    return found


def _globs(value: JSValue) -> list[str]:
    """A rule's ``paths``, each brace set expanded (2.1.332 reports ``**/*.{ts,tsx}`` as
    ``**/*.ts`` and ``**/*.tsx``)."""
    if isinstance(value, str):
        given = [part.strip() for part in _split_outside_braces(value) if part.strip()]
    elif isinstance(value, list):
        given = [item for item in value if isinstance(item, str) and item]
    else:
        given = []
    return [glob for item in given for glob in expand_braces(item)]


def _split_outside_braces(text: str) -> list[str]:
    """``text`` split at the commas that are not inside ``{...}``."""
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        depth += (char == "{") - (char == "}" and depth > 0)
        if char == "," and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    return [*parts, text[start:]]


def expand_braces(glob: str) -> list[str]:
    """Every glob a brace pattern stands for, left to right (``a{b,c}`` is ``ab``, ``ac``);
    a brace without a matching close or without a comma stays as written."""
    open_at = glob.find("{")
    while open_at != -1:
        depth = 0
        for close_at in range(open_at, len(glob)):
            depth += (glob[close_at] == "{") - (glob[close_at] == "}")
            if depth == 0:
                break
        else:
            return [glob]
        options = _split_outside_braces(glob[open_at + 1 : close_at])
        if len(options) > 1:
            head, tail = glob[:open_at], glob[close_at + 1 :]
            return [
                expanded for option in options for expanded in expand_braces(head + option + tail)
            ]
        open_at = glob.find("{", close_at + 1)
    return [glob]


def _glob_matches(glob: str, relative: str) -> bool:
    pattern = glob.removeprefix("./")
    if pattern.endswith("/**"):
        # "dir/**" holds the folder and everything under it.
        return relative == pattern[:-3] or relative.startswith(pattern[:-2])
    return glob_regex(pattern).fullmatch(relative) is not None


def _skill_effects(name: str, tool_use_id: str, place: CallPlace, skill_shell: bool) -> CallEffects:
    skill = find_skill(place, name)
    if skill is None:
        return CallEffects()
    lines = skill.inline_commands() if skill_shell else ()
    commands = tuple(
        SetOff(
            "PreSkillShellCommand",
            {
                "tool_name": "Bash",
                "tool_input": {"command": command},
                "tool_use_id": f"{tool_use_id}:preamble-{number}",
                "command_name": name,
                "command_source": skill.source,
                "invoked_by": "claude",
            },
        )
        for number, command in enumerate(lines)
    )
    return CallEffects(events=commands, skill=name if skill.hooks is not None else None)


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a regular file; a name the system refuses (too long, a NUL) is
    none, as Claude Code's own lookups find nothing there."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False
