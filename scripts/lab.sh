#!/usr/bin/env bash
# Start the course: make .venv if it is missing, install hookcourse with JupyterLab and
# ipywidgets into it, and open JupyterLab on notebook 00. Needs only Python 3.11+.
#   scripts/lab.sh                         open the course in your browser
#   scripts/lab.sh --no-browser --port=N   extra arguments go to `jupyter lab`
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/bootstrap.sh" lab
cd "$root"
exec "$root/.venv/bin/jupyter" lab notebooks/00_hook_contract.ipynb "$@"
