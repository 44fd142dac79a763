#!/usr/bin/env bash
# Make the local environment .venv and install hookcourse into it, from the pinned
# versions in locks/ (the same lock whichever installer runs it).
#   scripts/bootstrap.sh            the package alone (what your_program.sh needs)
#   scripts/bootstrap.sh lab        plus JupyterLab and ipywidgets (the course)
#   scripts/bootstrap.sh test       plus everything the test suite needs
#   scripts/bootstrap.sh --print-uv install uv if needed and print its path
# Installs with uv: the one on PATH, else the pinned one from locks/uv.txt, installed
# from the package index into a bootstrap folder once per user. When uv cannot be had
# (or HOOKCOURSE_INSTALLER=pip) it uses pip. Needs only Python 3.11+ and the package
# index. Everything it prints goes to stderr, so it can run in front of a command whose
# stdout is graded.
set -euo pipefail
exec 3>&1 1>&2
# pip as root: a warning for each call that says nothing a learner can act on.
export PIP_ROOT_USER_ACTION=ignore

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
extra="${1:-}"
case "$extra" in
  "" | lab | test | --print-uv) ;;
  *) echo "bootstrap.sh: unknown extra '$extra'; fix: use nothing, 'lab' or 'test'"; exit 2 ;;
esac
venv="$root/.venv"
lock="$root/locks/${extra:-base}.txt"
stamp="$venv/.hookcourse-installed${extra:+-$extra}"
uv_version="$(sed -n 's/^uv==//p' "$root/locks/uv.txt")"
boot="${HOOKCOURSE_BOOTSTRAP_DIR:-${XDG_CACHE_HOME:-${HOME:-$root}/.cache}/hookcourse}"

find_python() {
  local candidate
  for candidate in "${HOOKCOURSE_PYTHON:-}" python3 python3.13 python3.12 python3.11 python; do
    [ -n "$candidate" ] || continue
    if command -v "$candidate" >/dev/null 2>&1 &&
      "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      command -v "$candidate"
      return 0
    fi
  done
  return 1
}

python="$(find_python)" || {
  echo "bootstrap.sh: no Python 3.11 or newer on PATH; fix: install Python 3.11+ (or set HOOKCOURSE_PYTHON)"
  exit 1
}

# uv on PATH, else the pinned uv in the bootstrap folder, installed there on first use.
# Prints nothing and fails when uv cannot be had.
find_uv() {
  local found bin="$boot/uv-$uv_version/bin/uv"
  if [ "${HOOKCOURSE_INSTALLER:-}" = pip ]; then return 1; fi
  if found="$(command -v uv)" && "$found" --version >/dev/null 2>&1; then
    echo "$found"
    return 0
  fi
  if [ ! -x "$bin" ]; then
    echo "hookcourse: installing uv $uv_version into $boot (once per user)" >&2
    mkdir -p "$boot"
    # A private folder, moved into place whole: two first runs at once never see half of it.
    local partial
    partial="$(mktemp -d "$boot/.uv-XXXXXX")"
    if ! "$python" -m pip install --quiet --disable-pip-version-check --no-warn-script-location \
      --no-deps --no-compile --only-binary :all: \
      --target "$partial" -r "$root/locks/uv.txt" >&2 || ! "$partial/bin/uv" --version >/dev/null 2>&1; then
      rm -rf "$partial"
      return 1
    fi
    mv -T "$partial" "$boot/uv-$uv_version" 2>/dev/null || rm -rf "$partial"
  fi
  echo "$bin"
}

if [ "$extra" = --print-uv ]; then
  find_uv >&3 || { echo "bootstrap.sh: could not install uv; fix: pip install uv"; exit 1; }
  exit 0
fi

install() {
  # The lock and pyproject.toml decide what is installed, so a change to either re-installs.
  local wanted uv
  wanted="$(cat "$root/pyproject.toml" "$lock" | cksum)"
  if [ -x "$venv/bin/python" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ]; then
    return 0
  fi
  # A .venv whose making was interrupted (Ctrl-C, a full disk) lacks the mark made last:
  # start it again rather than install into half an environment.
  if [ ! -f "$venv/.hookcourse-venv" ] && [ -e "$venv/bin" ]; then
    echo "hookcourse: $venv was left half-made; making it again"
    find "$venv" -mindepth 1 -maxdepth 1 ! -name .bootstrap.lock -exec rm -rf {} +
  fi
  if uv="$(find_uv)"; then
    export UV_PYTHON_DOWNLOADS=never
    # --seed: pip in .venv too, for a learner's `python -m pip` (and the wheel test).
    [ -x "$venv/bin/python" ] || "$uv" venv --quiet --seed --allow-existing --python "$python" "$venv"
    : >"$venv/.hookcourse-venv"
    echo "hookcourse: installing hookcourse${extra:+[$extra]} into $venv with uv (locks/${lock##*/})"
    # One resolution: the project with its extra, every version held to the lock (a
    # dependency added to pyproject.toml but not yet locked still gets installed).
    "$uv" pip install --quiet --python "$venv/bin/python" -r "$lock" -e "$root${extra:+[$extra]}"
  else
    echo "hookcourse: uv is not available; installing with pip instead (same versions)"
    [ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
    # A .venv made by uv has no pip of its own.
    "$venv/bin/python" -m pip --version >/dev/null 2>&1 || "$venv/bin/python" -m ensurepip --upgrade >/dev/null
    : >"$venv/.hookcourse-venv"
    echo "hookcourse: installing hookcourse${extra:+[$extra]} into $venv with pip (locks/${lock##*/})"
    local pip=("$venv/bin/python" -m pip install --quiet --disable-pip-version-check)
    "${pip[@]}" -r "$lock" -e "$root${extra:+[$extra]}"
  fi
  printf '%s' "$wanted" >"$stamp"
}

# Two first calls at once (a grader running cases in parallel) must not both build it.
if command -v flock >/dev/null 2>&1; then
  mkdir -p "$venv"
  exec 9>"$venv/.bootstrap.lock"
  flock 9
fi
install
