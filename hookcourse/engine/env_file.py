"""``CLAUDE_ENV_FILE``: the file SessionStart, Setup, CwdChanged and FileChanged hooks write to.

Reference §7a: ``export`` lines a hook appends to it are applied before each later
Bash command. ``fire`` makes a real empty temporary file, exports its path, and
afterwards reads back what the hooks wrote (bounded), so the report can show it.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from dataclasses import dataclass
from typing import Final

from hookcourse.errors import InputError
from hookcourse.shell import Comment, Word, lex
from hookcourse.system.inputs import read_bounded
from hookcourse.system.interrupts import remove_on_interrupt

ENV_FILE_VARIABLE: Final = "CLAUDE_ENV_FILE"
ENV_FILE_CAP_BYTES: Final = 1_048_576
_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class EnvFileWrites:
    """What the hooks left in the file: the variables it exports, and lines that are not exports."""

    variables: tuple[tuple[str, str], ...]
    other_lines: tuple[str, ...]
    notes: tuple[str, ...] = ()


def make_env_file() -> str:
    """A new empty file for the hooks to append to; removed on an interrupt."""
    handle, path = tempfile.mkstemp(prefix="hookcourse-env-", suffix=".sh")
    os.close(handle)
    remove_on_interrupt(path)
    return path


def collect_env_file(path: str) -> EnvFileWrites:
    """Read back and delete the file; what Bash would export from it, line by line."""
    try:
        text = read_bounded(path, ENV_FILE_CAP_BYTES, f"the {ENV_FILE_VARIABLE} file").text
    except InputError as error:
        return EnvFileWrites((), (), (f"it could not be read back: {error}",))
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)
        remove_on_interrupt(path, keep=False)
    return parse_exports(text)


def parse_exports(text: str) -> EnvFileWrites:
    """``export NAME=value`` lines (shell quoting undone); every other non-blank line kept apart."""
    variables: list[tuple[str, str]] = []
    other: list[str] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        reading = lex(line)
        if reading.problems or not all(isinstance(t, Word | Comment) for t in reading.tokens):
            other.append(line)  # open quotes, or more than one command: not a plain export
            continue
        words = [token.value for token in reading.tokens if isinstance(token, Word)]
        if words[:1] != ["export"] or len(words) < 2:
            other.append(line)
            continue
        for word in words[1:]:
            name, equals, value = word.partition("=")
            if not equals or not _NAME.fullmatch(name):
                other.append(line)
                break
            variables.append((name, value))
    return EnvFileWrites(tuple(variables), tuple(other))
