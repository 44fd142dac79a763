"""scripts/lab.sh installs the lab extra, serves the course and opens notebook 00."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlparse

if TYPE_CHECKING:
    from conftest import Course


def test_lab_sh_installs_the_lab_extra_and_serves_notebook_00(course: Course) -> None:
    calls = (course.checkout / ".venv" / "pip-calls").read_text()
    assert "install" in calls and f"-e {course.checkout}[lab]" in calls
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
