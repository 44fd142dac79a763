"""The teacher's solutions, each with ONE classic mistake: the variants the hints must name.

A variant is the solution module's source with one edit (``old`` must occur exactly
once), run as if a learner had typed it into a cell. ``key`` is the hint key that names
the mistake; the detectors never see this table.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

from hookcourse.solutions import choose_a_hook, force_push_guard
from hookcourse.stages.decide_and_modify import solution as decide_and_modify
from hookcourse.stages.matcher_and_dispatch import solution as matcher_and_dispatch
from hookcourse.stages.merge_decisions import solution as merge_decisions
from hookcourse.stages.stop_loop import solution as stop_loop


@dataclass(frozen=True)
class Variant:
    """One mistake made in one exercise's solution."""

    function: str
    name: str
    key: str
    edits: tuple[tuple[str, str], ...]

    def source(self) -> str:
        """The solution's source with this variant's edits."""
        text = _source(self.function)
        for old, new in self.edits:
            assert text.count(old) == 1, (self.name, old)
            text = text.replace(old, new)
        return text

    def build(self) -> Callable[..., object]:
        """The learner's function: the edited source run in a fresh namespace."""
        scope: dict[str, object] = {"__name__": "__main__"}
        exec(compile(self.source(), f"<{self.name}>", "exec"), scope)
        function = scope[self.function]
        assert callable(function)
        return function


_MODULES: dict[str, tuple[ModuleType, ...]] = {
    "match_hook": (matcher_and_dispatch,),
    "interpret_exit_code": (matcher_and_dispatch,),
    "apply_pre_tool_use": (decide_and_modify,),
    "merge_pre_tool_use": (merge_decisions,),
    # The Stop loop's solution borrows the merge's stdout reading: both, in one cell.
    "run_stop_loop": (merge_decisions, stop_loop),
    # run_hooks is built from the learner's match_hook and merge_pre_tool_use: all three.
    "run_hooks": (matcher_and_dispatch, merge_decisions),
    "pick_hook": (choose_a_hook,),
    "is_force_push": (force_push_guard,),
}
# An earlier stage's solution imported by a later one: in the cell, the learner's own above.
_BORROWED = re.compile(r"^from hookcourse\.stages\.\w+\.solution import .*\n", re.MULTILINE)
_RUN_HOOKS = "hookcourse.stages.run_hooks.solution"
_HAS_RUN_HOOKS = importlib.util.find_spec("hookcourse.stages.run_hooks") is not None
if _HAS_RUN_HOOKS:  # the stage of its own branch, once merged
    _MODULES["run_hooks"] += (importlib.import_module(_RUN_HOOKS),)


_FUTURE = "from __future__ import annotations\n"
_RUN_AS_SCRIPT = 'if __name__ == "__main__":\n    sys.exit(main())\n'


def _source(function: str) -> str:
    parts = [inspect.getsource(module) for module in _MODULES[function]]
    text = "\n".join(_BORROWED.sub("", part).replace(_FUTURE, "") for part in parts)
    return _FUTURE + text.replace(_RUN_AS_SCRIPT, "")


def _v(function: str, name: str, key: str, *edits: tuple[str, str]) -> Variant:
    return Variant(function, name, key, edits)


_REGEX_LINE = "    return regex_test(matcher, js_to_string(tool_name), RegexEngine.NODE)"
_EXIT_2 = (
    '    if strict_equals_number(result.get("code"), 2):  # code === 2: 2.0 too, never True or "2"'
)

