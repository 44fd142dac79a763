#!/usr/bin/env bash
# Install the Claude Code release pinned in locks/claude-code.txt into
# .venv/claude-code (reused while the pinned version is there) and print the
# binary's path. Only the platform package's native binary is used; npm's
# postinstall step is not needed. The binary is never run here: the oracle runs
# it only inside a loopback-only network namespace (tests/claude_code/inside.py).
#   scripts/claude-code.sh            install if needed, print the path
#   scripts/claude-code.sh --check    print the path if installed, else exit 1
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="$(sed -n 's/^@anthropic-ai\/claude-code==\([^ #]*\).*/\1/p' "$root/locks/claude-code.txt")"
[ -n "$version" ] || { echo "claude-code.sh: no version in locks/claude-code.txt" >&2; exit 1; }
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux-x64 ;;
  Linux-aarch64 | Linux-arm64) platform=linux-arm64 ;;
  *) echo "claude-code.sh: no Claude Code build for $(uname -s)-$(uname -m) here" >&2; exit 1 ;;
esac
dir="$root/.venv/claude-code"
package="$dir/node_modules/@anthropic-ai/claude-code-$platform"
binary="$package/claude"
installed() {
  [ -x "$binary" ] && grep -q "\"version\": *\"$version\"" "$package/package.json" 2>/dev/null
}
if ! installed; then
  if [ "${1:-}" = "--check" ]; then exit 1; fi
  command -v npm >/dev/null 2>&1 || {
    echo "claude-code.sh: npm is not on PATH; fix: install Node.js 20+ (npm installs Claude Code)" >&2
    exit 1
  }
  echo "== installing @anthropic-ai/claude-code@$version into $dir (for tests/claude_code)" >&2
  rm -rf "$dir"
  # --ignore-scripts: the platform package already holds the binary.
  npm install --silent --no-audit --no-fund --ignore-scripts --prefix "$dir" \
    "@anthropic-ai/claude-code@$version" >&2
  installed || { echo "claude-code.sh: the install has no $binary" >&2; exit 1; }
fi
echo "$binary"
