"""Run the oracle's loopback-namespace entry with the session's scripted player.

``python -I player_entry.py RUNNER_DIR SPEC.json`` (under ``unshare -n``): imports the
oracle runner's ``inside`` and ``mock_api`` from RUNNER_DIR, makes its mock choose
each turn with ``TurnPlayer`` (so ``"if": "error"|"ok"`` turns work and a retried
request gets the same turn), and hands over to ``inside.main``, which brings ``lo``
up, refuses to go on if any other interface exists, and runs Claude Code. Standard
library only: it runs without the project on ``sys.path``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any


def main(runner_dir: str, spec: str) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.path.insert(0, runner_dir)
    import inside  # type: ignore[import-not-found]
    import mock_api  # type: ignore[import-not-found]
    from turns import TurnPlayer  # type: ignore[import-not-found]

    class PlayedAPI(mock_api.MockAPI):  # type: ignore[misc]
        def __init__(self, turns: list[dict[str, Any]], *args: Any) -> None:
            super().__init__(turns, *args)
            self.player = TurnPlayer(turns)

        def answer(self, body: dict[str, Any]) -> dict[str, Any]:
            model = str(body.get("model", "claude-mock"))
            if not body.get("tools") or not self._is_main(body):
                return dict(mock_api._message([{"type": "text", "text": "Done."}], model))
            with self._lock:
                index, turn = self.player.play(body.get("messages", []))
            return dict(
                mock_api._message(mock_api._blocks(turn, -1 if index is None else index), model)
            )

    inside.MockAPI = PlayedAPI
    status: int = inside.main(spec)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
