#!/usr/bin/env bash
# Optional: what the browser smoke test in tests/ui needs, installed without any
# browser download: Debian's chromium (apt-get, so root) and Playwright in its own
# environment, .venv-ui (Playwright never enters the project's .venv).
# On success it prints the Python to use, for:
#   export HOOKCOURSE_UI_PYTHON="$(scripts/ui-prereqs.sh)"
# All other output goes to stderr. Without these, tests/ui's browser test skips.
set -euo pipefail
exec 3>&1 1>&2
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "ui-prereqs.sh: chromium is missing and this is not a root Debian machine; fix: install chromium by hand"
    exit 1
  fi
  echo "ui-prereqs.sh: installing Debian's chromium"
  timeout 600 apt-get update -qq
  DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq chromium >/dev/null
fi

ui="$root/.venv-ui"
if ! "$ui/bin/python" -c "import playwright" 2>/dev/null; then
  echo "ui-prereqs.sh: installing Playwright into $ui"
  python="${HOOKCOURSE_PYTHON:-python3}"
  "$python" -m venv "$ui"
  "$ui/bin/python" -m pip install --quiet --disable-pip-version-check playwright
fi
echo "$ui/bin/python" >&3
