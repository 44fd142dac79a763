"""Fresh ``run-hooks`` cases from a seeded ``random.Random``.

Every draw holds one case of each pitfall of the page (``shaped``), then random
settings around them: groups whose matchers select the tool or only seem to, the
same command in several groups, results for handlers that do not run (or none),
results listed in another order than the settings, every PreToolUse decision, and
PostToolUse answers whose reasons are padded with whitespace JavaScript's ``trim()``
and Python's ``strip()`` read differently.
"""

from __future__ import annotations

from hookcourse.js import json as jsjson
from hookcourse.js.values import UNDEFINED
from hookcourse.stages.decoding import CaseError
from hookcourse.stages.matcher_and_dispatch.reference import match_hook
from hookcourse.stages.run_hooks.reference import EVENTS, POST, PRE, run_arguments, run_hooks

TYPE_CHECKING = False
if TYPE_CHECKING:
    import random
    from typing import Final

    from hookcourse.js.values import JSValue

Case = dict[str, "JSValue"]

_TOOLS: Final = ("Bash", "Write", "Edit", "MultiEdit", "Read", "mcp__github__create_issue")
_COMMANDS: Final = (
    "./guard.sh",
    "./log.sh",
    "./lint.sh",
    "./format.sh",
    "python3 check.py",
    "./remind.sh",
    "./audit.sh",
    "./guard.sh --strict",
)
_JS_ONLY_SPACE: Final = "\ufeff"  # trimmed by JavaScript, kept by Python's strip()
_PYTHON_ONLY_SPACE: Final = "\x1c\x1f\x85"  # stripped by Python, kept by JavaScript
_SHARED_SPACE: Final = " \n\t\u00a0\u2028"
_TEXTS: Final = ("tests failed", "no force-push", "lint: prefer const", "déjà vu", "日本語", "ok")


def _text(rng: random.Random) -> str:
    return rng.choice(_TEXTS) + ("" if rng.random() < 0.7 else f" #{rng.randint(1, 99)}")


def _padded(rng: random.Random) -> str:
    """A reason with whitespace around it that one of trim()/strip() keeps, or a blank one."""
    pad = rng.choice((_SHARED_SPACE, _JS_ONLY_SPACE, _PYTHON_ONLY_SPACE))
    if rng.random() < 0.2:
        return "".join(rng.choice(pad) for _ in range(rng.randint(1, 3)))
    return rng.choice(("", pad[0])) + _text(rng) + rng.choice(("", pad[-1], "\n"))


def _matcher(rng: random.Random, tool: str) -> object:
    """A matcher that selects ``tool``, one that does not, or one that only seems to."""
    other = rng.choice([name for name in _TOOLS if name != tool])
    return rng.choice(
        (
            UNDEFINED,
            "",
            "*",
            tool,
            f"{other}|{tool}",
            other,
            "Edit|Write",  # a name list: not MultiEdit
            f"^{tool}$",
            ".*Edit",
            "mcp__.*",
            tool[:3],  # a name list of one short name: not a prefix match
            "(",
        )
    )


def _group(matcher: object, commands: list[str]) -> JSValue:
    handlers: list[JSValue] = [{"type": "command", "command": command} for command in commands]
    if isinstance(matcher, str):
        return {"matcher": matcher, "hooks": handlers}
    return {"hooks": handlers}  # the matcher left out


def _specific(event: str, **fields: JSValue) -> str:
    return jsjson.stringify({"hookSpecificOutput": {"hookEventName": event, **fields}})


def _pre_result(rng: random.Random) -> Case:
    """One PreToolUse answer: each decision, a rewrite, a context, exit 2, text."""
    roll = rng.random()
    if roll < 0.2:
        return {"code": 2.0, "stderr": _padded(rng), "stdout": _pre_stdout(rng)}
    if roll < 0.3:
        return {"code": rng.choice((0.0, 1.0)), "stdout": rng.choice(("", "ok", "Loading...\n{}"))}
    return {"code": rng.choice((0.0, 0.0, 1.0, "2")), "stdout": _pre_stdout(rng)}


def _pre_stdout(rng: random.Random) -> str:
    fields: dict[str, JSValue] = {}
    if rng.random() < 0.7:
        fields["permissionDecision"] = rng.choice(
            ("allow", "allow", "ask", "defer", "deny", "Deny")
        )
        fields["permissionDecisionReason"] = _text(rng)
    if rng.random() < 0.4:
        fields["updatedInput"] = {"command": _text(rng), "rewritten": float(rng.randint(1, 9))}
    if rng.random() < 0.4:
        fields["additionalContext"] = _text(rng)
    if rng.random() < 0.15:
        return jsjson.stringify(
            {"decision": rng.choice(("block", "approve")), "reason": _text(rng)}
        )
    return _specific(PRE, **fields)


