"""Fresh ``match_hook`` and ``interpret_exit_code`` cases, drawn around each case family.

Named by the stage's ``Exercise.generate``; the shared draws (tool names, JavaScript's
whitespace, JSON values) are ``hookcourse.course.checks.generators``'.
"""

from __future__ import annotations

import random
from typing import Final

from hookcourse.course.checks.generators import (
    ABSENT,
    JS_ONLY_SPACE,
    PYTHON_ONLY_SPACE,
    SHARED_SPACE,
    Case,
    case_with,
    foreign_tool,
    padded,
    some_text,
    some_tool,
    spaces,
)
from hookcourse.js.values import JSValue

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


def _name_list_cases(rng: random.Random) -> list[Case]:
    names = [some_tool(rng) for _ in range(rng.randint(1, 3))]
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
    name = foreign_tool(rng)
    other = some_tool(rng)
    matcher = f"{other}|{name}" if rng.random() < 0.5 else name
    return [
        {"matcher": matcher, "tool": name},
        {"matcher": matcher, "tool": f"My{name}Tool"},  # a regex searches
        {"matcher": matcher, "tool": other},
    ]


def _regex_cases(rng: random.Random) -> list[Case]:
    n, m, f = some_tool(rng), some_tool(rng), foreign_tool(rng)
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
        {"matcher": "object", "tool": {"name": some_tool(rng)}},
        {"matcher": ",", "tool": [some_tool(rng), some_tool(rng)]},
    ]
    picked = rng.sample(cases, 4)  # these first: the draws after them stay as they were
    return picked + [case for case in cases if case not in picked]


def _match_all_cases(rng: random.Random) -> list[Case]:
    tool = rng.choice((some_tool(rng), None, 0.0, "", foreign_tool(rng)))
    return [
        case_with(matcher=rng.choice((ABSENT, "", "*")), tool=tool),
        {"matcher": "**", "tool": tool},
    ]


def _python_regex_cases(rng: random.Random) -> list[Case]:
    """Where Python's ``re`` reads a regex otherwise than JavaScript, every draw."""
    n = some_tool(rng)
    return [
        {"matcher": f"^{n}$", "tool": f"{n}\n"},  # Python's $ before a final newline
        {"matcher": "\\d", "tool": rng.choice(("\u0663", "\u00b2"))},  # a Unicode digit
        {"matcher": "^\\w+$", "tool": foreign_tool(rng)},  # a Unicode letter
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


_CODES: Final = (0.0, 2.0, 1.0, 127.0, 2.5, -2.0, "2", "0", True, False, None)


def _shaped_exits(rng: random.Random) -> list[Case]:
    """One case of each way JavaScript's trim() and Python's strip() disagree on a reason,
    and a code that is 2 or 1 only to ``==``, so every draw holds them all."""
    text, warn = some_text(rng), rng.choice((1.0, 127.0, float(rng.randint(3, 255))))
    return [
        {"code": 2.0, "stderr": JS_ONLY_SPACE + text + rng.choice(SHARED_SPACE)},
        {"code": warn, "stderr": text + rng.choice(PYTHON_ONLY_SPACE)},
        {"code": rng.choice((2.0, warn)), "stderr": rng.choice(PYTHON_ONLY_SPACE)},
        {"code": False, "stderr": spaces(rng) + text},  # false == 0, in Python too
        {"code": rng.choice(("2", "0", "")), "stderr": spaces(rng) + text},  # "2" == 2 in JS
    ]


def exit_cases(rng: random.Random) -> list[JSValue]:
    """``{"code", "stderr"}`` cases: every exit code kind, stderr padded with each trim set,
    then each shape of the stage."""
    cases: list[JSValue] = []
    for _ in range(24):
        code = rng.choice((*_CODES, 2.0, 2.0, 0.0, float(rng.randint(3, 255))))
        stderr = rng.choice((ABSENT, None, padded(rng), padded(rng), padded(rng)))
        cases.append(case_with(code=code, stderr=stderr))
    return cases + list(_shaped_exits(rng))
