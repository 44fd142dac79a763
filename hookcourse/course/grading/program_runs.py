"""One run of a learner's program for ``hookcourse test``: started in its own process group,
its output capped, killed with everything it started at the time limit, and every way it
can fail to start named (``NotStarted``).
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final, TypeAlias

from hookcourse.stages.registry import Stage
from hookcourse.system import processes

OUTPUT_CAP: Final = 1 << 20  # bytes of stdout or stderr kept per run; the rest is counted only
DRAIN_SECONDS: Final = 0.2  # after it exits, how long its output may still arrive
# The course's own grader entry is the reference; any other program gets GRADING set, and
# the course's entry it might start then refuses to answer for it.
COURSE_ENTRY: Final = Path(__file__).resolve().parents[3] / "your_program.sh"


# -- running one program -----------------------------------------------------------------------


def run_program(argv: Sequence[str], cwd: Path, timeout: float, env: dict[str, str]) -> Run:
    """Run ``argv`` with no stdin through the one process runner; ``Run`` names a program
    that could not be started instead of raising."""
    try:
        return processes.run(
            argv,
            env=env,
            cwd=cwd,
            timeout_s=timeout,
            cap=OUTPUT_CAP,
            linger_s=DRAIN_SECONDS,  # a child it left running may hold the pipes open
        )
    except processes.CannotStart as error:
        return NotStarted(str(error), error.errno)


@dataclass(frozen=True)
class NotStarted:
    """A program the OS refused to start, with its reason."""

    reason: str
    errno: int | None


Run: TypeAlias = "processes.Finished | NotStarted"


# -- judging one case --------------------------------------------------------------------------


@dataclass(frozen=True)
class Program:
    """The program under test: as the learner wrote it, and where it runs."""

    shown: str  # e.g. ./your_program.sh
    path: Path  # absolute

    @classmethod
    def from_option(cls, text: str) -> Program:
        written = text if "/" in text else f"./{text}"
        return cls(written, Path(written).absolute())

    @property
    def folder(self) -> Path:
        """Where it runs, and where its failing cases are kept."""
        return self.path.parent

    def problem(self) -> tuple[str, str] | None:
        """Why it cannot run at all, with the fix; None when it can be started."""
        if not self.path.exists():
            return (
                f"{self.shown} was not found",
                "run hookcourse test in the folder that holds your_program.sh, "
                "or pass --program PATH",
            )
        if self.path.is_dir():
            return (f"{self.shown} is a directory", "pass the program file with --program PATH")
        if not os.access(self.path, os.X_OK) or not self.path.stat().st_mode & 0o111:
            return (f"{self.shown} is not executable", f"chmod +x {self.shown}")
        return None

    def command(self, stage: Stage, case_path: Path) -> str:
        """The exact command line that runs it on ``case_path``, from the learner's folder."""
        case = os.path.relpath(case_path, self.folder)
        if self.folder == Path.cwd():
            return f"./{self.path.name} {stage.command} {shlex.quote(case)}"
        folder = shlex.quote(os.path.relpath(self.folder))
        return f"cd {folder} && ./{self.path.name} {stage.command} {shlex.quote(case)}"
