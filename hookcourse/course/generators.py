"""Fresh cases for every check: seeded draws around each case family, judged by the reference.

A check grades the rule, not a list of answers: beside the fixture cases it draws
cases no learner has seen, from a seed it prints (``check_matcher(fn, seed=N)``
draws the same ones again). Each exercise of the registry names its generator
(``Exercise.generate``): a function of a ``random.Random`` returning cases as a
case file writes them, which the exercise's decoder reads and its reference answers
(for the guard, commands the teacher's guard judges). ``hookcourse test`` writes the
same draws as case files (``drawn_case_file``).

The draws aim at the traps each notebook teaches: name lists with trailing newlines
and non-ASCII letters, regexes Python reads otherwise, JavaScript ``trim``'s
whitespace (not Python's), ``??`` against falsy values, nested ``updatedInput``,
several hooks in every order, Stop caps, and force-pushes written every way a shell
allows beside commands that only look like one.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, cast

from hookcourse.js.values import JS_WHITESPACE, JSValue
from hookcourse.stages.decoding import CaseError
from hookcourse.stages.registry import Exercise, Stage, as_json, resolve

SEED_ENV: Final = "HOOKCOURSE_SEED"  # fixes the default seed (the tests and nbval set it)
SEED_RANGE: Final = range(1, 100_000)  # short enough to read out and type back
ABSENT: Final = object()  # a key left out of the case

Case = dict[str, JSValue]
Draw = Callable[[random.Random], list[JSValue]]


def choose_seed(seed: int | None = None) -> int:
    """``seed`` itself, else ``$HOOKCOURSE_SEED``, else a fresh one."""
    if seed is not None:
        return seed
    fixed = os.environ.get(SEED_ENV, "").strip()
    if fixed.isdigit():
        return int(fixed)
    return random.SystemRandom().choice(SEED_RANGE)


def _rng(exercise: Exercise, seed: int) -> random.Random:
    # One stream per exercise: the same seed draws unrelated cases for each check.
    return random.Random(f"{exercise.function}:{seed}")


def draw(exercise: Exercise, seed: int) -> list[JSValue]:
    """The exercise's drawn cases for ``seed`` (none when it has no generator)."""
    if exercise.generate is None:
        return []
    generate: Draw = resolve(exercise.generate)
    return generate(_rng(exercise, seed))


@dataclass(frozen=True)
class DrawnCase:
    """One drawn case: as the case file writes it, and the reference's answer."""

    case: JSValue
    expected: JSValue


def drawn_cases(exercise: Exercise, seed: int) -> list[DrawnCase]:
    """The drawn cases the exercise's decoder accepts, each with the reference's answer
    (an exercise without a decoder, the guard, takes each case as its one argument)."""
    found = []
    for case in draw(exercise, seed):
        try:
            if exercise.decode is None:
                expected = as_json(exercise.reference_function()(case))
            else:
                expected = exercise.answer(case)
        except CaseError:  # a draw the JavaScript reference refuses is not a graded case
            continue
        found.append(DrawnCase(case, expected))
    return found


def drawn_case_file(stage: Stage, seed: int) -> tuple[dict[str, JSValue], dict[str, JSValue]]:
    """A case file of fresh cases for a graded stage, and its expected output, for
    ``hookcourse test``: every exercise's draws under its own key."""
    case_file: dict[str, JSValue] = {}
    expected: dict[str, JSValue] = {}
    for exercise in stage.exercises:
        drawn = drawn_cases(exercise, seed)
        case_file[exercise.case_key] = [item.case for item in drawn]
        expected[exercise.output_key] = [item.expected for item in drawn]
    return case_file, expected


def _with(**fields: object) -> Case:
    """A case of the fields that are not ABSENT."""
    return cast(Case, {key: value for key, value in fields.items() if value is not ABSENT})


# -- building blocks -------------------------------------------------------------------------

