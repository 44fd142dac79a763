#!/usr/bin/env bash
# The whole test suite, from a fresh clone: installs what it needs into .venv,
# then lints, type-checks and runs pytest (unit, differential against node,
# engine, widget tests, and every notebook under nbval).
#   scripts/test.sh               everything
#   scripts/test.sh --quick       the inner loop: derived files, ruff, and the tests not
#                                 marked slow (conftest.py's SLOW); ignored under CI=true
#   scripts/test.sh -k matcher    extra arguments go to pytest
#   HOOKCOURSE_TEST_WORKERS=1     fewer pytest workers (default: one per core)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
quick=""
if [ "${1:-}" = "--quick" ]; then
  shift
  case "$(printf '%s' "${CI:-}" | tr '[:upper:]' '[:lower:]')" in
    1 | true | yes) echo "test.sh: CI runs every test; --quick is ignored" >&2 ;;
    *) quick=1 ;;
  esac
fi
scripts/bootstrap.sh test
# Every file derived from the stage folders (starters, the oracle's command table...)
# must be what `python -m hookcourse.dev update` writes.
echo "== dev check" && .venv/bin/python -m hookcourse.dev check
if [ -n "$quick" ]; then
  echo "== ruff" && .venv/bin/ruff check . && .venv/bin/ruff format --check .
  echo "== pytest (quick: not slow)"
  # Bytecode is kept between runs here (__pycache__ is git-ignored): without it every run
  # compiles and assertion-rewrites about 7,000 code objects again.
  unset PYTHONDONTWRITEBYTECODE
  exec .venv/bin/pytest -n "${HOOKCOURSE_TEST_WORKERS:-auto}" --dist loadscope -p no:nbval \
    -o addopts="-ra --import-mode=importlib" -m "not slow" tests "$@"
fi
command -v node >/dev/null 2>&1 || {
  echo "test.sh: node is not on PATH; fix: install Node.js (the differential tests run the JavaScript reference)" >&2
  exit 1
}
# Bun runs the claude-code rule set's regexes in tests/core (Claude Code ships on Bun).
# Its npm package carries the binary, so npm is the only download; without it those
# tests skip and say why.
if [ -z "${HOOKCOURSE_BUN:-}" ] && ! command -v bun >/dev/null 2>&1; then
  case "$(uname -m)" in
    x86_64) bun_package=@oven/bun-linux-x64 ;;
    aarch64 | arm64) bun_package=@oven/bun-linux-aarch64 ;;
    *) bun_package="" ;;
  esac
  bun_dir="$root/.venv/bun"
  bun_bin="$bun_dir/node_modules/$bun_package/bin/bun"
  if [ -n "$bun_package" ] && [ ! -x "$bun_bin" ] && command -v npm >/dev/null 2>&1; then
    echo "== installing $bun_package@1.4.5 into $bun_dir (for the claude-code regex tests)"
    npm install --silent --no-audit --no-fund --prefix "$bun_dir" "$bun_package@1.4.5" >&2 ||
      echo "test.sh: could not install bun; the claude-code differential tests will skip" >&2
  fi
  # A CPU without AVX2 cannot run the default build; then the tests skip rather than fail.
  if [ -x "$bun_bin" ] && "$bun_bin" --version >/dev/null 2>&1; then
    export HOOKCOURSE_BUN="$bun_bin"
  fi
fi
# configurable-http-proxy, JupyterHub's proxy (an npm package), for tests/workshop/test_hub.py.
if [ -z "${HOOKCOURSE_CHP:-}" ] && ! command -v configurable-http-proxy >/dev/null 2>&1; then
  chp_dir="$root/.venv/chp"
  chp_bin="$chp_dir/node_modules/.bin/configurable-http-proxy"
  if [ ! -x "$chp_bin" ] && command -v npm >/dev/null 2>&1; then
    echo "== installing configurable-http-proxy@5.3.0 into $chp_dir (for the JupyterHub test)"
    npm install --silent --no-audit --no-fund --prefix "$chp_dir" configurable-http-proxy@5.3.0 >&2 ||
      echo "test.sh: could not install configurable-http-proxy; the JupyterHub test will skip" >&2
  fi
  if [ -x "$chp_bin" ]; then
    export HOOKCOURSE_CHP="$chp_bin"
  fi
fi
# Claude Code itself (the version in locks/claude-code.txt) for the oracle in
# tests/claude_code, which runs it only inside a loopback-only network namespace.
# Without npm (or off linux) the oracle tests skip and say why; under CI=true they fail.
if [ -z "${HOOKCOURSE_CLAUDE:-}" ]; then
  if claude_bin="$(scripts/claude-code.sh)"; then
    export HOOKCOURSE_CLAUDE="$claude_bin"
  else
    echo "test.sh: no Claude Code binary; the tests in tests/claude_code will skip" >&2
  fi
fi
# The JupyterLite site for tests/lite (built once, rebuilt when its inputs change).
# Without Python 3.12+ or npm it says what is missing, and those tests skip.
scripts/lite.sh >/dev/null || echo "test.sh: no JupyterLite site; the tests in tests/lite will skip" >&2
echo "== ruff" && .venv/bin/ruff check . && .venv/bin/ruff format --check .
echo "== mypy" && .venv/bin/mypy
# pytest-xdist on every core; --dist loadscope keeps each module (and each notebook,
# whose cells share one kernel) on one worker. `-n 0` among the arguments runs serially.
# The whole-course walk in Chromium (marker walk, about 2 min) is left out to keep CI within
# its 20 minutes; `scripts/test.sh -m walk` runs it (a later -m wins).
echo "== pytest" && exec .venv/bin/pytest -n "${HOOKCOURSE_TEST_WORKERS:-auto}" --dist loadscope -m "not walk" "$@"
