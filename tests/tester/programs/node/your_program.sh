#!/bin/sh
exec node "${0%/*}/program.mjs" "$@"
