"""The JupyterHub kit's files say what JupyterHub and Docker accept: the Helm values'
hub settings are real settings of the installed JupyterHub, the class and teacher
passwords meet its rules, and the image leaves the checkout's local files out."""

from __future__ import annotations

import fnmatch
from importlib.metadata import entry_points
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]

# JupyterHub ships no type hints.
from jupyterhub.auth import Authenticator  # type: ignore[import-untyped]
from jupyterhub.authenticators.shared import (  # type: ignore[import-untyped]
    SharedPasswordAuthenticator,
)
from traitlets.config import Config

from tests.support.paths import ROOT

KIT = ROOT / "workshop" / "zero-to-jupyterhub"


def values() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((KIT / "values.yaml").read_text(encoding="utf-8"))
    return loaded


def test_every_hub_setting_in_the_values_is_a_setting_of_jupyterhub() -> None:
    config = dict(values()["hub"]["config"])
    chosen = config.pop("JupyterHub")
    assert set(chosen) == {"authenticator_class"}
    named = entry_points(group="jupyterhub.authenticators")[chosen["authenticator_class"]]
    assert named.load() is SharedPasswordAuthenticator
    classes = {c.__name__: c for c in (Authenticator, SharedPasswordAuthenticator)}
    for name, settings in config.items():
        configurable = classes[name].class_traits(config=True)
        assert set(settings) <= set(configurable), (name, set(settings) - set(configurable))


def test_the_passwords_the_values_ask_for_are_what_jupyterhub_accepts() -> None:
    config = values()["hub"]["config"]
    text = (KIT / "values.yaml").read_text(encoding="utf-8")
    # The teacher is an admin: the values say to set the admin password, and how long.
    assert config["Authenticator"]["admin_users"] and "admin_password=" in text
    assert "8 characters or more" in text and "32 or more" in text
    given = {"user_password": "class-pass", "admin_password": "t" * 32}
    SharedPasswordAuthenticator(config=Config({"SharedPasswordAuthenticator": given}))
    # One shorter than the values say is refused.
    with pytest.raises(ValueError, match="at least 32 characters"):
        SharedPasswordAuthenticator(admin_password="t" * 31)
    with pytest.raises(ValueError, match="at least 8 characters"):
        SharedPasswordAuthenticator(user_password="short")


def test_the_image_leaves_out_what_git_ignores_locally() -> None:
    ignored = [
        line.strip().strip("/")
        for line in (KIT / "Dockerfile.dockerignore").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    for entry in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines():
        name = entry.strip().strip("/")
        if name and not name.startswith("#"):
            assert any(fnmatch.fnmatch(name, p) or p.endswith(f"/{name}") for p in ignored), name
    assert ".git" in ignored


def test_the_tljh_install_uses_tljhs_own_places_and_command() -> None:
    script = (ROOT / "workshop" / "install.sh").read_text(encoding="utf-8")
    assert "tljh_python=/opt/tljh/user/bin/python" in script
    assert "tljh_config=/opt/tljh/config/jupyterhub_config.d" in script
    assert "tljh-config reload hub" in script
