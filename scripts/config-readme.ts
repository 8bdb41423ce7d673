// `npm run config:readme`: writes the README's configuration tables from lib/core/config.ts and
// lib/core/rate-limit-buckets.ts (tests/config/readme-table.test.ts fails when they differ).
import { readFileSync, writeFileSync } from 'node:fs';
import { withConfigTables } from '@/lib/core/config-table';

const README = 'README.md';
const before = readFileSync(README, 'utf8');
const after = withConfigTables(before);
if (after === before) {
  console.log(`${README}: the configuration tables are up to date`);
} else {
  writeFileSync(README, after);
  console.log(`${README}: configuration tables written`);
}
