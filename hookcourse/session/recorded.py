"""Transcripts the real Claude Code gave for the course's session scripts, shipped as data.

``data/sessions/index.json`` lists the course's sessions (name, notebook, what it
shows); ``data/sessions/<name>.json`` holds the transcript Claude Code gave for
``fixtures/sessions/<name>.json``, with its version and the day it was recorded.
``show_transcript(name)`` displays one in a notebook, in JupyterLite too: it reads
data and renders text, nothing else. ``python -m hookcourse.session.recorded``
(``scripts/session-record.sh``) records them again from the real binary.
"""

from __future__ import annotations

import datetime
import html
import json
import sys
from collections.abc import Sequence
from importlib import resources
from typing import Any

from .transcript import Transcript, render

DATA = "data/sessions"
SCRIPTS = "fixtures/sessions"


def index() -> list[dict[str, str]]:
    """The course's sessions: ``{"name", "notebook", "about"}`` each, in course order."""
    text = resources.files("hookcourse").joinpath(f"{DATA}/index.json").read_text("utf-8")
    sessions: list[dict[str, str]] = json.loads(text)["sessions"]
    return sessions


def names() -> list[str]:
    """The course's sessions (one per notebook, 03-07)."""
    return [entry["name"] for entry in index()]


def recorded_names() -> list[str]:
    """Every recorded session: the course's, then those kept only to check the engine."""
    text = resources.files("hookcourse").joinpath(f"{DATA}/index.json").read_text("utf-8")
    checks: list[dict[str, str]] = json.loads(text).get("checks", [])
    return [*names(), *(entry["name"] for entry in checks)]


def _known(name: str) -> None:
    if name not in recorded_names():
        raise ValueError(f"no recorded session {name!r}; the course has: {', '.join(names())}")


def load_recorded(name: str) -> dict[str, Any]:
    """``{"script", "claudeCode", "recordedOn", "transcript"}`` for one session."""
    _known(name)
    text = resources.files("hookcourse").joinpath(f"{DATA}/{name}.json").read_text("utf-8")
    document: dict[str, Any] = json.loads(text)
    return document


def script_path(name: str) -> Any:
    """The session script a recording was made from (a package resource)."""
    _known(name)
    return resources.files("hookcourse").joinpath(f"{SCRIPTS}/{name}.json")


class TranscriptView:
    """A transcript as a notebook shows it: text, or HTML in a ``<pre>`` block."""

    def __init__(self, transcript: Transcript, heading: str) -> None:
        self.transcript = transcript
        self.heading = heading

    def __str__(self) -> str:
        return f"{self.heading}\n{render(self.transcript)}"

    __repr__ = __str__

    def _repr_html_(self) -> str:
        body = html.escape(render(self.transcript))
        return (
            f"<div><strong>{html.escape(self.heading)}</strong>"
            f'<pre style="white-space: pre-wrap">{body}</pre></div>'
        )


def show_transcript(
    name: str, live: bool = False, claude: str | None = None, isolation: str = "namespace"
) -> TranscriptView:
    """What the real Claude Code showed the model in session ``name`` (recorded).

    ``live=True`` runs the session again now through the installed Claude Code
    (desktop only: it needs the binary and a loopback-only network namespace, or
    ``isolation="auto"`` for the environment-only fallback, as ``--isolation``).
    """
    if live:
        from .real import run_real
        from .script import load

        with resources.as_file(script_path(name)) as path:
            transcript = run_real(load(path), claude, isolation=isolation)
        return TranscriptView(transcript, "run live just now: what Claude Code shows the model")
    document = load_recorded(name)
    heading = f"recorded {document['recordedOn']}: what the real Claude Code showed the model"
    return TranscriptView(document["transcript"], heading)


def record(chosen: Sequence[str], claude: str | None = None) -> list[str]:
    """Run each session through the real Claude Code and write its recording; the files."""
    from .expect import judge_all
    from .real import claude_version, find_claude, run_real
    from .script import load

    binary = find_claude(claude)
    written = []
    for name in chosen or recorded_names():
        with resources.as_file(script_path(name)) as path:
            script = load(path)
            transcript = run_real(script, binary)
        transcript.pop("root", None)
        transcript["expectations"] = judge_all(script.expectations, transcript)
        document = {
            "script": f"{SCRIPTS}/{name}.json",
            "claudeCode": claude_version(binary),
            "recordedOn": datetime.date.today().isoformat(),
            "transcript": transcript,
        }
        target = resources.files("hookcourse").joinpath(f"{DATA}/{name}.json")
        with resources.as_file(target) as out:
            out.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", "utf-8")
            written.append(str(out))
    return written


def main(argv: Sequence[str]) -> int:
    """``python -m hookcourse.session.recorded [--claude PATH] [NAME ...]``."""
    from hookcourse.errors import InputError

    args = list(argv)
    claude = None
    if args[:1] == ["--claude"] and len(args) > 1:
        claude, args = args[1], args[2:]
    unknown = [name for name in args if name not in recorded_names()]
    if unknown:
        print(
            f"recorded: no session {unknown[0]!r}; fix: use one of {', '.join(recorded_names())}",
            file=sys.stderr,
        )
        return 2
    try:
        for path in record(args, claude):
            print(f"recorded {path}")
    except InputError as error:
        print(f"recorded: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
