"""Run by every kernel the course's Jupyter server starts (its ``PYTHONSTARTUP``, which
IPython kernels execute in the learner's namespace): install the NameError line before
the first cell, so even a cell that imports nothing gets it after a restart.

Written as one expression, so the learner's namespace gains no name.
"""

__import__("hookcourse.course.checks.kernel_hook", fromlist=["install"]).install()
