#!/usr/bin/env bash
# Runs two phases of `npm test` at the same time: the first in the background, its output held
# and printed, with its summary line, once the second (in the foreground) has ended. Either failing
# fails both. `npm test` runs the n8n installs, which mostly wait on the registry and the disk,
# alongside the in-process tests, which bound no elapsed time.
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
