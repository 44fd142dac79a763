#!/usr/bin/env bash
# Re-pin every dependency after a change to pyproject.toml: writes locks/test.txt (the
# whole set, for every platform, Python 3.11+), then locks/lab.txt and locks/base.txt
# constrained to the same versions. scripts/bootstrap.sh installs from these with uv,
# or with pip when uv cannot be had, so both installers give the same environment.
#   scripts/lock.sh            re-pin (keeps versions already pinned where they still fit)
#   scripts/lock.sh --upgrade  move every pin to the newest release that fits
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
uv="$(scripts/bootstrap.sh --print-uv)"
compile() {
  "$uv" pip compile pyproject.toml --quiet --universal --python-version 3.11 \
    --no-header --annotation-style line "$@"
}
compile --extra test -o locks/test.txt ${1:+"$1"}
compile --extra lab -c locks/test.txt -o locks/lab.txt
compile -c locks/test.txt -o locks/base.txt
