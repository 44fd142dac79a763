"""The mark ``hookcourse test`` puts on a learner's program: the course's own grader entry
refuses to answer for a program that carries it (a program must compute its answers); and
who speaks in the one line a signal to ``hookcourse test`` prints (the ``hookcourse``
script installs its handlers before anything else is imported, so this stays tiny).

On the grader's cold-start path: nothing but these constants (no typing at run time).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

GRADING: Final = "HOOKCOURSE_GRADING"  # set to the program's path for every run of it
TEST_INTERRUPTS: Final = ("hookcourse test", "run of your program", "runs of your program")
