#!/usr/bin/env bash
# Start the course: make .venv if it is missing (scripts/bootstrap.sh lab), copy the
# course into your own working folder my-notebooks/ on the first start (git ignores
# it; `hookcourse reset NOTEBOOK` restores one), and serve that folder in JupyterLab,
# opened at the first notebook. Needs only Python 3.11+.
#   scripts/lab.sh                         open the course in your browser
#   scripts/lab.sh --no-browser --port=N   extra arguments go to `jupyter lab`
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/bootstrap.sh" lab
venv="$root/.venv"
work="$root/my-notebooks"
"$venv/bin/python" -m hookcourse.course.teaching.lab_server prepare "$root/notebooks" "$work"
first=""
for notebook in "$root"/notebooks/[0-9]*.ipynb; do
  first="${notebook##*/}"
  break
done

# A second start while the first still serves: its address again, not a second server.
if "$venv/bin/python" -m hookcourse.course.teaching.lab_server running "$work" "$first"; then
  exit 0
fi

# The course's JupyterLab defaults (no news pop-up, no update check) sit under the
# learner's own settings, which still win; nothing is written to the learner's home.
export JUPYTER_CONFIG_PATH="$root/scripts/jupyter${JUPYTER_CONFIG_PATH:+:$JUPYTER_CONFIG_PATH}"
# check_* and `hookcourse test` record progress in the working folder.
export HOOKCOURSE_WORK="$work"
as_root=()
if [ "$(id -u)" = 0 ]; then
  echo "hookcourse: running as root (usual in containers), so JupyterLab gets --allow-root" >&2
  as_root=(--allow-root)
fi

cd "$work"
"$venv/bin/jupyter-lab" --ServerApp.root_dir="$work" ${as_root[@]+"${as_root[@]}"} ${first:+"$first"} "$@" &
server=$!
trap 'kill -TERM "$server" 2>/dev/null || true' INT TERM HUP
"$venv/bin/python" -m hookcourse.course.teaching.lab_server url "$server" "$first" || true
status=0
wait "$server" || status=$?
# A signal ends `wait` early: the trap passed it on, so wait for the server to stop.
while kill -0 "$server" 2>/dev/null; do wait "$server" || status=$?; done
exit "$status"