_ASCII_WORD: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"
# Letters Python's \w and str.isalnum() accept but JavaScript's ASCII \w does not.
_UNICODE_LETTERS: Final = "äéßıſµøçÄÉ" + "αβγΩ" + "жЖ" + "\u0663\u00b2"
_TOOLS: Final = ("Bash", "Edit", "Write", "Read", "MultiEdit", "NotebookEdit", "WebFetch", "Task")
_JS_ONLY_SPACE: Final = "\ufeff"  # trimmed by JavaScript, kept by Python's strip()
_PYTHON_ONLY_SPACE: Final = "\x1c\x1d\x1e\x1f\x85"  # stripped by Python, kept by JavaScript
_SHARED_SPACE: Final = "".join(sorted(JS_WHITESPACE - set(_JS_ONLY_SPACE)))


def _name(rng: random.Random) -> str:
    """A tool name: one of Claude Code's, or a fresh ASCII word."""
    if rng.random() < 0.5:
        return rng.choice(_TOOLS)
    head = rng.choice(_ASCII_WORD[:52])
    return head + "".join(rng.choice(_ASCII_WORD) for _ in range(rng.randint(0, 7)))


def _foreign_name(rng: random.Random) -> str:
    """A name with a letter JavaScript's ``\\w`` does not know."""
    name = _name(rng)
    at = rng.randint(0, len(name))
    return name[:at] + rng.choice(_UNICODE_LETTERS) + name[at:]


def _spaces(rng: random.Random, most: int = 3) -> str:
    """Whitespace from JavaScript's trim set, Python's strip set, or both."""
    pool = rng.choice((_SHARED_SPACE, _JS_ONLY_SPACE, _PYTHON_ONLY_SPACE, _SHARED_SPACE + "\ufeff"))
    return "".join(rng.choice(pool) for _ in range(rng.randint(1, most)))


def _text(rng: random.Random) -> str:
    words = ("no force-push", "tests failed", "blocked by policy", "déjà vu", "日本語", "ok")
    return rng.choice(words) + ("" if rng.random() < 0.7 else f" #{rng.randint(1, 99)}")


def _padded(rng: random.Random) -> str:
    """A reason with whitespace around it, of a kind one of trim/strip keeps."""
    kind = rng.random()
    if kind < 0.2:
        return ""
    if kind < 0.35:
        return _spaces(rng)  # whitespace only: a blank reason to one of them
    return _spaces(rng) * rng.randint(0, 1) + _text(rng) + _spaces(rng) * rng.randint(0, 1)


