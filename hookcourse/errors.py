"""Input errors as one line: what is wrong, where (file and JSON path), and how to fix it."""

from __future__ import annotations

import errno
import io
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Final

EXIT_INTERRUPTED: Final = 130

_IDENTIFIER_SAFE: Final = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$"
)


def json_path(steps: Sequence[str | int]) -> str:
    """``["cases", 3, "matcher"]`` -> ``$.cases[3].matcher``."""
    from hookcourse.js.json import quote

    parts = ["$"]
    for step in steps:
        if isinstance(step, int):
            parts.append(f"[{step}]")
        elif step and set(step) <= _IDENTIFIER_SAFE and not step[0].isdigit():
            parts.append(f".{step}")
        else:
            parts.append(f"[{quote(step)}]")
    return "".join(parts)


def json_syntax_fix(text: str) -> str:
    """The fix for a document ``JSON.parse`` rejected; a byte-order mark first has its own.

    Editors on Windows save one; JSON.parse rejects it, so the fix is in the save, not the JSON.
    """
    if text.startswith("\ufeff"):
        return "save the file as UTF-8 without a byte-order mark"
    return "fix the JSON syntax at that line and column"


def visible(text: str, keep: str = "") -> str:
    """``text`` with every unprintable character (NUL, escapes, lone surrogates) written as
    its Python escape, except those in ``keep``: safe to print to any terminal."""
    return "".join(ch if ch.isprintable() or ch in keep else repr(ch)[1:-1] for ch in text)


class InputError(Exception):
    """Input the program cannot process; ``str()`` is the one line a user sees."""

    def __init__(self, where: str, problem: str, fix: str, path: Sequence[str | int] = ()) -> None:
        super().__init__(problem)
        self.where = where
        self.problem = problem
        self.fix = fix
        self.path = tuple(path)

    def __str__(self) -> str:
        location = f"{self.where}: {json_path(self.path)}" if self.path else self.where
        line = f"{location}: {self.problem}; fix: {self.fix}"
        # One line whatever the parts contain: control characters are shown escaped.
        return visible(line)


class _Output(io.RawIOBase):
    """Standard output's descriptor that keeps the first failed write and drops the rest.

    A reader that went away (``| head``) or a full disk then cannot raise in the middle
    of a command, so the command still reaches, and returns, its own exit status.
    """

    def __init__(self, descriptor: int) -> None:
        super().__init__()
        self.descriptor = descriptor
        self.failure: OSError | None = None

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.descriptor

    def write(self, data: bytes | bytearray | memoryview) -> int:  # type: ignore[override]
        if self.failure is None:
            try:
                return os.write(self.descriptor, data)
            except OSError as error:
                self.failure = error
        return len(data)


def run_at_edge(program: str, command: Callable[[], int], failed: int) -> int:
    """Run a program's ``command``: its status whatever becomes of standard output.

    A closed pipe ends quietly; another write failure (a full disk) and Ctrl-C end with
    one line on stderr, the former with ``failed`` if the command had succeeded, the
    latter with 130. Only the real standard output is guarded (tests capture theirs).
    """
    original = sys.stdout
    output = _Output(original.fileno()) if original is sys.__stdout__ and original else None
    if output is not None:
        original.flush()
        sys.stdout = io.TextIOWrapper(
            io.BufferedWriter(output),
            encoding=original.encoding,
            errors=original.errors,
            line_buffering=bool(original.line_buffering),
        )
    try:
        status = command()
    except KeyboardInterrupt:
        sys.stderr.write(f"{program}: interrupted\n")
        return EXIT_INTERRUPTED
    finally:
        if output is not None:
            sys.stdout.flush()
            sys.stdout = original
    if output is None or output.failure is None or output.failure.errno == errno.EPIPE:
        return status
    reason = output.failure.strerror or str(output.failure)
    sys.stderr.write(
        f"{program}: cannot write the output ({reason}); "
        "fix: free some space or redirect the output elsewhere\n"
    )
    return status or failed
