#!/usr/bin/env bash
# Install the course for every user of a JupyterHub, from this checkout (run as root):
#   sudo workshop/install.sh                  The Littlest JupyterHub (its user environment)
#   sudo workshop/install.sh /path/to/python  another hub: the Python the users' servers run
# It installs hookcourse (editable, so keep the checkout where every user can read it,
# e.g. /opt/hookcourse) with the lab's pinned versions (locks/lab.txt), enables the
# course's server extension in that Python's prefix (each user's server then makes
# ~/my-notebooks on its first start), and on The Littlest JupyterHub adds
# workshop/jupyterhub_config.py to the hub's configuration and reloads the hub.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tljh_python=/opt/tljh/user/bin/python
tljh_config=/opt/tljh/config/jupyterhub_config.d
python="${1:-}"
if [ -z "$python" ]; then
  if [ ! -x "$tljh_python" ]; then
    echo "install.sh: $tljh_python not found (not The Littlest JupyterHub); fix: name the users' Python: workshop/install.sh /path/to/python" >&2
    exit 2
  fi
  python="$tljh_python"
fi
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  echo "install.sh: $python is not Python 3.11 or newer; fix: name the users' Python 3.11+" >&2
  exit 2
fi
# Every user's server imports the course from here: it must be readable by all.
for part in "$root" "$root/hookcourse" "$root/notebooks"; do
  if [ "$(stat -c %A "$part" | cut -c8,10)" != "rx" ]; then
    echo "install.sh: $part is not readable by every user; fix: chmod -R a+rX $root (or clone into /opt/hookcourse)" >&2
    exit 2
  fi
done
echo "== installing hookcourse into $python (pinned by locks/lab.txt)"
"$python" -m pip install --quiet -c "$root/locks/lab.txt" -e "$root[lab]"
prefix="$("$python" -c 'import sys; print(sys.prefix)')"
mkdir -p "$prefix/etc/jupyter/jupyter_server_config.d"
cp "$root/scripts/jupyter/jupyter_server_config.d/hookcourse.json" \
  "$prefix/etc/jupyter/jupyter_server_config.d/hookcourse.json"
echo "== enabled the course's server extension in $prefix/etc/jupyter"
if [ -d "$tljh_config" ]; then
  cp "$root/workshop/jupyterhub_config.py" "$tljh_config/hookcourse.py"
  echo "== added $tljh_config/hookcourse.py; reloading the hub"
  tljh-config reload hub
fi
echo "done: each user's server makes ~/my-notebooks on its next start."
echo "class report: hookcourse workshop report '/home/*/my-notebooks' --html class.html"