def _json_value(rng: random.Random, depth: int = 0) -> JSValue:
    """Any JSON value, nested a few levels, strings non-ASCII at times."""
    roll = rng.random()
    if depth < 3 and roll < 0.3:
        return {
            rng.choice(("command", "file_path", "ünï", "2", "a b", "")): _json_value(rng, depth + 1)
            for _ in range(rng.randint(0, 3))
        }
    if depth < 3 and roll < 0.45:
        return [_json_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return rng.choice(
        (
            None,
            True,
            False,
            0.0,
            float(rng.randint(-5, 5)),
            rng.choice((0.1, 1e21, -1e-7, 2.5)),
            "",
            _text(rng),
            _foreign_name(rng),
        )
    )


def _object(rng: random.Random) -> dict[str, JSValue]:
    value = _json_value(rng)
    return value if isinstance(value, dict) else {"command": value}


# -- matcher-and-dispatch: match_hook -------------------------------------------------------


def _name_list_cases(rng: random.Random) -> list[Case]:
    names = [_name(rng) for _ in range(rng.randint(1, 3))]
    matcher = "|".join(names)
    member = rng.choice(names)
    return [
        {"matcher": matcher, "tool": member},  # a whole name
        {"matcher": matcher, "tool": "x" + member},  # a longer name is not on the list
        {"matcher": matcher, "tool": member[:-1] or "_"},
        # Python's $ matches before a final newline; JavaScript's does not: a regex.
        {"matcher": matcher + "\n", "tool": f"x{member}\ny"},
        {"matcher": matcher + "\n", "tool": member},
        {"matcher": f"{matcher}|{member}\n", "tool": f"{member}\n"},
    ]


def _foreign_cases(rng: random.Random) -> list[Case]:
    name = _foreign_name(rng)
    other = _name(rng)
    matcher = f"{other}|{name}" if rng.random() < 0.5 else name
    return [
        {"matcher": matcher, "tool": name},
        {"matcher": matcher, "tool": f"My{name}Tool"},  # a regex searches
        {"matcher": matcher, "tool": other},
    ]


_REGEXES: Final = (
    ("^{n}$", "{n}"),
    ("^{n}$", "{n}\n"),
    ("{n}.*", "Notebook{n}"),
    ("^({n}|{m})$", "{m}"),
    ("({n}|{m})", "x{m}x"),
    ("mcp__.*__{n}", "mcp__server__{n}"),
    ("{n}\\b", "{n}s"),
    ("(?:{n})+", "{n}{n}"),
    ("{n}[sx]?$", "My{n}x"),
    ("\\w+", "{f}"),
    ("^\\w+$", "{f}"),
    ("\\d", "\u0663"),
    ("[A-Z]{n}", "X{n}"),
    ("(?<tool>{n})", "{n}"),
    ("\\s", "\ufeff"),
    ("^.$", "\U0001f600"),  # one character, two UTF-16 units: no match without the u flag
)
_INVALID: Final = ("(", "[a-", "{n}(", "*{n}", "(?i){n}", "(?P<x>{n})", "{n})", "\\")


def _regex_cases(rng: random.Random) -> list[Case]:
    n, m, f = _name(rng), _name(rng), _foreign_name(rng)
    cases: list[Case] = []
    for pattern, subject in rng.sample(_REGEXES, 6):
        cases.append({"matcher": pattern.format(n=n, m=m), "tool": subject.format(n=n, m=m, f=f)})
    bad = rng.choice(_INVALID).format(n=n)
    cases.append({"matcher": bad, "tool": rng.choice((n, bad))})
    return cases


def _odd_tool_cases(rng: random.Random) -> list[Case]:
    """Tool names that are not strings: String() of them, and ``===`` against a list."""
    number = float(rng.randint(0, 9))
    cases: list[Case] = [
        {"matcher": f"^{int(number)}$", "tool": number},
        {"matcher": str(int(number)), "tool": number},
        {"matcher": "^null$", "tool": None},
        {"matcher": "^undefined$"},
        {"matcher": rng.choice(("^true$", "true")), "tool": True},
        {"matcher": "object", "tool": {"name": _name(rng)}},
        {"matcher": ",", "tool": [_name(rng), _name(rng)]},
    ]
    picked = rng.sample(cases, 4)  # these first: the draws after them stay as they were
    return picked + [case for case in cases if case not in picked]


def _match_all_cases(rng: random.Random) -> list[Case]:
    tool = rng.choice((_name(rng), None, 0.0, "", _foreign_name(rng)))
    return [
        _with(matcher=rng.choice((ABSENT, "", "*")), tool=tool),
        {"matcher": "**", "tool": tool},
    ]


def _python_regex_cases(rng: random.Random) -> list[Case]:
    """Where Python's ``re`` reads a regex otherwise than JavaScript, every draw."""
    n = _name(rng)
    return [
        {"matcher": f"^{n}$", "tool": f"{n}\n"},  # Python's $ before a final newline
        {"matcher": "\\d", "tool": rng.choice(("\u0663", "\u00b2"))},  # a Unicode digit
        {"matcher": "^\\w+$", "tool": _foreign_name(rng)},  # a Unicode letter
        {"matcher": rng.choice((f"(?i){n}", f"(?P<x>{n})")), "tool": n},  # not JavaScript
    ]


def match_cases(rng: random.Random) -> list[JSValue]:
    """``{"matcher", "tool"}`` cases around every family of ``match_hook``."""
    cases: list[JSValue] = []
    for _ in range(3):
        cases += _name_list_cases(rng)
        cases += _foreign_cases(rng)
        cases += _regex_cases(rng)
    odd = _odd_tool_cases(rng)
    cases += odd[:4] + _match_all_cases(rng)
    rng.shuffle(cases)
    return cases + odd[4:] + _python_regex_cases(rng)


# -- matcher-and-dispatch: interpret_exit_code ----------------------------------------------

_CODES: Final = (0.0, 2.0, 1.0, 127.0, 2.5, -2.0, "2", "0", True, False, None)


def _shaped_exits(rng: random.Random) -> list[Case]:
    """One case of each way JavaScript's trim() and Python's strip() disagree on a reason,
    and a code that is 2 or 1 only to ``==``, so every draw holds them all."""
    text, warn = _text(rng), rng.choice((1.0, 127.0, float(rng.randint(3, 255))))
    return [
        {"code": 2.0, "stderr": _JS_ONLY_SPACE + text + rng.choice(_SHARED_SPACE)},
        {"code": warn, "stderr": text + rng.choice(_PYTHON_ONLY_SPACE)},
        {"code": rng.choice((2.0, warn)), "stderr": rng.choice(_PYTHON_ONLY_SPACE)},
        {"code": False, "stderr": _spaces(rng) + text},  # false == 0, in Python too
        {"code": rng.choice(("2", "0", "")), "stderr": _spaces(rng) + text},  # "2" == 2 in JS
    ]


def exit_cases(rng: random.Random) -> list[JSValue]:
    """``{"code", "stderr"}`` cases: every exit code kind, stderr padded with each trim set,
    then each shape of the stage."""
    cases: list[JSValue] = []
    for _ in range(24):
        code = rng.choice((*_CODES, 2.0, 2.0, 0.0, float(rng.randint(3, 255))))
        stderr = rng.choice((ABSENT, None, _padded(rng), _padded(rng), _padded(rng)))
        cases.append(_with(code=code, stderr=stderr))
    return cases + list(_shaped_exits(rng))


# -- decide-and-modify: apply_pre_tool_use --------------------------------------------------


def _maybe(rng: random.Random, *values: object) -> object:
    return rng.choice((ABSENT, *values))


def apply_cases(rng: random.Random) -> list[JSValue]:
    """``{"output", "input"}`` cases: block or not, ``??`` on falsy values, nested rewrites."""
    cases: list[JSValue] = []
    for _ in range(24):
        output = _with(
            decision=_maybe(rng, "block", "block", "Block", "allow", "approve", "", None, 0.0),
            reason=_maybe(rng, _text(rng), "", None, 0.0, False),
            updatedInput=_maybe(rng, _object(rng), _object(rng), {}, [], None, 0.0, "", False),
            additionalContext=_maybe(rng, _text(rng), "", None, 0.0, False),
        )
        cases.append({"output": output, "input": _object(rng)})
    return cases


# -- merge-decisions and stop-loop: hook results --------------------------------------------

_DECISIONS: Final = ("allow", "ask", "defer", "deny", "Deny", "block", "")


def _stdout(rng: random.Random) -> str:
    """What a hook prints: its JSON in either format, text, or JSON that does not count."""
    from hookcourse.js import json as jsjson

    roll = rng.random()
    if roll < 0.15:
        return rng.choice(("", "   ", "not json", "{", "[]", "null", '"deny"'))
    if roll < 0.3:
        old = _with(
            decision=rng.choice(("block", "approve", "deny")), reason=_maybe(rng, _text(rng))
        )
        body: JSValue = old
    else:
        specific = _with(
            hookEventName=rng.choice(("PreToolUse", "PreToolUse", "PostToolUse", ABSENT)),
            permissionDecision=_maybe(rng, *_DECISIONS),
            permissionDecisionReason=_maybe(rng, _text(rng), "", None),
            updatedInput=_maybe(rng, _object(rng), None, []),
            additionalContext=_maybe(rng, _text(rng), "", None),
        )
        body = {"hookSpecificOutput": specific}
    text = jsjson.stringify(body)
    lead = rng.choice(("", "", " \n", "\ufeff", "Loading profile...\n"))
    return lead + text


def _result(rng: random.Random) -> Case:
    code = rng.choice((0.0, 0.0, 2.0, 1.0, 2.0, "2", True, None, ABSENT))
    stdout = rng.choice((_stdout(rng), _stdout(rng), ABSENT))
    return _with(code=code, stdout=stdout, stderr=_maybe(rng, _padded(rng), None))


def _specific(rng: random.Random, decision: object = ABSENT, **fields: object) -> str:
    """A hook's stdout: ``hookSpecificOutput`` with ``decision`` and the other fields given."""
    from hookcourse.js import json as jsjson

    event = fields.pop("event", "PreToolUse")
    body = _with(
        hookEventName=event,
        permissionDecision=decision,
        permissionDecisionReason=fields.pop("reason", _text(rng)),
        **fields,
    )
    return jsjson.stringify({"hookSpecificOutput": body})


def _shaped_merges(rng: random.Random) -> list[Case]:
    """One case of each rule of the stage (its pitfalls), so every draw holds them all."""
    from hookcourse.js import json as jsjson

    tool_input = _object(rng)
    # rewrites no drawn toolInput equals
    one, other = {"command": _text(rng), "rewrite": 1.0}, {"command": _text(rng), "rewrite": 2.0}
    weaker, stronger = sorted(rng.sample(("allow", "ask", "defer"), 2), key=_STRENGTH.index)
    block: Case = {"code": 2.0, "stderr": _padded(rng)}
    old = jsjson.stringify({"decision": "block", "reason": _text(rng)})
    unknown = {
        "decision": "block",
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": rng.choice(("Deny", "block", "ALLOW")),
        },
    }
    cases: list[tuple[list[Case], JSValue]] = [
        # the last updatedInput wins, every additionalContext is kept in order
        (
            [
                {"code": 0.0, "stdout": _specific(rng, "allow", updatedInput=one)},
                {"code": 0.0, "stdout": _specific(rng, updatedInput=other, additionalContext="")},
            ],
            tool_input,
        ),
        # the first reason of the winning decision, even a null one
        (
            [
                {"code": 0.0, "stdout": _specific(rng, stronger, reason=rng.choice((None, "a")))},
                {"code": 0.0, "stdout": _specific(rng, weaker)},
                {"code": 0.0, "stdout": _specific(rng, stronger, reason="b")},
            ],
            tool_input,
        ),
        # JSON counts on exit 1 too, and after whitespace trimStart() removes
        ([{"code": 1.0, "stdout": _specific(rng, "deny")}], tool_input),
        ([{"code": 0.0, "stdout": rng.choice(("\ufeff", "\u00a0", "\u2028 ")) + old}], tool_input),
        # text before the JSON makes it no JSON at all
        ([{"code": 0.0, "stdout": "Loading profile...\n" + old}], tool_input),
        # a deny drops every rewrite and context; exit 2 is never read as JSON
        (
            rng.sample(
                [
                    {"code": 0.0, "stdout": _specific(rng, "allow", updatedInput=one)},
                    {**block, "stdout": _specific(rng, "allow", additionalContext="x")},
                ],
                2,
            ),
            tool_input,
        ),
        # "2" and true are not 2: their stdout is read
        ([{"code": rng.choice(("2", True)), "stdout": _specific(rng, weaker)}], tool_input),
        # another event's output, or an unknown decision, falls back to the top level
        ([{"code": 0.0, "stdout": _specific(rng, "deny", event="PostToolUse")}], tool_input),
        ([{"code": 0.0, "stdout": jsjson.stringify(unknown)}], tool_input),
    ]
    return [{"results": list(results), "toolInput": given} for results, given in cases]


