def run_hooks(hooks, tool, results):
    """The hooks around ONE tool call: {"pre", "tool", "post"} (stage run-hooks).

    The handlers of the groups whose match_hook(group matcher, tool["name"]) is True run,
    each command once, in settings order; look up results[event][command] only for those.
    pre is merge_pre_tool_use of their results; the tool runs on decision None or "allow"
    (else {"runs": False, "input": None, "response": None} and post None); then
    PostToolUse: exit 2's trimmed stderr or "hook blocked", or a block's non-blank reason,
    is feedback, and a PostToolUse additionalContext is a context."""
    raise NotImplementedError("not implemented: run_hooks")
