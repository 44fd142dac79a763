"""A session transcript: the same data from either engine, its text, and its differences.

A transcript is JSON data (so a recorded one ships as a file and reads back the
same): the hooks that ran before the first request, then one round per model
request. A round holds what that request newly showed the model (tool_results,
hook texts, Stop feedback), the turn the scripted model played, the tool calls
and whether each ran, and the hooks each event ran. Paths under the run's
scratch folder are written ``$ROOT``, so two runs compare equal. Pure.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final

from hookcourse.errors import visible

Transcript = dict[str, Any]
"""``{"script", "engine", "start": [event], "rounds": [round], "end": {...}}``, and with
more than one prompt ``"prompts"``: for each after the first ``{"prompt", "round" (the
index of the round it starts at), "events" (its UserPromptSubmit), "before" (how the
prompt before it ended)}``. An interactive session (``"mode": "interactive"``) also holds
``"actions"``: each slash command or file the user wrote, ``{"action", "round" (the
request it came before), "events" (in the order they fired)}``; a call the user answered
in a dialog has ``"dialog": {"answer", "feedback"}``."""

KINDS = {
    "tool_result": "tool_result",
    "system": "system text",
    "reminder": "system-reminder",
}
"""Where a text reaches the model: a tool_result block, a system-role text, a user reminder."""


def normalised(value: Any, root: str) -> Any:
    """``value`` with the scratch root written ``$ROOT`` (the same path, two ways)."""
    if isinstance(value, str):
        return value.replace(root, "$ROOT") if root else value
    if isinstance(value, list):
        return [normalised(item, root) for item in value]
    if isinstance(value, dict):
        return {key: normalised(item, root) for key, item in value.items()}
    return value


def relative(transcript: Transcript, root: str, keep: bool) -> Transcript:
    """``transcript`` with ``root`` written ``$ROOT``; ``root`` kept when the folder is."""
    result: Transcript = normalised(transcript, root)
    result["root"] = root if keep else None
    return result


def event_run(event: str, label: str, hooks: list[dict[str, Any]], **more: Any) -> dict[str, Any]:
    """One event's hooks: each ``{command, exitCode, stdout, stderr, read}``."""
    return {"event": event, "label": label, "hooks": hooks, **more}


# --- comparison -----------------------------------------------------------------------------


def _hook_key(hook: Mapping[str, Any]) -> tuple[Any, ...]:
    return (hook.get("exitCode"), hook.get("stdout"), hook.get("stderr"))


def _event_key(run: Mapping[str, Any]) -> tuple[Any, ...]:
    return (run["label"], tuple(sorted(map(_hook_key, run["hooks"]), key=repr)))


def _shown_key(item: Mapping[str, Any]) -> tuple[Any, ...]:
    return (item["kind"], item.get("id"), item["text"], item.get("isError"))


def comparable(transcript: Transcript) -> dict[str, Any]:
    """What both engines must agree on: order-free inside a round, where Claude Code
    runs hooks in parallel and regroups the model's messages."""

    def events(runs: Sequence[Mapping[str, Any]]) -> list[Any]:
        return sorted((_event_key(run) for run in runs if run["hooks"]), key=repr)

    return {
        "start": events(transcript["start"]),
        "prompts": [
            (p["prompt"], p["round"], events(p["events"]), p["before"].get("reason"))
            for p in transcript.get("prompts", [])
        ],
        "rounds": [
            {
                "turn": r["turn"],
                "shown": sorted(map(_shown_key, r["shown"]), key=repr),
                "calls": [(c["id"], c["name"], c["runs"]) for c in r["calls"]],
                "events": events(r["events"]),
            }
            for r in transcript["rounds"]
        ],
        "actions": [
            (a["action"], a["round"], [_event_key(run) for run in a["events"] if run["hooks"]])
            for a in transcript.get("actions", [])
        ],
        "end": transcript["end"]["reason"],
    }