_STRENGTH: Final = ("allow", "ask", "defer", "deny")


def merge_cases(rng: random.Random) -> list[JSValue]:
    """``{"results", "toolInput"}`` cases, each list also merged in another order, then
    each rule of the stage."""
    cases: list[JSValue] = []
    for _ in range(12):
        results: list[JSValue] = [_result(rng) for _ in range(rng.randint(0, 4))]
        tool_input = _object(rng)
        cases.append({"results": results, "toolInput": tool_input})
        if len(results) > 1:  # the same hooks finishing in another order
            shuffled = list(results)
            rng.shuffle(shuffled)
            cases.append({"results": shuffled, "toolInput": tool_input})
    return cases + list(_shaped_merges(rng))


def _stop_answer(rng: random.Random) -> Case:
    from hookcourse.js import json as jsjson

    roll = rng.random()
    if roll < 0.3:
        return _with(code=rng.choice((2.0, 2.0, "2", True)), stderr=_maybe(rng, _padded(rng)))
    if roll < 0.7:
        body = _with(
            decision=rng.choice(("block", "block", "Block", ABSENT)),
            reason=_maybe(rng, _padded(rng), _text(rng), None),
            stopReason=_maybe(rng, _text(rng)),
            **{"continue": rng.choice((ABSENT, ABSENT, False, True))},
        )
        lead = rng.choice(("", "", "  ", "note\n"))
        return _with(code=rng.choice((0.0, 0.0, 1.0)), stdout=lead + jsjson.stringify(body))
    return _with(code=rng.choice((0.0, 1.0)), stdout=_maybe(rng, "", _text(rng)))


