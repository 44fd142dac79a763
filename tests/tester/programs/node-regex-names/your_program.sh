#!/bin/sh
exec node "${0%/*}/../node/program.mjs" regex-names "$@"
