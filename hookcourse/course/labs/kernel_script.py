"""A Python hook script run inside this kernel, for a browser that starts no processes.

The script runs as ``python3 script.py`` would run it: as ``__main__``, the payload on
its stdin, its stdout and stderr captured, ``sys.exit(n)`` its exit code and an uncaught
exception a traceback on stderr with exit 1. What it cannot have is a process of its
own: it shares this kernel's modules, and there is no time limit (Pyodide has no threads
to wait from), so a script that loops for ever hangs the kernel until it is interrupted.
"""

from __future__ import annotations

import contextlib
import io
import sys
import traceback
from pathlib import Path

from hookcourse.engine.api import HookRun


def _exit_code(code: object, stderr: io.StringIO) -> int:
    """``sys.exit(code)``'s exit status, as CPython gives it."""
    if code is None:
        return 0
    if isinstance(code, int):  # True too: sys.exit(True) exits 1 and prints nothing
        return code & 0xFF
    print(code, file=stderr)
    return 1


def run_in_kernel(script: Path, payload_json: str) -> HookRun:
    """Run the Python file ``script`` on ``payload_json`` as the engine's runner would."""
    label = f"{script.name}, run in this kernel"
    try:
        source = script.read_bytes()
    except OSError as error:
        reason = error.strerror or str(error)
        return HookRun("command", None, "", "", False, f"{script}: {reason}", label=label)
    stdout, stderr = io.StringIO(), io.StringIO()
    namespace = {"__name__": "__main__", "__file__": str(script), "__builtins__": __builtins__}
    saved_stdin, saved_argv = sys.stdin, sys.argv
    sys.stdin, sys.argv = io.StringIO(payload_json), [str(script)]
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            try:
                exec(compile(source, str(script), "exec"), namespace)
                code = 0
            except SystemExit as done:
                code = _exit_code(done.code, stderr)
            except KeyboardInterrupt:
                raise
            except BaseException as crash:  # the script's own: a traceback and exit 1
                # From the script's first frame on, as python3 would print it.
                below = crash.__traceback__.tb_next if crash.__traceback__ else None
                traceback.print_exception(type(crash), crash, below, file=stderr)
                code = 1
    finally:
        sys.stdin, sys.argv = saved_stdin, saved_argv
    return HookRun("command", code, stdout.getvalue(), stderr.getvalue(), False, None, label=label)