def _blocking(rng: random.Random) -> Case:
    """An answer that blocks: exit 2, or a JSON block with a reason."""
    from hookcourse.js import json as jsjson

    if rng.random() < 0.5:
        return _with(code=2.0, stderr=_maybe(rng, _padded(rng)))
    body = {"decision": "block", "reason": _text(rng)}
    return {"code": 0.0, "stdout": jsjson.stringify(body)}


def _shaped_stops(rng: random.Random) -> list[Case]:
    """One case of each shape the stage is about, so every draw holds them all."""
    from hookcourse.js import json as jsjson

    halt = {"continue": False, "stopReason": _text(rng), "decision": "block", "reason": "go on"}
    blank_space = _SHARED_SPACE + _JS_ONLY_SPACE  # blank to trim(), whatever strip() says
    blank = {"decision": "block", "reason": "".join(rng.sample(blank_space, rng.randint(1, 3)))}
    bare = _with(decision="block", reason=rng.choice((ABSENT, None, 0.0)))
    plain = _with(code=0.0, stdout=_maybe(rng, "", _text(rng)))
    return [
        # blocks every time: the cap ends it
        {
            "hook": {"whenInactive": _blocking(rng), "whenActive": _blocking(rng)},
            "cap": float(rng.randint(1, 6)),
        },
        # blocks once, then lets Claude stop
        {"hook": {"whenInactive": _blocking(rng), "whenActive": plain}},
        # continue: false outranks the block in the same JSON
        {
            "hook": {
                "whenInactive": {"code": 0.0, "stdout": jsjson.stringify(halt)},
                "whenActive": _blocking(rng),
            }
        },
        # a block with a blank reason is ignored
        {
            "hook": {
                "whenInactive": {"code": 0.0, "stdout": jsjson.stringify(blank)},
                "whenActive": _blocking(rng),
            }
        },
        # a block without a reason string is ignored too
        {
            "hook": {
                "whenInactive": {"code": 0.0, "stdout": jsjson.stringify(bare)},
                "whenActive": _blocking(rng),
            }
        },
        # JSON counts on exit 1 too
        {
            "hook": {
                "whenInactive": {
                    "code": 1.0,
                    "stdout": jsjson.stringify({"decision": "block", "reason": _text(rng)}),
                },
                "whenActive": plain,
            },
            "cap": 2.0,
        },
    ]


