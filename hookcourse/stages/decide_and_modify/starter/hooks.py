def apply_pre_tool_use(out, tool_input):
    """decision === "block" -> blocked with out.reason ?? "blocked by hook"; otherwise
    allowed with input updatedInput ?? tool_input and context additionalContext ?? None."""
    raise NotImplementedError("not implemented: apply_pre_tool_use")
