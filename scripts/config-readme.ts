// `npm run config:readme`: writes the configuration tables of docs/configuration.md from
// lib/core/config.ts and lib/core/rate-limit-buckets.ts (tests/config/configuration-doc.test.ts fails when
// they differ).
import { readFileSync, writeFileSync } from 'node:fs';
import { CONFIGURATION_DOC, withConfigTables } from '@/lib/core/config-table';

const before = readFileSync(CONFIGURATION_DOC, 'utf8');
const after = withConfigTables(before);
if (after === before) {
  console.log(`${CONFIGURATION_DOC}: the configuration tables are up to date`);
} else {
  writeFileSync(CONFIGURATION_DOC, after);
  console.log(`${CONFIGURATION_DOC}: configuration tables written`);
}
