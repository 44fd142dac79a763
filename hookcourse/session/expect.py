"""A session script's ``expect`` entries: checked on load, judged against a transcript.

Each entry is an object with one of these keys (``about`` may be added to any):

- ``{"denied": "git push -f"}``: a call with that Bash command (or file path) did
  not run; ``{"runs": "npm test"}``: one did. ``"tool"`` narrows the tool.
- ``{"sees": "lint passed"}``: some text the model is shown contains it;
  ``{"neverSees": "..."}``: none does.
- ``{"fires": "Stop", "times": 3}``: that event (or ``PreToolUse:Bash`` label) ran
  hooks exactly that many times (``times`` left out: at least once).
- ``{"ends": "completed"}``: how the session ends (``completed``, ``hook_stopped``,
  ``prompt_blocked``, ``tool_deferred``, ``runaway``); with ``"prompt": N``, how the
  loop of the Nth prompt (from 1) ended.
- ``{"requests": 5}``: the number of model requests.

Pure.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from hookcourse.errors import InputError, json_path

KINDS = ("denied", "runs", "sees", "neverSees", "fires", "ends", "requests")
EXTRA = ("about", "tool", "times", "prompt")


def check_expectation(entry: Any, where: str, path: Sequence[str | int]) -> None:
    """Raise InputError when an ``expect`` entry cannot be judged."""
    if not isinstance(entry, dict):
        raise InputError(
            where,
            f"{json_path(path)} is not an object",
            'write {"denied": "git push -f"} or another entry',
            list(path),
        )
    kinds = [key for key in entry if key in KINDS]
    unknown = [key for key in entry if key not in KINDS and key not in EXTRA]
    if unknown or len(kinds) != 1:
        raise InputError(
            where,
            f"{json_path(path)} needs exactly one of {', '.join(KINDS)}",
            f"remove {', '.join(unknown) or 'the extra key'}",
            list(path),
        )
    kind = kinds[0]
    value = entry[kind]
    wanted_type: type = int if kind == "requests" else str
    if not isinstance(value, wanted_type) or isinstance(value, bool):
        raise InputError(
            where,
            f"{json_path([*path, kind])} has the wrong type",
            f"write a {'number' if wanted_type is int else 'string'}",
            [*path, kind],
        )
    for extra in ("times", "prompt"):
        number = entry.get(extra)
        if number is not None and (not isinstance(number, int) or isinstance(number, bool)):
            raise InputError(
                where,
                f"{json_path([*path, extra])} is not a number",
                "write a whole number",
                [*path, extra],
            )


def _subject(tool_input: Any) -> str | None:
    if isinstance(tool_input, dict):
        for key in ("command", "file_path", "path", "pattern", "url"):
            if isinstance(tool_input.get(key), str):
                return str(tool_input[key])
    return None


def _subjects(call: Mapping[str, Any]) -> list[str]:
    """The call's command (or path) as the model wrote it, and as it ran after a rewrite."""
    found = [_subject(call.get("input")) or str(call.get("inputText", ""))]
    ran = _subject(call.get("ranInput"))
    return found if ran is None else [*found, ran]


def _calls(transcript: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    for round_ in transcript["rounds"]:
        yield from round_["calls"]


def _texts(transcript: Mapping[str, Any]) -> Iterator[str]:
    for round_ in transcript["rounds"]:
        for item in round_["shown"]:
            yield item["text"]


def _events(transcript: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    yield from transcript["start"]
    for entry in transcript.get("prompts", []):
        yield from entry["events"]
    for round_ in transcript["rounds"]:
        yield from round_["events"]
    for action in transcript.get("actions", []):
        yield from action["events"]


def _ends(transcript: Mapping[str, Any]) -> list[str]:
    """How each prompt's loop ended, in order (the last one is how the session ended)."""
    before = [str(entry["before"].get("reason")) for entry in transcript.get("prompts", [])]
    return [*before, str(transcript["end"]["reason"])]


def says(entry: Mapping[str, Any]) -> str:
    """The expectation as a sentence."""
    if entry.get("about"):
        return str(entry["about"])
    tool = entry.get("tool", "Bash" if "denied" in entry or "runs" in entry else "")
    if "denied" in entry:
        return f"the {tool} call `{entry['denied']}` is denied"
    if "runs" in entry:
        return f"the {tool} call `{entry['runs']}` runs"
    if "sees" in entry:
        return f"the model sees `{entry['sees']}`"
    if "neverSees" in entry:
        return f"the model never sees `{entry['neverSees']}`"
    if "fires" in entry:
        times = entry.get("times")
        return f"{entry['fires']} hooks run " + (
            "at least once" if times is None else f"{times} times"
        )
    if "ends" in entry:
        if entry.get("prompt") is not None:
            return f"prompt {entry['prompt']} ends {entry['ends']}"
        return f"the session ends {entry['ends']}"
    return f"the model is asked {entry['requests']} times"


def judge(entry: Mapping[str, Any], transcript: Mapping[str, Any]) -> tuple[bool, str]:
    """Whether the expectation held, and what was found instead."""
    if "denied" in entry or "runs" in entry:
        wanted = entry.get("denied", entry.get("runs"))
        tool = entry.get("tool")
        matching = [
            c
            for c in _calls(transcript)
            if wanted in _subjects(c) and (tool is None or c["name"] == tool)
        ]
        if not matching:
            made = sorted({s for c in _calls(transcript) for s in _subjects(c)})
            return False, f"the model made no such call (its calls: {made})"
        ran = [c for c in matching if c["runs"]]
        if "denied" in entry:
            return (not ran, f"it ran ({ran[0]['id']})" if ran else "")
        return (bool(ran), "it was denied every time" if not ran else "")
    if "sees" in entry or "neverSees" in entry:
        wanted = entry.get("sees", entry.get("neverSees"))
        hits = [text for text in _texts(transcript) if wanted in text]
        if "sees" in entry:
            return bool(hits), "no text shown to the model contains it"
        return not hits, f"shown: {hits[0]!r}" if hits else ""
    if "fires" in entry:
        name = entry["fires"]
        count = sum(
            1
            for run in _events(transcript)
            if run["hooks"] and name in (run["event"], run["label"])
        )
        times = entry.get("times")
        held = count >= 1 if times is None else count == times
        return held, f"they ran {count} times"
    if "ends" in entry:
        ends = _ends(transcript)
        number = entry.get("prompt", len(ends))
        if not 1 <= number <= len(ends):
            return False, f"the session has {len(ends)} prompt(s)"
        reason = ends[number - 1]
        return reason == entry["ends"], f"it ended {reason}"
    count = len(transcript["rounds"])
    return count == entry["requests"], f"the model was asked {count} times"


def judge_all(
    entries: Sequence[Mapping[str, Any]], transcript: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """Every expectation as ``{says, held, why}``."""
    checks = []
    for entry in entries:
        held, why = judge(entry, transcript)
        checks.append({"says": says(entry), "held": held, "why": "" if held else why})
    return checks
