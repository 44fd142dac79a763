#!/bin/sh
# Record again what the real Claude Code shows the model for the course's session scripts
# (fixtures/sessions/*.json) into hookcourse/data/sessions/, with its version and the date.
# Claude Code runs only in a loopback-only network namespace (the oracle's runner).
# Usage: scripts/session-record.sh [--claude PATH] [NAME ...]   (default binary: $HOOKCOURSE_CLAUDE,
# else the pinned install from scripts/claude-code.sh)
set -eu
cd "$(dirname "$0")/.."
exec .venv/bin/python -m hookcourse.session.recorded "$@"