def _post_result(rng: random.Random) -> Case:
    """One PostToolUse answer: exit 2, a block with a usable or blank reason, context."""
    roll = rng.random()
    if roll < 0.25:
        stdout = jsjson.stringify({"decision": "block", "reason": "read the JSON"})
        return {"code": 2.0, "stderr": _padded(rng), "stdout": rng.choice(("", stdout))}
    if roll < 0.35:
        return {"code": rng.choice((0.0, 1.0)), "stdout": rng.choice(("", "formatted 3 files"))}
    body: dict[str, JSValue] = {}
    if rng.random() < 0.6:
        body["decision"] = rng.choice(("block", "block", "Block"))
        reason = rng.choice((_padded(rng), _text(rng), None, 0.0, UNDEFINED))
        if reason is not UNDEFINED:
            body["reason"] = reason  # type: ignore[assignment]
    if rng.random() < 0.6:
        body["hookSpecificOutput"] = {
            "hookEventName": rng.choice((POST, POST, PRE)),
            "additionalContext": _text(rng),
        }
    lead = rng.choice(("", "", " \n", "note\n"))
    return {"code": rng.choice((0.0, 0.0, 1.0, True)), "stdout": lead + jsjson.stringify(body)}


def _settings(rng: random.Random, tool: str) -> tuple[dict[str, JSValue], dict[str, list[str]]]:
    """Random hook settings, and each event's handlers whose group selects the tool."""
    hooks: dict[str, JSValue] = {}
    matching: dict[str, list[str]] = {PRE: [], POST: []}
    for event in EVENTS:
        if rng.random() < 0.15:
            continue
        groups: list[JSValue] = []
        for _ in range(rng.randint(0, 3)):
            matcher = _matcher(rng, tool)
            commands = rng.sample(_COMMANDS, rng.randint(1, 3))
            groups.append(_group(matcher, commands))
            given = matcher if isinstance(matcher, str) else None
            if match_hook(given, tool):
                matching[event] += commands
        hooks[event] = groups
    return hooks, matching


def _shuffled(rng: random.Random, by_command: dict[str, JSValue]) -> dict[str, JSValue]:
    keys = list(by_command)
    rng.shuffle(keys)
    return {key: by_command[key] for key in keys}


def _random_case(rng: random.Random) -> Case:
    tool = rng.choice(_TOOLS)
    hooks, matching = _settings(rng, tool)
    results: dict[str, JSValue] = {}
    for event, read in ((PRE, _pre_result), (POST, _post_result)):
        by_command: dict[str, JSValue] = {command: read(rng) for command in matching[event]}
        for command in rng.sample(_COMMANDS, 2):  # answers of handlers that may not run
            if command not in by_command and rng.random() < 0.5:
                by_command[command] = {"code": 2.0, "stderr": "never looked up"}
        results[event] = _shuffled(rng, by_command)
    call: Case = {"name": tool, "input": {"command": _text(rng)}}
    if rng.random() < 0.85:
        responses: tuple[JSValue, ...] = ({"stdout": _text(rng)}, _text(rng), "", 0.0, False, None)
        call["response"] = rng.choice(responses)
    case: Case = {"hooks": hooks, "tool": call, "results": results}
    try:
        runs = run_hooks(*run_arguments(case).parsed).runs
    except CaseError:
        return case
    if not runs and rng.random() < 0.6:
        del results[POST]  # the tool does not run: no PostToolUse result is needed
    return case


def _bash(command: str) -> Case:
    return {"command": command}


