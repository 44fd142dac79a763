"""The Binder / JupyterHub environment (binder/) builds as repo2docker builds it.

``repo2docker_plan`` follows repo2docker's own rules (jupyterhub/repo2docker at
808ae6b: buildpacks/base.py ``binder_dir`` and ``runtime``, buildpacks/python
``python_version``, ``detect`` and the pip scripts, app.py's buildpack order,
conda/supported_python_version.py), and the rules are checked on small repositories
first. Then the course's own folder: the Python it picks, and a real ``pip install`` of
binder/requirements.txt and binder/postBuild into a fresh virtual environment of that
Python, so a pin that Python cannot install fails here as it would on mybinder.org.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from tests.support.paths import ROOT

BINDER = ROOT / "binder"
# repo2docker's defaults: CondaBuildPack.major_pythons and SUPPORTED_PYTHON_VERSION.
DEFAULT_PYTHON = {"2": "2.7", "3": "3.10"}
SUPPORTED_PYTHON = ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13", "3.14")
# app.py's order; the first whose files are there builds (the Julia, Nix and R packs
# need files this project will never have, so they are left out).
BUILDPACK_FILES = [
    ("docker", ("Dockerfile",)),
    ("conda", ("environment.yml",)),
    ("pipfile", ("Pipfile", "Pipfile.lock")),
    ("python", ("requirements.txt", "runtime.txt")),
]
CONDA_PYTHON = re.compile(r"python\s*=+\s*([\d\.]*)")


@dataclass(frozen=True)
class Plan:
    buildpack: str
    python: str
    reads: tuple[str, ...]  # the environment files it reads, repository-relative


def binder_dir(repo: Path) -> str:
    has, has_dot = (repo / "binder").is_dir(), (repo / ".binder").is_dir()
    if has and has_dot:
        raise RuntimeError("both binder and .binder")
    return ".binder" if has_dot else "binder" if has else ""


def runtime(repo: Path, folder: str) -> tuple[str | None, str | None]:
    """runtime.txt's (name, version): ``name-version[-yyyy-mm-dd]`` or ``name-yyyy-mm-dd``."""
    path = repo / folder / "runtime.txt"
    if not path.is_file():
        return None, None
    parts = path.read_text(encoding="utf-8").strip().split("-")
    if len(parts) not in (2, 4, 5) or not all(parts):
        raise ValueError(f"Invalid runtime.txt: {path.read_text(encoding='utf-8').strip()}")
    return parts[0], parts[1] if len(parts) in (2, 5) else None


def python_version(repo: Path, folder: str) -> str:
    """PythonBuildPack.python_version: runtime.txt, else the default; pyproject.toml's
    requires-python only counts without a binder folder."""
    name, version = runtime(repo, folder)
    if name is None or version is None or name != "python":
        chosen, source = DEFAULT_PYTHON["3"], "default"
    elif len(Version(version).release) <= 1:
        chosen, source = DEFAULT_PYTHON[version], "default"
    else:
        chosen, source = version, "runtime"
    pyproject = repo / "pyproject.toml"
    if not folder and pyproject.is_file():
        project = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("project", {})
        if "requires-python" in project:
            wanted = SpecifierSet(project["requires-python"])
            if Version(chosen) not in wanted:
                if source == "runtime":
                    raise RuntimeError("runtime.txt version not supported by pyproject.toml.")
                fits = list(wanted.filter(SUPPORTED_PYTHON))
                if not fits:
                    raise RuntimeError("no supported Python fits pyproject.toml")
                chosen = fits[-1]
    return chosen


def repo2docker_plan(repo: Path) -> Plan:
    folder = binder_dir(repo)

    def there(name: str) -> bool:
        return (repo / folder / name).is_file()

    found = [pack for pack, files in BUILDPACK_FILES if any(there(name) for name in files)]
    buildpack = found[0] if found else "python"  # with none, the base pack installs nothing
    if buildpack == "conda":
        text = (repo / folder / "environment.yml").read_text(encoding="utf-8")
        found = CONDA_PYTHON.search(text)
        version = found.group(1) if found else DEFAULT_PYTHON["3"]
        python = ".".join(version.split(".")[:2]) if "." in version else DEFAULT_PYTHON[version]
    else:
        python = python_version(repo, folder)
    names = [name for _, files in BUILDPACK_FILES for name in files] + ["postBuild"]
    reads = tuple(str(Path(folder) / name) for name in names if there(name))
    return Plan(buildpack, python, reads)


def write(repo: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text, encoding="utf-8")
    return repo


