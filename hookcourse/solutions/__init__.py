"""The teacher's solutions to the notebook exercises, in the shapes the learner writes.

No notebook imports this package: learners write these functions themselves and
``hookcourse.course.exercises`` checks them. A teacher can compare a learner's cell with
these, or run ``check_matcher(match_hook)`` and friends to see a green table.
"""

from hookcourse.solutions.decide_and_modify import apply_pre_tool_use
from hookcourse.solutions.matcher_and_dispatch import interpret_exit_code, match_hook
from hookcourse.solutions.merge_decisions import merge_pre_tool_use
from hookcourse.solutions.stop_loop import run_stop_loop

__all__ = [
    "apply_pre_tool_use",
    "interpret_exit_code",
    "match_hook",
    "merge_pre_tool_use",
    "run_stop_loop",
]
