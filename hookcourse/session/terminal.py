"""Claude Code's interactive interface in a pseudo-terminal, driven by scripted steps.

``namespace`` calls ``run_steps`` inside the loopback-only namespace when a run spec
holds ``interactive`` (a list of steps): the binary gets a pseudo-terminal of
``ROWS`` x ``COLUMNS``, its output is fed to a small screen model (``Screen``), and the
steps are played one after the other, each waiting on screen text or a file with a
bounded timeout, never on a fixed sleep alone:

- ``{"type": TEXT}``: the keys of TEXT, a short pause, then Enter (a prompt, a slash
  command); ``"enter": false`` leaves Enter out;
- ``{"key": NAME}``: one key of ``KEYS`` (``enter``, ``escape``, ``down``, ``tab`` ...);
- ``{"wait": TEXT}``: until TEXT is on the screen (``timeout`` seconds, default
  ``WAIT_S``); ``{"gone": TEXT or [TEXT, ...]}``: until none is;
- ``{"hook": EVENT}``: until a hook script's dump holds a payload of EVENT
  (``count``: that many), read from ``dumps`` (the harness's hook dumps);
- ``{"pick": {TEXT: OPTION, ...}, "until": DONE}``: until one of the texts is on the
  screen, then its OPTION chosen (a dialog that differs with the case: each of its forms
  and its answer); with ``until``, every form that shows is answered until DONE is
  written;
- ``{"write": PATH, "text": TEXT}``: the file written from outside, as an editor would;
- ``{"exit": true}``: until the binary exits.

A step with ``"optional": true`` that times out is passed over; any other ends the
run (``stuck``: which step, and the screen then); the status says when each step
began (``stepsBegan``, wall-clock nanoseconds). At the
end the binary's whole process group is killed, and every process still carrying its
trace (a hook that left its group): nothing is left running. The screen as it was last
drawn and the whole output (escapes removed) are written beside the status. Standard
library and the package's interrupt registry only.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hookcourse.system import processes

ROWS, COLUMNS = 50, 120
WAIT_S = 30.0
"""How long a ``wait`` or ``hook`` step waits unless it says otherwise."""
KEY_PAUSE_S = 0.3
"""Between a text's keys and its Enter: the interface takes a pasted burst as a paste."""
QUIET_S = 0.4
SETTLE_S = 3.0
"""Before a key, the run waits for the screen to be still this long, at most ``SETTLE_S``."""
ECHO_S = 5.0
"""How long a typed text may take to show in the input box."""
INPUT_LINES = 8
CURSOR = "\u276f"
"""The mark before a dialog's chosen option (U+276F)."""
MAX_MOVES = 8
PRESSES = 3
RETRY_S = 3.0
"""A dialog's key is pressed again when its effect has not shown after ``RETRY_S``."""
KEYS = {
    "enter": b"\r",
    "escape": b"\x1b",
    "tab": b"\t",
    "up": b"\x1b[A",
    "down": b"\x1b[B",
    "right": b"\x1b[C",
    "left": b"\x1b[D",
    "backspace": b"\x7f",
    "ctrl-c": b"\x03",
    "ctrl-d": b"\x04",
    "ctrl-u": b"\x15",
    "shift-tab": b"\x1b[Z",
}
"""The keys a ``key`` step may press, as the terminal sends them."""

