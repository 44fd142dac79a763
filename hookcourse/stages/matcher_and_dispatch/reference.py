"""Does a hook's matcher select this tool (or this event value)?

Two rule sets, never mixed:

* ``course``: the graded stage. ``undefined``, ``""`` and ``"*"`` match all;
  a matcher of only ``/^[\\w|]+$/`` characters is a list of exact names split on
  ``|``; anything else is ``new RegExp(matcher).test(name)`` under Node.
* ``claude-code``: the current reference. The exact-list characters are letters,
  digits, ``_``, ``-``, space, ``,`` and ``|`` (split on ``|`` or ``,``,
  surrounding spaces dropped); FileChanged and StopFailure keep the narrow
  course set (``narrow=True``). Regexes run as Bun runs them.
"""

from __future__ import annotations

from hookcourse.js.json import quote
from hookcourse.js.values import UNDEFINED, Undefined, js_to_string, strict_equals_number
from hookcourse.record import Choice, Record
from hookcourse.stages.decoding import CaseError, Decoded, describe_value, member, not_null
from hookcourse.stages.descriptor import Exercise, Stage
from hookcourse.stages.matcher_and_dispatch.verdicts import interpret_exit_code

TYPE_CHECKING = False  # typing, enum and re would dominate the grader's cold start
if TYPE_CHECKING:
    from typing import ClassVar, Final

    from hookcourse.js.values import JSValue


class RuleSet(Choice):
    """Which matcher rules apply (compare with ``==``)."""

    __slots__ = ()
    _allowed = ("course", "claude-code")
    COURSE: ClassVar[RuleSet]
    CLAUDE_CODE: ClassVar[RuleSet]


RuleSet.COURSE = RuleSet("course")
RuleSet.CLAUDE_CODE = RuleSet("claude-code")


class MatchBranch(Choice):
    """The branch a matcher takes, decided by its characters alone."""

    __slots__ = ()
    _allowed = ("all", "exact", "regex")
    ALL: ClassVar[MatchBranch]
    EXACT: ClassVar[MatchBranch]
    REGEX: ClassVar[MatchBranch]


MatchBranch.ALL = MatchBranch("all")
MatchBranch.EXACT = MatchBranch("exact")
MatchBranch.REGEX = MatchBranch("regex")


class MatchResult(Record):
    """Whether a matcher matched, the branch it took, and why, in one sentence."""

    _fields = ("matched", "branch", "why")
    __slots__ = _fields
    matched: bool
    branch: MatchBranch
    why: str

    def __init__(self, matched: bool, branch: MatchBranch, why: str) -> None:
        self._fill(matched, branch, why)


# JavaScript's \w is ASCII-only, so the classes are spelled out.
_WORD: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_NARROW_EXACT: Final = _WORD | {"|"}
_WIDE_EXACT: Final = _WORD | {"|", "-", " ", ","}


def _exact_names(matcher: str, rules: RuleSet, narrow: bool) -> list[str] | None:
    """The exact names a matcher lists, or None when it takes the regex branch."""
    if rules == RuleSet.COURSE or narrow:
        return matcher.split("|") if set(matcher) <= _NARROW_EXACT else None
    if not set(matcher) <= _WIDE_EXACT:
        return None
    return [name.strip(" ") for name in matcher.replace(",", "|").split("|")]


def exact_names(matcher: str, rules: RuleSet, narrow: bool = False) -> list[str] | None:
    """The exact names ``matcher`` lists (split and trimmed as ``explain_match`` does), or
    None when it is match-all or takes the regex branch."""
    if matcher in ("", "*"):
        return None
    return _exact_names(matcher, rules if isinstance(rules, RuleSet) else RuleSet(rules), narrow)


def _exact_charset(rules: RuleSet, narrow: bool) -> str:
    if rules == RuleSet.COURSE or narrow:
        return "letters, digits, _ and |"
    return "letters, digits, _, -, spaces, commas and |"


