"""`python -m hookcourse.dev update | check`: one line per stale derived file, and the fix."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from hookcourse import dev
from tests.support.paths import ROOT

SKIP = shutil.ignore_patterns("__pycache__", "node_modules")


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """The parts of the checkout that derived files come from and go to."""
    shutil.copytree(ROOT / "hookcourse", tmp_path / "hookcourse", symlinks=True, ignore=SKIP)
    shutil.copytree(ROOT / "fixtures", tmp_path / "fixtures", symlinks=True)
    for part in ("tests/oracle", "tests/tester/solutions"):
        shutil.copytree(ROOT / part, tmp_path / part, ignore=SKIP)
    return tmp_path


def test_the_checkout_is_current() -> None:
    assert dev.main(["check"]) == 0


def test_check_names_each_stale_file_and_update_rewrites_it(
    checkout: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert dev.stale(checkout) == []
    program = checkout / "hookcourse/data/starters/py/program.py"
    program.write_text(program.read_text("utf-8").replace('"hook-stop"', '"hook-halt"'))
    (checkout / "tests/oracle/stages.json").unlink()
    (checkout / "fixtures/stop-loop").unlink()
    assert dev.stale(checkout) == [
        "hookcourse/data/starters/py/program.py: stale",
        "tests/oracle/stages.json: missing",
        "fixtures/stop-loop: not a link to ../hookcourse/stages/stop_loop/fixtures",
    ]
    written = dev.update(checkout)
    assert [str(path) for path in written] == [
        "hookcourse/data/starters/py/program.py",
        "tests/oracle/stages.json",
        "fixtures/stop-loop",
    ]
    assert dev.stale(checkout) == [] and dev.update(checkout) == []
    assert (checkout / "fixtures/stop-loop/case.json").is_file()
    capsys.readouterr()


@pytest.mark.slow  # copies the records (31 MB) and runs both generators twice: about 9 s
def test_check_names_a_stale_file_derived_from_the_records(checkout: Path) -> None:
    """The changelog and the events seen per mode are written by their own generators,
    which ``check`` and ``update`` run on this checkout too."""
    shutil.copytree(ROOT / "tests/claude_code", checkout / "tests/claude_code", ignore=SKIP)
    shutil.copytree(ROOT / "docs", checkout / "docs")
    shutil.copytree(ROOT / "locks", checkout / "locks")  # the pinned release
    shutil.copy(ROOT / "README.md", checkout / "README.md")
    observed = checkout / "hookcourse/data/events_observed.json"
    observed.write_text(observed.read_text("utf-8") + " ", encoding="utf-8")
    stale = ["hookcourse/data/events_observed.json: not current"]
    assert dev._from_records(checkout, write=False) == stale
    assert dev._from_records(checkout, write=True) == [stale[0].replace("not current", "written")]
    assert dev._from_records(checkout, write=False) == []


def test_a_stage_starter_stub_reaches_the_starter(checkout: Path) -> None:
    stub = checkout / "hookcourse/stages/stop_loop/starter/hooks.mjs"
    stub.write_text(stub.read_text("utf-8").replace("runStopLoop(hook, cap)", "runStopLoop(h, c)"))
    assert dev.stale(checkout) == ["hookcourse/data/starters/js/src/hooks.mjs: stale"]
    dev.update(checkout)
    starter = (checkout / "hookcourse/data/starters/js/src/hooks.mjs").read_text("utf-8")
    assert "export function runStopLoop(h, c) {" in starter


def test_a_wrong_command_line_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    for arguments in ([], ["updat"], ["check", "now"]):
        assert dev.main(arguments) == 2
        assert capsys.readouterr().err == "usage: python -m hookcourse.dev update | check\n"
