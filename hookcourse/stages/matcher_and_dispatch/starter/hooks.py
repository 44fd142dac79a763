def match_hook(matcher, tool_name):
    """MISSING / "" / "*" -> True; ^[A-Za-z0-9_|]+$ -> a list of names split on "|";
    anything else -> the ECMAScript regex's test(String(tool_name)), False when invalid."""
    raise NotImplementedError("not implemented: match_hook")


def interpret_exit_code(code, stderr):
    """code === 0 -> success; code === 2 -> block, reason JS-trimmed stderr or "hook blocked";
    any other code -> warn, reason JS-trimmed stderr or None. True is not 1 (===)."""
    raise NotImplementedError("not implemented: interpret_exit_code")