CSI = re.compile(rb"\x1b\[([?>=]?)([0-9;:]*)([ -/]*)([@-~])")
OSC = re.compile(rb"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
OTHER_ESCAPE = re.compile(rb"\x1b[()#%][0-9A-Za-z@]|\x1b[=>78DEHMNOPZc\\]")


class Screen:
    """A grid of ``rows`` x ``columns`` cells fed with a terminal's output: text, line
    feeds, cursor moves and erasures (what an Ink interface draws with); colours and
    modes are read and dropped."""

    def __init__(self, rows: int = ROWS, columns: int = COLUMNS) -> None:
        self.rows, self.columns = rows, columns
        self.cells = [[" "] * columns for _ in range(rows)]
        self.row = self.column = 0
        self.pending = b""
        self.saved = (0, 0)

    def text(self) -> str:
        """The screen as lines, trailing blanks removed."""
        lines = ["".join(line).rstrip() for line in self.cells]
        while lines and not lines[-1]:
            lines.pop()
        return "\n".join(lines)

    def feed(self, data: bytes) -> None:
        data = self.pending + data
        self.pending = b""
        i = 0
        while i < len(data):
            byte = data[i]
            if byte == 0x1B:
                used = self._escape(data, i)
                if used == 0:  # an escape cut at the end of this chunk
                    self.pending = data[i:]
                    return
                i += used
                continue
            if byte < 0x20 or byte == 0x7F:
                self._control(byte)
                i += 1
                continue
            length = _utf8_length(byte)
            if i + length > len(data):
                self.pending = data[i:]
                return
            self._put(data[i : i + length].decode("utf-8", "replace"))
            i += length

    def _escape(self, data: bytes, i: int) -> int:
        for pattern in (CSI, OSC, OTHER_ESCAPE):
            match = pattern.match(data, i)
            if match is not None:
                if pattern is CSI:
                    self._csi(match.group(1), match.group(2), match.group(4))
                elif match.group(0) == b"\x1b7":
                    self.saved = (self.row, self.column)
                elif match.group(0) == b"\x1b8":
                    self.row, self.column = self.saved
                return match.end() - i
        if len(data) - i < MAX_ESCAPE and not _complete(data[i + 1 :]):
            return 0
        return 1  # a lone escape: dropped

    def _csi(self, private: bytes, raw: bytes, final: bytes) -> None:
        if private:
            return  # modes (cursor shown, bracketed paste, synchronised output)
        numbers = [int(part) if part.isdigit() else 0 for part in raw.split(b";")] if raw else []
        first = numbers[0] if numbers else 0
        step = max(first, 1)
        command = final.decode()
        if command == "A":
            self.row = max(self.row - step, 0)
        elif command == "B":
            self.row = min(self.row + step, self.rows - 1)
        elif command == "C":
            self.column = min(self.column + step, self.columns - 1)
        elif command == "D":
            self.column = max(self.column - step, 0)
        elif command == "E":
            self.row, self.column = min(self.row + step, self.rows - 1), 0
        elif command == "F":
            self.row, self.column = max(self.row - step, 0), 0
        elif command == "G":
            self.column = min(step - 1, self.columns - 1)
        elif command in ("H", "f"):
            row = numbers[0] if numbers else 1
            column = numbers[1] if len(numbers) > 1 else 1
            self.row = min(max(row, 1), self.rows) - 1
            self.column = min(max(column, 1), self.columns) - 1
        elif command == "J":
            self._erase_display(first)
        elif command == "K":
            self._erase_line(first)

    def _erase_display(self, how: int) -> None:
        if how == 0:
            self._erase_line(0)
            rows = range(self.row + 1, self.rows)
        elif how == 1:
            self._erase_line(1)
            rows = range(0, self.row)
        else:
            rows = range(self.rows)
        for row in rows:
            self.cells[row] = [" "] * self.columns

    def _erase_line(self, how: int) -> None:
        line = self.cells[self.row]
        start, end = {0: (self.column, self.columns), 1: (0, self.column + 1)}.get(
            how, (0, self.columns)
        )
        for column in range(start, end):
            line[column] = " "

    def _control(self, byte: int) -> None:
        if byte == 0x0A:
            self._line_feed()
        elif byte == 0x0D:
            self.column = 0
        elif byte == 0x08:
            self.column = max(self.column - 1, 0)
        elif byte == 0x09:
            self.column = min((self.column // 8 + 1) * 8, self.columns - 1)

    def _line_feed(self) -> None:
        if self.row == self.rows - 1:
            self.cells.pop(0)
            self.cells.append([" "] * self.columns)
        else:
            self.row += 1

    def _put(self, char: str) -> None:
        if self.column >= self.columns:
            self.column = 0
            self._line_feed()
        self.cells[self.row][self.column] = char
        self.column += 1


MAX_ESCAPE = 256
"""An escape sequence longer than this that never ends is dropped, not waited for."""


def _complete(rest: bytes) -> bool:
    """Whether the bytes after an escape hold its end (else more is to come)."""
    if rest[:1] == b"[":
        return re.search(rb"[@-~]", rest[1:]) is not None
    if rest[:1] == b"]":
        return b"\x07" in rest or b"\x1b\\" in rest
    return len(rest) >= (2 if rest[:1] in b"()#%" else 1)


def _utf8_length(first: int) -> int:
    if first >= 0xF0:
        return 4
    if first >= 0xE0:
        return 3
    return 2 if first >= 0xC0 else 1


def plain(data: bytes) -> str:
    """A terminal's output with its escapes removed (searched when the screen was redrawn
    before a wait looked at it)."""
    for pattern in (CSI, OSC, OTHER_ESCAPE):
        data = pattern.sub(b"", data)
    return data.decode("utf-8", "replace")


class Stuck(Exception):
    """A step waited its whole timeout."""


class Terminal:
    """One process on a pseudo-terminal: keys in, a screen out."""

    def __init__(self, argv: Sequence[str], env: Mapping[str, str], cwd: str) -> None:
        self.screen = Screen()
        self.output = bytearray()
        environment = {**env, "TERM": "xterm-256color", "COLUMNS": str(COLUMNS), "LINES": str(ROWS)}
        self.process, self.primary, self.trace = processes.start_on_terminal(
            argv, environment, cwd, ROWS, COLUMNS
        )

    def read(self, seconds: float) -> None:
        """Whatever the program writes within ``seconds`` (less if it exits)."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            ready, _, _ = select.select([self.primary], [], [], min(left, 0.1))
            if not ready:
                if self.process.poll() is not None:
                    return
                continue
            try:
                chunk = os.read(self.primary, 65536)
            except OSError:  # EIO: the program closed the terminal
                return
            if not chunk:
                return
            self.output += chunk
            self.screen.feed(chunk)

    def settle(self) -> None:
        """Read until the program has been quiet for ``QUIET_S`` (at most ``SETTLE_S``):
        keys sent while it is still drawing a dialog are lost."""
        deadline = time.monotonic() + SETTLE_S
        while time.monotonic() < deadline:
            before = len(self.output)
            self.read(QUIET_S)
            if len(self.output) == before:
                return

    def last_lines(self) -> str:
        """The screen's lowest lines, where the input box is."""
        return "\n".join(self.screen.text().splitlines()[-INPUT_LINES:])

    def send(self, data: bytes) -> None:
        with contextlib.suppress(OSError):
            os.write(self.primary, data)

    def until(self, done: Any, timeout: float, what: str) -> None:
        """Read until ``done()`` holds; Stuck after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while not done():
            if time.monotonic() > deadline:
                raise Stuck(what)
            self.read(0.1)

    def shows(self, text: str, since: int) -> bool:
        """Whether ``text`` is on the screen, or was written since byte ``since``."""
        return text in self.screen.text() or text in plain(bytes(self.output[since:]))

    def close(self) -> int | None:
        """Kill the group and whatever carries the trace; the exit status, if it exited."""
        exited = processes.end_on_terminal(self.process, self.trace)
        with contextlib.suppress(OSError):
            os.close(self.primary)
        return exited


def hook_count(dumps: Path, event: str) -> int:
    """How many hook dumps under ``dumps`` hold a payload of ``event``."""
    count = 0
    for path in dumps.glob("*.in"):
        try:
            payload = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(payload, dict) and payload.get("hook_event_name") == event:
            count += 1
    return count


def _gone(terminal: Terminal, texts: Sequence[str], timeout: float) -> None:
    """Until none of ``texts`` is on the screen."""
    terminal.until(
        lambda: not any(text in terminal.screen.text() for text in texts),
        timeout,
        f"{list(texts)!r} to go",
    )


def _pick(terminal: Terminal, forms: Mapping[str, str], until: str | None, timeout: float) -> None:
    """Answer the dialog form on the screen by choosing its option; with ``until``, answer
    each form that follows, one after the other, until ``until`` is written."""
    deadline = time.monotonic() + timeout
    since = len(terminal.output)

    def shown() -> str | None:
        # On the screen as drawn now: a form passed by is not the one to answer.
        screen = terminal.screen.text()
        return next((text for text in forms if text in screen), None)

    while True:
        terminal.until(
            lambda: shown() is not None or (until is not None and terminal.shows(until, since)),
            deadline - time.monotonic(),
            f"one of {sorted(forms)}",
        )
        form = shown()
        if form is None:
            return  # ``until`` was written
        _choose(terminal, form, forms[form], deadline)
        if until is None:
            return


def _choose(terminal: Terminal, form: str, option: str, deadline: float) -> None:
    """Move the dialog's cursor (``CURSOR``) down to ``option``, then Enter until ``form`` goes.
    Each key is pressed again when the screen does not show its effect: a dialog takes no
    keys for a moment after it shows."""
    for _move in range(MAX_MOVES):
        if _selected(terminal, option):
            break
        terminal.settle()
        terminal.send(KEYS["down"])
        with contextlib.suppress(Stuck):
            terminal.until(lambda: _selected(terminal, option), RETRY_S, "the cursor")
    for _press in range(PRESSES):
        terminal.settle()
        terminal.send(KEYS["enter"])
        left = min(RETRY_S, deadline - time.monotonic())
        with contextlib.suppress(Stuck):
            _gone(terminal, [form], left)
            return
    raise Stuck(f"{form!r} to go")


def _selected(terminal: Terminal, option: str) -> bool:
    return any(CURSOR in line and option in line for line in terminal.screen.text().splitlines())


def play_step(terminal: Terminal, step: Mapping[str, Any], dumps: Path) -> None:
    """One step (see the module's list); Stuck when its wait runs out."""
    timeout = float(step.get("timeout", WAIT_S))
    since = len(terminal.output)
    if "type" in step or "key" in step:
        terminal.settle()
    if "type" in step:
        typed = str(step["type"])
        for _attempt in range(2):
            # Keys that arrive while the input box is being redrawn can be dropped: the
            # text is typed once more if it does not show up.
            terminal.send(typed.encode())
            with contextlib.suppress(Stuck):
                terminal.until(lambda: typed in terminal.last_lines(), ECHO_S, "the echo")
                break
        terminal.read(KEY_PAUSE_S)
        if step.get("enter", True):
            terminal.send(KEYS["enter"])
    elif "key" in step:
        terminal.send(KEYS[str(step["key"])])
    elif "wait" in step:
        text = str(step["wait"])
        terminal.until(lambda: terminal.shows(text, since), timeout, f"wait for {text!r}")
    elif "gone" in step:
        _gone(terminal, [step["gone"]] if isinstance(step["gone"], str) else step["gone"], timeout)
    elif "hook" in step:
        event, count = str(step["hook"]), int(step.get("count", 1))
        terminal.until(
            lambda: hook_count(dumps, event) >= count, timeout, f"{count} {event} hook(s)"
        )
    elif "pick" in step:
        _pick(terminal, step["pick"], step.get("until"), timeout)
    elif "write" in step:
        # The user changes a file outside Claude Code (an editor): its watchers see it.
        Path(str(step["write"])).write_text(str(step.get("text", "")), encoding="utf-8")
    elif "exit" in step:
        terminal.until(lambda: terminal.process.poll() is not None, timeout, "the exit")
    elif "type" not in step and "key" not in step:
        raise ValueError(f"no step kind in {sorted(step)}")
    terminal.read(0.05)


def run_steps(spec: Mapping[str, Any], env: Mapping[str, str]) -> dict[str, Any]:
    """The binary of ``spec`` on a pseudo-terminal through its ``interactive`` steps; the
    run's status (``exit``, or ``stuck`` and the step), screen and output written."""
    started = time.monotonic()
    deadline = started + float(spec["timeout"])
    terminal = Terminal(spec["argv"], env, spec["cwd"])
    dumps = Path(spec.get("dumps") or spec["cwd"])
    status: dict[str, Any] = {}
    # When each step began (wall clock, ns): a reader places the hooks' dumps by them.
    began: list[int] = []
    try:
        for number, step in enumerate(spec["interactive"]):
            began.append(time.time_ns())
            left = deadline - time.monotonic()
            bounded = {**step, "timeout": min(float(step.get("timeout", WAIT_S)), max(left, 0))}
            try:
                play_step(terminal, bounded, dumps)
            except Stuck as stuck:
                if step.get("optional"):
                    continue  # a wait for what may not happen (a prompt a hook blocks)
                status = {"stuck": number, "waiting": str(stuck)}
                break
            except (KeyError, TypeError, ValueError) as error:
                # A step the terminal cannot play (an unknown key): said, not a traceback.
                status = {"stuck": number, "waiting": f"a step it cannot play: {error!r}"}
                break
        else:
            terminal.read(0.2)  # what the last step set off, drawn
    finally:
        exited = terminal.close()
        Path(spec["stdout"]).write_text(plain(bytes(terminal.output)), encoding="utf-8")
        Path(spec["screen"]).write_text(terminal.screen.text() + "\n", encoding="utf-8")
    status.setdefault("exit", exited)
    status["stepsBegan"] = began
    status["seconds"] = round(time.monotonic() - started, 2)
    return status
