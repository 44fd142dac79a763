def merge_pre_tool_use(results, tool_input):
    """Every PreToolUse hook's {code, stdout, stderr} into {decision, reason, input, contexts}."""
    raise NotImplementedError("not implemented: merge_pre_tool_use")
