#!/bin/sh
# The grader runs ./your_program.sh COMMAND FILE (hookcourse test does the same).
exec python3 "$(dirname "$0")/program.py" "$@"
