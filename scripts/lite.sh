#!/usr/bin/env bash
# Build the course as a JupyterLite site that runs entirely in the browser, offline:
#   scripts/lite.sh                    build into build/lite/site (git-ignored)
#   python3 -m http.server -d build/lite/site 8000    then open http://127.0.0.1:8000/
# Everything comes from the package registries at build time (PyPI, npm) and nothing
# from anywhere at run time: Pyodide is the npm package `pyodide` at the version the
# kernel expects, and ipywidgets and hookcourse are pre-locked wheels in the site, with
# the kernel's PyPI fallback off. Needs Python 3.12+ (the lock step) and npm.
# Everything it prints goes to stderr; the last line on stdout is the site's folder.
set -euo pipefail
exec 3>&1 1>&2

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$root/.venv-lite"
work="$root/build/lite/work"
site="$root/build/lite/site"
stamp="$root/build/lite/inputs.cksum"

# What the site is made of; an unchanged set means the site on disk is current.
inputs_sum() {
  (cd "$root" && find hookcourse notebooks fixtures pyproject.toml scripts/lite.sh \
    scripts/lite_site.py scripts/lite_compile.mjs scripts/lite_extension -type f ! -path '*/__pycache__/*' ! -path '*/.ipynb_checkpoints/*' \
    -print0 | sort -z | xargs -0 cksum | cksum)
}
inputs="$(inputs_sum)"
if [ -f "$site/jupyter-lite.json" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$inputs" ]; then
  echo "lite.sh: $site is up to date"
  echo "$site" >&3
  exit 0
fi
# The kernel extension says which Pyodide it was built against; the npm package must match.
lite_version=0.8.6
pyodide_version=314.0.6

find_python() {
  local candidate
  local pyenv_root="${PYENV_ROOT:-$HOME/.pyenv}"
  for candidate in "${HOOKCOURSE_LITE_PYTHON:-}" python3.14 python3.13 python3.12 python3 \
    "$pyenv_root"/versions/3.1[2-9]*/bin/python3; do
    [ -n "$candidate" ] || continue
    if command -v "$candidate" >/dev/null 2>&1 &&
      "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then
      command -v "$candidate"
      return 0
    fi
  done
  return 1
}

command -v npm >/dev/null 2>&1 || {
  echo "lite.sh: npm is missing (it brings Pyodide); fix: apt-get install npm, or install Node.js 20+"
  exit 1
}

if ! "$tools/bin/python" -c "import jupyterlite_pyodide_kernel, jupyter_server" 2>/dev/null; then
  python="$(find_python)" || {
    echo "lite.sh: needs Python 3.12 or newer for the lock step (pyodide-lock); fix: install" \
      "one (pyenv install 3.12, or your system's python3.12 package) or set HOOKCOURSE_LITE_PYTHON"
    exit 1
  }
  echo "lite.sh: installing JupyterLite $lite_version into $tools with $python"
  rm -rf "$tools"
  "$python" -m venv "$tools"
  "$tools/bin/python" -m pip install --quiet --disable-pip-version-check \
    "jupyterlite-core==$lite_version" "jupyterlite-pyodide-kernel[lock]==$lite_version" \
    "jupyter-server>=2.14,<3" "jupyterlab-widgets==3.0.17"
fi
expected="$("$tools/bin/python" -c \
  'from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION; print(PYODIDE_VERSION)')"
[ "$expected" = "$pyodide_version" ] || {
  echo "lite.sh: the kernel expects Pyodide $expected, this script vendors $pyodide_version;" \
    "fix: set pyodide_version=$expected in scripts/lite.sh"
  exit 1
}

pyodide="$tools/npm/node_modules/pyodide"
if [ ! -f "$pyodide/pyodide.mjs" ] ||
  [ "$(node -p "require('$pyodide/package.json').version" 2>/dev/null)" != "$pyodide_version" ]; then
  echo "lite.sh: installing pyodide@$pyodide_version from npm into $tools/npm"
  npm install --silent --no-audit --no-fund --prefix "$tools/npm" "pyodide@$pyodide_version"
fi

echo "lite.sh: building the hookcourse wheel"
rm -rf "$work" "$site"
mkdir -p "$work/wheels" "$work/static"
"$tools/bin/python" -m pip wheel --quiet --disable-pip-version-check --no-deps \
  --wheel-dir "$work/wheels" "$root" >"$work/wheel.log" 2>&1 || {
  cat "$work/wheel.log"
  echo "lite.sh: the hookcourse wheel did not build (log above)"
  exit 1
}
rm -rf "$root/build/lib" "$root/build/bdist."*  # setuptools' own scratch space
"$tools/bin/python" "$root/scripts/lite_site.py" "$root" "$work" "$site" "$pyodide"

echo "lite.sh: jupyter lite build (log: $work/build.log)"
(cd "$work" && "$tools/bin/jupyter" lite build --lite-dir . >"$work/build.log" 2>&1) || {
  tail -n 30 "$work/build.log"
  echo "lite.sh: jupyter lite build failed (last lines above, whole log in $work/build.log)"
  exit 1
}
"$tools/bin/python" "$root/scripts/lite_site.py" --finish "$site" "$pyodide"
printf '%s' "$inputs" >"$stamp"
echo "lite.sh: built $(du -sh "$site" | cut -f1) in $site; serve it with:" \
  "python3 -m http.server -b 127.0.0.1 -d $site 8000"
echo "$site" >&3