VARIANTS: tuple[Variant, ...] = (
    # -- match_hook
    _v(
        "match_hook",
        "Python re.search for RegExp",
        "js-not-python",
        (
            _REGEX_LINE,
            "    try:\n"
            "        return re.search(matcher, js_to_string(tool_name)) is not None\n"
            "    except re.error:\n"
            "        return False",
        ),
    ),
    _v(
        "match_hook",
        "the regex anchored",
        "unanchored",
        (
            _REGEX_LINE,
            '    return regex_test(f"^(?:{matcher})$", js_to_string(tool_name), RegexEngine.NODE)',
        ),
    ),
    _v(
        "match_hook",
        "every matcher through RegExp",
        "name-list",
        ("    if NAME_LIST.fullmatch(matcher):", "    if False:"),
    ),
    _v(
        "match_hook",
        "Python's Unicode \\w in the name-list test",
        "ascii-word",
        (
            'NAME_LIST: Final = re.compile(r"[A-Za-z0-9_|]+")',
            'NAME_LIST: Final = re.compile(r"[\\w|]+")',
        ),
    ),
    _v(
        "match_hook",
        '"*" not special',
        "match-all",
        ('matcher in ("", "*")', 'matcher == ""'),
    ),
    _v(
        "match_hook",
        "str() for String()",
        "tool-not-a-string",
        (_REGEX_LINE, "    return regex_test(matcher, str(tool_name), RegexEngine.NODE)"),
    ),
    _v(
        "match_hook",
        "names compared without case",
        "exact",
        (
            '        return tool_name in matcher.split("|")',
            "        return isinstance(tool_name, str) and tool_name.lower() in"
            ' matcher.lower().split("|")',
        ),
    ),
    # -- interpret_exit_code
    _v(
        "interpret_exit_code",
        "str.strip() for trim()",
        "js-trim",
        ("    reason = js_trim(stderr)", "    reason = stderr.strip()"),
    ),
    _v(
        "interpret_exit_code",
        "== for === on exit 0",
        "strict-equality",
        ("    if strict_equals_number(code, 0):", "    if code == 0:"),
    ),
    _v(
        "interpret_exit_code",
        'no "hook blocked" default',
        "block-default-reason",
        ('"reason": reason or "hook blocked"}', '"reason": reason}'),
    ),
    _v(
        "interpret_exit_code",
        '"" for a blank warning\'s null',
        "warn-no-reason",
        ('"reason": reason or None}', '"reason": reason}'),
    ),
    _v(
        "interpret_exit_code",
        "every failing code blocks",
        "warn",
        ("    if strict_equals_number(code, 2):", "    if True:"),
    ),
    _v(
        "interpret_exit_code",
        "stderr not trimmed",
        "js-trim",
        ("    reason = js_trim(stderr)", "    reason = stderr"),
    ),
    # -- apply_pre_tool_use
    _v(
        "apply_pre_tool_use",
        "or for ?? on the reason",
        "nullish-not-falsy",
        (
            '"reason": "blocked by hook" if is_nullish(reason) else reason,',
            '"reason": reason or "blocked by hook",',
        ),
    ),
    _v(
        "apply_pre_tool_use",
        "or for ?? on the input",
        "nullish-not-falsy",
        (
            '"input": tool_input if is_nullish(rewritten) else rewritten,',
            '"input": rewritten or tool_input,',
        ),
    ),
    _v(
        "apply_pre_tool_use",
        ".get(key, default) for ??",
        "null-falls-back",
        (
            '"input": tool_input if is_nullish(rewritten) else rewritten,',
            '"input": output.get("updatedInput", tool_input),',
        ),
    ),
    _v(
        "apply_pre_tool_use",
        "a block runs the rewrite",
        "block-keeps-input",
        (
            '            "input": tool_input,\n            "injectedContext": None,',
            '            "input": nullish_or(output.get("updatedInput", UNDEFINED), tool_input),\n'
            '            "injectedContext": None,',
        ),
        ("from hookcourse.js.values import", "from hookcourse.js.values import nullish_or,"),
    ),
    _v(
        "apply_pre_tool_use",
        "a block injects the context",
        "block-no-context",
        (
            '            "input": tool_input,\n            "injectedContext": None,',
            '            "input": tool_input,\n'
            '            "injectedContext": output.get("additionalContext"),',
        ),
    ),
    _v(
        "apply_pre_tool_use",
        '"Block" read as "block"',
        "only-block-blocks",
        (
            'if output.get("decision", UNDEFINED) == "block":',
            'if str(output.get("decision")).lower() == "block":',
        ),
    ),
    _v(
        "apply_pre_tool_use",
        'no "blocked by hook" default',
        "block-default-reason",
        (
            '"reason": "blocked by hook" if is_nullish(reason) else reason,',
            '"reason": output.get("reason"),',
        ),
    ),
    # -- merge_pre_tool_use
    _v(
        "merge_pre_tool_use",
        "top-level updatedInput",
        "hook-specific-output",
        (
            '    if isinstance(specific.get("updatedInput"), dict):\n'
            '        read["updatedInput"] = specific["updatedInput"]',
            '    if isinstance(out.get("updatedInput"), dict):\n        read["updatedInput"] ='
            ' out["updatedInput"]',
        ),
    ),
    _v(
        "merge_pre_tool_use",
        "top-level permissionDecision",
        "hook-specific-output",
        (
            '    decision = specific.get("permissionDecision")',
            '    decision = out.get("permissionDecision")',
        ),
        (
            '        reason = specific.get("permissionDecisionReason")',
            '        reason = out.get("permissionDecisionReason")',
        ),
    ),
    _v(
        "merge_pre_tool_use",
        "stdout not trimmed before JSON",
        "js-trim-start",
        ("    text = js_trim_start(stdout)", "    text = stdout"),
    ),
    _v(
        "merge_pre_tool_use",
        "str.strip() before JSON",
        "js-trim-start",
        ("    text = js_trim_start(stdout)", "    text = stdout.strip()"),
    ),
    _v(
        "merge_pre_tool_use",
        "str.strip() for trim() on stderr",
        "js-trim",
        ('js_trim(stream(result, "stderr"))', 'stream(result, "stderr").strip()'),
    ),
    _v(
        "merge_pre_tool_use",
        "stdout read on exit 2",
        "exit-2-beats-json",
        (
            _EXIT_2,
            '    if strict_equals_number(result.get("code"), 2) and stdout_json(stream(result,'
            ' "stdout")) is None:',
        ),
    ),
    _v(
        "merge_pre_tool_use",
        "the last reason of the winning decision",
        "first-reason",
        (
            '        winner = next(r for r in decided if STRENGTH.index(str(r["decision"])) =='
            " strongest)",
            '        winner = [r for r in decided if STRENGTH.index(str(r["decision"])) =='
            " strongest][-1]",
        ),
    ),
    _v(
        "merge_pre_tool_use",
        "the first rewrite",
        "last-rewrite",
        ("rewrites[-1] if rewrites", "rewrites[0] if rewrites"),
    ),
    # (max() of the words would not do: "allow" < "ask" < "defer" < "deny" by chance.)
    _v(
        "merge_pre_tool_use",
        "the last decision wins",
        "precedence",
        (
            '        strongest = max(STRENGTH.index(str(read["decision"])) for read in decided)',
            '        strongest = STRENGTH.index(str(decided[-1]["decision"]))',
        ),
    ),
    _v(
        "merge_pre_tool_use",
        "a reason of any type",
        "string-fields",
        (
            "        read.update(decision=decision, reason=reason if isinstance(reason, str)"
            " else None)",
            "        read.update(decision=decision, reason=reason)",
        ),
    ),
    _v(
        "merge_pre_tool_use",
        "an updatedInput of any type",
        "object-input",
        (
            '    if isinstance(specific.get("updatedInput"), dict):',
            '    if "updatedInput" in specific:',
        ),
    ),
    _v(
        "merge_pre_tool_use",
        "JSON read on exit 0 only",
        "json-on-any-exit",
        (
            '    out = stdout_json(stream(result, "stdout"))',
            '    out = stdout_json(stream(result, "stdout")) if result.get("code") == 0 else None',
        ),
    ),
    _v(
        "merge_pre_tool_use",
        "hookEventName not checked",
        "wrong-event",
        (
            '    if not isinstance(specific, dict) or specific.get("hookEventName") !='
            ' "PreToolUse":',
            "    if not isinstance(specific, dict):",
        ),
    ),
    _v(
        "merge_pre_tool_use",
        "a deny keeps the rewrite",
        "deny-drops-rewrite",
        ('    if decision == "deny":', "    if False:"),
    ),
    _v(
        "merge_pre_tool_use",
        'no "hook blocked" default',
        "block-default-reason",
        (
            'js_trim(stream(result, "stderr")) or "hook blocked"}',
            'js_trim(stream(result, "stderr"))}',
        ),
    ),
    _v(
        "merge_pre_tool_use",
        'an empty context ("") dropped',
        "contexts",
        (
            '    if isinstance(specific.get("additionalContext"), str):',
            '    if isinstance(specific.get("additionalContext"), str) and'
            ' specific["additionalContext"]:',
        ),
    ),
    # -- run_stop_loop
    _v(
        "run_stop_loop",
        "str.strip() for trim() on a block's reason",
        "js-trim",
        (
            '    if out.get("decision") == "block" and isinstance(reason, str) and'
            " js_trim(reason):",
            '    if out.get("decision") == "block" and isinstance(reason, str) and reason.strip():',
        ),
    ),
    _v(
        "run_stop_loop",
        "the cap one block early",
        "the-cap",
        ('capped = kind == "block" and blocks > cap', 'capped = kind == "block" and blocks >= cap'),
    ),
    _v(
        "run_stop_loop",
        "stopHookActive true from the first attempt",
        "flag-after-block",
        ("    active = False\n", "    active = True\n"),
    ),
    _v(
        "run_stop_loop",
        "whenInactive on every attempt",
        "flag-after-block",
        ('hook["whenActive"] if active else hook["whenInactive"]', 'hook["whenInactive"]'),
    ),
    _v(
        "run_stop_loop",
        "a blank Stop reason accepted",
        "block-needs-reason",
        (
            '    if out.get("decision") == "block" and isinstance(reason, str) and'
            " js_trim(reason):",
            '    if out.get("decision") == "block" and isinstance(reason, str):',
        ),
    ),
    _v(
        "run_stop_loop",
        "stdout read on exit 2",
        "exit-2-beats-json",
        (
            '    if strict_equals_number(answer.get("code"), 2):',
            '    if strict_equals_number(answer.get("code"), 2) and stdout_json(stream(answer,'
            ' "stdout")) is None:',
        ),
    ),
    _v(
        "run_stop_loop",
        "stdout not trimmed before JSON",
        "js-trim-start",
        ("    text = js_trim_start(stdout)", "    text = stdout"),
    ),
    _v(
        "run_stop_loop",
        "a block read before continue: false",
        "halt-beats-block",
        (
            '    if out.get("continue") is False:  # continue: false outranks a block',
            '    if out.get("decision") == "block" and isinstance(out.get("reason"), str) and'
            ' js_trim(out["reason"]):\n'
            '        return "block", out["reason"]\n'
            '    if out.get("continue") is False:',
        ),
    ),
    _v(
        "run_stop_loop",
        "a JSON block's reason trimmed",
        "reason-as-written",
        (
            '        return "block", reason  # the reason as written',
            '        return "block", js_trim(reason)  #',
        ),
    ),
    _v(
        "run_stop_loop",
        "a falsy continue halts",
        "halt",
        (
            '    if out.get("continue") is False:  # continue: false outranks a block',
            '    if "continue" in out and not out["continue"]:',
        ),
    ),
    _v(
        "run_stop_loop",
        "JSON read on exit 0 only",
        "json-on-any-exit",
        (
            '    out = stdout_json(stream(answer, "stdout")) or {}',
            '    out = (stdout_json(stream(answer, "stdout")) if answer.get("code") == 0 else'
            " None) or {}",
        ),
    ),
)

