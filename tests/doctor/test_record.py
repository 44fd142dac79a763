"""``hookcourse record``: the capture hook saves real payloads, and stop gives the settings
file back byte for byte, or refuses when it changed meanwhile."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hookcourse.doctor import record
from hookcourse.errors import InputError

ODD_BYTES = b'{\n\t"permissions": {"allow": []} ,\r\n  "n": 1e3, "s": "\\u00e9" }\n'


def _capture_command(settings: Path, event: str) -> str:
    document = json.loads(settings.read_text(encoding="utf-8"))
    command: str = document["hooks"][event][-1]["hooks"][0]["command"]
    return command


def test_start_capture_stop_round_trip(tmp_path: Path) -> None:
    settings = tmp_path / ".claude" / "settings.local.json"
    settings.parent.mkdir()
    settings.write_bytes(ODD_BYTES)
    chosen = record.start(settings, tmp_path / "payloads", ("PreToolUse", "Stop"))
    assert chosen == ["PreToolUse", "Stop"]
    payload = b'{"hook_event_name": "PreToolUse", "tool_name": "Bash"}'
    ran = subprocess.run(
        ["sh", "-c", _capture_command(settings, "PreToolUse")], input=payload, capture_output=True
    )
    assert (ran.returncode, ran.stdout, ran.stderr) == (0, b"", b"")
    assert (tmp_path / "payloads" / "0001-PreToolUse.json").read_bytes() == payload
    record.stop(settings)
    assert settings.read_bytes() == ODD_BYTES
    assert not (settings.parent / "settings.local.json.hookcourse-record").exists()


def test_a_file_that_did_not_exist_is_removed_again(tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    record.start(settings, tmp_path / "out")
    document = json.loads(settings.read_text(encoding="utf-8"))
    assert "SessionStart" in document["hooks"] and "PreToolUse" in document["hooks"]
    record.stop(settings)
    assert not settings.exists()


def test_a_change_meanwhile_is_never_overwritten(tmp_path: Path) -> None:
    settings = tmp_path / "settings.json"
    settings.write_bytes(ODD_BYTES)
    record.start(settings, tmp_path / "out", ("Stop",))
    settings.write_text(settings.read_text(encoding="utf-8") + " ", encoding="utf-8")
    changed = settings.read_bytes()
    with pytest.raises(InputError, match="changed since the recording started"):
        record.stop(settings)
    assert settings.read_bytes() == changed


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"{not json", "not valid JSON"),
        (b"[]", "not a JSON object"),
        (b'{"hooks": 3}', '"hooks" is not an object'),
    ],
)
def test_files_it_cannot_extend_are_left_alone(
    tmp_path: Path, content: bytes, problem: str
) -> None:
    settings = tmp_path / "settings.json"
    settings.write_bytes(content)
    with pytest.raises(InputError, match=problem):
        record.start(settings, tmp_path / "out")
    assert settings.read_bytes() == content
    assert not (tmp_path / "settings.json.hookcourse-record").exists()


def test_the_capture_hook_never_fails(tmp_path: Path) -> None:
    """Junk, an unwritable folder, no argument: exit 0 and silence, every time."""
    for stdin, argv in (
        (b"\xff\x00 not json", [str(tmp_path / "o")]),
        (b"{}", ["/proc/no/such"]),
        (b"", []),
    ):
        ran = subprocess.run(
            [sys.executable, "-m", "hookcourse.doctor.capture", *argv],
            input=stdin,
            capture_output=True,
        )
        assert (ran.returncode, ran.stdout, ran.stderr) == (0, b"", b"")
    assert [p.name for p in (tmp_path / "o").iterdir()] == ["0001-unknown.json"]
