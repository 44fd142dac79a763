"""Attack `hookcourse fire` and `hookcourse validate` with hostile inputs and faults.

Every case runs the real CLI in a scratch project and is judged on four things:
no traceback (nor "Exception ignored" noise), no process left behind (every hook
command carries a marker that is looked for in /proc afterwards), no hang (a case
gets 60 s), and no lost decision (cases that include a denying hook must end
blocked, exit 2). Run: `.venv/bin/python benchmarks/hostile_sweep.py [--only TEXT]`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
HOOKCOURSE = [sys.executable, "-m", "hookcourse"]
LIMIT_S = 60.0
DENY = (
    'cat >/dev/null; echo \'{"hookSpecificOutput":{"hookEventName":"PreToolUse",'
    '"permissionDecision":"deny","permissionDecisionReason":"no"}}\''
)


@dataclass
class Case:
    """One attack: settings, payload, extra arguments, and what must hold afterwards."""

    name: str
    settings: Any = None
    """A settings document (dumped with json.dumps), raw text (str), or None."""
    payload: Any = None
    """A payload document, raw bytes, a path string starting with '@', or None (a default)."""
    argv: list[str] = field(default_factory=list)
    event: str = "PreToolUse"
    stdin: Any = subprocess.DEVNULL
    must_block: bool = False
    signal_after_s: float | None = None
    signum: int = signal.SIGINT
    command: str = "fire"


@dataclass
class Verdict:
    name: str
    problems: list[str]
    seconds: float


def bash_payload(command: str = "ls", **extra: Any) -> dict[str, Any]:
    return {
        "session_id": "s",
        "transcript_path": "/t",
        "cwd": ".",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": "t",
        **extra,
    }


def hooks(
    *handlers: dict[str, Any], matcher: str | None = "Bash", event: str = "PreToolUse"
) -> dict[str, Any]:
    group: dict[str, Any] = {"hooks": list(handlers)}
    if matcher is not None:
        group["matcher"] = matcher
    return {"hooks": {event: [group]}}


def cmd(text: str, **fields: Any) -> dict[str, Any]:
    return {"type": "command", "command": text, **fields}


def payload_cases() -> Iterator[Case]:
    strings = ["a\u0000b", "\ud800", "\udfff\ud800", "\ufeff", "\x1b[2J", "x" * 3_000_000, ""]
    for index, text in enumerate(strings):
        for field_name in ("session_id", "cwd", "tool_name", "transcript_path"):
            yield Case(
                f"payload {field_name} = string #{index}",
                hooks(cmd('echo "$CLAUDE_CODE_SESSION_ID" >/dev/null')),
                bash_payload(**{field_name: text}),
            )
        yield Case(f"payload command = string #{index}", hooks(cmd("true")), bash_payload(text))
    raw = [
        b"",
        b"   ",
        b"[]",
        b"null",
        b"42",
        b'"text"',
        b"\xff\xfe{}",
        b"\xef\xbb\xbf{}",
        b"{" * 100_000,
        b"[" * 100_000 + b"]" * 100_000,
        b'{"a":1e400}',
        b'{"a":1,"a":2}',
        b'{"tool_name":5,"tool_input":"x"}',
        b'{"tool_name":"Bash","tool_input":{"command":["ls"]}}',
        b'{"x":"\\ud800"}',
        b"\x00\x00\x00",
        b'{"effort":{"level":"a\\u0000"},"session_id":"\\udc80"}',
    ]
    for index, data in enumerate(raw):
        yield Case(f"raw payload #{index}", hooks(cmd("true")), data)
    for path in ("@/dev/zero", "@/dev/null", "@/proc/self/mem", "@/", "@/nonexistent", "@FIFO"):
        yield Case(f"payload file {path[1:]}", hooks(cmd("true")), path)
    yield Case("stdin closed", hooks(cmd("true")), "@-", stdin="closed")
    yield Case("stdin endless", hooks(cmd("true")), "@-", stdin="/dev/zero")
    yield Case("stdin empty", hooks(cmd("true")), "@-", stdin="/dev/null")


def settings_cases() -> Iterator[Case]:
    raw_settings = [
        "",
        "{",
        "[]",
        "null",
        '{"hooks": 5}',
        '{"hooks": {"PreToolUse": 5}}',
        '{"hooks": {"PreToolUse": [5, null, [], "x"]}}',
        '{"hooks": {"PreToolUse": [{"hooks": [5, {"type": 5}, {"type": "command"}]}]}}',
        '{"hooks": {"\\u0000": [], "\\ud800": []}}',
        '{"disableAllHooks": "yes"}',
        '{"permissions": {"deny": [5, "Bash(", "()", "Bash()"], "defaultMode": 3}}',
        '{"hooks": {"PreToolUse": [{"matcher": 5, "hooks": []}]}}',
        "\ufeff{}",
        '{"hooks":' * 50_000,
    ]
    for index, text in enumerate(raw_settings):
        yield Case(f"raw settings #{index}", text, bash_payload())
    handlers = [
        cmd("echo a\u0000b"),
        cmd("echo a\ud800b"),
        cmd("/bin/echo", args=["a\u0000"]),
        cmd("/bin/echo", args=["\ud800"]),
        cmd("\u0000"),
        cmd("true", timeout=0),
        cmd("true", timeout=-1),
        cmd("true", timeout=1e308),
        cmd("true", timeout="5"),
        cmd("true", shell="fish"),
        cmd("true", shell="powershell"),
        cmd("true", **{"if": "Bash(" + "*a" * 60 + "b)"}),
        cmd("true", **{"if": "Edit(" + "**/" * 200 + "x)"}),
        cmd("true", **{"if": "Bash("}),
        {"type": "http", "url": "http://[::1"},
        {"type": "http", "url": "http://127.0.0.1:1/refused", "timeout": 2},
        {"type": "http", "url": "ftp://x"},
        {"type": "mcp_tool", "server": "s", "tool": "t"},
        {"type": "prompt", "prompt": "\u0000\ud800"},
        {"type": "agent", "prompt": "x" * 100_000},
        {"type": "nonsense"},
    ]
    for index, handler in enumerate(handlers):
        yield Case(f"handler #{index}", hooks(handler), bash_payload("a" * 50_000))
    matchers = [
        "^(a+)+$",
        "(x+x+)+y",
        "(",
        "[",
        "\\",
        "(?<=a",
        "\u0000",
        "\ud800",
        "Bash(git *)",
        "mcp__memory",
        ".*" * 500,
        "a{99999999999}",
    ]
    for index, matcher in enumerate(matchers):
        payload = bash_payload()
        payload["tool_name"] = "a" * 35 + "!"
        yield Case(f"matcher #{index}", hooks(cmd("true"), matcher=matcher), payload)
    for name in ("/dev/zero", "/", "/proc/self/mem", "FIFO", "{not json", '{"hooks":[]}'):
        yield Case(f"--settings {name}", None, bash_payload(), argv=["--settings", name])


def output_cases() -> Iterator[Case]:
    bodies = [
        "head -c 20000000 /dev/zero | tr '\\0' x",
        "head -c 100000 /dev/urandom",
        "printf '\\x00\\xff\\xfe{'",
        'printf \'{"systemMessage":"\\\\ud800\\\\u0000"}\'',
        "printf '%s' \"$(printf '{\"a\":%.0s' $(seq 1 5000))\"",
        "printf '{\"continue\":1e400}'",
        "kill -9 $$",
        "kill -TERM $$",
        "exec 1>&- 2>&-; sleep 0.2",
        "exit 255",
        "exit 2",
        "yes",
        "yes >&2",
        "sleep 30",
        "setsid sleep 30 & exit 0",
        "(sleep 30 &) ; exit 0",
        "sleep 30 > /dev/null 2>&1 & exit 0",
        "printf '\\033]0;owned\\007\\033[2J'",
        "printf '[1,2]'",
        "printf '{'",
        'printf \'   {"decision":"block"}\'',
        "cat /dev/zero >/dev/null & sleep 0.1",
        "trap '' TERM INT HUP; sleep 30",
        "bash -c 'trap \"\" TERM; sleep 30' & wait",
    ]
    for index, body in enumerate(bodies):
        yield Case(f"hook output #{index}", hooks(cmd(body, timeout=2)), bash_payload())
        yield Case(
            f"hook output #{index} beside a deny",
            hooks(cmd(body, timeout=2), cmd(DENY)),
            bash_payload(),
            must_block=True,
        )


def evaluator_cases() -> Iterator[Case]:
    evaluators = [
        "sleep 30",
        "echo nope",
        "exit 1",
        "yes",
        'printf \'{"ok":false,"reason":"\\\\u0000"}\'',
        "setsid sleep 30 & echo '{\"ok\":true}'",
        "trap '' TERM; sleep 30",
    ]
    for index, evaluator in enumerate(evaluators):
        yield Case(
            f"evaluator #{index}",
            hooks({"type": "prompt", "prompt": "ok?", "timeout": 2}),
            bash_payload(),
            argv=["--evaluator", evaluator],
        )


def signal_cases() -> Iterator[Case]:
    slow = hooks(cmd("sleep 30 & sleep 31"), cmd("bash -c 'sleep 32 & wait'"))
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        for after in (0.3, 0.8, 1.5):
            yield Case(
                f"{signal.Signals(signum).name} after {after} s",
                slow,
                bash_payload(),
                signal_after_s=after,
                signum=signum,
            )
        yield Case(
            f"{signal.Signals(signum).name} during an evaluator",
            hooks({"type": "prompt", "prompt": "ok?"}),
            bash_payload(),
            argv=["--evaluator", "sleep 33"],
            signal_after_s=1.0,
            signum=signum,
        )


def validate_cases(cases: list[Case]) -> Iterator[Case]:
    for case in cases:
        if case.settings is not None and case.name.startswith(
            ("raw settings", "handler", "matcher")
        ):
            yield Case(f"validate {case.name}", case.settings, command="validate")


def endless_http() -> str:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()

    def serve() -> None:
        while True:
            connection, _ = listener.accept()
            threading.Thread(target=stream, args=(connection,), daemon=True).start()

    def stream(connection: socket.socket) -> None:
        with connection:
            try:
                connection.recv(65536)
                connection.sendall(b"HTTP/1.1 200 OK\r\n\r\n{")
                while True:
                    connection.sendall(b"x" * 65536)
            except OSError:
                return

    threading.Thread(target=serve, daemon=True).start()
    return f"http://127.0.0.1:{listener.getsockname()[1]}/"


def http_cases() -> Iterator[Case]:
    url = endless_http()
    yield Case(
        "http endless body", hooks({"type": "http", "url": url, "timeout": 30}), bash_payload()
    )
    yield Case(
        "http endless body beside a deny",
        hooks({"type": "http", "url": url, "timeout": 30}, cmd(DENY)),
        bash_payload(),
        must_block=True,
    )


def run_case(case: Case, root: Path) -> Verdict:
    marker = f"HOOKCOURSE_SWEEP_{uuid.uuid4().hex[:12]}"
    work = root / marker
    project = work / "project"
    (project / ".claude").mkdir(parents=True)
    home = work / "home"
    home.mkdir()
    fifo = work / "fifo"
    os.mkfifo(fifo)
    settings_path = project / ".claude" / "settings.json"
    if isinstance(case.settings, str):
        settings_path.write_text(case.settings, encoding="utf-8", errors="surrogatepass")
    elif case.settings is not None:
        settings_path.write_text(json.dumps(case.settings))
    payload_path = work / "payload.json"
    if isinstance(case.payload, bytes):
        payload_path.write_bytes(case.payload)
    elif isinstance(case.payload, dict):
        payload_path.write_text(json.dumps(case.payload))
    elif isinstance(case.payload, str):
        name = case.payload[1:]
        payload_path = fifo if name == "FIFO" else Path(name)
    argv = [a.replace("FIFO", str(fifo)) if a == "FIFO" else a for a in case.argv]
    if case.command == "validate":
        full = [*HOOKCOURSE, "validate", str(settings_path)]
    else:
        full = [*HOOKCOURSE, "fire", case.event, "--payload", str(payload_path)]
        full += ["--project-dir", str(project), "--json", *argv]
    # The marker rides in the environment of every process, so leftovers can be found.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLAUDE_", "HOOKCOURSE_"))}
    env.update(HOME=str(home), SWEEP_MARKER=marker)
    stdin: Any = case.stdin
    opened = None
    if stdin == "closed":
        full = ["sh", "-c", 'exec "$@" <&-', "sh", *full]
        stdin = subprocess.DEVNULL
    elif isinstance(stdin, str):
        opened = stdin = open(stdin, "rb")  # noqa: SIM115 - closed below
    problems: list[str] = []
    started = time.monotonic()
    process = subprocess.Popen(
        full,
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=REPO,
    )
    try:
        if case.signal_after_s is not None:
            time.sleep(case.signal_after_s)
            process.send_signal(case.signum)
        out, err = process.communicate(timeout=LIMIT_S)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        problems.append(f"hang: no exit within {LIMIT_S:g} s")
    finally:
        if opened is not None:
            opened.close()
    seconds = time.monotonic() - started
    text = err.decode(errors="replace")
    if "Traceback" in text or "Exception ignored" in text:
        problems.append("traceback: " + text.strip().splitlines()[-1][:200])
    allowed = {0, 1, 2}
    if case.signal_after_s is not None:
        allowed = {128 + case.signum}
    if process.returncode not in allowed:
        problems.append(f"exit {process.returncode}: {text.strip()[-200:]}")
    if case.must_block and process.returncode != 2:
        problems.append(f"lost decision: exit {process.returncode}, expected 2 (deny)")
    if case.must_block and process.returncode == 2:
        report = json.loads(out)
        if report["outcome"]["decision"] != "deny":
            problems.append(f"lost decision: {report['outcome']['decision']}")
    deadline = time.monotonic() + 3
    left = environ_markers(marker)
    while left and time.monotonic() < deadline:
        time.sleep(0.05)
        left = environ_markers(marker)
    if left:
        problems.append(f"left running: {left[:3]}")
        for line in left:
            with contextlib.suppress(OSError):
                os.kill(int(line.split()[0]), signal.SIGKILL)
    return Verdict(case.name, problems, seconds)


def environ_markers(marker: str) -> list[str]:
    """Processes whose environment carries the case's marker: everything the case started."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            environ = Path(f"/proc/{entry}/environ").read_bytes()
            status = Path(f"/proc/{entry}/status").read_text()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        if marker.encode() in environ and "State:\tZ" not in status:
            shown = cmdline.replace(b"\0", b" ").decode(errors="replace")[:80]
            found.append(f"{entry} {shown}")
    return found


