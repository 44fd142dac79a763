"""The process-start checks: variables set nowhere, a misspelled placeholder, the user's
own settings read once when the project is the home folder."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from hookcourse.doctor.diagnose import Question, diagnose
from hookcourse.doctor.places import Machine


def _machine(
    tmp_path: Path, hooks: Mapping[str, object], env: dict[str, str] | None = None
) -> Machine:
    for folder in ("project/.claude", "home", "managed"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
    document: dict[str, object] = {"hooks": hooks}
    if env:
        document["env"] = env
    (tmp_path / "project" / ".claude" / "settings.json").write_text(json.dumps(document))
    return Machine(tmp_path / "project", tmp_path / "home", tmp_path / "managed", "/usr/bin:/bin")


def _stop(command: str) -> dict[str, object]:
    return {"Stop": [{"hooks": [{"type": "command", "command": command}]}]}


def test_a_variable_set_nowhere_that_starts_a_path(tmp_path: Path) -> None:
    diagnosis = diagnose(Question(_machine(tmp_path, _stop("bash ${PLUGIN_ROOT}/scripts/stop.sh"))))
    first = diagnosis.findings[0]
    assert first.cause == "unset-variable" and first.fix == "write $CLAUDE_PLUGIN_ROOT"


def test_variables_that_are_set_are_quiet(tmp_path: Path) -> None:
    commands = [
        "bash ${MY_DIR}/x.sh",  # the settings' env sets it
        "bash ${OTHER:-/opt}/x.sh",  # a default
        "X=1; echo $X",  # the command sets it
        'bash "$HOME"/x.sh',
    ]
    hooks = {"Stop": [{"hooks": [{"type": "command", "command": c} for c in commands]}]}
    diagnosis = diagnose(Question(_machine(tmp_path, hooks, {"MY_DIR": "/opt/hooks"})))
    assert "unset-variable" not in {finding.cause for finding in diagnosis.findings}


def test_a_variable_of_claude_codes_own_environment_is_set(tmp_path: Path) -> None:
    machine = _machine(tmp_path, _stop("bash ${TEAM_HOOKS}/x.sh"))
    with_it = Machine(
        machine.project_dir,
        machine.home,
        machine.managed_dir,
        machine.hook_path,
        frozenset({"TEAM_HOOKS"}),
    )
    assert "unset-variable" not in {f.cause for f in diagnose(Question(with_it)).findings}


def test_the_home_folder_as_project_reads_its_settings_once(tmp_path: Path) -> None:
    machine = _machine(tmp_path, _stop("echo done"))
    (tmp_path / "project" / ".claude").rename(tmp_path / "home" / ".claude")
    at_home = Machine(tmp_path / "home", tmp_path / "home", machine.managed_dir, machine.hook_path)
    diagnosis = diagnose(Question(at_home))
    assert len(diagnosis.files) == 1
    assert "duplicate-handler" not in {finding.cause for finding in diagnosis.findings}


def test_backslashes_outside_quotes_are_eaten_and_inside_quotes_kept(tmp_path: Path) -> None:
    eaten = diagnose(Question(_machine(tmp_path / "a", _stop("C:\\Users\\me\\hook.cmd go"))))
    assert eaten.findings[0].cause == "backslashes-eaten"
    assert "'C:Usersmehook.cmd'" in eaten.findings[0].why
    for quoted in ("'C:\\Users\\me\\hook.cmd' go", 'echo "C:\\Users\\me"'):
        kept = diagnose(Question(_machine(tmp_path / str(len(quoted)), _stop(quoted))))
        assert "backslashes-eaten" not in {finding.cause for finding in kept.findings}
