#!/usr/bin/env bash
# Installs the npm dependencies from package-lock.json when node_modules is missing or stale.
# `npm install`, not `npm ci`: the lock leaves out platform binaries the registry reached here
# does not carry (e.g. other operating systems' builds of litesvm and Next's compiler), and
# `npm ci` refuses such a lock as out of sync.
set -euo pipefail
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm install --no-audit --no-fund
fi
