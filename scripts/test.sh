#!/usr/bin/env bash
# `npm test`: every test of the project, on a fresh machine. Installs what the tests need
# (Debian's clang-19 and chromium, the npm packages), lints (ESLint and the rings of lib/,
# docs/decisions/rings.md), type-checks the whole project and
# builds the production app, then runs Vitest (real PostgreSQL, LiteSVM, a localnet, the built app; program/tests/reproducible-build.test.ts rebuilds the program and
# compares it with the committed .so) and Playwright (Debian's Chromium against the built app).
# `npm test -- <files or filters>` hands its arguments to Vitest and skips Playwright.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
bash scripts/ensure-system-packages.sh
bash scripts/ensure-node-modules.sh
phase() { echo "== $1 (at ${SECONDS} s)"; }
phase "lint, format, type-check and next build, side by side"
# `build` type-checks first, with TypeScript 7's compiler (`npm run typecheck:project`: the whole
# project as tsconfig.json includes it, tests, benchmarks and scripts too, with the route types
# `next typegen` writes), at about a fifth of the CPU of the check `next build` would run with
# TypeScript 5, which this build skips (TYPECHECKED_BESIDE_THE_BUILD, next.config.ts). The check
# comes before the build, which rewrites those route types. ESLint, dependency-cruiser and
# Prettier each use one core meanwhile.
logs=$(mktemp -d)
side_by_side() {
  local name
  for name in "$@"; do
    case $name in
      lint) npm run --silent lint ;;
      format) npm run --silent format:check ;;
      build) npm run --silent typecheck:project && TYPECHECKED_BESIDE_THE_BUILD=1 npx next build ;;
    esac > "$logs/$name.log" 2>&1 &
    eval "pid_$name=$!"
  done
  local failed=0
  for name in "$@"; do
    eval "wait \$pid_$name" || { echo "== $name failed"; cat "$logs/$name.log"; failed=1; }
  done
  return $failed
}
side_by_side build lint format
rm -rf "$logs"
phase vitest
npx vitest run "$@"
if [ -f playwright.config.ts ] && [ $# -eq 0 ]; then
  phase playwright
  npx playwright test
fi
echo "== done (at ${SECONDS} s)"
