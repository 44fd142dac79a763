"""The Binder / JupyterHub environment (binder/) installs the desktop course unchanged:
the same packages as ``pip install -e .[lab]``, pinned inside pyproject.toml's ranges."""

from __future__ import annotations

import os
import tomllib

from packaging.requirements import Requirement

from tests.support.paths import ROOT

BINDER = ROOT / "binder"


def pinned() -> dict[str, str]:
    lines = (BINDER / "requirements.txt").read_text(encoding="utf-8").splitlines()
    pins: dict[str, str] = {}
    for line in lines:
        if line.strip() and not line.startswith("#"):
            name, version = line.split("==")
            pins[name.strip()] = version.strip()
    return pins


def test_binder_pins_every_desktop_requirement_within_pyprojects_ranges() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [Requirement(text) for text in project["dependencies"]]
    wanted += [Requirement(text) for text in project["optional-dependencies"]["lab"]]
    desktop = {"sys_platform": "linux"}
    wanted = [r for r in wanted if r.marker is None or r.marker.evaluate(desktop)]
    pins = pinned()
    assert sorted(pins) == sorted(r.name for r in wanted)
    for requirement in wanted:
        assert requirement.specifier.contains(pins[requirement.name]), requirement


def test_post_build_installs_the_checkout_itself() -> None:
    post_build = BINDER / "postBuild"
    assert os.access(post_build, os.X_OK)
    assert "pip install --no-deps -e ." in post_build.read_text(encoding="utf-8")
