#!/usr/bin/env bash
# Renders the program's TypeScript client (packages/tag-registry/src/generated) from the IDL when
# it is missing or older than program/idl/tag_registry.json. It is a build output, like the
# typed HTTP client's schema.d.ts: the IDL is the one description of the program's interface.
set -euo pipefail
GENERATED=packages/tag-registry/src/generated
if [ ! -f "$GENERATED/index.ts" ] || [ program/idl/tag_registry.json -nt "$GENERATED/index.ts" ] ||
  [ packages/tag-registry/generate.ts -nt "$GENERATED/index.ts" ]; then
  npm run --silent abi:generate
fi