_RUN_HOOKS_VARIANTS: tuple[Variant, ...] = (
    _v(
        "run_hooks",
        "every listed command runs",
        "run-once",
        (
            "            if command not in ran:  # identical commands run once",
            "            if True:",
        ),
    ),
    _v(
        "run_hooks",
        "only deny stops the tool",
        "ask-or-defer",
        (
            '    if merged["decision"] not in (None, "allow"):',
            '    if merged["decision"] == "deny":',
        ),
    ),
    _v(
        "run_hooks",
        "a PostToolUse block's reason trimmed",
        "post-block-reason",
        ("feedback.append(reason)  # as written, not trimmed", "feedback.append(reason.strip())"),
    ),
    _v(
        "run_hooks",
        "post null when no PostToolUse hook matched",
        "no-post-hooks",
        (
            "    post = {\n",
            '    if not post_ran:\n        return {"pre": pre, "tool": ran, "post": None}\n'
            "    post = {\n",
        ),
    ),
    _v(
        "run_hooks",
        "the tool run with its own input",
        "rewrite",
        ('"input": merged["input"]', '"input": tool["input"]'),
    ),
    _v(
        "run_hooks",
        "a falsy response read as None",
        "rewrite",
        ('    response = tool.get("response")', '    response = tool.get("response") or None'),
    ),
    _v(
        "run_hooks",
        "results[event] read when no handler runs",
        "only-matching-run",
        (
            "    if not ran:\n        return []  # results[event] is not even read\n"
            "    by_command = results[event]\n",
            "    by_command = results[event]\n    if not ran:\n        return []\n",
        ),
    ),
    _v(
        "run_hooks",
        "a context of any hookEventName",
        "post-context-event",
        (
            '    if isinstance(specific, dict) and specific.get("hookEventName") == "PostToolUse":',
            "    if isinstance(specific, dict):",
        ),
    ),
)
if _HAS_RUN_HOOKS:
    VARIANTS += _RUN_HOOKS_VARIANTS

