"""The ``hookcourse`` command's first code: a signal while it starts is handled too.

``hookcourse test`` ends on SIGINT, SIGTERM or SIGHUP with one line and ``128 + n``,
also when the signal comes while Python is still importing the command line (a
SIGINT ignored by the parent would otherwise be lost, and any other would print an
import's traceback). The handlers go in before anything else is imported.
"""

from __future__ import annotations

import sys


def main() -> int:
    """``hookcourse ARGS``: the command line of ``hookcourse.cli``, handlers first."""
    if sys.argv[1:2] == ["test"]:
        from hookcourse.course.grading.mark import TEST_INTERRUPTS
        from hookcourse.system.interrupts import install_interrupt_handlers

        install_interrupt_handlers(TEST_INTERRUPTS)
    from hookcourse.cli import main as command_line

    return command_line()
