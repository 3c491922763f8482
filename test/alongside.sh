#!/usr/bin/env bash
# Runs two phases of `npm test` at the same time: the first in the background, its output held
# and printed, with its summary line, once the second (in the foreground) has ended. Either failing
# fails both. `npm test` runs the n8n installs alongside the in-process tests, and queue mode
# alongside the 1.x part of the end-to-end suite; no test of either bounds elapsed time.
#
#   bash test/alongside.sh "<background command>" "<foreground command>"
set -u
log=$(mktemp)
bash -c "$1" >"$log" 2>&1 &
background=$!
bash -c "$2"
foreground=$?
wait "$background"
held=$?
cat "$log"
rm -f "$log"
[ "$foreground" -eq 0 ] && [ "$held" -eq 0 ]
