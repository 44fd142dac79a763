"""The scripted model: in order, ``if`` turns after errors or not, retries answered alike."""

from __future__ import annotations

from typing import Any

from hookcourse.session.turns import TurnPlayer, choose, tool_use_id

TURNS: list[dict[str, Any]] = [
    {"tools": [{"name": "Bash", "input": {"command": "git push -f"}}]},
    {
        "if": "error",
        "text": "retrying",
        "tools": [{"name": "Bash", "input": {"command": "git push"}}],
    },
    {"if": "ok", "text": "it went through"},
    {"text": "done"},
]


def _result(turn: int, is_error: bool) -> dict[str, Any]:
    return {
        "role": "user",
        "content": [
            {
                "type": "tool_result",
                "tool_use_id": tool_use_id(turn, 0),
                "content": "x",
                "is_error": is_error,
            }
        ],
    }


def test_choose_skips_turns_whose_condition_fails() -> None:
    assert choose(TURNS, 1, [True]) == 1
    assert choose(TURNS, 1, [False]) == 2
    assert choose(TURNS, 2, [True]) == 3
    assert choose(TURNS, 4, []) is None


def test_the_player_follows_the_conversation_and_answers_a_retry_alike() -> None:
    player = TurnPlayer(TURNS)
    first = [{"role": "user", "content": "go"}]
    assert player.play(first)[0] == 0
    assert player.play(first)[0] == 0, "a retried request gets the same turn"
    # Claude Code merges assistant messages, so the history does not count turns.
    after_block = [*first, {"role": "assistant", "content": []}, _result(0, True)]
    assert player.play(after_block)[0] == 1
    after_retry = [*after_block, _result(1, False)]
    assert player.play(after_retry)[0] == 2
    assert player.play([*after_retry, {"role": "user", "content": "more"}])[0] == 3
    assert player.play([*after_retry, {"role": "user", "content": "again"}]) == (None, {})
