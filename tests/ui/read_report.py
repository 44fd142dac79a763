"""Open a class report page in Chromium and print what it shows, as JSON.

tests/ui/test_report_in_browser.py runs this with a Python that has Playwright:

    python read_report.py PAGE CHROMIUM SHOTS

PAGE is the report's file path; a screenshot goes to the folder SHOTS. On a failure
it prints one line on stderr and exits 1.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from browse_course import drive
from playwright.sync_api import Page


def read(page: Page, report: Path, shots: Path) -> dict[str, Any]:
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(report.resolve().as_uri())
    rows = page.locator("#progress tr").all()
    seen = {
        "title": page.title(),
        "rows": [[cell.inner_text() for cell in row.locator("th, td").all()] for row in rows],
        "colours": [
            cell.evaluate("c => getComputedStyle(c).backgroundColor")
            for cell in page.locator("#progress td").all()
        ],
        "stuck": page.locator("#stuck li").all_inner_texts(),
        "missed": page.locator("#missed li").all_inner_texts(),
        "warnings": page.locator("#warnings li").all_inner_texts(),
        "requests": requests,
    }
    page.screenshot(path=shots / "report.png", full_page=True)
    return seen


if __name__ == "__main__":
    report, chromium, shots = sys.argv[1:]
    sys.exit(drive(chromium, Path(shots), lambda page: read(page, Path(report), Path(shots))))
