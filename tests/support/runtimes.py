"""node and Bun for the JavaScript oracle, found one way with one rule for CI.

A test that needs a runtime the machine lacks is skipped with the fix in its reason;
under CI (``CI=true``) the root conftest.py turns any skip into a failed run, so CI
must install both (scripts/test.sh does).
"""

from __future__ import annotations

import os
import shutil

import pytest


def node_binary() -> str:
    """node on PATH; the test skips (and so fails under CI) without one."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not on PATH: the JavaScript oracle cannot run (install node 20)")
    return node


def bun_binary() -> str:
    """HOOKCOURSE_BUN or bun on PATH (scripts/test.sh installs it from npm)."""
    bun = os.environ.get("HOOKCOURSE_BUN") or shutil.which("bun")
    if bun is None:
        pytest.skip("no bun: set HOOKCOURSE_BUN or put bun on PATH to check the claude-code engine")
    return bun