def stop_cases(rng: random.Random) -> list[JSValue]:
    """``{"hook", "cap"}`` cases: each shape of the stage, then every answer kind before and
    after the flag, and caps."""
    cases: list[JSValue] = list(_shaped_stops(rng))
    for _ in range(14):
        first = _stop_answer(rng)
        later = first if rng.random() < 0.3 else _stop_answer(rng)
        cap = rng.choice((ABSENT, None, 1.0, 2.0, 3.0, float(rng.randint(1, 12)), 8.0, 100.0))
        cases.append(_with(hook={"whenInactive": first, "whenActive": later}, cap=cap))
    rng.shuffle(cases)
    return cases


# -- the guard: is_force_push -----------------------------------------------------------------

_BRANCHES: Final = ("main", "feature", "release/1.2", "fix-f", "dev")
_FORCES: Final = ("-f", "--force", "--force-with-lease", "--force-with-lease=main", "-uf", "-fu")
_HARMLESS: Final = (
    "-u",
    "--tags",
    "--dry-run",
    "-v",
    "--follow-tags",
    "--set-upstream",
    "-o ci.skip",
)


def _quote(rng: random.Random, word: str) -> str:
    """A word as a shell reads it back: bare, double- or single-quoted, or half quoted."""
    return rng.choice((word, word, f'"{word}"', f"'{word}'", f"{word[:1]}'{word[1:]}'"))


