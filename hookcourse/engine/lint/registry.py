"""The rule registry: each lint rule is one function, registered with its id (written once
here, at the decorator), severity, the reference line it rests on, and the scope it checks.

``lint`` loops over ``RULES``; ``--select``/``--ignore``, the summary and the README table
read the same registry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Final, TypeVar

from hookcourse.errors import json_path
from hookcourse.js.values import JSValue

JSONPath = tuple[str | int, ...]


class Severity(StrEnum):
    ERROR = "error"
    """The entry does not do what it says: a hook never runs, runs unsafely, or blocks wrongly."""
    WARNING = "warning"
    """Legal, but likely a mistake or fragile."""
    INFO = "info"
    """A check that could not be made (a file out of reach); never changes the exit status."""

    @property
    def rank(self) -> int:
        return _RANKS[self]


_RANKS: Final = {Severity.INFO: 0, Severity.WARNING: 1, Severity.ERROR: 2}


class Scope(IntEnum):
    """What a rule looks at; the lint loop hands each rule one site of its scope."""

    FILE = 0
    """A file that could not be read or parsed (the edge reports these)."""
    DOCUMENT = 1
    """One settings document as written."""
    GROUP = 2
    """One matcher group under an event."""
    HANDLER = 3
    """One handler the settings reader kept."""
    LAYERS = 4
    """All the files checked together."""


@dataclass(frozen=True)
class Hit:
    """What a rule function yields: where in the file, what is wrong, and the fix."""

    path: JSONPath
    message: str
    fix: str
    file: str | None = None
    """Another file than the site's (rules across layers name the file they point at)."""


Site = TypeVar("Site")
Check = Callable[[Site], Iterable[Hit]]


@dataclass(frozen=True)
class Rule:
    """One lint rule: its id, severity, the reference line it rests on, and its check."""

    id: str
    severity: Severity
    reference: str
    scope: Scope
    summary: str
    check: Callable[..., Iterable[Hit]]


RULES: dict[str, Rule] = {}
"""Every rule, by id, in registration order (the order of the README table)."""


def rule(
    id: str, severity: Severity, reference: str, scope: Scope, summary: str
) -> Callable[[Callable[[Site], Iterable[Hit]]], Callable[[Site], Iterable[Hit]]]:
    """Register the decorated function as rule ``id``; ``summary`` says what it catches."""

    def register(check: Callable[[Site], Iterable[Hit]]) -> Callable[[Site], Iterable[Hit]]:
        if id in RULES:
            raise ValueError(f"lint rule {id} is registered twice")
        RULES[id] = Rule(id, severity, reference, scope, summary, check)
        return check

    return register


@dataclass(frozen=True)
class Finding:
    """One problem: where (file and JSON path), which rule, what, and the fix."""

    file: str
    path: JSONPath
    rule: str
    message: str
    fix: str

    @property
    def severity(self) -> Severity:
        return RULES[self.rule].severity

    @property
    def reference(self) -> str:
        return RULES[self.rule].reference

    def __str__(self) -> str:
        where = f"{self.file}: {json_path(self.path)}" if self.path else self.file
        return f"{where}: {self.severity} [{self.rule}] {self.message}; fix: {self.fix}"

    def to_json(self) -> dict[str, JSValue]:
        return {
            "file": self.file,
            "path": json_path(self.path),
            "severity": str(self.severity),
            "rule": self.rule,
            "message": self.message,
            "fix": self.fix,
            "reference": self.reference,
        }


def table() -> list[Rule]:
    """Every rule in the order of the README table: by scope, then as registered."""
    return sorted(RULES.values(), key=lambda entry: entry.scope)


def run_rules(
    scope: Scope, site: object, file: str, chosen: Mapping[str, Rule]
) -> Iterator[Finding]:
    """Every finding the chosen rules of ``scope`` make on one site."""
    for entry in chosen.values():
        if entry.scope is scope:
            for hit in entry.check(site):
                yield Finding(hit.file or file, hit.path, entry.id, hit.message, hit.fix)


def choose(select: Iterable[str] = (), ignore: Iterable[str] = ()) -> dict[str, Rule]:
    """The rules ``--select`` keeps (all when empty) minus those ``--ignore`` drops;
    an unknown id is a ValueError naming it."""
    selected, ignored = list(select), list(ignore)
    unknown = [name for name in (*selected, *ignored) if name not in RULES]
    if unknown:
        raise ValueError(", ".join(unknown))
    kept = set(selected) or set(RULES)
    return {name: entry for name, entry in RULES.items() if name in kept and name not in ignored}
