"""What ``hookcourse doctor`` finds: one cause, where it is, why it matters, the fix."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class Reach(IntEnum):
    """How much of the hook a cause stops, for ranking: the most first."""

    NOTE = 0
    """Worth knowing; changes nothing on its own."""
    CHANGES = 1
    """The hook runs, but what it says is read otherwise than meant."""
    STOPS_HOOK = 2
    """This hook never starts, dies at once, or its answer is thrown away."""
    STOPS_ALL = 3
    """No hook of the file (or of the session) runs."""


@dataclass(frozen=True)
class Finding:
    """One cause: ``cause`` is a stable id (a validate rule id or a doctor cause)."""

    cause: str
    reach: Reach
    what: str
    where: str
    why: str
    fix: str

    def line(self) -> str:
        """The finding as one line of text."""
        return f"{self.where}: [{self.cause}] {self.what}: {self.why}; fix: {self.fix}"


def ranked(findings: list[Finding]) -> list[Finding]:
    """Most reach first, then in the order found; a cause and place named once."""
    seen: set[tuple[str, str]] = set()
    unique = []
    for finding in findings:
        key = (finding.cause, finding.where)
        if key not in seen:
            seen.add(key)
            unique.append(finding)
    return sorted(unique, key=lambda finding: -finding.reach)