def _short(engine: str) -> str:
    return engine.split(" (", 1)[0]


def _described(key: str, item: Any) -> str:
    """One compared item in words (``comparable``'s tuples are for equality only)."""
    if key == "shown":
        kind, call, text, is_error = item
        where = KINDS[kind] + (f" {call}" if call else "") + (" (is_error)" if is_error else "")
        return f"{where}: {visible(repr(text))}"
    if key == "calls":
        call, name, runs = item
        return f"{name} {call} {'runs' if runs else 'does not run' if runs is False else '?'}"
    if key == "actions":
        action, round_, runs = item
        said = "; ".join(_described("events", run) for run in runs)
        return f"{action} before request {round_ + 1} [{said}]"
    if key == "prompts":
        prompt, round_, runs, before = item
        said = "; ".join(_described("events", run) for run in runs)
        return f"prompt {prompt!r} at request {round_ + 1} after {before} [{said}]"
    if key in ("events", "start"):
        label, hooks = item
        said = ", ".join(f"exit {code} stdout {out!r} stderr {err!r}" for code, out, err in hooks)
        return visible(f"{label} [{said}]")
    return repr(item)


def _pair(key: str, x: Any, y: Any, names: tuple[str, str]) -> str:
    if isinstance(x, list) and isinstance(y, list):
        only_x = "; ".join(_described(key, item) for item in x if item not in y) or "nothing"
        only_y = "; ".join(_described(key, item) for item in y if item not in x) or "nothing"
        return f"only {names[0]}: {only_x} | only {names[1]}: {only_y}"
    return f"{names[0]}: {x!r} | {names[1]}: {y!r}"


def differences(left: Transcript, right: Transcript) -> list[str]:
    """Each place the two transcripts disagree, one line each; empty when they agree."""
    a, b = comparable(left), comparable(right)
    found: list[str] = []
    names = (_short(left["engine"]), _short(right["engine"]))
    if a["start"] != b["start"]:
        found.append(
            f"before the first request, the hooks: {_pair('start', a['start'], b['start'], names)}"
        )
    for n in range(max(len(a["rounds"]), len(b["rounds"]))):
        if n >= len(a["rounds"]) or n >= len(b["rounds"]):
            found.append(
                f"request {n + 1}: only {names[0] if n < len(a['rounds']) else names[1]} makes it"
            )
            continue
        x, y = a["rounds"][n], b["rounds"][n]
        for key, what in (
            ("shown", "what the model is shown"),
            ("turn", "the turn played"),
            ("calls", "the tool calls"),
            ("events", "the hooks"),
        ):
            if x[key] != y[key]:
                found.append(f"request {n + 1}, {what}: {_pair(key, x[key], y[key], names)}")
    if a["prompts"] != b["prompts"]:
        found.append(f"the later prompts: {_pair('prompts', a['prompts'], b['prompts'], names)}")
    if a["actions"] != b["actions"]:
        found.append(f"the user's actions: {_pair('actions', a['actions'], b['actions'], names)}")
    if a["end"] != b["end"]:
        found.append(f"the end: {_pair('end', a['end'], b['end'], names)}")
    return found


# --- text ---------------------------------------------------------------------------------


def _indent(text: str, by: int) -> str:
    return text.replace("\n", "\n" + " " * by)


def _note(note: str) -> str:
    """A note under its heading: each of its lines indented, blank ones left blank."""
    return "\n".join(f"  {line}" if line else "" for line in note.split("\n"))


# A recording keeps Claude Code's own word for each hook run (its stream's hook_response
# outcome): "error" for an exit 2 too, which is no failure but the block signal.
_RECORDED_ERROR: Final = "Claude Code: error"


def _reading(hook: Mapping[str, Any]) -> str:
    """How a hook run was read; a recorded exit 2 as the blocking error it is."""
    read = str(hook["read"])
    if read == _RECORDED_ERROR and hook.get("exitCode") == 2:
        return 'Claude Code: blocking error (exit 2; the recording\'s word: "error")'
    return read


