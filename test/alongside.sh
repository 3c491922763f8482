#!/usr/bin/env bash
# `npm test`'s first phase: the in-process tests while the n8n lines of the end-to-end phases
# install. The installs mostly wait on the registry and the disk, the tests on the processor; no
# test bounds elapsed time. The installs' output follows the tests', with its summary line.
set -u
log=$(mktemp)
vite-node test/e2e/install-n8n-lines.mts >"$log" 2>&1 &
installs=$!
vitest run
tests=$?
wait "$installs"
installed=$?
cat "$log"
rm -f "$log"
[ "$tests" -eq 0 ] && [ "$installed" -eq 0 ]
