#!/bin/sh
exec python3 "${0%/*}/your_program.py" "$@"