PYPROJECT = '[project]\nname = "x"\nrequires-python = ">=3.11"\n'


@pytest.mark.parametrize(
    ("files", "buildpack", "python"),
    [
        # With binder/, the root pyproject.toml is not read: the default 3.10 wins.
        ({"pyproject.toml": PYPROJECT, "binder/requirements.txt": "x\n"}, "python", "3.10"),
        ({"pyproject.toml": PYPROJECT, "requirements.txt": "x\n"}, "python", "3.14"),
        ({"binder/runtime.txt": "python-3.12\n", "binder/requirements.txt": ""}, "python", "3.12"),
        ({"binder/runtime.txt": "python-3\n"}, "python", "3.10"),
        ({"binder/runtime.txt": "python-3.11-2026-01-01\n"}, "python", "3.11"),
        ({"binder/runtime.txt": "r-2026-01-01\n"}, "python", "3.10"),
        ({"binder/environment.yml": "dependencies:\n  - python=3.12.4\n"}, "conda", "3.12"),
        ({"binder/environment.yml": "dependencies:\n  - pip\n"}, "conda", "3.10"),
        ({".binder/Dockerfile": "FROM x\n", ".binder/requirements.txt": ""}, "docker", "3.10"),
    ],
)
def test_the_rules_pick_what_repo2docker_picks(
    tmp_path: Path, files: dict[str, str], buildpack: str, python: str
) -> None:
    plan = repo2docker_plan(write(tmp_path, files))
    assert (plan.buildpack, plan.python) == (buildpack, python)


@pytest.mark.parametrize(
    ("files", "error"),
    [
        ({"binder/x": "", ".binder/x": ""}, "both binder and .binder"),
        ({"binder/runtime.txt": "python3.11\n"}, "Invalid runtime.txt"),
        ({"pyproject.toml": PYPROJECT, "runtime.txt": "python-3.10\n"}, "not supported by"),
    ],
)
def test_the_rules_refuse_what_repo2docker_refuses(
    tmp_path: Path, files: dict[str, str], error: str
) -> None:
    with pytest.raises((RuntimeError, ValueError), match=error):
        repo2docker_plan(write(tmp_path, files))


def test_binder_reads_its_own_files_and_picks_a_python_the_project_supports() -> None:
    plan = repo2docker_plan(ROOT)
    assert plan.buildpack == "python"
    assert plan.reads == ("binder/requirements.txt", "binder/runtime.txt", "binder/postBuild")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert Version(plan.python) in SpecifierSet(project["requires-python"])
    assert os.access(BINDER / "postBuild", os.X_OK)


def pinned() -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in (BINDER / "requirements.txt").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith(("#", "-c ")):
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
    assert "-c ../locks/lab.txt" in (BINDER / "requirements.txt").read_text(encoding="utf-8")


def python_of(version: str) -> str | None:
    """An interpreter of ``version`` (x.y): this one, one on PATH, or one pyenv has."""
    if f"{sys.version_info.major}.{sys.version_info.minor}" == version:
        return getattr(sys, "_base_executable", sys.executable)
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    candidates = [shutil.which(f"python{version}")]
    candidates += [str(p / "bin" / "python3") for p in sorted(pyenv.glob(f"{version}.*"))]
    return next((c for c in candidates if c and Path(c).is_file()), None)


def test_the_course_installs_under_the_python_repo2docker_picks(tmp_path: Path) -> None:
    """repo2docker's steps: ``pip install -r binder/requirements.txt`` (it holds a local
    ``-c``, so from the whole checkout), then ``./binder/postBuild`` in the checkout."""
    version = repo2docker_plan(ROOT).python
    python = python_of(version)
    if python is None:
        pytest.skip(f"no Python {version} here; fix: pyenv install {version}")
    venv = tmp_path / "binder-env"
    subprocess.run([python, "-m", "venv", str(venv)], check=True, timeout=120)
    env = {**os.environ, "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    env.pop("PYTHONPATH", None)
    steps = [
        [
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "-r",
            "binder/requirements.txt",
        ],
        ["./binder/postBuild"],
        ["python", "-c", "import hookcourse.course.labs.widgets, jupyterlab, regress"],
        ["pip", "check"],
    ]
    for step in steps:
        run = subprocess.run(
            step, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=False
        )
        assert run.returncode == 0, f"{' '.join(step)}:\n{run.stdout[-2000:]}{run.stderr[-3000:]}"
    shown = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import sys; print(sys.version_info[:2])"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert shown.stdout.strip() == str(tuple(int(p) for p in version.split(".")))