def _shaped(rng: random.Random) -> list[Case]:
    """One case of each pitfall of the page, so every draw holds them all."""
    guard, log, lint, remind = rng.sample(_COMMANDS, 4)
    text = _text(rng)
    allow_one = _specific(
        PRE,
        permissionDecision="allow",
        permissionDecisionReason="first",
        updatedInput=_bash("npm test -- --ci"),
    )
    allow_two = _specific(
        PRE,
        permissionDecision="allow",
        permissionDecisionReason="second",
        updatedInput=_bash("npm test -- --bail"),
    )
    context: JSValue = {"code": 0.0, "stdout": _specific(PRE, additionalContext=text)}
    post_context: JSValue = {"code": 0.0, "stdout": _specific(POST, additionalContext=text)}
    blank = _SHARED_SPACE[rng.randrange(len(_SHARED_SPACE))] + _JS_ONLY_SPACE
    padded = rng.choice(_PYTHON_ONLY_SPACE) + _text(rng) + rng.choice(_SHARED_SPACE)
    decision = rng.choice(("ask", "defer"))
    return [
        # one command listed by two matching groups runs once
        {
            "hooks": {
                PRE: [_group("Bash", [guard, log]), _group("*", [log])],
                POST: [_group(UNDEFINED, [lint]), _group("Bash|Edit", [lint])],
            },
            "tool": {"name": "Bash", "input": _bash("ls"), "response": {"stdout": "a\nb"}},
            "results": {
                PRE: {log: context, guard: {"code": 0.0}},
                POST: {lint: {"code": 2.0, "stderr": "lint failed\n"}},
            },
        },
        # a name list does not select MultiEdit; its handler has no result and must not run
        {
            "hooks": {
                PRE: [_group("Edit|Write", [guard]), _group(".*Edit", [log])],
                POST: [_group("Edit|Write", [lint]), _group("MultiEdit", [remind])],
            },
            "tool": {"name": "MultiEdit", "input": {"file_path": "a.ts"}, "response": True},
            "results": {PRE: {log: {"code": 0.0}}, POST: {remind: post_context}},
        },
        # the settings' order, not the results' keys, decides the reason and the rewrite
        {
            "hooks": {PRE: [_group("Bash", [guard]), _group(UNDEFINED, [log])]},
            "tool": {"name": "Bash", "input": _bash("npm test"), "response": ""},
            "results": {
                PRE: {
                    log: {"code": 0.0, "stdout": allow_two},
                    guard: {"code": 0.0, "stdout": allow_one},
                }
            },
        },
        # ask or defer: the tool does not run, no rewrite, no response, no PostToolUse
        {
            "hooks": {PRE: [_group("Bash", [guard])], POST: [_group("Bash", [lint])]},
            "tool": {"name": "Bash", "input": _bash("rm -rf build"), "response": "removed"},
            "results": {
                PRE: {
                    guard: {
                        "code": 0.0,
                        "stdout": _specific(
                            PRE,
                            permissionDecision=decision,
                            permissionDecisionReason=text,
                            updatedInput=_bash("rm -ri build"),
                            additionalContext="asked",
                        ),
                    }
                }
            },
        },
        # exit 2 denies whatever its stdout says; the same command also runs after a tool
        {
            "hooks": {PRE: [_group("Bash", [guard])], POST: [_group("Bash", [guard])]},
            "tool": {"name": "Bash", "input": _bash("git push --force"), "response": "pushed"},
            "results": {
                PRE: {
                    guard: {
                        "code": 2.0,
                        "stderr": padded,
                        "stdout": _specific(PRE, permissionDecision="allow"),
                    }
                }
            },
        },
        # PostToolUse: exit 2 unread JSON, a padded reason as written, a blank one ignored,
        # a PreToolUse context ignored, a context beside a block
        {
            "hooks": {
                PRE: [_group("Write", [guard])],
                POST: [_group("Write|Edit", [lint, remind, log]), _group("^Wr", [guard])],
            },
            "tool": {"name": "Write", "input": {"file_path": "b.ts"}, "response": None},
            "results": {
                PRE: {guard: {"code": 0.0, "stdout": "Loading profile...\n" + allow_one}},
                POST: {
                    lint: {
                        "code": 2.0,
                        "stderr": rng.choice(_PYTHON_ONLY_SPACE),
                        "stdout": jsjson.stringify({"decision": "block", "reason": "unread"}),
                    },
                    remind: {
                        "code": 1.0,
                        "stdout": jsjson.stringify(
                            {
                                "decision": "block",
                                "reason": padded,
                                "hookSpecificOutput": {
                                    "hookEventName": POST,
                                    "additionalContext": text,
                                },
                            }
                        ),
                    },
                    log: {
                        "code": 0.0,
                        "stdout": jsjson.stringify({"decision": "block", "reason": blank}),
                    },
                    guard: {"code": 0.0, "stdout": _specific(PRE, additionalContext="not after")},
                },
            },
        },
        # no decision: the tool runs; nothing matches after it
        {
            "hooks": {PRE: [_group(UNDEFINED, [log])], POST: [_group("Read", [lint])]},
            "tool": {"name": "Grep", "input": {"pattern": "TODO"}, "response": 0.0},
            "results": {PRE: {log: {"code": 1.0, "stderr": "log server down"}}},
        },
        # no response given: null; no hooks at all
        {"hooks": {}, "tool": {"name": "Read", "input": None}, "results": {}},
    ]


def run_cases(rng: random.Random) -> list[JSValue]:
    """``{"hooks", "tool", "results"}`` cases: each pitfall of the page, then random ones."""
    cases: list[JSValue] = list(_shaped(rng))
    cases += [_random_case(rng) for _ in range(16)]
    rng.shuffle(cases)
    return cases
