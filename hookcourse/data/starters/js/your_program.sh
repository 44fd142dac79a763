#!/bin/sh
# The grader runs ./your_program.sh COMMAND FILE (hookcourse test does the same).
exec node "$(dirname "$0")/program.mjs" "$@"
