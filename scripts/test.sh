#!/usr/bin/env bash
# `npm test`: every test of the project, on a fresh machine. Installs what the tests need
# (Debian's clang-19 and chromium, the npm packages), lints (ESLint and the rings of lib/,
# docs/decisions/rings.md), generates the typed client's types, type-checks, builds the
# production app, then runs Vitest (real PostgreSQL, LiteSVM, a localnet, the built app; program/tests/reproducible-build.test.ts rebuilds the program and
# compares it with the committed .so) and Playwright (Debian's Chromium against the built app).
# `npm test -- <files or filters>` hands its arguments to Vitest and skips Playwright.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
bash scripts/ensure-system-packages.sh
bash scripts/ensure-node-modules.sh
echo "== lint"
npm run --silent lint
npm run --silent format:check
echo "== client types"
# packages/client/src/schema.d.ts is a build output: the type-check and the build read it.
npm run --silent client:generate
echo "== type-check"
npx tsc --noEmit -p .
echo "== next build"
npx next build > .next-build.log 2>&1 || { cat .next-build.log; exit 1; }
rm -f .next-build.log
echo "== vitest"
npx vitest run "$@"
if [ -f playwright.config.ts ] && [ $# -eq 0 ]; then
  echo "== playwright"
  npx playwright test
fi
