#!/usr/bin/env bash
# `npm start`: the service on http://localhost:3000 with embedded defaults — PGlite under
# .data/ and a localnet running the tag program — unless DATABASE_URL / SOLANA_RPC_URL say
# otherwise. Installs and builds on first run.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
bash scripts/ensure-node-modules.sh
if [ ! -f .next/BUILD_ID ] || [ -n "$(find app components lib packages public next.config.ts -newer .next/BUILD_ID -print -quit 2>/dev/null)" ]; then
  npm run --silent build
fi
exec npx tsx scripts/serve.ts start
