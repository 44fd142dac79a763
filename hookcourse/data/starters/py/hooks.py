"""The course's hook functions, judged against JavaScript's answers (the stage pages).

Each raises NotImplementedError until you write it. JSON's null is None; a key the
hook left out is MISSING (JavaScript's undefined), so ``??`` is "is None or MISSING".
The regex branch of match_hook is an ECMAScript RegExp: Python's re differs (its \\w
is Unicode, its $ matches before a final newline), so use an ECMAScript engine such
as the regress package for it.
"""

MISSING = object()


def match_hook(matcher, tool_name):
    """MISSING / "" / "*" -> True; ^[A-Za-z0-9_|]+$ -> a list of names split on "|";
    anything else -> the ECMAScript regex's test(String(tool_name)), False when invalid."""
    raise NotImplementedError("not implemented: match_hook")


def interpret_exit_code(code, stderr):
    """code === 0 -> success; code === 2 -> block, reason JS-trimmed stderr or "hook blocked";
    any other code -> warn, reason JS-trimmed stderr or None. True is not 1 (===)."""
    raise NotImplementedError("not implemented: interpret_exit_code")


def apply_pre_tool_use(out, tool_input):
    """decision === "block" -> blocked with out.reason ?? "blocked by hook"; otherwise
    allowed with input updatedInput ?? tool_input and context additionalContext ?? None."""
    raise NotImplementedError("not implemented: apply_pre_tool_use")


def merge_pre_tool_use(results, tool_input):
    """Every PreToolUse hook's {code, stdout, stderr} into {decision, reason, input, contexts}."""
    raise NotImplementedError("not implemented: merge_pre_tool_use")


def run_stop_loop(hook, cap):
    """Every stop attempt {stopHookActive, continues, reason, capped} until Claude stops."""
    raise NotImplementedError("not implemented: run_stop_loop")


def run_hooks(hooks, tool, results):
    """The hooks around ONE tool call: {"pre", "tool", "post"} (stage run-hooks).

    The handlers of the groups whose match_hook(group matcher, tool["name"]) is True run,
    each command once, in settings order; look up results[event][command] only for those.
    pre is merge_pre_tool_use of their results; the tool runs on decision None or "allow"
    (else {"runs": False, "input": None, "response": None} and post None); then
    PostToolUse: exit 2's trimmed stderr or "hook blocked", or a block's non-blank reason,
    is feedback, and a PostToolUse additionalContext is a context."""
    raise NotImplementedError("not implemented: run_hooks")