def _push(rng: random.Random, force: bool) -> str:
    remote, branch = rng.choice(("origin", "upstream", "fork")), rng.choice(_BRANCHES)
    parts = [remote, branch]
    if force:
        kind = rng.random()
        if kind < 0.25:  # a + refspec forces that one update
            parts[1] = "+" + rng.choice((branch, f"HEAD:{branch}", f"{branch}:{branch}"))
        else:
            parts.insert(rng.randint(0, 2), _quote(rng, rng.choice(_FORCES)))
    if rng.random() < 0.5:
        parts.insert(rng.randint(0, len(parts)), rng.choice(_HARMLESS))
    head = rng.choice(
        (
            "git push",
            "git push",
            f"git -c push.default=current {_quote(rng, 'push')}",
            "git -C repo push",
            "git --git-dir=.git push",
            "GIT_TRACE=1 git push",
            "env GIT_SSH_COMMAND=ssh git push",
            "sudo -u ci git push",
            "command git push",
            "'git' push",
        )
    )
    return f"{head} {' '.join(parts)}"


def _chain(rng: random.Random, command: str) -> str:
    before = rng.choice(("git fetch", "cd shop", "make test", "true", "echo go"))
    form = rng.choice(
        ("{c}", "{c}", "{b} && {c}", "{b}; {c}", "{b} || {c}", 'bash -c "{c}"', "{c} # done")
    )
    return form.format(b=before, c=command.replace('"', "'") if "bash -c" in form else command)


def _look_alike(rng: random.Random) -> str:
    """A command that mentions a force-push without running one."""
    force = rng.choice(("git push -f", "git push --force", "push --force-with-lease"))
    return rng.choice(
        (
            f'echo "{force}"',
            f"echo '{force}' >> notes.txt",
            f'git commit -m "never {force}"',
            f'git log --grep "{force}"',
            f'grep -rn "{force}" docs/',
            f"git config alias.fp '{force.removeprefix('git ')}'",
            f"alias gpf='{force}'",
            f"git {rng.choice(('pull', 'fetch', 'checkout', 'branch -D', 'clean'))} --force",
            f"git push origin {rng.choice(('fix-f', 'feature+main', 'wip--force'))}",
            f"git stash push -m {rng.choice(('-f', 'force'))}",
        )
    )


def force_push_draws(rng: random.Random) -> list[tuple[str, bool]]:
    """Drawn commands and whether each was built as a force-push (the generator's intent;
    the check's ground truth is the teacher's guard, and a test holds the two equal)."""
    draws: list[tuple[str, bool]] = []
    for _ in range(10):
        draws.append((_chain(rng, _push(rng, force=True)), True))
        draws.append((_chain(rng, _push(rng, force=False)), False))
        draws.append((_look_alike(rng), False))
    return list(dict(draws).items())


def guard_commands(rng: random.Random) -> list[JSValue]:
    """Bash commands: force-pushes in every shell form, ordinary pushes, and look-alikes."""
    return [command for command, _ in force_push_draws(rng)]
