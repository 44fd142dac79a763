"""The locks in locks/ agree: each pin once, the same version in every lock that has it,
and everything pyproject.toml asks for is pinned (scripts/lock.sh makes them)."""

from __future__ import annotations

import re
import tomllib

from tests.support.paths import ROOT

# name==version, then the environment marker if any (a universal lock may pin a package
# twice, for different Python versions or platforms).
PIN = re.compile(r"^([A-Za-z0-9._-]+)==([^\s;]+)\s*(?:;([^#]*))?")


def pins(name: str) -> dict[tuple[str, str], str]:
    """(package, marker) -> version."""
    found: dict[tuple[str, str], str] = {}
    for line in (ROOT / "locks" / f"{name}.txt").read_text(encoding="utf-8").splitlines():
        match = PIN.match(line)
        if match:
            key = (re.sub(r"[-_.]+", "-", match[1]).lower(), (match[3] or "").strip())
            assert key not in found, line
            found[key] = match[2]
    return found


def packages(name: str) -> set[str]:
    return {package for package, _ in pins(name)}


def wanted(requirements: list[str]) -> set[str]:
    names = {re.split(r"[\s<>=!~;\[]", requirement, maxsplit=1)[0] for requirement in requirements}
    return {re.sub(r"[-_.]+", "-", name).lower() for name in names} - {"hookcourse"}


def versions(name: str) -> dict[str, set[str]]:
    """package -> the versions its lock pins (markers differ between locks: a package
    needed only on some platforms in the smaller set may be needed everywhere in a larger)."""
    found: dict[str, set[str]] = {}
    for (package, _), version in pins(name).items():
        found.setdefault(package, set()).add(version)
    return found


def test_each_smaller_lock_pins_the_same_versions_as_the_larger() -> None:
    for smaller, larger in (("base", "lab"), ("lab", "test")):
        small, large = versions(smaller), versions(larger)
        for package, pinned in small.items():
            assert pinned <= large.get(package, set()), (smaller, larger, package)


def test_every_dependency_of_pyproject_is_pinned() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    assert wanted(project["dependencies"]) <= packages("base")
    assert wanted(extras["lab"]) <= packages("lab")
    assert wanted(extras["test"]) <= packages("test")


def test_uv_itself_is_pinned() -> None:
    assert PIN.match((ROOT / "locks" / "uv.txt").read_text(encoding="utf-8"))
