"""``interpret_exit_code`` by its public path (``hookcourse.stages.verdicts``).

It lives in stage matcher-and-dispatch's folder; this module only names it here.
"""

from hookcourse.stages.matcher_and_dispatch.verdicts import ExitVerdict, interpret_exit_code

__all__ = ["ExitVerdict", "interpret_exit_code"]
