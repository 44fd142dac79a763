"""Writing ``data/session_traces.json`` on the desktop: each traced session played once by
the engine's loop and once by the teacher's functions in the learner's loop, with real
processes, and kept (``replay.recording``).

    python -m hookcourse.session.replay_traces update | check

Apart from ``replay`` because it needs the learner's loop, which replays through
``replay`` itself.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

from .replay import ABOUT, TRACED, TRACES, SessionTrace, recording


def record_session(name: str) -> SessionTrace:
    """The trace of session ``name``: the engine's loop and the teacher's functions in the
    learner's loop, each played once with real processes."""
    from hookcourse.stages.run_hooks.solution import run_hooks
    from hookcourse.stages.stop_loop.solution import run_stop_loop

    from .learner import LearnerLoop, run_learner_session
    from .loop import run_session
    from .recorded import script_path
    from .script import load

    script = load(Path(str(script_path(name))))
    with recording() as engine:
        run_session(script)
    with recording() as teacher:
        run_learner_session(script, LearnerLoop(run_hooks, run_stop_loop))
    return engine.trace.merged(teacher.trace)


def traces_text(names: Sequence[str] = TRACED) -> str:
    """The data file's text: every traced session recorded afresh."""
    sessions = {name: record_session(name).to_json() for name in names}
    return json.dumps({"about": ABOUT, "sessions": sessions}, indent=1, ensure_ascii=False) + "\n"


def main(arguments: Sequence[str]) -> int:
    """``update`` writes data/session_traces.json; ``check`` fails (one line) if it is stale."""
    usage = "usage: python -m hookcourse.session.replay_traces update | check"
    if list(arguments) not in (["update"], ["check"]):
        print(usage, file=sys.stderr)
        return 2
    path = Path(__file__).resolve().parent.parent / TRACES
    fresh = traces_text()
    if arguments[0] == "update":
        if not path.is_file() or path.read_text("utf-8") != fresh:
            path.write_text(fresh, encoding="utf-8")
            print(f"wrote {path}")
        return 0
    if not path.is_file() or path.read_text("utf-8") != fresh:
        fix = "run python -m hookcourse.session.replay_traces update"
        print(f"{path} is stale: {fix}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
