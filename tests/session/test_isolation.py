"""``--isolation``: where no network namespace can be made, ``--real`` refuses unless asked
for the environment-only fallback, and then says so. Run with a fake ``claude`` only:
the project's rule forbids starting the real binary outside a namespace."""

from __future__ import annotations

import io
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hookcourse.errors import InputError
from hookcourse.session import command, namespace, real
from hookcourse.session.loop import run_session
from hookcourse.session.script import from_data
from hookcourse.session.transcript import differences
from tests.support.processes import ended

FAKE = Path(__file__).resolve().parent / "fake_claude.py"
SCRIPT = {
    "name": "hello",
    "prompt": "Say hello.",
    "turns": [{"text": "Hello."}],
    "expect": [{"requests": 1}, {"ends": "completed"}],
}


@pytest.fixture
def fake_claude(tmp_path: Path) -> str:
    wrapper = tmp_path / "claude"
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FAKE}" "$@"\n', encoding="utf-8")
    wrapper.chmod(0o755)
    return str(wrapper)


@pytest.fixture
def no_namespace(monkeypatch: pytest.MonkeyPatch) -> None:
    """A machine where ``unshare -n`` is refused (a rootless container, macOS)."""
    monkeypatch.setattr(
        namespace, "namespace_prefix", lambda: (None, "unshare -n is not permitted")
    )


def test_without_a_namespace_it_refuses_and_names_the_way_out(
    fake_claude: str, no_namespace: None, tmp_path: Path
) -> None:
    script = from_data(SCRIPT, "hello", tmp_path)
    with pytest.raises(InputError) as raised:
        real.run_real(script, fake_claude)
    said = str(raised.value)
    assert "no loopback-only network namespace can be made: unshare -n is not permitted" in said
    assert "--isolation auto" in said
    assert not (tmp_path / "fake-claude.json").exists()


@pytest.mark.parametrize("asked", ["auto", "env"])
def test_the_fallback_points_every_client_at_loopback(
    fake_claude: str, no_namespace: None, tmp_path: Path, asked: str
) -> None:
    script = from_data(SCRIPT, "hello", tmp_path)
    transcript = real.run_real(script, fake_claude, keep=True, isolation=asked)
    root = Path(transcript["root"])
    seen = json.loads((root / "project" / "fake-claude.json").read_text(encoding="utf-8"))
    env = seen["env"]
    assert env["ANTHROPIC_BASE_URL"].startswith("http://127.0.0.1:")
    for name in ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy"):
        assert env[name] == namespace.CLOSED_PROXY
    assert env["NO_PROXY"] == env["no_proxy"] == "127.0.0.1,localhost"
    assert env["CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"] == env["DISABLE_AUTOUPDATER"] == "1"
    assert env["HOME"] == str(root / "home") and env["TMPDIR"] == str(root / "tmp")
    assert seen["argv"][:2] == ["-p", "Say hello."]
    assert transcript["isolation"] == "env"
    assert transcript["network"] == namespace.ISOLATION["env"]
    # What the fake was answered is read back as the real side is: the engine's session.
    assert differences(run_session(script), transcript) == []


def test_the_command_says_which_isolation_it_used(
    fake_claude: str,
    no_namespace: None,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "hello.json"
    path.write_text(json.dumps(SCRIPT), encoding="utf-8")
    out = io.StringIO()
    args = ["--real", "--isolation", "auto", "--claude", fake_claude, "--json", str(path)]
    parser = command.argparse.ArgumentParser()
    command.add_arguments(parser)
    status = command.run_command(parser.parse_args(args), out)
    assert status == command.HELD
    line = f"hookcourse session: Claude Code ran with {namespace.ISOLATION['env']}\n"
    assert capsys.readouterr().err == line
    (session,) = json.loads(out.getvalue())["sessions"]
    assert session["transcripts"][0]["isolation"] == "env"
    refused = command.run_command(parser.parse_args(args[:1] + args[3:]), io.StringIO())
    assert refused == command.CANNOT_RUN
    assert "pass --isolation auto" in capsys.readouterr().err


def test_an_interrupt_kills_the_program_started_in_a_session_of_its_own(
    fake_claude: str, tmp_path: Path
) -> None:
    pid_file = tmp_path / "pid"
    script = {**SCRIPT, "env": {"FAKE_CLAUDE_HANG": str(pid_file)}}
    path = tmp_path / "hang.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    argv = [sys.executable, "-m", "hookcourse", "session", str(path), "--real"]
    run = subprocess.Popen(
        [*argv, "--isolation", "env", "--claude", fake_claude],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        for _ in range(200):
            if pid_file.exists() and pid_file.read_text(encoding="utf-8"):
                break
            time.sleep(0.05)
        fake = int(pid_file.read_text(encoding="utf-8"))
        run.send_signal(signal.SIGINT)
        _, said = run.communicate(timeout=30)
    finally:
        run.kill()
    assert run.returncode == 130
    assert said.decode().endswith("exit 130\n")
    assert ended(fake)


def test_a_binary_that_cannot_start_is_one_line(tmp_path: Path) -> None:
    broken = tmp_path / "claude"
    broken.write_bytes(b"\x00\x01 not a program")
    broken.chmod(0o755)
    script = from_data(SCRIPT, "hello", tmp_path)
    with pytest.raises(InputError) as raised:
        real.run_real(script, str(broken), isolation="env")
    said = str(raised.value)
    assert "could not start Claude Code: OSError: [Errno 8] Exec format error" in said
    assert "Traceback" not in said and "\n" not in said
