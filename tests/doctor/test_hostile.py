"""``hookcourse doctor`` and ``record`` against hostile files, payloads, hooks and logs.

Each attack builds a project in a temporary folder and runs the command line in process:
no traceback, exit 0 or 1, bad input as one line on stderr, and no finding that names a
wrong cause (each case lists causes that must not appear).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from hookcourse.cli import main
from hookcourse.doctor import record
from hookcourse.errors import InputError

GUARD = '"$CLAUDE_PROJECT_DIR"/.claude/hooks/g.sh'
BASH_CALL = ("--tool", "Bash", "--input", '{"command": "ls"}')
MiB = 1_048_576


def _settings(project: Path, command: str = GUARD, event: str = "PreToolUse") -> None:
    group = {"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}
    (project / ".claude" / "settings.json").write_text(json.dumps({"hooks": {event: [group]}}))


def _script(project: Path, data: bytes) -> Path:
    folder = project / ".claude" / "hooks"
    folder.mkdir(exist_ok=True)
    script = folder / "g.sh"
    script.write_bytes(data)
    script.chmod(0o755)
    _settings(project)
    return script


def _raw_settings(data: bytes) -> Callable[[Path], tuple[str, ...]]:
    def build(project: Path) -> tuple[str, ...]:
        (project / ".claude" / "settings.json").write_bytes(data)
        return ()

    return build


def _good(project: Path) -> None:
    _script(project, b"#!/bin/sh\ncat >/dev/null\nexit 0\n")


def _log(data: bytes) -> Callable[[Path], tuple[str, ...]]:
    def build(project: Path) -> tuple[str, ...]:
        _good(project)
        (project / "debug.log").write_bytes(data)
        return ("--debug-log", str(project / "debug.log"))

    return build


def _then(*parts: Callable[[Path], object]) -> Callable[[Path], tuple[str, ...]]:
    """Run each step; the last one's arguments."""

    def build(project: Path) -> tuple[str, ...]:
        found: object = ()
        for part in parts:
            found = part(project)
        return tuple(found) if isinstance(found, tuple) else ()

    return build


def _fifo(relative: str) -> Callable[[Path], None]:
    def build(project: Path) -> None:
        (project / relative).parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(project / relative)

    return build


def _folder(relative: str) -> Callable[[Path], None]:
    return lambda project: (project / relative).mkdir(parents=True)


def _loop(project: Path) -> None:
    link = project / ".claude" / "settings.json"
    link.symlink_to(project / ".claude" / "other")
    (project / ".claude" / "other").symlink_to(link)


def _drop_in(data: bytes) -> Callable[[Path], None]:
    def build(project: Path) -> None:
        folder = project / "managed" / "managed-settings.d"
        folder.mkdir(parents=True)
        (folder / "10-policy.json").write_bytes(data)

    return build


def _payload(data: bytes, event: str = "PreToolUse") -> Callable[[Path], tuple[str, ...]]:
    def build(project: Path) -> tuple[str, ...]:
        (project / "payload.json").write_bytes(data)
        return (event, "--payload", str(project / "payload.json"))

    return build


def _input(text: str) -> Callable[[Path], tuple[str, ...]]:
    return lambda project: ("--tool", "Bash", "--input", text)


def _hook(body: bytes) -> Callable[[Path], tuple[str, ...]]:
    def build(project: Path) -> tuple[str, ...]:
        _script(project, b"#!/bin/sh\ncat >/dev/null\n" + body)
        return BASH_CALL

    return build


def _registry(data: bytes) -> Callable[[Path], tuple[str, ...]]:
    """~/.claude/plugins/installed_plugins.json holding ``data``."""

    def build(project: Path) -> tuple[str, ...]:
        _good(project)
        folder = project / "home" / ".claude" / "plugins"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "installed_plugins.json").write_bytes(data)
        return ()

    return build