def main() -> int:
    options = argparse.ArgumentParser(description=__doc__)
    options.add_argument("--only", help="run only cases whose name contains this text")
    args = options.parse_args()
    cases = [
        *payload_cases(),
        *settings_cases(),
        *output_cases(),
        *evaluator_cases(),
        *signal_cases(),
        *http_cases(),
    ]
    cases += list(validate_cases(cases))
    if args.only:
        cases = [case for case in cases if args.only in case.name]
    started = time.monotonic()
    failed = 0
    with tempfile.TemporaryDirectory(prefix="hookcourse-sweep-") as root:
        for case in cases:
            verdict = run_case(case, Path(root))
            if verdict.problems:
                failed += 1
                print(
                    f"FAIL {verdict.name} ({verdict.seconds:.1f} s): {'; '.join(verdict.problems)}"
                )
    total = time.monotonic() - started
    kinds = {
        "fire": sum(1 for c in cases if c.command == "fire"),
        "validate": sum(1 for c in cases if c.command == "validate"),
        "signals": sum(1 for c in cases if c.signal_after_s is not None),
        "must block": sum(1 for c in cases if c.must_block),
    }
    print(
        f"{len(cases)} cases ({', '.join(f'{n} {k}' for k, n in kinds.items())}): "
        f"{len(cases) - failed} clean, {failed} with problems, in {total:.0f} s"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