def _hook_lines(run: Mapping[str, Any]) -> Iterator[str]:
    if not run["hooks"] and not run.get("notes"):
        return  # an event no hook is configured for says nothing
    where = f" [{run['call']}]" if run.get("call") else ""
    extra = ""
    if "stopHookActive" in run:
        extra = f" (stop_hook_active {str(run['stopHookActive']).lower()})"
    yield f"  {run['label']}{where}{extra}"
    for hook in run["hooks"]:
        name = hook.get("command") or "a hook"
        status = f"exit {hook.get('exitCode')}"
        yield f"    {name}: {status}"
        for stream in ("stdout", "stderr"):
            if hook.get(stream):
                yield f"      {stream}: {_indent(hook[stream].rstrip(chr(10)), 14)}"
        if hook.get("read"):
            yield f"      read as: {_indent(_reading(hook), 15)}"
    for note in run.get("notes", []):
        yield f"    {note}"


def _shown_lines(items: Sequence[Mapping[str, Any]]) -> Iterator[str]:
    if not items:
        yield "  (nothing new)"
    for item in items:
        if item["kind"] == "tool_result":
            flag = "is_error: true" if item.get("isError") else "is_error: false"
            yield f"  tool_result {item.get('id')} ({flag}):"
        else:
            yield f"  {KINDS[item['kind']]}:"
        text = item["text"]
        # A final newline is part of what the model reads: shown, not left as a blank line.
        shown = text[:-1] + "⏎" if text.endswith("\n") else text
        yield "    " + _indent(shown, 4)


def render(transcript: Transcript) -> str:
    """The transcript as text: per step the hooks and how each was read, then what the
    model is shown next, in Claude Code's words."""
    lines = [f"session {transcript['script']}: {transcript['engine']}"]
    if transcript.get("network"):
        lines.append(f"  network: {transcript['network']}")
    lines.append("before the first request")
    for run in transcript["start"]:
        lines.extend(_hook_lines(run))
    blocks = _blocks(transcript)
    for block in blocks[1:]:
        lines.extend(block[:-1] if block is blocks[-1] else block)
    end = transcript["end"]
    lines.append(f"end: {end['reason']} after {len(transcript['rounds'])} requests")
    lines.extend(_note(note) for note in end.get("notes", []))
    for check in transcript.get("expectations", []):
        mark = "✓" if check["held"] else "✗"
        lines.append(f"{mark} {check['says']}" + ("" if check["held"] else f": {check['why']}"))
    return visible("\n".join(lines), keep="\n")


def _turn_lines(round_: Mapping[str, Any]) -> Iterator[str]:
    turn = round_["turn"]
    label = "the script has no turn left" if turn is None else f"turn {turn}"
    said = f': says "{round_["text"]}"' if round_.get("text") else ""
    yield f"model ({label}){said}"
    for call in round_["calls"]:
        shown = visible(str(call.get("inputText", "")))
        ran = {True: "runs", False: "does not run", None: "?"}[call.get("runs")]
        yield f"  calls {call['name']} {shown} [{call['id']}]: {ran}"
        if "dialog" in call:
            answer = call["dialog"]
            said = (
                f", then types: {visible(repr(answer['feedback']))}" if answer["feedback"] else ""
            )
            yield f"    the user answers the dialog: {answer['answer']}{said}"
        if "ranInput" in call:
            yield f"    as the hooks rewrote it: {visible(json.dumps(call['ranInput']))}"
        if "cancelled" in call:
            yield f"    cancelled: {call['cancelled']}"
    if not round_["calls"]:
        yield "  no tool call: the turn ends"
    for run in round_["events"]:
        yield from _hook_lines(run)


