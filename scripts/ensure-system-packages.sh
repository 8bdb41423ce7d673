#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need, when they are missing:
# clang-19 (compiles the on-chain program) and chromium (Playwright's browser).
set -euo pipefail
missing=()
command -v clang-19 >/dev/null 2>&1 || missing+=(clang-19)
if [ -z "${PLAYWRIGHT_CHROMIUM_EXECUTABLE:-}" ] && ! command -v chromium >/dev/null 2>&1; then
  missing+=(chromium fonts-liberation)
fi
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "Missing system packages: ${missing[*]}. Install them (Debian: apt-get install ${missing[*]})." >&2
  exit 1
fi
echo "Installing ${missing[*]} …"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
