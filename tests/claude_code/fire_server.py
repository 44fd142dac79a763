"""``hookcourse fire`` as a line server: one Python start for many invocations.

Each stdin line is ``{"argv": [...], "env": {...}, "payload": "..."}``; the reply
line is ``{"status": N, "stdout": "...", "stderr": "..."}``. ``argv`` is what
follows ``hookcourse`` (``fire EVENT ... --json``); the payload is written to a
file and passed with ``--payload``; ``env`` replaces the environment for the call.
Run with the project's interpreter, from the repository root.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import tempfile

from hookcourse.cli import main


def serve() -> None:
    for line in sys.stdin:
        request = json.loads(line)
        with tempfile.NamedTemporaryFile(
            "w", suffix=".json", delete=False, encoding="utf-8"
        ) as payload:
            payload.write(request["payload"])
        os.environ.clear()
        os.environ.update(request["env"])
        out, err = io.StringIO(), io.StringIO()
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                status = main([*request["argv"], "--payload", payload.name])
        except SystemExit as exit_:
            status = exit_.code if isinstance(exit_.code, int) else 1
        finally:
            os.unlink(payload.name)
        reply = {"status": status, "stdout": out.getvalue(), "stderr": err.getvalue()}
        sys.__stdout__.write(json.dumps(reply) + "\n")
        sys.__stdout__.flush()


if __name__ == "__main__":
    serve()
