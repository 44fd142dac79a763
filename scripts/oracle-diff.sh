#!/usr/bin/env bash
# Re-run the oracle's corpus (tests/claude_code) on another Claude Code binary and
# list what it does differently from the recorded observations of the pinned
# release (tests/claude_code/observations/<version>.json). The binary runs only
# inside a loopback-only network namespace, like the oracle's own runs.
#   scripts/oracle-diff.sh PATH/TO/claude            a binary you have
#   scripts/oracle-diff.sh --version 2.1.340          install that release into .venv/claude-code-2.1.340 first
# Exit 0 when nothing changed, 1 when something did (the list is on stdout).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
if [ "${1:-}" = "--version" ]; then
  version="${2:?usage: scripts/oracle-diff.sh --version X.Y.Z}"
  dir="$root/.venv/claude-code-$version"
  binary="$dir/node_modules/@anthropic-ai/claude-code-linux-x64/claude"
  if [ ! -x "$binary" ]; then
    npm install --silent --no-audit --no-fund --ignore-scripts --prefix "$dir" "@anthropic-ai/claude-code@$version" >&2
  fi
else
  binary="${1:?usage: scripts/oracle-diff.sh PATH/TO/claude | --version X.Y.Z}"
fi
[ -x "$binary" ] || { echo "oracle-diff.sh: $binary is not an executable" >&2; exit 1; }
HOOKCOURSE_CLAUDE="$binary" exec .venv/bin/python tests/claude_code/oracle.py diff
