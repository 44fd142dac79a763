def shout(message):
    """JS-trimmed message upper-cased with "!", or "" when blank."""
    raise NotImplementedError("not implemented: shout")
