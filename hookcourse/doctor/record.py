"""``hookcourse record start|stop SETTINGS``: capture the real payloads of your own sessions.

``start`` adds one capture hook per event to the settings file you name (it keeps the file's
exact bytes beside it, in ``SETTINGS.hookcourse-record``); ``stop`` puts those bytes back,
and refuses when the file changed in between, so nothing anyone wrote meanwhile is lost.
The saved payloads replay with ``hookcourse fire EVENT --payload FILE`` and ``doctor``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

from hookcourse.engine.catalogue import load_catalogue
from hookcourse.errors import InputError
from hookcourse.js import json as jsjson
from hookcourse.system.inputs import read_bounded

STATE_SUFFIX = ".hookcourse-record"
CAPTURE_MARK = "hookcourse.doctor.capture"


@dataclass(frozen=True)
class Recording:
    """What ``start`` did: the file's bytes before (None: it did not exist), the sha256 of
    what it wrote, and where payloads go."""

    original: bytes | None
    written_sha256: str
    out: str


def _state_path(settings: Path) -> Path:
    return settings.with_name(settings.name + STATE_SUFFIX)


def capture_command(out: Path) -> str:
    """The shell command of the capture hook."""
    return f"{shlex.quote(sys.executable)} -m {CAPTURE_MARK} {shlex.quote(str(out))}"


def start(settings: Path, out: Path, events: tuple[str, ...] = ()) -> list[str]:
    """Add the capture hook on ``events`` (default: every event that runs command hooks);
    returns the events. Raises InputError when the file cannot take it."""
    state = _state_path(settings)
    if state.exists():
        raise InputError(
            str(settings),
            "a recording is already running on this file",
            f"hookcourse record stop {settings}",
        )
    catalogue = load_catalogue()
    unknown = [name for name in events if name not in catalogue]
    if unknown:
        raise InputError(
            "--events",
            f"{unknown[0]!r} is not a hook event",
            "run `hookcourse events` for the list",
        )
    chosen = list(events) or [
        name for name, spec in catalogue.items() if "command" in spec.handler_types
    ]
    if out.exists() and not out.is_dir():
        raise InputError(
            str(out), "--out is not a folder", "name a folder for the payloads (it may be new)"
        )
    settings = _target(settings)
    original = settings.read_bytes() if settings.is_file() else None
    if original is None and settings.exists():
        raise InputError(
            str(settings),
            "is not a regular file",
            "name a settings file such as .claude/settings.local.json",
        )
    document = _document(settings) if original is not None else {}
    hooks = document.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise InputError(
            str(settings), '"hooks" is not an object', "fix the file first (hookcourse validate)"
        )
    command = capture_command(out.resolve())
    for event in chosen:
        groups = hooks.setdefault(event, [])
        if not isinstance(groups, list):
            raise InputError(
                str(settings),
                f'"hooks.{event}" is not a list',
                "fix the file first (hookcourse validate)",
            )
        groups.append({"hooks": [{"type": "command", "command": command, "async": True}]})
    text = (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    settings.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "original": None if original is None else base64.b64encode(original).decode("ascii"),
        "written_sha256": hashlib.sha256(text).hexdigest(),
        "out": str(out.resolve()),
    }
    state.write_text(json.dumps(record), encoding="utf-8")
    _write(settings, text)
    return chosen


def stop(settings: Path) -> Recording:
    """Put the file back as it was; raises InputError when it changed since ``start``."""
    state = _state_path(settings)
    try:
        record = json.loads(state.read_text(encoding="utf-8"))
        original = None if record["original"] is None else base64.b64decode(record["original"])
        recording = Recording(original, str(record["written_sha256"]), str(record["out"]))
    except FileNotFoundError:
        raise InputError(
            str(settings),
            "no recording is running on this file",
            f"hookcourse record start {settings} --out DIR",
        ) from None
    except (OSError, ValueError, KeyError, TypeError):
        raise InputError(
            str(state),
            "the recording's state file is damaged",
            f"restore {settings} by hand, then delete {state}",
        ) from None
    settings = _target(settings)
    current = settings.read_bytes() if settings.is_file() else b""
    if hashlib.sha256(current).hexdigest() != recording.written_sha256:
        raise InputError(
            str(settings),
            "changed since the recording started: putting the old bytes back would lose that",
            f"remove the entries whose command names {CAPTURE_MARK} by hand, then delete {state}",
        )
    if recording.original is None:
        settings.unlink()
    else:
        _write(settings, recording.original)
    state.unlink()
    return recording


def _target(settings: Path) -> Path:
    """The file a symbolic link names, so writing it keeps the link."""
    try:
        return settings.resolve(strict=False) if settings.is_symlink() else settings
    except (OSError, RuntimeError):  # a loop of links
        raise InputError(
            str(settings), "is a loop of symbolic links", "point the link at a real file"
        ) from None


def _document(settings: Path) -> dict[str, object]:
    text = read_bounded(str(settings), what="the settings file").text
    try:
        document = jsjson.parse(text)
    except jsjson.JSONSyntaxError as error:
        raise InputError(
            str(settings), f"not valid JSON ({error})", "fix the file first (hookcourse validate)"
        ) from None
    if not isinstance(document, dict):
        raise InputError(
            str(settings), "is not a JSON object", "fix the file first (hookcourse validate)"
        )
    plain: dict[str, object] = json.loads(jsjson.stringify(document))  # for json.dumps
    return plain


def _write(path: Path, data: bytes) -> None:
    """Replace ``path``'s bytes in one step (a reader never sees half a file)."""
    partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    partial.write_bytes(data)
    if path.exists():
        os.chmod(partial, path.stat().st_mode & 0o7777)
    os.replace(partial, path)
