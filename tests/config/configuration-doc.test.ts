import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CONFIG_TABLE_END,
  CONFIG_TABLE_START,
  CONFIGURATION_DOC,
  configTables,
  withConfigTables,
} from '@/lib/core/config-table';
import { envSchema } from '@/lib/core/config';
import { RATE_LIMIT_BUCKET_NAMES } from '@/lib/core/rate-limit-buckets';

/*
 * The configuration tables of docs/configuration.md are generated from the schema and the
 * rate-limit buckets: this fails when someone changes one without the other.
 */
describe('docs/configuration.md', () => {
  const doc = readFileSync(CONFIGURATION_DOC, 'utf8');

  it('holds the tables lib/core/config.ts and lib/core/rate-limit-buckets.ts generate', () => {
    const section = doc.slice(
      doc.indexOf(CONFIG_TABLE_START) + CONFIG_TABLE_START.length,
      doc.indexOf(CONFIG_TABLE_END),
    );
    expect(
      section.trim(),
      `${CONFIGURATION_DOC}'s configuration tables differ from the schema: run \`npm run config:readme\` and commit it`,
    ).toBe(configTables());
  });

  it('names every variable of the schema and every bucket, once', () => {
    const firstCells = configTables()
      .split('\n')
      .flatMap((line) => /^\| `(\w+)` \|/.exec(line)?.slice(1) ?? []);
    expect(firstCells).toEqual([...Object.keys(envSchema.shape), ...RATE_LIMIT_BUCKET_NAMES]);
  });

  it('regenerating an up-to-date doc changes nothing', () => {
    expect(withConfigTables(doc)).toBe(doc);
  });

  it('a doc without the markers is refused, naming the file and the markers', () => {
    expect(() => withConfigTables('# no tables here')).toThrow(`${CONFIGURATION_DOC} has no ${CONFIG_TABLE_START}`);
  });
});