def _plugin(hooks: bytes, manifest: bytes = b'{"name": "p"}') -> Callable[[Path], tuple[str, ...]]:
    """An installed, enabled plugin whose hooks/hooks.json and manifest hold these bytes."""

    def build(project: Path) -> tuple[str, ...]:
        root = project / "home" / "plugin"
        (root / "hooks").mkdir(parents=True)
        (root / ".claude-plugin").mkdir()
        (root / "hooks" / "hooks.json").write_bytes(hooks)
        (root / ".claude-plugin" / "plugin.json").write_bytes(manifest)
        record = {"scope": "user", "installPath": str(root)}
        registry = {"version": 2, "plugins": {"p@m": [record]}}
        _registry(json.dumps(registry).encode())(project)
        (project / "home" / ".claude" / "settings.json").write_text(
            json.dumps({"enabledPlugins": {"p@m": True}})
        )
        return BASH_CALL

    return build


def _transcript(data: bytes) -> Callable[[Path], tuple[str, ...]]:
    def build(project: Path) -> tuple[str, ...]:
        _good(project)
        (project / "t.jsonl").write_bytes(data)
        return ("PreToolUse", "--transcript", str(project / "t.jsonl"))

    return build


@dataclass(frozen=True)
class Attack:
    name: str
    build: Callable[[Path], tuple[str, ...]]
    status: int | None = None
    """The exit status it must get (None: 0 or 1)."""
    error: str = ""
    """Text the one stderr line must hold (empty: stderr must be empty)."""
    never: tuple[str, ...] = ()
    """Causes that would be wrong here."""


