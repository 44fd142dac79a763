"""A scratch project for engine tests: real hook scripts, real settings files, the real CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from threading import Thread
from typing import Any

import pytest

from tests.support.paths import ROOT as REPO

# Variables from the caller's shell that would change what the CLI reads.
_SCRUBBED = (
    "CLAUDE_PROJECT_DIR",
    "HOOKCOURSE_MANAGED_SETTINGS",
    "HOOKCOURSE_EVALUATOR",
    "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP",
)


@dataclass
class Fired:
    """One `python -m hookcourse fire` run."""

    returncode: int
    stdout: str
    stderr: str

    @property
    def report(self) -> dict[str, Any]:
        document: dict[str, Any] = json.loads(self.stdout)
        return document

    @property
    def outcome(self) -> dict[str, Any]:
        outcome: dict[str, Any] = self.report["outcome"]
        return outcome

    @property
    def hooks(self) -> list[dict[str, Any]]:
        hooks: list[dict[str, Any]] = self.report["hooks"]
        return hooks


class Project:
    """A project directory and a home directory, with helpers to fill them."""

    def __init__(self, root: Path) -> None:
        self.dir = root / "project"
        self.home = root / "home"
        self.scratch = root / "scratch"
        for folder in (self.dir / ".claude" / "hooks", self.home, self.scratch):
            folder.mkdir(parents=True)

    def script(self, name: str, body: str, *, python: bool = False) -> Path:
        """An executable hook script under .claude/hooks (bash, or Python with python=True)."""
        shebang = f"#!{sys.executable}" if python else "#!/usr/bin/env bash"
        path = self.dir / ".claude" / "hooks" / name
        path.write_text(f"{shebang}\n{body.strip()}\n")
        path.chmod(0o755)
        return path

    def settings(self, document: dict[str, Any], which: str = "project") -> Path:
        """Write a settings file: project, local, user, or any other name (in scratch)."""
        places = {
            "project": self.dir / ".claude" / "settings.json",
            "local": self.dir / ".claude" / "settings.local.json",
            "user": self.home / ".claude" / "settings.json",
        }
        path = places.get(which, self.scratch / which)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(document))
        return path

    def hooks(self, event: str, *handlers: dict[str, Any], matcher: str | None = None) -> None:
        """Project settings with one matcher group for ``event``."""
        group: dict[str, Any] = {"hooks": list(handlers)}
        if matcher is not None:
            group["matcher"] = matcher
        self.settings({"hooks": {event: [group]}})

    def payload(self, event_name: str, /, **fields: Any) -> Path:
        """A payload with the common fields Claude Code sends, plus ``fields``."""
        document = {
            "session_id": "sess-42",
            "transcript_path": str(self.scratch / "t.jsonl"),
            "cwd": str(self.dir),
            "permission_mode": "default",
            "hook_event_name": event_name,
            **fields,
        }
        path = self.scratch / f"payload-{event_name}-{len(list(self.scratch.iterdir()))}.json"
        path.write_text(json.dumps(document))
        return path

    def fire(
        self, event: str, payload: Path | str, *extra: str, json_out: bool = True, **env: str
    ) -> Fired:
        argv = [sys.executable, "-m", "hookcourse", "fire", event, "--payload", str(payload)]
        argv += ["--project-dir", str(self.dir), *extra]
        if json_out:
            argv.append("--json")
        return self.cli(argv, **env)

    def cli(self, argv: list[str], stdin: str | None = None, **env: str) -> Fired:
        """Run ``argv`` with this project's home and only the given extra environment."""
        full_env = {k: v for k, v in os.environ.items() if k not in _SCRUBBED}
        full_env.update(HOME=str(self.home), **env)
        done = subprocess.run(
            argv, capture_output=True, text=True, env=full_env, cwd=REPO, input=stdin, timeout=120
        )
        return Fired(done.returncode, done.stdout, done.stderr)

    def bash_call(self, command: str) -> Path:
        return self.payload(
            "PreToolUse",
            tool_name="Bash",
            tool_input={"command": command, "description": "", "timeout": 120000},
            tool_use_id="toolu_1",
        )


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project(tmp_path)


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


class HookServer:
    """A real HTTP server on 127.0.0.1: answers with a status and body per path, keeps requests."""

    def __init__(self) -> None:
        self.answers: dict[str, tuple[int, str]] = {}
        self.received: list[Received] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                server.received.append(Received(self.path, dict(self.headers), body))
                status, text = server.answers.get(self.path, (404, "no such hook"))
                data = text.encode()
                self.send_response(status)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def answer(self, path: str, status: int, body: str) -> str:
        self.answers[path] = (status, body)
        return self.url + path


@pytest.fixture
def hook_server() -> Iterator[HookServer]:
    server = HookServer()
    thread = Thread(target=server.httpd.serve_forever, daemon=True)
    thread.start()
    yield server
    server.httpd.shutdown()
    server.httpd.server_close()
