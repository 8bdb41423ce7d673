#!/usr/bin/env bash
# Installs the npm dependencies from package-lock.json, exactly (`npm ci`), when node_modules is
# missing or older than the lock. The lock names every platform's build of each package
# (scripts/complete-lock.mjs), so `npm ci` accepts it on any machine.
set -euo pipefail
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