NESTED = b"[" * 100_000 + b"]" * 100_000
ATTACKS = [
    # settings files
    Attack(
        "settings just under 4 MiB", _raw_settings(b'{"a": "' + b"x" * (4 * MiB - 20) + b'"}'), 0
    ),
    Attack("settings over 4 MiB", _raw_settings(b'{"a": "' + b"x" * (4 * MiB + 1) + b'"}'), 1),
    Attack("settings nested 100k deep", _raw_settings(NESTED), 1),
    Attack("settings with a NUL byte", _raw_settings(b'{"hooks": {}}\x00'), 1),
    Attack("settings with lone surrogates", _raw_settings(b'{"env": {"\\ud800": "\\udfff"}}'), 0),
    Attack("settings with a BOM", _raw_settings(b'\xef\xbb\xbf{"hooks": {}}'), 1),
    Attack("settings.json is a folder", _then(_folder(".claude/settings.json")), 0),
    Attack("settings.json is a FIFO", _then(_fifo(".claude/settings.json")), 0),
    Attack("settings.local.json is a FIFO", _then(_fifo(".claude/settings.local.json")), 0),
    Attack("settings.json is a symlink loop", _then(_loop), 0),
    Attack(
        "managed-settings.d is a file",
        _then(
            lambda p: _folder("managed")(p),
            lambda p: (p / "managed" / "managed-settings.d").write_text("{}"),
        ),
        0,
    ),
    Attack("a drop-in that is not JSON", _then(_good, _drop_in(b"not json")), 1),
    Attack("a drop-in that is a FIFO", _then(_good, _fifo("managed/managed-settings.d/a.json")), 0),
    Attack("~/.claude.json is a FIFO", _then(_fifo("home/.claude.json")), 0),
    Attack("a never-read hooks.json that is a FIFO", _then(_fifo(".claude/hooks/hooks.json")), 0),
    # scripts
    Attack(
        "CRLF on some lines",
        _then(lambda p: _script(p, b"#!/bin/sh\ncat >/dev/null\r\nexit 0\n"), lambda p: BASH_CALL),
        1,
    ),
    Attack(
        "a 10 MB script",
        _then(lambda p: _script(p, b"#!/bin/sh\n" + b"# filler\n" * 1_200_000 + b"exit 0\n")),
        0,
    ),
    Attack(
        "the script is a FIFO",
        _then(_fifo(".claude/hooks/g.sh"), _settings),
        never=("script-missing", "script-not-executable"),
    ),
    Attack(
        "the script is a folder",
        _then(_folder(".claude/hooks/g.sh"), _settings),
        never=("script-missing", "script-not-executable"),
    ),
    Attack(
        "a 100 kB #! line",
        _then(lambda p: _script(p, b"#!/bin/" + b"x" * 100_000 + b"\nexit 0\n")),
        0,
    ),
    Attack(
        "a 100 kB #!/usr/bin/env line",
        _then(lambda p: _script(p, b"#!/usr/bin/env " + b"x" * 100_000 + b"\n")),
        0,
    ),
    Attack("#! with no interpreter", _then(lambda p: _script(p, b"#!\nexit 0\n")), 0),
    Attack("a binary script", _then(lambda p: _script(p, bytes(range(256)) * 100)), 0),
    Attack(
        "a #! line with NUL and bad UTF-8",
        _then(lambda p: _script(p, b"#!/bin/\xff\x00sh\nexit 0\n")),
        0,
    ),
    # payloads, --tool and --input
    Attack("--input not JSON", _then(_good, _input("{nope")), 1, "--input: not valid JSON"),
    Attack("--input an array", _then(_good, _input("[1, 2]")), 1, "not a JSON object"),
    Attack(
        "--input nested 60k deep",
        _then(_good, _input('{"a":' * 60_000 + "1" + "}" * 60_000)),
        1,
        "nested",
    ),
    Attack("--input with NUL", _then(_good, _input('{"command": "l\\u0000s"}')), 0),
    Attack(
        "--tool with a control character",
        _then(_good, lambda p: ("--tool", "Ba\x01sh", "--input", "{}")),
        1,
    ),
    Attack("an unknown event", _then(_good, lambda p: ("NoSuchEvent",)), 1, "is not a hook event"),
    Attack(
        "an unknown event with a payload",
        _then(_good, _payload(b"{}", "NoSuchEvent")),
        1,
        "is not a hook event",
    ),
    Attack("a payload not JSON", _then(_good, _payload(b"{nope")), 1, "not valid JSON"),
    Attack("a payload that is an array", _then(_good, _payload(b"[]")), 1, "not a JSON object"),
    Attack("a payload nested 100k deep", _then(_good, _payload(NESTED)), 1, "the payload"),
    Attack("a payload with NUL", _then(_good, _payload(b'{"a": 1}\x00')), 1, "not valid JSON"),
    Attack(
        "a payload that is a FIFO",
        _then(
            _good,
            _fifo("payload.json"),
            lambda p: ("PreToolUse", "--payload", str(p / "payload.json")),
        ),
        1,
        "FIFO",
    ),
    # hooks doctor fires
    Attack("a hook that prints 50 MB", _hook(b"head -c 52428800 /dev/zero | tr '\\0' x\n"), 0),
    Attack(
        "a hook that prints binary and exits 2", _hook(b"head -c 100000 /dev/urandom\nexit 2\n"), 0
    ),
    # installed plugins
    Attack("a registry that is not JSON", _registry(b"{nope"), 0),
    Attack("a registry nested 100k deep", _registry(NESTED), 0),
    Attack(
        "a registry that is a FIFO",
        _then(_good, _fifo("home/.claude/plugins/installed_plugins.json")),
        0,
    ),
    Attack(
        "a registry of odd shapes",
        _registry(
            b'{"plugins": {"a": 5, "b": [null, {"installPath": 7}], "c": {"installPath": "rel"}}}'
        ),
        0,
    ),
    Attack(
        "a registry whose installPath is /dev/null",
        _registry(b'{"plugins": {"a@m": [{"scope": "user", "installPath": "/dev/null"}]}}'),
        0,
    ),
    Attack(
        "a registry of 100k plugins",
        _registry(json.dumps({"plugins": {f"p{n}@m": [] for n in range(100_000)}}).encode()),
        0,
    ),
    Attack("a plugin hooks.json that is binary", _plugin(bytes(range(256)) * 100), None),
    Attack("a plugin hooks.json nested 100k deep", _plugin(NESTED), None),
    Attack(
        "a plugin manifest naming files outside the plugin",
        _plugin(
            b'{"hooks": {}}', b'{"name": "p", "hooks": ["../../../../etc/passwd", 5, "/dev/zero"]}'
        ),
        None,
    ),
    Attack(
        "a plugin manifest naming a loop of links",
        _then(
            _plugin(b'{"hooks": {}}', b'{"name": "p", "hooks": "./hooks/loop.json"}'),
            lambda p: (p / "home/plugin/hooks/loop.json").symlink_to(
                p / "home/plugin/hooks/loop.json"
            ),
            lambda p: BASH_CALL,
        ),
        None,
    ),
    # transcripts
    Attack("a transcript over 64 MiB", _transcript(b"x" * (64 * MiB + 1)), 1, "tail -c"),
    Attack("a binary transcript", _transcript(bytes(range(256)) * 1000), 1, "not UTF-8"),
    Attack(
        "a transcript line nested 100k deep",
        _transcript(b'{"attachment": ' + NESTED + b"}\n"),
        None,
    ),
    Attack(
        "transcript entries of odd shapes",
        _transcript(
            b'{"attachment": {"type": "hook_success", "hookEvent": 5, "exitCode": "x"}}\n'
            b'{"attachment": {"type": "hook_success", "hookEvent": "PreToolUse", "exitCode": true,'
            b' "stdout": {"a": 1}, "stderr": null}}\n'
            b'{"attachment": {"type": "hook_blocking_error", "hookEvent": "Stop",'
            b' "blockingError": 3}}\n'
            b"[1, 2]\n"
            b'{"attachment": "x"}\n'
        ),
        None,
    ),
    # debug logs
    Attack("a debug log over 64 MiB", _log(b"x" * (64 * MiB + 1)), 1, "tail -c"),
    Attack("a binary debug log", _log(bytes(range(256)) * 1000), 1, "not UTF-8"),
    Attack(
        "a 10 MB log line",
        _log(
            b"T [DEBUG] Hooks: PreToolUse:Bash ["
            + b"x" * (10 * MiB)
            + b"] finished with status 2\n"
        ),
        0,
    ),
    Attack(
        "log JSON strings that do not parse",
        _log(
            b"T [DEBUG] Hooks: PreToolUse:Bash [x] finished with status 2\n"
            b'"Hook PreToolUse:Bash (PreToolUse) error:\\n\\ud800\n"Hook \\u00\n'
        ),
        0,
    ),
    Attack(
        "a 5000-digit exit status",
        _log(b"T [DEBUG] Hooks: Stop [x] finished with status " + b"9" * 5000 + b"\n"),
        0,
    ),
    Attack(
        "a log answer nested 100k deep",
        _log(
            b"T [DEBUG] Hooks: Stop [x] finished with status 0\n"
            + json.dumps("Hook Stop (Stop) success:\nstdout:\n" + "[" * 100_000).encode()
            + b"\n"
        ),
        0,
    ),
    Attack("another program's log", _log(b"nginx: [emerg] bind() failed\nStarting up\n" * 1000), 0),
    Attack(
        "a log naming an unknown event",
        _log(b"T [DEBUG] Hooks: Nope [x] finished with status 0\n"),
        0,
    ),
]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "home").mkdir()
    (tmp_path / ".claude").mkdir()
    return tmp_path


