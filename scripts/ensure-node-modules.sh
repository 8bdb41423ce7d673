#!/usr/bin/env bash
# Installs the npm dependencies from package-lock.json when node_modules is missing or stale.
set -euo pipefail
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