def render_side_by_side(left: Transcript, right: Transcript) -> str:
    """Both transcripts in two columns, each differing request marked ``≠``."""
    width = 60
    a, b = comparable(left), comparable(right)
    out = [f"{left['engine'][:width]:<{width}} | {right['engine']}"]
    blocks_a, blocks_b = _blocks(left), _blocks(right)
    for n in range(max(len(blocks_a), len(blocks_b))):
        block_a = blocks_a[n] if n < len(blocks_a) else []
        block_b = blocks_b[n] if n < len(blocks_b) else []
        same = _same_block(a, b, n)
        for i in range(max(len(block_a), len(block_b))):
            x = block_a[i] if i < len(block_a) else ""
            y = block_b[i] if i < len(block_b) else ""
            mark = "≠" if not same else "|"
            out.append(f"{_cut(x, width):<{width}} {mark} {_cut(y, width)}")
    found = differences(left, right)
    out.append("the same transcript" if not found else f"{len(found)} difference(s):")
    out.extend(f"  ≠ {line}" for line in found)
    return visible("\n".join(out), keep="\n")


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _same_block(a: Mapping[str, Any], b: Mapping[str, Any], n: int) -> bool:
    if n == 0:
        return bool(a["start"] == b["start"])
    rounds_a, rounds_b = a["rounds"], b["rounds"]
    if n - 1 >= len(rounds_a) or n - 1 >= len(rounds_b):
        tail_a = [p for p in a["prompts"] if p[1] >= n - 1]
        tail_b = [p for p in b["prompts"] if p[1] >= n - 1]
        ends = a["end"] == b["end"] and tail_a == tail_b
        return n - 1 >= len(rounds_a) and n - 1 >= len(rounds_b) and ends
    here_a = [p for p in a["prompts"] if p[1] == n - 1]
    here_b = [p for p in b["prompts"] if p[1] == n - 1]
    return bool(rounds_a[n - 1] == rounds_b[n - 1] and here_a == here_b)


def _blocks(transcript: Transcript) -> list[list[str]]:
    """The rendered text cut into blocks: the start, then one per request, then the end."""
    start = ["before the first request"]
    for run in transcript["start"]:
        start.extend(_hook_lines(run))
    blocks = [start]
    later = _later(transcript)
    for number, round_ in enumerate(transcript["rounds"], 1):
        lines = [line for p in later if p["round"] == number - 1 for line in _later_lines(p)]
        lines.append(f"request {number}: the model is shown")
        lines.extend(_shown_lines(round_["shown"]))
        lines.extend(_turn_lines(round_))
        blocks.append([line for chunk in lines for line in chunk.split("\n")])
    # Prompts after the last request (each blocked) come before the end.
    tail = [
        line for p in later if p["round"] >= len(transcript["rounds"]) for line in _later_lines(p)
    ]
    blocks.append([*tail, f"end: {transcript['end']['reason']}"])
    return blocks


def _later(transcript: Transcript) -> list[Mapping[str, Any]]:
    """The later prompts and the user's actions, in the order they came."""
    entries = [*transcript.get("prompts", []), *transcript.get("actions", [])]
    return sorted(entries, key=lambda entry: entry["round"])


def _later_lines(entry: Mapping[str, Any]) -> Iterator[str]:
    """A later prompt, or an action of the user and the events it set off."""
    if "action" not in entry:
        yield from _prompt_lines(entry)
        return
    yield f"the user types: {visible(entry['action'])}"
    for run in entry["events"]:
        yield from _hook_lines(run)


def _prompt_lines(entry: Mapping[str, Any]) -> Iterator[str]:
    """A later prompt: how the one before ended, the prompt, its UserPromptSubmit hooks."""
    before = entry["before"]
    yield f"end of the prompt before: {before.get('reason')}"
    yield from (_note(note) for note in before.get("notes", []))
    yield f"the user submits: {visible(repr(entry['prompt']))}"
    for run in entry["events"]:
        yield from _hook_lines(run)