@pytest.mark.parametrize("attack", ATTACKS, ids=[attack.name for attack in ATTACKS])
def test_doctor_survives(
    attack: Attack,
    project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    handlers = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    monkeypatch.chdir(project)
    arguments = attack.build(project)
    machine = ("--home", str(project / "home"), "--managed-dir", str(project / "managed"))
    try:
        status = main(["doctor", *machine, "--json", *arguments])
    finally:
        for number, handler in handlers.items():
            signal.signal(number, handler)
    out, err = capsys.readouterr()
    assert status in ((0, 1) if attack.status is None else (attack.status,)), (out, err)
    if attack.error:
        assert out == "" and err.count("\n") == 1 and attack.error in err, err
        return
    assert err == ""
    causes = {finding["cause"] for finding in json.loads(out)["findings"]}
    assert not causes & set(attack.never), causes


def test_text_output_shows_control_characters_escaped(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _settings(project, "ls\x00\x1bc")
    monkeypatch.chdir(project)
    assert main(["doctor", "--home", str(project / "home")]) == 1  # ls\0\33c: not found
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x00" not in out and "\\x1b" in out, out


def _capture_command(settings: Path) -> str:
    document = json.loads(settings.read_text(encoding="utf-8"))
    command: str = document["hooks"]["Stop"][-1]["hooks"][0]["command"]
    return command


def test_record_keeps_a_symlinked_settings_file_a_link(tmp_path: Path) -> None:
    real = tmp_path / "shared.json"
    real.write_bytes(b'{"env": {}}\n')
    link = tmp_path / "settings.json"
    link.symlink_to(real)
    record.start(link, tmp_path / "out", ("Stop",))
    assert link.is_symlink() and "hookcourse.doctor.capture" in real.read_text()
    record.stop(link)
    assert link.is_symlink() and real.read_bytes() == b'{"env": {}}\n'


def test_record_refuses_a_symlink_loop_and_an_out_that_is_a_file(tmp_path: Path) -> None:
    loop = tmp_path / "settings.json"
    loop.symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(loop)
    with pytest.raises(InputError, match="loop"):
        record.start(loop, tmp_path / "out")
    (tmp_path / "file").write_text("x")
    with pytest.raises(InputError, match="not a folder"):
        record.start(tmp_path / "s.json", tmp_path / "file")
    assert not (tmp_path / "s.json").exists()


@pytest.mark.parametrize(
    "damage",
    [
        lambda s: s.unlink(),
        lambda s: (s.unlink(), s.mkdir()),
        lambda s: s.write_text('{"hooks": {}}'),
        lambda s: s.with_name(s.name + record.STATE_SUFFIX).write_text("{broken"),
        lambda s: s.with_name(s.name + record.STATE_SUFFIX).write_text('{"original": 5}'),
    ],
    ids=["removed", "made a folder", "changed", "state damaged", "state of another shape"],
)
def test_record_stop_refuses_what_changed(tmp_path: Path, damage: Callable[[Path], object]) -> None:
    settings = tmp_path / "settings.json"
    settings.write_text("{}")
    record.start(settings, tmp_path / "out", ("Stop",))
    damage(settings)
    with pytest.raises(InputError):
        record.stop(settings)


def test_record_twice_and_stop_without_start(tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    with pytest.raises(InputError, match="no recording"):
        record.stop(settings)
    record.start(settings, tmp_path / "out", ("Stop",))
    with pytest.raises(InputError, match="already running"):
        record.start(settings, tmp_path / "out", ("Stop",))
    record.stop(settings)
    assert not settings.exists()


def test_the_capture_hook_drops_a_payload_over_its_cap_and_reads_it_all(tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    record.start(settings, tmp_path / "out", ("Stop",))
    huge = b'{"hook_event_name": "Stop", "x": "' + b"x" * (20 * MiB) + b'"}'
    ran = subprocess.run(["sh", "-c", _capture_command(settings)], input=huge, capture_output=True)
    assert (ran.returncode, ran.stdout, ran.stderr) == (0, b"", b"")
    assert list((tmp_path / "out").glob("*.json")) == []  # a cut payload would not replay
    record.stop(settings)


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_during_a_hanging_hook_ends_doctor_and_the_hook(
    project: Path, number: signal.Signals
) -> None:
    pid_file = project / "hook.pid"
    _script(project, f"#!/bin/sh\ncat >/dev/null\necho $$ > {pid_file}\nsleep 300\n".encode())
    doctor = subprocess.Popen(
        [sys.executable, "-m", "hookcourse", "doctor", "--home", str(project / "home"), *BASH_CALL],
        cwd=project,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 20
    while not pid_file.exists() or not pid_file.read_text().strip():
        assert time.monotonic() < deadline and doctor.poll() is None
        time.sleep(0.05)
    hook = int(pid_file.read_text())
    doctor.send_signal(number)
    _out, err = doctor.communicate(timeout=20)
    assert doctor.returncode != 0 and err.count("\n") == 1 and "Traceback" not in err, err
    time.sleep(0.2)
    assert not _running(hook), err


def _running(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie no one has reaped yet has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"