def explain_match(
    matcher: str | None,
    value: JSValue | Undefined,
    rules: RuleSet = RuleSet.COURSE,
    *,
    narrow: bool = False,
) -> MatchResult:
    """Match ``matcher`` (None = omitted) against ``value`` and say which branch decided.

    ``rules`` is a RuleSet; its plain string ("course", "claude-code") is read as one, and
    any other string is a ValueError naming the two.
    """
    rules = rules if isinstance(rules, RuleSet) else RuleSet(rules)
    shown = quote(js_to_string(value)) if isinstance(value, str) else js_to_string(value)
    if matcher is None or matcher in ("", "*"):
        how = "an omitted matcher" if matcher is None else f"the matcher {quote(matcher)}"
        return MatchResult(True, MatchBranch.ALL, f"{how} matches everything")
    names = _exact_names(matcher, rules, narrow)
    if names is not None:
        listed = ", ".join(quote(name) for name in names)
        matched = isinstance(value, str) and value in names
        verdict = "is" if matched else "is not"
        why = (
            f"{quote(matcher)} has only {_exact_charset(rules, narrow)}, so it is a list of "
            f"exact names [{listed}]; {shown} {verdict} one of them"
        )
        return MatchResult(matched, MatchBranch.EXACT, why)
    from hookcourse.js.regex import RegexEngine, regex_error, regex_test

    engine = RegexEngine.NODE if rules == RuleSet.COURSE else RegexEngine.BUN
    error = regex_error(matcher, engine)
    lead = f"{quote(matcher)} has other characters, so it is a JavaScript regex"
    if error is not None:
        why = f"{lead}, but not a valid one ({error}), so it matches nothing"
        return MatchResult(False, MatchBranch.REGEX, why)
    matched = regex_test(matcher, js_to_string(value), engine)
    found = "finds a match in" if matched else "finds no match anywhere in"
    return MatchResult(matched, MatchBranch.REGEX, f"{lead}, unanchored; it {found} {shown}")


def match_hook(matcher: str | None, tool_name: JSValue | Undefined) -> bool:
    """The course's ``matchHook(matcher, toolName)``; ``None`` is an omitted matcher."""
    return explain_match(matcher, tool_name, RuleSet.COURSE).matched


def match_arguments(case: JSValue) -> Decoded:
    """``(c.matcher, c.tool)`` for matchHook; None stands for an omitted matcher."""
    matcher = member(not_null(case), "matcher")
    if not isinstance(matcher, str | Undefined):
        raise CaseError(
            "matcher",
            f"matcher must be a string or left out, got {describe_value(matcher)}",
            'write the matcher as a string such as "Bash", or leave the key out',
        )
    return Decoded((matcher if isinstance(matcher, str) else None, member(case, "tool")))


def exit_arguments(case: JSValue) -> Decoded:
    """``(e.code, e.stderr ?? "")`` for interpretExitCode: the seed's stderr is optional."""
    code, stderr = member(not_null(case), "code"), member(case, "stderr")
    if isinstance(stderr, str):
        return Decoded((code, stderr))
    if stderr is None or stderr is UNDEFINED or strict_equals_number(code, 0):
        return Decoded((code, ""))  # ?? reads null and a missing key as ""; code 0 never reads it
    # JavaScript calls stderr.trim() on every code but 0, which throws for a non-string.
    raise CaseError(
        "stderr",
        f"stderr must be a string or left out when code is not 0, got {describe_value(stderr)}",
        'write "stderr" as a string (it may be ""), or leave the key out',
    )


STAGE = Stage(
    __name__,
    "Matcher and dispatch",
    "hook-match",
    Exercise(
        "match_hook",
        notebook="01_matcher",
        check="check_matcher",
        reference=match_hook,
        decode=match_arguments,
        case_key="cases",
        output_key="matches",
        fields=("matcher", "tool"),
        families=(
            "match-all",
            "name-list",
            "exact",
            "ascii-word",
            "invalid-regex",
            "js-not-python",
            "unanchored",
            "tool-not-a-string",
            "regex",
        ),
        classify="classify:match_family",
        generate="generate:match_cases",
    ),
    Exercise(
        "interpret_exit_code",
        notebook="02_exit_codes",
        check="check_exit_code",
        reference=interpret_exit_code,
        decode=exit_arguments,
        case_key="exitCases",
        output_key="exits",
        fields=("code", "stderr"),
        defaults={"stderr": ""},
        families=(
            "success",
            "block",
            "block-default-reason",
            "warn",
            "warn-no-reason",
            "strict-equality",
            "js-trim",
        ),
        classify="classify:exit_family",
        generate="generate:exit_cases",
        hinted="classify:exit_hinted_family",
    ),
)