# A mistake that makes the function raise where no detector can say which rule it breaks:
# the hint names what in the case it cannot take (``hint`` starts the hint row).
RAISING: tuple[tuple[Variant, str], ...] = (
    (
        _v(
            "merge_pre_tool_use",
            '.get(key, "") for a stream that holds None',
            "",
            (
                '    return value if isinstance(value, str) else ""',
                '    return result.get(name, "")',
            ),
        ),
        'stdout and stderr are None in this case: read a missing or None stdout or stderr as ""',
    ),
)

# The gate and the guard report by family (a goal's kind, a corpus family): a variant's
# ``key`` is the family its mistake fails.
GATE_AND_GUARD: tuple[Variant, ...] = (
    _v(
        "pick_hook",
        "a command hook for every goal",
        "evaluative",
        ("    if any(words in text for words in JUDGEMENTS):", "    if False:"),
    ),
    _v(
        "pick_hook",
        "a subagent's check read as any other goal",
        "evaluative",
        ('    ("subagent", "SubagentStop"),\n', ""),
    ),
    _v(
        "pick_hook",
        "a success logged before the tool runs",
        "deterministic",
        ('    ("succeeded", "PostToolUse"),\n', ""),
    ),
    _v(
        "pick_hook",
        "a model's judgement for every goal",
        "deterministic",
        ("    if any(words in text for words in JUDGEMENTS):", "    if True:"),
    ),
    _v(
        "is_force_push",
        "a + refspec not read as force",
        "+refspec",
        ('            if argument.startswith("+"):', "            if False:"),
    ),
    _v(
        "is_force_push",
        "--force-with-lease not read as force",
        "--force-with-lease",
        (
            '        elif argument in ("--force", "--force-with-lease") or argument.startswith(\n'
            '            "--force-with-lease="\n'
            "        ):",
            '        elif argument == "--force":',
        ),
    ),
    _v(
        "is_force_push",
        "sh -c not looked into",
        "sh -c",
        ("    if name in SHELLS:", "    if False:"),
    ),
    _v(
        "is_force_push",
        "wrappers not looked through",
        "wrappers",
        ("        if name not in WRAPPERS:", "        if True:"),
    ),
    _v(
        "is_force_push",
        "git's own options not skipped",
        "git options",
        ('    while rest and rest[0].startswith("-"):  # git', "    while False:  # git"),
    ),
)
