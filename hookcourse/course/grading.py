"""The mark ``hookcourse test`` puts on a learner's program: the course's own grader entry
refuses to answer for a program that carries it (a program must compute its answers).

On the grader's cold-start path: nothing but this constant (no typing at run time).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

GRADING: Final = "HOOKCOURSE_GRADING"  # set to the program's path for every run of it
