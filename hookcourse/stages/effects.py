"""``apply_pre_tool_use`` by its public path (``hookcourse.stages.effects``).

It lives in stage decide-and-modify's folder; this module only names it here.
"""

from hookcourse.stages.decide_and_modify.reference import HookEffect, apply_pre_tool_use

__all__ = ["HookEffect", "apply_pre_tool_use"]
