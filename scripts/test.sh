#!/usr/bin/env bash
# The whole test suite, from a fresh clone: installs what it needs into .venv,
# then lints, type-checks and runs pytest (unit, differential against node,
# engine, widget tests, and every notebook under nbval).
#   scripts/test.sh               everything
#   scripts/test.sh -k matcher    extra arguments go to pytest
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
scripts/bootstrap.sh test
command -v node >/dev/null 2>&1 || {
  echo "test.sh: node is not on PATH; fix: install Node.js (the differential tests run the JavaScript reference)" >&2
  exit 1
}
echo "== ruff" && .venv/bin/ruff check . && .venv/bin/ruff format --check .
echo "== mypy" && .venv/bin/mypy
echo "== pytest" && exec .venv/bin/pytest "$@"
