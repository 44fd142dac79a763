"""``hookcourse session`` attacked: each attack a small script and what must hold after it.

Every attack runs the subcommand in this process (fast enough for CI) with a folder
"outside" the session holding a secret, and a TMPDIR with a space in its name. After
each one: the exit status is the one expected; a script that cannot run gave one line
naming the place and the fix; no traceback; ``--json`` parsed; nothing this program
started is still running (found by its marker in ``/proc``, so ``setsid`` does not
hide it); the outside folder is as it was and its secret is in no transcript (except
where ``--allow-outside`` lets what Claude Code would allow); TMPDIR is left empty.
The last tests send SIGINT, SIGTERM and SIGHUP to the real command line mid-hook.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from hookcourse.session.command import ERROR_SHOWN, escape_property, main
from hookcourse.system.interrupts import _RUN, TRACE_VARIABLE

SECRET = "OUTSIDE-SECRET-7f3a"
RUNS, BROKE = (0, 1), 2
"""A script that ran (its expectations held or not), and one that cannot run."""


@dataclass(frozen=True)
class Attack:
    """One attack: the script (JSON-able, or raw bytes/text), the flags, what must hold."""

    name: str
    script: Any
    exit: tuple[int, ...] | int = BROKE
    says: str = ""
    """In the error line (a script that cannot run) or in the ``--json`` output."""
    flags: tuple[str, ...] = ()
    path: str | None = None
    """Run this file (under the scripts folder) instead of the script written."""
    writes_outside: bool = False
    never_says: tuple[str, ...] = ()


def hooked(event: str, name: str, body: Any, matcher: str | None = None) -> dict[str, Any]:
    """A script part: one command hook ``name`` on ``event`` in the project settings."""
    group: dict[str, Any] = {"hooks": [{"type": "command", "command": f"@hook:{name}"}]}
    if matcher is not None:
        group["matcher"] = matcher
    return {"settings": {"project": {"hooks": {event: [group]}}}, "hooks": {name: body}}


def calls(*tools: tuple[str, dict[str, Any]], mode: str = "default", **more: Any) -> dict[str, Any]:
    """A script part: one turn calling ``tools`` (name, input), then a closing turn."""
    turn = {"tools": [{"name": name, "input": given} for name, given in tools]}
    return {"permissionMode": mode, "turns": [turn, {"text": "done"}], **more}


def deep(levels: int) -> Any:
    value: Any = "x"
    for _ in range(levels):
        value = {"a": value}
    return value


OUT = "@outside"
"""Written in a script for the folder outside the session (filled in when it is written)."""
SETSID = "setsid sleep 300 > /dev/null 2>&1 < /dev/null &"

LOADING = [
    Attack("deep-array-100k", "[" * 100_000 + "]" * 100_000, says="nested more than"),
    Attack("deep-settings", {"settings": {"user": deep(200)}}, says="nested more than"),
    Attack("deep-tool-input", calls(("Bash", {"command": "ls", "x": deep(900)})), says="nested"),
    Attack("nul-in-file-name", {"files": {"a\0b": "x"}}, says="NUL"),
    Attack("nul-in-hook-name", {"hooks": {"a\0b": "exit 0"}}, says="NUL"),
    Attack("nul-in-name", {"name": "a\0b"}, says="NUL"),
    Attack("nul-in-hook-body", {"hooks": {"h": "echo \0"}}, says="NUL"),
    Attack("nul-in-script-path", {}, path="a\0b.json", says="NUL"),
    Attack("surrogate-hook-body", {"hooks": {"h": "echo \ud800"}}, says="lone surrogate"),
    Attack("surrogate-hook-out", {"hooks": {"h": {"out": {"x": "\udc00"}}}}, says="surrogate"),
    Attack("surrogate-hook-err", {"hooks": {"h": {"err": "\ud800"}}}, says="surrogate"),
    Attack("surrogate-file-text", {"files": {"a.txt": "\ud800"}}, says="lone surrogate"),
    Attack("surrogate-file-name", {"files": {"\udfff.txt": "x"}}, says="lone surrogate"),
    Attack("surrogate-hook-name", {"hooks": {"h\ud800": "exit 0"}}, says="lone surrogate"),
    Attack("surrogate-settings-text", {"settings": {"user": "\ud800"}}, says="surrogate"),
    Attack("surrogate-prompt", {"prompt": "\ud800"}, says="lone surrogate"),
    Attack("surrogate-name", {"name": "\ud800"}, says="lone surrogate"),
    Attack("surrogate-env", {"env": {"A": "\ud800"}}, says="lone surrogate"),
    Attack("exit-string", {"hooks": {"h": {"exit": "x"}}}, says="exit is a string"),
    Attack("sleep-string", {"hooks": {"h": {"sleep": "soon"}}}, says="sleep is a string"),
    Attack("exit-1e400", '{"hooks": {"h": {"exit": 1e400}}}', says="out of range"),
    Attack("exit-negative", {"hooks": {"h": {"exit": -1}}}, says="out of range"),
    Attack("exit-fraction", {"hooks": {"h": {"exit": 2.5}}}, says="out of range"),
    Attack("exit-true", {"hooks": {"h": {"exit": True}}}, says="a boolean"),
    Attack("exit-256", {"hooks": {"h": {"exit": 256}}}, says="out of range"),
    Attack("times-string", {"hooks": {"h": {"times": "3"}}}, says="times is a string"),
    Attack("sleep-huge", {"hooks": {"h": {"sleep": 1e9}}}, says="out of range"),
    Attack("sleep-nan", '{"hooks": {"h": {"sleep": NaN}}}', says="not valid JSON"),
    Attack("err-object", {"hooks": {"h": {"err": {}}}}, says="err is an object"),
    Attack("out-number", {"hooks": {"h": {"out": 5}}}, says="out is not text"),
    Attack("hook-list", {"hooks": {"h": []}}, says="sh body or an object"),
    Attack("hook-dot", {"hooks": {"..": "exit 0"}}, says="a hook name is letters"),
    Attack("hook-slash", {"hooks": {"a/b": "exit 0"}}, says="a hook name is letters"),
    Attack("hook-space", {"hooks": {"a b": "exit 0"}}, says="a hook name is letters"),
    Attack("hook-quote", {"hooks": {"a'b": "exit 0"}}, says="a hook name is letters"),
    Attack("hook-name-300", {"hooks": {"h" * 300: "exit 0"}}, says="longer than 255"),
    Attack("hooks-list", {"hooks": []}, says="not an object"),
    Attack("files-key-empty", {"files": {"": "x"}}, says="empty"),
    Attack("files-dot", {"files": {".": "x"}}, says="inside the project"),
    Attack("files-folder-of-another", {"files": {"a": "x", "a/b": "y"}}, says="folder of"),
    Attack("files-inside-another", {"files": {"a/b": "y", "a": "x"}}, says="folder of"),
    Attack("files-same-twice", {"files": {"a": "x", "./a": "y"}}, says="same file"),
    Attack("files-name-300", {"files": {"f" * 300: "x"}}, says="longer than 255"),
    Attack("files-path-2000", {"files": {"/".join(["d" * 200] * 10): "x"}}, says="1024"),
    Attack("files-absolute", {"files": {"/etc/x": "x"}}, says="inside the project"),
    Attack("files-dotdot", {"files": {"../x": "x"}}, says="inside the project"),
    Attack("files-deep-dotdot", {"files": {"a/../../x": "x"}}, says="inside the project"),
    Attack("files-number", {"files": {"a": 5}}, says="a text or {from}"),
    Attack("from-fifo", {"files": {"a": {"from": "pipe"}}}, says="FIFO"),
    Attack("from-dev-zero", {"files": {"a": {"from": "/dev/zero"}}}, says="character device"),
    Attack("from-folder", {"files": {"a": {"from": "adir"}}}, says="directory"),
    Attack("from-missing", {"files": {"a": {"from": "nope"}}}, says="cannot copy"),
    Attack("from-nul", {"files": {"a": {"from": "a\0b"}}}, says="NUL"),
    Attack("from-number", {"files": {"a": {"from": 5}}}, says="not a file name"),
    Attack("from-extra-key", {"files": {"a": {"from": "plain.txt", "mode": 7}}}, says="'mode'"),
    Attack("script-fifo", {}, path="pipe", says="FIFO"),
    Attack("script-dev-zero", {}, path="/dev/zero", says="character device"),
    Attack("script-folder", {}, path="adir", says="directory"),
    Attack("script-missing", {}, path="missing.json", says="does not exist"),
    Attack("script-not-utf8", b"{\xff}", says="not UTF-8"),
    Attack("script-too-big", b" " * (4 * 1024 * 1024 + 10), says="larger than 4 MiB"),
    Attack("script-list", [], says="not an object"),
    Attack("script-null", "null", says="not an object"),
    Attack("script-infinity", '{"env": {"A": Infinity}}', says="not valid JSON"),
    Attack("script-bom", b"\xef\xbb\xbf{}", says="not valid JSON"),
    Attack("script-truncated", '{"prompt": "go"', says="not valid JSON"),
    Attack("unknown-key-1mb", {"k" * 1_000_000: 1}, says="unknown key"),
    Attack("unknown-hook-key-1mb", {"hooks": {"h": {"k" * 1_000_000: 1}}}, says="unknown key"),
    Attack("unknown-settings-scope", {"settings": {"global": {}}}, says="'global'"),
    Attack("env-equals", {"env": {"A=B": "x"}}, says="not a variable name"),
    Attack("env-object", {"env": {"A": {}}}, says="a string"),
    Attack("prompts-empty", {"prompts": []}, says="non-empty list"),
    Attack("prompt-number", {"prompt": 5}, says="prompt is a number"),
    Attack("turns-object", {"turns": {}}, says="turns is not a list"),
    Attack("turn-text-number", {"turns": [{"text": 5}]}, says="text is a number"),
    Attack(
        "tool-input-string",
        {"turns": [{"tools": [{"name": "Bash", "input": "ls"}]}]},
        says="input object",
    ),
    Attack(
        "tool-id-number", {"turns": [{"tools": [{"name": "Bash", "id": 5}]}]}, says="id is a number"
    ),
    Attack(
        "tool-result-iserror",
        {"turns": [{"tools": [{"name": "X", "result": {"isError": "yes"}}]}]},
        says="isError is a string",
    ),
    Attack("calls-10000", {"turns": [{"tools": [{"name": "X"}] * 10_000}]}, says="more than 100"),
    Attack("prompts-10000", {"prompts": ["go"] * 10_000}, says="more than 100 prompts"),
    Attack("condition-unknown", {"turns": [{"if": "maybe"}]}, says="unknown condition"),
    Attack("expect-requests-string", {"expect": [{"requests": "5"}]}, says="wrong type"),
    Attack("mode-unknown", {"permissionMode": "yolo"}, says="not a permission mode"),
    Attack("trust-string", {"trust": "yes"}, says="trust is a string"),
    Attack("settings-flag-number", {"settings": {"flag": 5}}, says="settings file is an object"),
    Attack(
        "stop-cap-word", {"env": {"CLAUDE_CODE_STOP_HOOK_BLOCK_CAP": "many"}}, says="whole number"
    ),
]

WRITE_OUT = ("Write", {"file_path": f"{OUT}/new.txt", "content": "escaped"})
READ_SECRET = ("Read", {"file_path": f"{OUT}/secret.txt"})
EDIT_SECRET = (
    "Edit",
    {"file_path": f"{OUT}/secret.txt", "old_string": "OUTSIDE", "new_string": "x"},
)
PLANT_LINKS = hooked(
    "SessionStart",
    "plant",
    f'ln -s {OUT}/secret.txt "@project/link"; ln -s {OUT} "@project/out"',
)
WRITE_REFUSED = "Claude requested permissions to write to"
READ_REFUSED = "Claude requested permissions to read from"
NOT_RUN = "runs such a call only with --allow-outside"

ESCAPES = [
    Attack("write-absolute", calls(WRITE_OUT), RUNS, WRITE_REFUSED),
    Attack(
        "write-dotdot",
        calls(("Write", {"file_path": "../../../outside/x", "content": "e"})),
        RUNS,
        WRITE_REFUSED,
    ),
    Attack("write-accept-edits", calls(WRITE_OUT, mode="acceptEdits"), RUNS, WRITE_REFUSED),
    Attack("edit-accept-edits", calls(EDIT_SECRET, mode="acceptEdits"), RUNS, WRITE_REFUSED),
    Attack("read-absolute", calls(READ_SECRET), RUNS, READ_REFUSED),
    Attack("read-accept-edits", calls(READ_SECRET, mode="acceptEdits"), RUNS, READ_REFUSED),
    Attack("read-plan", calls(READ_SECRET, mode="plan"), RUNS, READ_REFUSED),
    Attack("write-plan", calls(WRITE_OUT, mode="plan"), RUNS, "while in plan mode"),
    Attack("write-dont-ask", calls(WRITE_OUT, mode="dontAsk"), RUNS, "don't ask mode"),
    Attack("read-dont-ask", calls(READ_SECRET, mode="dontAsk"), RUNS, "don't ask mode"),
    Attack("write-bypass", calls(WRITE_OUT, mode="bypassPermissions"), RUNS, NOT_RUN),
    Attack("read-bypass", calls(READ_SECRET, mode="bypassPermissions"), RUNS, NOT_RUN),
    Attack(
        "write-bypass-allowed",
        calls(WRITE_OUT, mode="bypassPermissions"),
        RUNS,
        "File created successfully",
        flags=("--allow-outside",),
        writes_outside=True,
    ),
    Attack(
        "read-etc-passwd",
        calls(("Read", {"file_path": "/etc/passwd"})),
        RUNS,
        READ_REFUSED,
        never_says=("root:",),
    ),
    Attack(
        "read-proc-environ",
        calls(("Read", {"file_path": "/proc/self/environ"})),
        RUNS,
        READ_REFUSED,
    ),
    Attack("read-dev-zero", calls(("Read", {"file_path": "/dev/zero"})), RUNS, READ_REFUSED),
    Attack(
        "read-dev-zero-allowed",
        calls(("Read", {"file_path": "/dev/zero"}), mode="bypassPermissions"),
        RUNS,
        "a character device",
        flags=("--allow-outside",),
    ),
    Attack(
        "read-planted-link",
        {**calls(("Read", {"file_path": "link"})), **PLANT_LINKS},
        RUNS,
        READ_REFUSED,
    ),
    Attack(
        "write-planted-folder-link",
        {**calls(("Write", {"file_path": "out/x", "content": "e"})), **PLANT_LINKS},
        RUNS,
        WRITE_REFUSED,
    ),
    Attack(
        "edit-planted-link",
        {
            **calls(
                ("Edit", {"file_path": "link", "old_string": "O", "new_string": "x"}),
                mode="acceptEdits",
            ),
            **PLANT_LINKS,
        },
        RUNS,
        WRITE_REFUSED,
    ),
    Attack(
        "write-planted-link-bypass",
        {
            **calls(("Write", {"file_path": "link", "content": "e"}), mode="bypassPermissions"),
            **PLANT_LINKS,
        },
        RUNS,
        NOT_RUN,
    ),
    Attack(
        "bash-link-then-read",
        calls(
            ("Bash", {"command": f"ln -s {OUT}/secret.txt l2"}),
            ("Read", {"file_path": "l2"}),
            mode="bypassPermissions",
        ),
        RUNS,
        NOT_RUN,
    ),
    Attack(
        "hook-allow-write-outside",
        {
            **calls(WRITE_OUT),
            **hooked(
                "PreToolUse",
                "ok",
                {
                    "out": {
                        "hookSpecificOutput": {
                            "hookEventName": "PreToolUse",
                            "permissionDecision": "allow",
                        }
                    }
                },
            ),
        },
        RUNS,
        "PreToolUse hook allowed it",
    ),
    Attack(
        "rule-allows-read-outside",
        {**calls(READ_SECRET), "settings": {"user": {"permissions": {"allow": ["Read"]}}}},
        RUNS,
        "allow rule",
    ),
    Attack(
        "bash-cat-secret",
        calls(("Bash", {"command": f"cat {OUT}/secret.txt"})),
        RUNS,
        "was blocked",
    ),
    Attack(
        "bash-cat-secret-bypass",
        calls(("Bash", {"command": f"cat {OUT}/secret.txt"}), mode="bypassPermissions"),
        RUNS,
        NOT_RUN,
    ),
    Attack(
        "bash-redirect-outside-bypass",
        calls(("Bash", {"command": f"echo e > {OUT}/x"}), mode="bypassPermissions"),
        RUNS,
        NOT_RUN,
    ),
    Attack(
        "bash-touch-outside", calls(("Bash", {"command": f"touch {OUT}/x"})), RUNS, "needs approval"
    ),
    Attack(
        "bash-cd-then-read",
        calls(("Bash", {"command": f"cd {OUT}"}), ("Read", {"file_path": "secret.txt"})),
        RUNS,
    ),
    Attack("read-nul-path", calls(("Read", {"file_path": "a\0b"})), RUNS, "file_path"),
    Attack(
        "write-path-too-long",
        calls(
            ("Write", {"file_path": "/".join(["d" * 250] * 20), "content": "e"}), mode="acceptEdits"
        ),
        RUNS,
        "tool_use_error",
    ),
    Attack(
        "write-name-too-long",
        calls(("Write", {"file_path": "f" * 300, "content": "e"}), mode="acceptEdits"),
        RUNS,
        "File name too long",
    ),
    Attack(
        "write-content-number",
        calls(("Write", {"file_path": "a.txt", "content": 5}), mode="acceptEdits"),
        RUNS,
        "expected as `string`",
    ),
    Attack(
        "write-content-surrogate",
        calls(("Write", {"file_path": "a.txt", "content": "a\ud800b"}), mode="acceptEdits"),
        RUNS,
        "File created",
    ),
    Attack(
        "write-file-path-list",
        calls(("Write", {"file_path": ["a"], "content": "e"}), mode="acceptEdits"),
        RUNS,
        "`file_path`",
    ),
    Attack(
        "edit-old-number",
        calls(("Edit", {"file_path": "a", "old_string": 1, "new_string": "x"}), mode="acceptEdits"),
        RUNS,
        "`old_string`",
    ),
    Attack("read-folder", calls(("Read", {"file_path": "."})), RUNS, "is a directory"),
]

MAKE_FIFO = hooked("SessionStart", "fifo", 'mkfifo "@project/p"')
BYTES = hooked(
    "SessionStart",
    "bytes",
    "printf 'caf\\351 \\377\\376 x\\n' > \"@project/latin1.txt\"; "
    "printf '\\377\\376h\\000i\\000' > \"@project/utf16.txt\"; "
    "head -c 400000 /dev/zero | tr '\\0' a > \"@project/big.txt\"",
)
FILES = [
    Attack("read-fifo", {**calls(("Read", {"file_path": "p"})), **MAKE_FIFO}, RUNS, "a FIFO"),
    Attack(
        "write-fifo",
        {**calls(("Write", {"file_path": "p", "content": "x"}), mode="acceptEdits"), **MAKE_FIFO},
        RUNS,
        "a FIFO",
    ),
    Attack(
        "edit-fifo",
        {
            **calls(
                ("Edit", {"file_path": "p", "old_string": "a", "new_string": "b"}),
                mode="acceptEdits",
            ),
            **MAKE_FIFO,
        },
        RUNS,
        "a FIFO",
    ),
    Attack(
        "read-latin1", {**calls(("Read", {"file_path": "latin1.txt"})), **BYTES}, RUNS, "caf\ufffd"
    ),
    Attack(
        "edit-latin1",
        {
            **calls(
                ("Edit", {"file_path": "latin1.txt", "old_string": "x", "new_string": "y"}),
                mode="acceptEdits",
            ),
            **BYTES,
        },
        RUNS,
        "updated successfully",
    ),
    Attack("read-utf16", {**calls(("Read", {"file_path": "utf16.txt"})), **BYTES}, RUNS, "1\\thi"),
    Attack(
        "read-big",
        {**calls(("Read", {"file_path": "big.txt"})), **BYTES},
        RUNS,
        "exceeds maximum allowed size",
    ),
]

PROCESSES = [
    Attack("hook-setsid", hooked("SessionStart", "s", f"{SETSID}\nexit 0"), RUNS),
    Attack(
        "hook-double-fork",
        hooked("SessionStart", "s", "( sleep 300 > /dev/null 2>&1 & ) ; exit 0"),
        RUNS,
    ),
    Attack(
        "hook-setsid-each-tool",
        {**calls(("Bash", {"command": "ls"})), **hooked("PostToolUse", "s", SETSID, "Bash")},
        RUNS,
    ),
    Attack("bash-setsid", calls(("Bash", {"command": SETSID}), mode="bypassPermissions"), RUNS),
    Attack(
        "bash-setsid-holding-output",
        calls(("Bash", {"command": "setsid sleep 300 &"}), mode="bypassPermissions"),
        RUNS,
    ),
    Attack(
        "bash-nohup",
        calls(
            ("Bash", {"command": "nohup sleep 300 > /dev/null 2>&1 &"}), mode="bypassPermissions"
        ),
        RUNS,
    ),
    Attack(
        "bash-timeout",
        calls(("Bash", {"command": "sleep 30", "timeout": 300}), mode="bypassPermissions"),
        RUNS,
        "timed out after 0.3 s",
    ),
    Attack(
        "bash-timeout-string",
        calls(("Bash", {"command": "ls", "timeout": "soon"})),
        RUNS,
        "`timeout` type is expected as `number`",
    ),
    Attack(
        "bash-timeout-negative",
        calls(("Bash", {"command": "echo ran", "timeout": -5})),
        RUNS,
        "ran",
    ),
    Attack(
        "bash-timeout-1e400",
        '{"turns": [{"tools": [{"name": "Bash", '
        '"input": {"command": "echo ran", "timeout": 1e400}}]}]}',
        RUNS,
        "ran",
    ),
    Attack(
        "bash-command-number",
        calls(("Bash", {"command": 5}), mode="bypassPermissions"),
        RUNS,
        "`command`",
    ),
    Attack("bash-command-surrogate", calls(("Bash", {"command": "echo a\ud800b"})), RUNS),
    Attack(
        "hook-json-surrogate",
        hooked("SessionStart", "j", "printf '%s' '{\"systemMessage\": \"\\ud800\"}'"),
        RUNS,
    ),
    Attack("hook-bytes-not-utf8", hooked("SessionStart", "b", "printf '\\377\\376 \\000'"), RUNS),
    Attack(
        "hook-lots-of-output",
        hooked("SessionStart", "o", "head -c 2000000 /dev/zero | tr '\\0' x"),
        RUNS,
    ),
    Attack(
        "hook-reads-stdin-forever",
        hooked("SessionStart", "c", "cat; cat /dev/zero > /dev/null 2>&1 &\nexit 0"),
        RUNS,
    ),
    Attack(
        "hook-times",
        {
            **hooked("Stop", "n", {"err": "again", "exit": 2, "times": 1}),
            "turns": [{"text": "a"}, {"text": "b"}],
        },
        RUNS,
        "again",
    ),
    Attack("long-name-runs", {"name": "n" * 300, "turns": [{"text": "fine"}]}, RUNS, "fine"),
    Attack(
        "slashy-name-runs", {"name": "../../../x y\t", "turns": [{"text": "fine"}]}, RUNS, "fine"
    ),
    Attack(
        "hook-path-with-space",
        hooked("SessionStart", "say", "echo hello-from-hook"),
        RUNS,
        "hello-from-hook",
    ),
]

ATTACKS = LOADING + ESCAPES + FILES + PROCESSES


def _write_script(attack: Attack, folder: Path, outside: Path) -> Path:
    if attack.path is not None:
        return attack.path if attack.path.startswith("/") else folder / attack.path  # type: ignore[return-value]
    path = folder / "attack.json"
    if isinstance(attack.script, bytes):
        path.write_bytes(attack.script)
        return path
    text = attack.script if isinstance(attack.script, str) else json.dumps(attack.script)
    path.write_text(text.replace(OUT, str(outside)), encoding="utf-8", errors="surrogatepass")
    return path


def _state(folder: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(folder)): b"" if path.is_dir() else path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if not path.is_symlink()
    }


def leftovers(marker: str) -> list[int]:
    """The processes still carrying ``TRACE_VARIABLE`` under ``marker`` (read in /proc)."""
    wanted = f"{TRACE_VARIABLE}={marker}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError):
            environ = Path(f"/proc/{entry}/environ").read_bytes()
            state = Path(f"/proc/{entry}/stat").read_text().rpartition(")")[2].split()[0]
            # A killed process the kernel has not reaped yet (state Z) runs nothing.
            if state != "Z" and any(part.startswith(wanted) for part in environ.split(b"\0")):
                found.append(int(entry))
    return found


@dataclass
class Ran:
    status: int
    stdout: str
    stderr: str
    seconds: float
    outside: Path
    before: dict[str, bytes] = field(default_factory=dict)


def attack_once(attack: Attack, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Ran:
    outside, scripts, temp = tmp_path / "outside", tmp_path / "scripts", tmp_path / "temp dir"
    for folder in (outside, scripts, temp, scripts / "adir"):
        folder.mkdir()
    (outside / "secret.txt").write_text(SECRET, encoding="utf-8")
    (scripts / "plain.txt").write_text("plain", encoding="utf-8")
    os.mkfifo(scripts / "pipe")
    # A space in TMPDIR: every @hook: command must be quoted.
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    path = _write_script(attack, scripts, outside)
    before = _state(outside)
    out, err = io.StringIO(), io.StringIO()
    started = time.monotonic()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main([str(path), "--json", *attack.flags])
    return Ran(status, out.getvalue(), err.getvalue(), time.monotonic() - started, outside, before)


@pytest.mark.parametrize("attack", ATTACKS, ids=[a.name for a in ATTACKS])
def test_the_attack_is_contained(
    attack: Attack, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = attack_once(attack, tmp_path, monkeypatch)
    allowed = attack.exit if isinstance(attack.exit, tuple) else (attack.exit,)
    assert ran.status in allowed, (ran.status, ran.stderr[:500])
    assert "Traceback" not in ran.stderr
    if ran.status == BROKE:
        assert ran.stdout == ""
        line = ran.stderr
        assert line.startswith("hookcourse session: ") and line.count("\n") == 1, line[:300]
        assert len(line) <= ERROR_SHOWN + 40 and "; fix: " in line
        assert attack.says in line
    else:
        document = json.loads(ran.stdout)
        assert attack.says in json.dumps(document, ensure_ascii=False)
    for words in (SECRET, *attack.never_says):
        assert words not in ran.stdout
    assert leftovers(_RUN) == []
    if not attack.writes_outside:
        assert _state(ran.outside) == ran.before
    assert os.listdir(tempfile.tempdir or "") == []
    assert ran.seconds < 10


def test_the_one_allowed_write_outside_happened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    attack = next(a for a in ATTACKS if a.writes_outside)
    ran = attack_once(attack, tmp_path, monkeypatch)
    assert (ran.outside / "new.txt").read_text(encoding="utf-8") == "escaped"


def test_there_are_over_a_hundred_attacks() -> None:
    assert len(ATTACKS) >= 100
    assert len({a.name for a in ATTACKS}) == len(ATTACKS)


def test_github_annotations_escape_properties_and_messages(tmp_path: Path) -> None:
    path = tmp_path / "a,b:c%d.json"
    script = {"turns": [{"text": "x"}], "expect": [{"sees": "line\none,two:three"}]}
    path.write_text(json.dumps(script), encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main([str(path), "--format", "github"]) == 1
    annotations = [line for line in out.getvalue().splitlines() if line.startswith("::error")]
    assert len(annotations) == 1
    properties, message = annotations[0][len("::error ") :].split("::", 1)
    assert properties.startswith(f"file={escape_property(str(path))},title=")
    assert "a%2Cb%3Ac%25d.json" in properties
    assert "line%0Aone,two:three" in message


def _command_line(script: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "hookcourse", "session", str(script)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "TMPDIR": str(script.parent / "temp dir")},
    )


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_signal_mid_hook_ends_everything(tmp_path: Path, signum: int) -> None:
    (tmp_path / "temp dir").mkdir()
    started = tmp_path / "started"
    body = f"{SETSID}\nsleep 300 &\ntouch {started}\nsleep 300\n"
    script = tmp_path / "s.json"
    script.write_text(json.dumps(hooked("SessionStart", "hang", body)), encoding="utf-8")
    process = _command_line(script)
    deadline = time.monotonic() + 20
    while not started.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert started.exists()
    process.send_signal(signum)
    _, stderr = process.communicate(timeout=20)
    assert process.returncode == 128 + signum
    assert stderr.decode().count("\n") == 1 and b"Traceback" not in stderr
    assert leftovers(f"{process.pid}-") == []
    assert os.listdir(tmp_path / "temp dir") == []
