"""scripts/lab.sh installs the lab extra from the lock, serves the learner's own working
copy of the course, opens notebook 00 and prints its direct address."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlparse

if TYPE_CHECKING:
    from conftest import Course


def test_lab_sh_installs_the_locked_lab_extra_and_serves_notebook_00(course: Course) -> None:
    calls = (course.checkout / ".venv" / "pip-calls").read_text()
    pip_install = "-m pip install --quiet --disable-pip-version-check"
    assert f"{pip_install} -r {course.checkout}/locks/lab.txt -e {course.checkout}[lab]" in calls
    status, page = course.get("/lab")
    assert status == 200
    assert "@jupyter-widgets/jupyterlab-manager" in page
    status, listing = course.get("/api/contents/00_hook_contract.ipynb?content=0")
    assert status == 200 and '"type": "notebook"' in listing.replace('":"', '": "')


def test_lab_sh_points_the_browser_at_notebook_00(course: Course) -> None:
    # The browser is handed a local page that redirects to the server; read where it goes.
    assert course.opened.startswith("file://")
    redirect = Path(urlparse(course.opened).path).read_text(encoding="utf-8")
    assert f'url={course.base_url}/lab/tree/00_hook_contract.ipynb"' in redirect
    assert course.get("/lab/tree/00_hook_contract.ipynb")[0] == 200


def test_lab_sh_prints_the_direct_address_and_says_why_it_allows_root(course: Course) -> None:
    log = course.log.read_text(encoding="utf-8")
    # No token in these tests (--IdentityProvider.token=), so none in the address.
    address = f"{course.base_url}/lab/tree/00_hook_contract.ipynb"
    assert f"hookcourse: your notebooks are at {address}\n" in log
    as_root = "hookcourse: running as root (usual in containers), so JupyterLab gets --allow-root"
    assert (as_root in log) == (os.geteuid() == 0)


def test_the_served_folder_is_a_git_ignored_copy_with_outputs_cleared(course: Course) -> None:
    work = course.checkout / "my-notebooks"
    _, listing = course.get("/api/contents?content=1")
    served = {item["name"] for item in json.loads(listing)["content"]}
    course_files = {path.name for path in (course.checkout / "notebooks").iterdir()}
    # Beside the notebooks, the server copies in what they name by path.
    copied = {"fixtures", "solutions", "stages"}
    assert course_files | copied <= served <= course_files | copied | {"progress.jsonl"}
    assert (work / "fixtures" / "sessions" / "decide-modify-inject.json").is_file()
    for notebook in work.glob("*.ipynb"):
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        assert all(c.get("outputs", []) == [] for c in cells), notebook.name
    assert (work / "hooks" / "no_force_push.py").is_file()
    assert (work / "data" / "settings.json").is_file()
    ignored = subprocess.run(
        ["git", "check-ignore", "-q", str(work / "00_hook_contract.ipynb")], cwd=course.checkout
    )
    assert ignored.returncode == 0


def test_jupyterlab_news_is_off_by_the_shipped_overrides(course: Course) -> None:
    status, body = course.get("/lab/api/settings/@jupyterlab/apputils-extension:notification")
    assert status == 200
    properties = json.loads(body)["schema"]["properties"]
    assert properties["fetchNews"]["default"] == "false"
    assert properties["checkForUpdates"]["default"] is False


def test_a_second_start_reuses_the_environment(course: Course) -> None:
    calls = course.checkout / ".venv" / "pip-calls"
    before = calls.read_text()
    again = subprocess.run(
        [str(course.checkout / "scripts" / "bootstrap.sh"), "lab"],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, HOOKCOURSE_INSTALLER="pip"),
    )
    assert again.returncode == 0, again.stderr
    assert again.stdout == again.stderr == ""
    assert calls.read_text() == before


def test_a_second_lab_sh_while_the_first_serves_prints_its_address(course: Course) -> None:
    env = dict(
        os.environ,
        HOOKCOURSE_INSTALLER="pip",
        JUPYTER_RUNTIME_DIR=str(course.checkout.parent / "runtime"),
    )
    again = subprocess.run(
        [str(course.checkout / "scripts" / "lab.sh"), "--no-browser"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert again.returncode == 0, again.stderr
    address = f"{course.base_url}/lab/tree/00_hook_contract.ipynb"
    assert again.stdout.startswith("hookcourse: JupyterLab already serves your notebooks")
    assert again.stdout.endswith(f"; they are at {address}\n")
