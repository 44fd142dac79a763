def run_stop_loop(hook, cap):
    """Every stop attempt {stopHookActive, continues, reason, capped} until Claude stops."""
    raise NotImplementedError("not implemented: run_stop_loop")
