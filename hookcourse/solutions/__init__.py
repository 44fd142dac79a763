"""The teacher's solutions to the notebook exercises, in the shapes the learner writes.

No notebook imports this package: learners write these functions themselves and
``hookcourse.course.checks.exercises`` checks them. Each exercise of the registry names its
solution by path (``Exercise.solution``); the teacher build writes them into the
exercise cells. A teacher can run ``check_matcher(match_hook)`` and friends with
these to see a green table.
"""

from hookcourse.solutions.choose_a_hook import pick_hook
from hookcourse.solutions.force_push_guard import is_force_push
from hookcourse.stages.decide_and_modify.solution import apply_pre_tool_use
from hookcourse.stages.matcher_and_dispatch.solution import interpret_exit_code, match_hook
from hookcourse.stages.merge_decisions.solution import merge_pre_tool_use
from hookcourse.stages.stop_loop.solution import run_stop_loop

__all__ = [
    "apply_pre_tool_use",
    "interpret_exit_code",
    "is_force_push",
    "match_hook",
    "merge_pre_tool_use",
    "pick_hook",
    "run_stop_loop",
]
